"""Validate HTML files with the Nu HTML Checker (vnu-jar from npm, run by the system's Java).

All files go to one `java -jar vnu.jar` run: the JVM starts once. Checker and its JSON output:
https://validator.github.io/validator/ ("Command-line use", `--format json`).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.conftest import ROOT

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
FAILURES = ("error", "non-document-error")   # "info" messages (and warnings) are not failures


class ValidatorMissing(RuntimeError):
    """Java or vnu.jar is not installed; the message says how to install it."""


def validate(files: list[Path], timeout: float = 300) -> dict[Path, list[str]]:
    """{file: ["line:column: message", ...]} with every error vnu finds (an empty list: valid).

    Raises ValidatorMissing when Java or vnu.jar is absent, RuntimeError when vnu itself fails.
    """
    java = shutil.which("java")
    if not java:
        raise ValidatorMissing("no `java` on PATH: the HTML check runs the Nu HTML Checker on Java 11+ "
                               "(Debian: sudo apt-get install default-jre-headless)")
    if not VNU.is_file():
        raise ValidatorMissing(f"{VNU}: missing; run `npm ci --ignore-scripts` (see README.md)")
    files = [Path(f).resolve() for f in files]
    run = subprocess.run([java, "-jar", str(VNU), "--format", "json", "--exit-zero-always", *map(str, files)],
                         capture_output=True, text=True, timeout=timeout)
    try:
        messages = json.loads(run.stderr)["messages"]   # vnu writes its report to stderr
    except (ValueError, KeyError) as error:
        raise RuntimeError(f"vnu gave no JSON report ({error}):\n{run.stdout}\n{run.stderr[-3000:]}") from None
    found: dict[Path, list[str]] = {f: [] for f in files}
    for message in messages:
        if message.get("type") not in FAILURES:
            continue
        path = Path(unquote(urlsplit(message.get("url", "")).path)).resolve()
        where = f"{message.get('lastLine', '?')}:{message.get('firstColumn', message.get('lastColumn', '?'))}"
        extract = " ".join(message.get("extract", "").split())
        found.setdefault(path, []).append(f"{where}: {message['message']}" + (f"  [{extract}]" if extract else ""))
    return found
