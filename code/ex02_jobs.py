"""Exercise 2: a job is data.

A job says WHAT to do: a kind, and the arguments for it, as plain
data. A handler knows HOW: an ordinary function, one per kind.

    python3 ex02_jobs.py
"""
import argparse
import json
import time

argparse.ArgumentParser().parse_args()   # this one takes no options

USERS = {42: "ada@example.com"}   # pretend users table: id -> email


# The HOW. Handlers are plain functions; nothing special about them.

def send_welcome_email(user_id):
    address = USERS[user_id]      # looked up now, at work time
    time.sleep(0.5)
    print(f"    welcome email sent to {address}")


def resize_photo(path, width):
    time.sleep(0.5)
    print(f"    {path} is now {width} pixels wide")


# The table that turns a kind (a string in the job) into code.
HANDLERS = {
    "send_welcome_email": send_welcome_email,
    "resize_photo": resize_photo,
}


# The WHAT. A job is a dictionary holding a kind and its arguments.

def new_job(kind, **args):
    return {"kind": kind, "args": args}


def run_job(job):
    """Find the handler for the job's kind; call it with args."""
    handler = HANDLERS[job["kind"]]
    handler(**job["args"])


job = new_job("send_welcome_email", user_id=42)
print("1. a job, as a Python dict:", job)

text = json.dumps(job)       # the job, written down as text
print("2. the same job as JSON:   ", text)
print(f"   that is {len(text)} characters: fit for a file, "
      "a database row or a network")

again = json.loads(text)     # read back later, maybe elsewhere
print("3. read back, equal to the first?", again == job)

print("4. run it, and run a second kind of job:")
run_job(again)
run_job(new_job("resize_photo", path="cat.jpg", width=200))
