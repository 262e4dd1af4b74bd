"""The machinery the tests share, one module each: a built site served on localhost and a page
watched in Chromium (served.py), a program run in the background (processes.py), a fake clock
(clock.py), the one way to import the capstone's tinyq (capstone.py), and a simulation run
to a moment in a test (runs.py)."""
