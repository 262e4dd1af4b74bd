"""Exit 0 when node_modules/ holds every package at the version package-lock.json pins, else 1.

Lets scripts/setup.sh skip `npm ci` (which deletes node_modules first) when nothing changed."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def installed() -> bool:
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    for path, entry in lock["packages"].items():
        if not path:
            continue
        manifest = ROOT / path / "package.json"
        if not manifest.is_file():
            return False
        if json.loads(manifest.read_text(encoding="utf-8")).get("version") != entry["version"]:
            return False
    return True


if __name__ == "__main__":
    sys.exit(0 if installed() else 1)
