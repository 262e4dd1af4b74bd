"""A program left running in the background, as in a reader's second terminal.

Its output (stdout and stderr together, as a terminal shows them) is read line by line while it
runs; it has a process group of its own, so Ctrl-C (SIGINT) and a final kill reach every process
it started. The transcript harness and the scenes that need two terminals at once all use it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

POLL = 0.02   # seconds between two looks at the output


class Background:
    """`argv` running in `cwd` with `env`; `lines` holds what it printed so far."""

    def __init__(self, argv: list[str], cwd: Path, env: dict):
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1, start_new_session=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_until(self, done: Callable[[list[str]], bool], timeout: float) -> bool:
        """Wait until `done(lines)` holds (True), or the program has ended without it or
        `timeout` seconds have passed (False)."""
        deadline = time.monotonic() + timeout
        while True:
            ended = self.proc.poll() is not None
            if ended:
                self._reader.join(timeout=5)   # every line it printed, before the last look
            if done(list(self.lines)):
                return True
            if ended or time.monotonic() >= deadline:
                return False
            time.sleep(POLL)

    def interrupt(self) -> None:
        """The reader presses Ctrl-C: the terminal sends SIGINT to the foreground process group."""
        os.killpg(self.proc.pid, signal.SIGINT)

    def finish(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the program to end, and for its last line; True if it did."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        self._reader.join(timeout=5)
        return True

    def output(self) -> str:
        return "\n".join(self.lines)

    def stop(self) -> None:
        """Kill the program and everything it started, if it is still running."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
