"""Exercise 1: the waiter who cooks.

A web app's signup that sends the welcome email itself, before it
answers, so everyone who presses "Sign up" waits for the mail.

    python3 ex01_slow_signup.py               # three people sign up
    python3 ex01_slow_signup.py --mail-down   # a bad day for mail
"""
import argparse
import time

# argparse reads the command line, and refuses a mistyped flag.
parser = argparse.ArgumentParser()
parser.add_argument("--mail-down", action="store_true",
                    help="the mail server fails every time")
MAIL_DOWN = parser.parse_args().mail_down
accounts = []          # our pretend users table
emails_sent = []       # what the pretend mail server delivered


def send_welcome_email(address):
    time.sleep(1)      # a mail server far away on the internet
    if MAIL_DOWN:
        raise ConnectionError("mail server not answering")
    emails_sent.append(address)
    print(f"    welcome email sent to {address}")


def signup(address):
    accounts.append(address)      # what they came for: instant
    print(f"  account created for {address}")
    send_welcome_email(address)   # the slow part, while they wait


def handle_request(address, pressed_at):
    """What the web server does for one press of the button."""
    print(f"POST /signup {address}")
    try:
        signup(address)
        page = "200 OK, welcome!"
    except ConnectionError as error:
        page = f"500 Server Error ({error})"
    waited = time.monotonic() - pressed_at
    print(f"  {address} waited {waited:.1f}s and saw: {page}")
    return page


# Three people press "Sign up" at the same moment. Our server
# handles one request at a time, so each waits for those before.
pressed_at = time.monotonic()
people = ["ada@example.com", "alan@example.com",
          "grace@example.com"]
pages = [handle_request(address, pressed_at) for address in people]
errors = sum(page.startswith("500") for page in pages)
print(f"{len(accounts)} accounts created, {len(emails_sent)} "
      f"welcome emails sent, {errors} error pages shown")
