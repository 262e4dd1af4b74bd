"""Check your run against the guide's "What you should see".

Run your exercise, save what it printed, and give it to this script with the transcript's name
(the guide shows it under each terminal; `ex03` picks every transcript whose name starts so):

    python3 ex03_memory_queue.py > mine.txt
    python3 check_output.py ex03-run mine.txt
    python3 ex03_memory_queue.py | python3 check_output.py ex03-run
    python3 check_output.py --list      # every transcript's name and first command

You may also paste a whole terminal session (your prompt, then the command, then its output):
lines that end with one of the transcript's commands count as that command, and the bare prompt
that came back at the end, with nothing typed after it, is not counted as output.

Before comparing, both sides are normalised as the guide's own tests do, for what really
differs between two runs and nothing else: process ids (a number after `worker `, `pid ` or
`process `, or in `[1234]` at the start of a line), durations (a number followed by `s` or
`ms`) and temporary paths. A line `...` in the guide stands for any lines. Where the guide says
the order of some lines may differ (a transcript marked `unordered="  ["`: lines starting with that
text, such as the capstone's crash lines), those lines may come in any order among themselves,
as long as they are the same lines. The exit status is
0 when your output matches, 1 when it does not (the difference is printed), 2 for a usage
problem. Standard library only; tests/transcripts/harness.py uses the same functions, so this
script and the guide's tests cannot disagree.
"""
from __future__ import annotations

