#!/usr/bin/env python3
"""Build the guide: content/ + code/ + theme/ -> site/.

    python build.py                  build site/ (the old one stays if the build fails)
    python build.py --serve          build, then serve it on http://127.0.0.1:8000/
    python build.py --serve --watch  ... and rebuild whenever a source file changes

A problem in the input is printed as `file:line: what is wrong`, and the exit status is 1.
"""
from __future__ import annotations

import sys
from pathlib import Path

# First, with the standard library only: where this Python lacks the build's packages (a fresh
# clone, no venv active), set up .venv/ and node_modules/ and run again inside (scripts/bootstrap.py).
sys.path.insert(0, str(Path(__file__).resolve().parent / "scripts"))
import bootstrap  # noqa: E402

if __name__ == "__main__":
    bootstrap.ready_to_build([str(Path(__file__).resolve()), *sys.argv[1:]])

import argparse  # noqa: E402
import errno  # noqa: E402
import subprocess  # noqa: E402

from builder import BuildError, Config, build_site  # noqa: E402
from builder.serve import make_server, serve_in_background  # noqa: E402
from builder.watch import watch  # noqa: E402

ROOT = Path(__file__).resolve().parent


def port_number(text: str) -> int:
    """A TCP port for --serve: 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 0 to 65535 (0 picks a free one)")
    return port


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", action="store_true", help="serve the site on localhost after building it")
    parser.add_argument("--watch", action="store_true", help="with --serve: rebuild when a source file changes")
    parser.add_argument("--port", type=port_number, default=8000, help="port for --serve (default 8000; 0 picks one)")
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default site/)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the folder holding content/ and code/ (default: this project)")
    return parser.parse_args(argv)


def build(config: Config) -> bool:
    """Build once; print the result or every problem. True on success."""
    try:
        report = build_site(config)
    except BuildError as error:
        print(error, file=sys.stderr)
        print(f"build failed: {len(error.problems)} problem(s); {config.shown(config.out)}/ left as it was",
              file=sys.stderr)
        return False
    print(f"built {report.pages} pages ({report.chapters} chapters, {report.sims} simulation embeds) "
          f"into {report.out}/ in {report.seconds:.2f}s")
    return True


def open_server(folder: Path, port: int, tries: int = 10):
    """A server on `port`, or on the next free one of `tries`; None (said why) if all are busy."""
    for candidate in range(port, port + tries) if port else [0]:
        try:
            return make_server(folder, port=candidate)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
    print(f"ports {port}-{port + tries - 1} are all in use: try --port 0 (any free port)", file=sys.stderr)
    return None


def main(argv=None) -> int:
    args = parse_args(argv)
    config = Config(root=args.root, out=args.out)
    ok = build(config)
    if not args.serve:
        return 0 if ok else 1
    server = open_server(config.out, args.port)
    if server is None:
        return 1
    print(f"serving {config.shown(config.out)}/ at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)")
    if args.watch:
        # Each rebuild runs in a fresh interpreter, so changed builder/ or simulations/ code counts.
        serve_in_background(server)
        command = [sys.executable, str(ROOT / "build.py"), "--out", str(config.out), "--root", str(config.root)]
        sources = [config.content, config.code, config.theme, ROOT / "builder", ROOT / "simulations"]
        try:
            watch([s for s in sources if s.is_dir()], lambda: subprocess.run(command, check=False))
        except KeyboardInterrupt:
            pass
        return 0
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
