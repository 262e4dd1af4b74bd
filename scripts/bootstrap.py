"""Set up what building (or, with --dev, testing) the guide needs, doing only what is missing.

    python3 scripts/bootstrap.py --dev    what scripts/setup.sh runs (scripts/serve, scripts/test)
    python3 build.py                      calls ready_to_build() before it imports anything else

The steps, each said on one line as it starts: create `.venv/` (python3 -m venv), install the
pinned Python packages into it (pip install -r requirements.txt, or requirements-dev.txt with
--dev; redone when a requirements file changes), and install the pinned npm packages (npm ci
--ignore-scripts; redone when node_modules/ is not what package-lock.json pins). build.py run by
another Python then runs itself again inside `.venv/`.

What cannot be done here (Python too old, no venv module, no npm, no network) ends the program
with one sentence naming what to install or check, and exit status 1; never a traceback. Standard
library only, so that it runs on a bare system Python.
"""
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
STAMP = VENV / ".requirements"   # the hash of the requirement files last installed into .venv/
AGAIN = "GUIDE_BOOTSTRAPPED"     # set for the run inside .venv/, so that it never loops
PINNED = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#]+)", re.M)
MIN_PYTHON = (3, 10)
MIN_NODE = 18


class Missing(Exception):
    """Something this machine lacks: the message is one sentence saying what to do."""


def say(who, text):
    print(f"{who}: {text}", flush=True)


def requirement_files(dev):
    return ["requirements.txt"] + (["requirements-dev.txt"] if dev else [])


def wanted_hash(dev):
    """What STAMP holds once these files are installed (for --dev, as setup.sh always wrote it)."""
    digest = hashlib.sha256()
    for name in requirement_files(dev):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def unmet_requirements():
    """The pins of requirements.txt this Python does not have, as ["name==version", ...]."""
    unmet = []
    for name, version in PINNED.findall((ROOT / "requirements.txt").read_text(encoding="utf-8")):
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            unmet.append(f"{name}=={version}")
    return unmet


def npm_installed():
    """True when node_modules/ holds every package at the version package-lock.json pins."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    for path, entry in lock["packages"].items():
        manifest = ROOT / path / "package.json"
        if not path:
            continue
        if not manifest.is_file():
            return False
        if json.loads(manifest.read_text(encoding="utf-8")).get("version") != entry["version"]:
            return False
    return True


def in_project_venv():
    return Path(sys.prefix).resolve() == VENV.resolve()


def run(command, words):
    """Run `command` in the project's folder; raise Missing(words) if it fails or cannot start."""
    try:
        finished = subprocess.run(command, cwd=ROOT, check=False)
    except OSError as error:
        raise Missing(f"{words} ({error.strerror})") from None
    if finished.returncode != 0:
        raise Missing(words)


VENV_FIX = ("cannot create .venv/: install Python's venv module (on Debian or Ubuntu: "
            "sudo apt-get install python3-venv), then run this again")


def check_venv_module():
    if VENV_PYTHON.exists():
        return
    try:
        import venv  # noqa: F401  (only to know that it is there)
        import ensurepip  # noqa: F401  (Debian ships it apart, in python3-venv)
    except ImportError:
        raise Missing(VENV_FIX) from None


def make_venv(who):
    if VENV_PYTHON.exists():
        return
    fix = VENV_FIX
    say(who, f"creating .venv/ ({Path(sys.executable).name} -m venv .venv)")
    try:
        run([sys.executable, "-m", "venv", str(VENV)], fix)
    except Missing:
        shutil.rmtree(VENV, ignore_errors=True)   # a half-made one would pass for ready next time
        raise


def install_requirements(who, dev):
    """pip install the pinned requirements into .venv/ unless STAMP says they are in."""
    have = STAMP.read_text(encoding="utf-8").strip() if STAMP.is_file() else ""
    if have in (wanted_hash(dev), wanted_hash(True)):   # the dev set includes the build's
        return
    name = requirement_files(dev)[-1]
    say(who, f"installing the pinned Python packages into .venv/ (pip install -r {name})")
    run([str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", name],
        f"pip could not install the packages {name} pins (its message is above): check the network "
        f"connection (or pip's proxy settings), then run this again")
    STAMP.write_text(wanted_hash(dev) + "\n", encoding="utf-8")


def node_version():
    try:
        text = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout
    except OSError:
        return None
    found = re.match(r"v(\d+)", text.strip())
    return int(found.group(1)) if found else None


def check_npm():
    """npm's path, when node_modules/ needs it; raise Missing when there is no usable npm."""
    npm = shutil.which("npm")
    version = node_version()
    if npm is None or version is None:
        raise Missing(f"no npm: install Node.js {MIN_NODE} or newer with npm (on Debian or Ubuntu: "
                      f"sudo apt-get install nodejs npm), then run this again")
    if version < MIN_NODE:
        raise Missing(f"Node.js {version} is too old: install Node.js {MIN_NODE} or newer, then run this again")
    return npm


def install_npm_packages(who):
    """npm ci the pinned Pyodide, MiniSearch, CodeMirror and test tools unless node_modules/ already matches."""
    if npm_installed():
        return
    npm = check_npm()
    say(who, "installing the pinned npm packages: Pyodide, MiniSearch, CodeMirror, test tools (npm ci --ignore-scripts)")
    run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        "npm ci could not install the packages package-lock.json pins (its message is above): check the "
        "network connection (or npm's proxy settings), then run this again")


def check_python():
    if sys.version_info < MIN_PYTHON:
        raise Missing(f"Python {sys.version.split()[0]} is too old: install Python 3.10 or newer "
                      f"(python.org, or on Debian or Ubuntu: sudo apt-get install python3 python3-venv)")


def setup(who="setup", dev=False):
    """Create .venv/ and install the Python and npm packages, each only if missing."""
    check_python()   # first, everything this machine must have: then nothing is half done
    check_venv_module()
    if not npm_installed():
        check_npm()
    make_venv(who)
    install_requirements(who, dev)
    install_npm_packages(who)


def ready_to_build(argv, who="build"):
    """Return when this Python can run the build; otherwise set up and run `argv` again in .venv/.

    Exits with status 1 and one sentence when it cannot (see the module's docstring).
    """
    try:
        check_python()
        if not unmet_requirements():
            install_npm_packages(who)
            return
        if in_project_venv() or os.environ.get(AGAIN):
            # Inside .venv/ (or just come back into it) and still missing: install once more.
            if os.environ.get(AGAIN) == "pip":
                raise Missing(f".venv/ still lacks {', '.join(unmet_requirements())}: delete .venv/ "
                              f"and run this again")
            STAMP.unlink(missing_ok=True)
        setup(who)
    except Missing as missing:
        print(f"{who}: {missing}.", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    say(who, "running build.py again inside .venv/")
    os.environ[AGAIN] = "pip"
    command = [str(VENV_PYTHON), *argv]
    if os.name == "nt":   # Windows has no real exec: run it and pass its status on
        sys.exit(subprocess.run(command, check=False).returncode)
    os.execv(command[0], command)


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--dev"]):
        print("usage: python3 scripts/bootstrap.py [--dev]", file=sys.stderr)
        return 2
    try:
        setup(dev=args == ["--dev"])
    except Missing as missing:
        print(f"setup: {missing}.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