import argparse
import difflib
import functools
import json
import re
import shlex
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^(`{3,}|~{3,})\s*transcript\b(.*)$")
PROMPT = "$ "
INTERRUPT = "^C"
ELLIPSIS = "..."

# What legitimately differs between two runs, and nothing else.
PID = re.compile(r"(?:(?<=\bworker )|(?<=\bpid )|(?<=\bprocess )|(?<=^\[)|(?<=^  \[))\d+")
DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?=m?s\b)")
TEMP_PATH = re.compile(re.escape(tempfile.gettempdir()) + r"/[\w.-]+")

HERE = Path(__file__).resolve().parent
SAVED = "transcripts.json"   # beside this file in the built site: {id: {"path", "line", "attrs", "lines"}}

# The copy of this file that the guide's site offers for download carries every transcript on the
# line below (the build writes them there), so that copy works on its own in any folder you save it to.
EMBEDDED = None


def normalise(text: str) -> str:
    """Blank out process ids, durations and temporary paths; drop trailing spaces and blank lines."""
    out = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = TEMP_PATH.sub("<tmp>", line)
        line = PID.sub("<pid>", line)
        line = DURATION.sub("<t>", line)
        out.append(line.rstrip())
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out)


def matches(expected: list, actual: list) -> bool:
    """True when `actual` lines fit `expected` ones, where a '...' line stands for any lines."""
    @functools.lru_cache(maxsize=None)
    def fit(i, j):
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == ELLIPSIS:
            return any(fit(i + 1, k) for k in range(j, len(actual) + 1))
        if expected[i] == INTERRUPT:
            # The reader's ^C: absent (output saved to a file), or the terminal's echo pasted
            # with it ("^C" alone, or an empty line where the program ended the echo's line).
            return fit(i + 1, j) or (j < len(actual) and actual[j] in ("", INTERRUPT)
                                     and fit(i + 1, j + 1))
        return j < len(actual) and expected[i] == actual[j] and fit(i + 1, j + 1)
    return fit(0, 0)


def absorbed(expected: list, actual: list) -> list:
    """`expected` with each '...' line replaced by the lines of `actual` it stands for, so that a
    difference shown is a real one and not a line a '...' would have taken. The alignment chosen
    changes the fewest lines, then matches the most, then lets the '...' take the fewest."""
    n, m = len(expected), len(actual)
    # cost[i][j] for expected[i:] against actual[j:]: (lines added, removed or changed,
    # minus lines matched, lines a '...' took)
    cost = [[(0, 0, 0)] * (m + 1) for _ in range(n + 1)]
    for j in range(m + 1):
        cost[n][j] = (m - j, 0, 0)

    def plus(c, edits=0, matched=0, taken=0):
        return (c[0] + edits, c[1] - matched, c[2] + taken)

    def paired(i, j):   # the guide's line i against your line j: the same, or changed
        same = expected[i] == actual[j]
        return plus(cost[i + 1][j + 1], edits=0 if same else 1, matched=1 if same else 0)

    for i in range(n - 1, -1, -1):
        row, below = cost[i], cost[i + 1]
        dots = expected[i].strip() == ELLIPSIS
        for j in range(m, -1, -1):
            if dots:
                row[j] = min(below[j], plus(row[j + 1], taken=1)) if j < m else below[j]
                continue
            best = plus(below[j], edits=1)                      # the guide's line is missing
            if j < m:
                best = min(best, plus(row[j + 1], edits=1), paired(i, j))   # yours extra; paired
            row[j] = best
    out, i, j = [], 0, 0
    while i < n:
        here = cost[i][j]
        if expected[i].strip() == ELLIPSIS:
            if here == cost[i + 1][j]:
                i += 1                       # the '...' stops here
            else:
                out.append(actual[j])        # the '...' takes your line
                j += 1
        elif j < m and here == paired(i, j):
            out.append(expected[i])          # the same line, or the guide's line in place of yours
            i, j = i + 1, j + 1
        elif here == plus(cost[i + 1][j], edits=1):
            out.append(expected[i])          # the guide's line, missing from yours
            i += 1
        else:
            j += 1                           # your line, not in the guide
    return out


def in_given_order(expected: list, actual: list, prefix: str) -> list:
    """`actual` with its lines that start with `prefix` put in the order `expected` shows them,
    when both hold the same such lines (compared normalised); otherwise `actual` unchanged."""
    if not prefix:
        return actual
    shown = [line for line in expected if line.startswith(prefix)]
    at = [i for i, line in enumerate(actual) if line.startswith(prefix)]
    if not shown or sorted(map(normalise, shown)) != sorted(normalise(actual[i]) for i in at):
        return actual
    by_text = {}
    for i in at:
        by_text.setdefault(normalise(actual[i]), []).append(actual[i])
    reordered = list(actual)
    for i, wanted in zip(at, shown):
        reordered[i] = by_text[normalise(wanted)].pop(0)
    return reordered


def attributes(text: str) -> dict:
    """`id=ex04-work cwd=code` -> {"id": "ex04-work", "cwd": "code"}; ValueError on a bare word."""
    attrs = {}
    for part in shlex.split(text):
        if "=" not in part:
            raise ValueError(f"transcript attribute without '=': {part!r}")
        key, value = part.split("=", 1)
        attrs[key] = value
    return attrs


def find_transcripts(content: Path) -> dict:
    """{id: {"path", "line", "attrs", "lines"}} for every transcript block in content/*.md.

    Raises ValueError for a transcript without an id or an id used twice."""
    found = {}
    for path in sorted(Path(content).glob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        i = 0
        while i < len(lines):
            match = FENCE.match(lines[i])
            if not match:
                i += 1
                continue
            fence, start = match.group(1), i + 1
            attrs = attributes(match.group(2))
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(fence[0] * len(fence)):
                body.append(lines[i])
                i += 1
            ident = attrs.get("id")
            if not ident:
                raise ValueError(f"{path.name}:{start}: transcript without an id")
            if ident in found:
                raise ValueError(f"{path.name}:{start}: transcript id {ident!r} used twice")
            found[ident] = {"path": str(path), "line": start, "attrs": attrs, "lines": body}
            i += 1
    return found


def load_transcripts(here: Path = HERE, embedded: dict | None = None) -> dict:
    """The guide's transcripts: from ../content in a copy of the guide's repository, else the ones
    this file carries (the site's download), else a transcripts.json beside this file or in the
    folder you run it from. FileNotFoundError, saying what to do, when there are none."""
    content = here.parent / "content"
    if content.is_dir() and any(content.glob("*.md")):
        return find_transcripts(content)
    embedded = EMBEDDED if embedded is None else embedded
    if embedded:
        return embedded
    for saved in (here / SAVED, Path.cwd() / SAVED):
        if saved.is_file():
            return json.loads(saved.read_text(encoding="utf-8"))
    raise FileNotFoundError(
        "this copy of check_output.py holds no transcripts and has no guide beside it. Download it "
        "again from the link in the guide's 'The code folder' section (that copy carries every "
        "transcript), or run the one in the guide's code/ folder, e.g. "
        "python3 path/to/guide/code/check_output.py ex03-run mine.txt")


def commands(lines: list) -> list:
    return [line[len(PROMPT):] for line in lines if line.startswith(PROMPT)]


def as_session(text: str, known: list) -> list:
    """Your lines, with a line ending in one of the transcript's commands made `$ command`, a
    terminal's echoed ^C put on a line of its own, and a bare prompt at the end (the one that came
    back after the run, with nothing typed after it) left out."""
    out, prompts = [], {PROMPT.rstrip()}
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith(INTERRUPT) and line != INTERRUPT:   # "^Cworker stopped": echo, then output
            out.append(INTERRUPT)
            line = line[len(INTERRUPT):]
        command = next((c for c in known if line.rstrip() == c or line.rstrip().endswith(PROMPT + c)
                        or line.rstrip().endswith("$" + c)), None)
        if command and line.rstrip() != command:
            prompts.add(line.rstrip()[: -len(command)].rstrip())   # "ada@laptop:~/code$"
        out.append(PROMPT + command if command else line)
    last = len(out) - 1
    while last >= 0 and not out[last].strip():
        last -= 1
    if last >= 0 and out[last].rstrip() in prompts:
        del out[last]
    return out


def compare(transcript: list, text: str, unordered: str = "") -> tuple[bool, list, list]:
    """(matched, expected lines, your lines), both normalised. A session (your text holds the
    commands) is compared whole; output alone is compared with the output lines alone. Lines
    starting with `unordered` (when given) may come in any order among themselves."""
    known = commands(transcript)
    session = as_session(text, known)
    if any(line.startswith(PROMPT) for line in session):
        want = transcript
    else:
        want = [line for line in transcript if not line.startswith(PROMPT)]
    session = in_given_order(want, session, unordered)
    want = normalise("\n".join(want)).split("\n")
    got = normalise("\n".join(session)).split("\n")
    return matches(want, got), want, got


def without_interrupts(want: list, got: list) -> tuple[list, list]:
    """Both sides without the ^C echo, which matches() forgives, so that a difference shown is a
    real one: the guide's ^C lines go, and so do yours, or the blank line a program leaves there."""
    after = {want[i + 1] for i, line in enumerate(want[:-1]) if line == INTERRUPT}
    kept = [line for k, line in enumerate(got) if line != INTERRUPT
            and not (line == "" and k + 1 < len(got) and got[k + 1] in after)]
    return [line for line in want if line != INTERRUPT], kept


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Compare your run's output with the guide's "
                                     "'What you should see'.")
    parser.add_argument("name", nargs="?", help="the transcript's name, e.g. ex03-run, or its start, e.g. ex03")
    parser.add_argument("--list", action="store_true", help="list the transcripts' names and first commands")
    parser.add_argument("file", nargs="?", help="a file holding what your run printed (default: standard input)")
    args = parser.parse_args(argv)
    try:
        transcripts = load_transcripts()
    except (OSError, ValueError) as error:
        print(f"check_output: cannot read the guide's transcripts: {error}", file=sys.stderr)
        return 2
    if args.list or not args.name:
        for name, transcript in transcripts.items():
            first = next(iter(commands(transcript["lines"])), "")
            print(f"{name:28} $ {first}")
        return 0 if args.list else 2
    names = [args.name] if args.name in transcripts else sorted(t for t in transcripts if t.startswith(args.name))
    if not names:
        close = difflib.get_close_matches(args.name, transcripts, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        print(f"check_output: the guide has no transcript called {args.name!r}.{hint}", file=sys.stderr)
        return 2
    try:
        text = Path(args.file).read_text(encoding="utf-8") if args.file else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"check_output: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    results = [(name, *compare(transcripts[name]["lines"], text, transcripts[name]["attrs"].get("unordered", "")))
               for name in names]
    for name, matched, want, got in results:
        # Only where ^C shows differs: the terminal echoes it when the key is pressed, wherever
        # the program's output has got to, so its place is not the program's doing.
        moved = not matched and matches(*without_interrupts(want, got))
        if matched or moved:
            print(f"Matches {name}: your output is what the guide shows (process ids and timings aside)."
                  + (" Your ^C shows at another line than the guide's, which is not counted." if moved else ""))
            return 0
    # Several blocks share the name's start: the difference is shown against the one the run
    # comes closest to, as a reader means it.
    name, _, want, got = max(results, key=lambda r: difflib.SequenceMatcher(None, r[2], r[3]).ratio())
    others = [n for n, *_ in results if n != name]
    print(f"Does not match {name}" + (f" (nor {', '.join(others)})" if others else "")
          + ". Lines starting '-' are the guide's, '+' yours (ids and timings shown as <pid> and <t>;"
            " a '...' line in the guide stands for any lines):")
    want, got = without_interrupts(want, got)
    for line in difflib.unified_diff(absorbed(want, got), got, "the guide", "your run",
                                     lineterm="", n=2):
        print(line)
    return 1


if __name__ == "__main__":
    sys.exit(main())
