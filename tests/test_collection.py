"""The test command runs every folder of tests/: a folder pytest skips by default (its
norecursedirs holds "build") would otherwise pass in silence, with none of its tests run."""
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def test_every_folder_of_tests_is_collected():
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"],   # pytest.ini's testpaths
                            capture_output=True, text=True, cwd=ROOT, timeout=300).stdout
    collected = {line.split("/")[1] for line in listed.splitlines() if line.startswith("tests/") and "::" in line}
    folders = {p.parent.name for p in TESTS.glob("*/test_*.py")}
    assert folders and folders - collected == set(), f"never collected: {sorted(folders - collected)}"
