"""The README's plain path, from a fresh clone with a bare Python: `python build.py`, then
`python -m http.server` in the clone, brings the reader to the guide (scripts/bootstrap.py and the
committed index.html). Where something the set-up needs is missing it says so in one sentence.

SLOW, by design: test_build_sets_up_and_builds... creates a real .venv/ and runs a real `npm ci`
(about 40 s here, the longest test of tests/build/). It stays offline and quick: pip installs from a folder of wheels made from
this .venv's own packages, and npm from its cache (`prefer-offline`).
"""
from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)   # the Python this .venv was made from
PINNED = re.compile(r"^([A-Za-z0-9][\w.-]*)==(\S+)", re.M)


def fresh_clone(into: Path) -> Path:
    """The files a clone of this working tree holds (tracked, or new and not ignored): no .venv/,
    node_modules/ or site/."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def wheelhouse(into: Path) -> Path:
    """A wheel for each package requirements.txt pins, zipped from this Python's installed copy."""
    into.mkdir()
    for name, version in PINNED.findall((ROOT / "requirements.txt").read_text(encoding="utf-8")):
        dist = importlib.metadata.distribution(name)
        assert dist.version == version
        info = next(f for f in dist.files if f.parts[0].endswith(".dist-info"))
        tag = re.search(r"^Tag: (\S+)", dist.read_text("WHEEL"), re.M).group(1)
        wheel = into / f"{info.parts[0][:-len('.dist-info')]}-{tag}.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            for file in dist.files:
                if file.parts[0] == ".." or file.name in ("INSTALLER", "REQUESTED", "direct_url.json"):
                    continue
                if file.suffix != ".pyc" and Path(file.locate()).is_file():
                    archive.write(file.locate(), file.as_posix())
    return into


def bare_environment(**extra) -> dict:
    """This process's environment as a new terminal has it: no venv active, no project's bin/."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "GUIDE_BOOTSTRAPPED")}
    venv_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    env.update(extra)
    return env


def steps(result: subprocess.CompletedProcess) -> list[str]:
    """The set-up's step lines, without what each runs (in brackets)."""
    return [line.split(" (")[0] for line in result.stdout.splitlines() if line.startswith("build: ")]


def run_build(clone: Path, env: dict, *python_args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BASE_PYTHON, *python_args], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def clone(tmp_path):
    return fresh_clone(tmp_path / "clone")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm (Node.js)")
def test_build_sets_up_and_builds_then_http_server_shows_the_guide(clone, tmp_path):
    (tmp_path / "no-wheels").mkdir()
    offline = bare_environment(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(tmp_path / "no-wheels"))
    assert run_build(clone, offline, "-c", "import markdown_it").returncode != 0, "the bare Python must lack them"
    started = time.perf_counter()

    # 1. No network (no package to be had): one sentence, no traceback.
    failed = run_build(clone, offline, "build.py")
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr
    assert failed.stderr.strip().splitlines()[-1] == (
        "build: pip could not install the packages requirements.txt pins (its message is above): check the "
        "network connection (or pip's proxy settings), then run this again.")
    assert steps(failed) == ["build: creating .venv/", "build: installing the pinned Python packages into .venv/"]

    # 2. With the packages to be had: it finishes the set-up, runs itself again in .venv/, builds.
    env = bare_environment(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse(tmp_path / "wheels")),
                           npm_config_prefer_offline="true")
    built = run_build(clone, env, "build.py")
    assert built.returncode == 0, built.stdout + built.stderr
    assert "Traceback" not in built.stderr
    assert steps(built) == [
        "build: installing the pinned Python packages into .venv/",
        "build: installing the pinned npm packages: Pyodide, MiniSearch, CodeMirror, test tools",
        "build: running build.py again inside .venv/",
    ], built.stdout
    assert re.search(r"^built \d+ pages", built.stdout, re.M), built.stdout
    assert (clone / "site" / "index.html").is_file() and (clone / "site" / "pyodide" / "pyodide.asm.wasm").is_file()
    print(f"fresh clone: set-up and build took {time.perf_counter() - started:.1f} s")

    port = free_port()
    server = subprocess.Popen([BASE_PYTHON, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=clone,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                root = get(f"http://127.0.0.1:{port}/")
                break
            except OSError:
                time.sleep(0.1)
        assert '<meta http-equiv="refresh" content="0; url=site/">' in root and 'href="site/"' in root
        assert "<title>" in get(f"http://127.0.0.1:{port}/site/")
    finally:
        server.terminate()
        server.wait(10)


def test_without_npm_it_says_what_to_install(clone, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    result = run_build(clone, bare_environment(PATH=str(empty)), "build.py")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "build: no npm: install Node.js 18 or newer with npm (on Debian or Ubuntu: sudo apt-get install nodejs npm), "
        "then run this again."]
    assert not (clone / ".venv").exists(), "nothing is half done"


def test_without_the_venv_module_it_says_what_to_install(clone):
    blocked = ("import runpy, sys; sys.modules['ensurepip'] = None; sys.argv[:] = ['build.py']; "
               "runpy.run_path('build.py', run_name='__main__')")
    result = run_build(clone, bare_environment(), "-c", blocked)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "build: cannot create .venv/: install Python's venv module (on Debian or Ubuntu: sudo apt-get install "
        "python3-venv), then run this again."]
