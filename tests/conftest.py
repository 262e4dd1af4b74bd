"""Shared by every test: the project's root, the build's fixture book, and the built sites.

The session fixtures here build a site once and serve it on localhost under a sub-path
(tests/support/served.py): `fixture_site` (tests/build/fixtures/book, with the build's test
double for the simulations) and `real_site` (the guide itself, with the real simulations), and
`browser_type_launch_args` (Debian's Chromium when installed; Playwright cannot download its own
browser on every machine). tests/browser/, tests/widgets/ and tests/quality/ all use these.
"""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_BOOK = ROOT / "tests" / "build" / "fixtures" / "book"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# A suite started in the background by a shell without job control (`./scripts/test &` in a
# script) begins with SIGINT ignored, and every program it starts would inherit that: the scenes
# that press Ctrl-C could not stop their workers. A handled signal is reset to the default in a
# child at exec, so handling it here gives every exercise the Ctrl-C a terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def fixture_config(out: Path, **overrides):
    """A build Config for the fixture book, with the fake simulations, writing to `out`."""
    from builder import Config
    from tests.build import fake_simulations
    settings = dict(root=FIXTURE_BOOK, out=out, simulations=lambda: fake_simulations.SIMULATIONS,
                    simulations_dir=None)
    settings.update(overrides)
    return Config(**settings)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    from tests.support.served import CHROMIUM_ARGS, system_chromium
    args = dict(browser_type_launch_args)
    executable = system_chromium()
    if executable:
        args["executable_path"] = executable
    args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    return args


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory):
    """The fixture book, built once per session and served under /guide/."""
    from tests.support.served import build, serve
    folder = build(fixture_config(tmp_path_factory.mktemp("fixture-site") / "site"))
    server, site = serve(folder)
    yield site
    server.shutdown()


@pytest.fixture(scope="session")
def real_site(tmp_path_factory):
    """The real guide, built once per session and served under /guide/."""
    from builder import Config
    from tests.support.served import build, serve
    folder = build(Config(root=ROOT, out=tmp_path_factory.mktemp("real-site") / "site"))
    server, site = serve(folder)
    yield site
    server.shutdown()


# --- PostgreSQL (exercise 9): one throwaway server per test session -----------------------------

@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for this session (tests/postgres/server.py starts it).

    Where none can be started, a test that needs one fails with the reason on CI (CI=true),
    and is skipped with the reason elsewhere: never silently.
    """
    from tests.postgres import server
    try:
        running = server.start()
    except server.NoServer as error:
        if server.in_ci():
            pytest.fail(f"PostgreSQL is needed here and could not be started: {error}")
        pytest.skip(f"no PostgreSQL server: {error}")
    yield running
    running.stop()


@pytest.fixture
def pg_conninfo(pg_server):
    """A connection string for a fresh, empty schema on the session's server."""
    return pg_server.fresh_schema()
