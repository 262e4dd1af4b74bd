# Sourced by scripts/serve and scripts/test: make the project ready to build and test, doing only
# what is missing. Needs Python 3.10+ (with venv) and Node 18+ (with npm) on the machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON=${PYTHON:-python3}
VENV=.venv

fail() { echo "setup: $*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null || fail "no $PYTHON: install Python 3.10 or newer (sudo apt-get install python3 python3-venv)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
  || fail "$("$PYTHON" --version 2>&1) is too old: the guide needs Python 3.10 or newer"
command -v npm >/dev/null || fail "no npm: install Node 18 or newer (sudo apt-get install nodejs npm)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 18 ? 1 : 0)' \
  || fail "Node $(node --version) is too old: the guide needs Node 18 or newer"

# 1. The virtual environment, with the pinned packages (reinstalled when a requirements file changes).
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV"
  "$PYTHON" -m venv "$VENV" || fail "cannot create a venv: sudo apt-get install python3-venv"
fi
wanted=$(cat requirements.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$VENV/.requirements" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: pip install -r requirements-dev.txt"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  echo "$wanted" > "$VENV/.requirements"
fi

# 2. The npm packages (Pyodide, MiniSearch, test tools), exactly as package-lock.json pins them.
if ! "$VENV/bin/python" scripts/npm_installed.py; then
  echo "setup: npm ci --ignore-scripts"
  npm ci --ignore-scripts --no-audit --no-fund
fi

# shellcheck disable=SC1091
. "$VENV/bin/activate"
