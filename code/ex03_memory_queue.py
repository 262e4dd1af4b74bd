"""Exercise 3: a queue in memory.

Signup now writes the email down as a job, puts it on a queue and
answers at once. A worker thread in the background takes jobs off
the queue and sends the emails.

    python3 ex03_memory_queue.py          # waits for every email
    python3 ex03_memory_queue.py --quit   # quits early: jobs vanish
"""
import argparse
import queue
import sys
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("--quit", action="store_true",
                    help="quit as soon as the signups are answered")
QUIT = parser.parse_args().quit

jobs = queue.Queue()   # first in, first out; safe between threads
accounts = []
emails_sent = []


def send_welcome_email(address):
    time.sleep(1)      # the same slow mail server as in exercise 1
    emails_sent.append(address)
    print(f"    [worker] welcome email sent to {address}")


def worker():
    """Forever: take the next job (waiting if need be), do it."""
    while True:
        job = jobs.get()
        send_welcome_email(**job["args"])
        jobs.task_done()          # tell the queue: this one is done


def signup(address):
    accounts.append(address)
    print(f"  account created for {address}")
    jobs.put({"kind": "send_welcome_email",
              "args": {"address": address}})


def handle_request(address, pressed_at):
    print(f"POST /signup {address}")
    signup(address)
    waited = time.monotonic() - pressed_at
    print(f"  {address} waited {waited:.4f}s "
          "and saw: 200 OK, welcome!")


# daemon=True: this thread alone must not keep the program alive.
threading.Thread(target=worker, daemon=True).start()

pressed_at = time.monotonic()
for address in ["ada@example.com", "alan@example.com",
                "grace@example.com"]:
    handle_request(address, pressed_at)

if QUIT:
    # The program ends here, as for a deploy, a crash or a Ctrl-C.
    lost = len(accounts) - len(emails_sent)
    print(f"quitting: {len(accounts)} accounts created, "
          f"{len(emails_sent)} welcome emails sent, "
          f"{lost} jobs lost with the program's memory")
    sys.exit(0)

jobs.join()            # wait until every job had its task_done()
print(f"{len(accounts)} accounts created, "
      f"{len(emails_sent)} welcome emails sent")
