"""A throwaway PostgreSQL server for the tests, started with pg_virtualenv.

pg_virtualenv (Debian's postgresql-common) creates a cluster, runs one command with PGHOST,
PGPORT, PGUSER, PGPASSWORD and PGDATABASE set, and drops the cluster when the command ends.
Here the command is a tiny Python program that prints those variables as one line of JSON and
then waits for its standard input to close: the server lives exactly as long as we keep that
pipe open. `-t` keeps the cluster in a temporary folder even as root, and a port we choose
ourselves keeps two servers (two test runs, two engineers) from both wanting 5432.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import uuid
from dataclasses import dataclass

START_TIMEOUT = 120   # seconds: creating a cluster takes about 5 s on a quiet 2-core machine

KEEP_ALIVE = ("import json, os, sys; "
              "print(json.dumps({k: v for k, v in os.environ.items() if k.startswith('PG')}), "
              "flush=True); sys.stdin.read()")


class NoServer(RuntimeError):
    """No PostgreSQL server could be started; the message says why."""


@dataclass
class Server:
    """A running throwaway server: its PG* variables and the process that holds it open."""

    env: dict
    process: subprocess.Popen

    @property
    def conninfo(self) -> str:
        """A libpq connection string, e.g. 'host=localhost port=54321 user=postgres ...'."""
        names = {"PGHOST": "host", "PGPORT": "port", "PGUSER": "user",
                 "PGPASSWORD": "password", "PGDATABASE": "dbname"}
        return " ".join(f"{word}={self.env[name]}" for name, word in names.items()
                        if name in self.env)

    def schema_conninfo(self, schema: str) -> str:
        """The same server, with `schema` first on the search path: a fresh, private namespace."""
        return f"{self.conninfo} options='-c search_path={schema}'"

    def fresh_schema(self) -> str:
        """Create an empty schema with a new name and return a conninfo that uses it."""
        import psycopg
        schema = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.conninfo, autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        return self.schema_conninfo(schema)

    def migrated_schema(self) -> str:
        """A fresh schema with tinyq_pg's table in it, made by tinyq_pg.migrate()."""
        from tests.core.conftest import load_tinyq_pg
        conninfo = self.fresh_schema()
        load_tinyq_pg().migrate(conninfo)
        return conninfo

    def cluster(self, action: str):
        """Run `pg_ctlcluster VERSION regress ACTION` (stop, start, restart) on this server:
        the connections it had are gone after a stop or a restart, as after a real one."""
        env = dict(os.environ, **self.env)
        subprocess.run(["pg_ctlcluster", self.env["PGVERSION"], "regress", action, "-m", "fast"]
                       if action in ("stop", "restart") else
                       ["pg_ctlcluster", self.env["PGVERSION"], "regress", action],
                       env=env, check=True, capture_output=True, timeout=START_TIMEOUT)

    def stop(self):
        """Close the keep-alive's input: pg_virtualenv stops and drops the cluster."""
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(settings=("fsync=off",)) -> Server:
    """Start a throwaway server; raise NoServer (with the reason) if that is impossible.

    settings: postgresql.conf lines such as 'fsync=off' (the default here: the tests test
    behaviour, not durability through a power cut; a benchmark should pass ()).
    """
    if shutil.which("pg_virtualenv") is None:
        raise NoServer("pg_virtualenv is not installed (Debian: sudo apt-get install postgresql)")
    command = ["pg_virtualenv", "-t", "-c", f"-p {free_port()}"]
    for setting in settings:
        command += ["-o", setting]
    command += [sys.executable, "-c", KEEP_ALIVE]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    # pg_virtualenv prints its own progress to stdout; our line is the one that is JSON.
    lines = []
    for line in process.stdout:
        if line.startswith("{"):
            env = json.loads(line)
            return Server(env, process)
        lines.append(line)
    process.wait(timeout=START_TIMEOUT)
    raise NoServer("pg_virtualenv could not start a server:\n" + "".join(lines)
                   + process.stderr.read())


def in_ci() -> bool:
    """True on CI machines (GitHub Actions and most others set CI=true)."""
    return os.environ.get("CI", "").lower() in ("true", "1")
