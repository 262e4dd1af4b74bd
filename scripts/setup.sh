# Sourced by scripts/serve and scripts/test: make the project ready to build and test, doing only
# what is missing, then activate .venv/. Needs Python 3.10+ (with venv) and Node 18+ (with npm).
# The steps themselves (.venv/, the pinned requirements, npm ci) are scripts/bootstrap.py's, the
# same code that `python build.py` runs when its packages are missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON=${PYTHON:-python3}

command -v "$PYTHON" >/dev/null || {
  echo "setup: no $PYTHON: install Python 3.10 or newer (sudo apt-get install python3 python3-venv)" >&2
  exit 1
}
"$PYTHON" scripts/bootstrap.py --dev

# shellcheck disable=SC1091
. .venv/bin/activate
