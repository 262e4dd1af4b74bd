"""Recorded runs: each embed's own run, played in CPython at build time, for the page to play at once.

A page's Python takes seconds to start (most of a minute on a busy machine), and a simulation is an
exact replay of (its settings, its seed, the reader's actions), so the build can run what the
reader would see before acting, with the very code the page runs (`simulations/`), and keep what
each moment draws. Pressing Play or Step then moves at once (theme/js/sims/recording.js plays it)
while Python starts behind it; once Python is up it steps to the same moment and takes over.

One recording per distinct (simulation, chapter settings, seed) is written to
`site/recordings/<sim>-<key>.json.gz`, where `<key>` is `recording_key` of the embed's
`data-sim`, `data-params` and `data-seed` attributes (recording.js computes the same, so the
template carries no extra attribute); `recordings/index.json` lists the files written. The page
fetches the list, then the embed's recording, only as the reader nears the widget.

A recording (gzipped JSON, shape `format` 1):

    {"format": 1, "sim": "live-queue", "params": {...}, "seed": 1,
     "complete": true,            # false: a bound below stopped it before the run was finished
     "frames": [snapshot0, patch1, patch2, ...]}

Frame 0 is the bridge's `create` snapshot; frame n is the bridge's snapshot after n `step`s (what
`{"op": "step", "count": n}` answers), stored as a patch of frame n-1 (`diff`): a patch is
`{"v": value}` (replace), `{"d": {key: patch}, "x": [removed keys]}` (a dict's changed keys) or
`{"l": length, "i": {index: patch}, "a": [appended]}` (a list's changed items).
"""
from __future__ import annotations

import gzip
import hashlib
import importlib
import json
from pathlib import Path

FORMAT = 1
# Bounds on one recording. It has to cover Python's start, not the whole run: the start takes
# 3-10 s here (docs/widgets.md), half a minute on a busy machine, and a reader at 1x covers
# that many seconds of the run; two minutes of it leaves room. Faster speeds outrun it, and then
# the widget holds the last frame until Python takes over (recording.js). The frame and byte
# bounds keep the heaviest runs (64 workers, thousands of jobs) from costing a reader more than
# a few tens of kilobytes: the average stays under 30 KB gzipped (bench/bench_recordings.py).
MAX_SECONDS = 120.0        # virtual seconds recorded
MAX_FRAMES = 1200          # steps recorded (a live queue ticks every 0.1 s: 120 s)
MAX_PATCH_BYTES = 600_000  # bytes of patches (JSON, before gzip: about 45 KB gzipped)
FOLDER = "recordings"


def recording_key(sim: str, params_json: str, seed: int) -> str:
    """FNV-1a (32 bits) of `sim\\nparams_json\\nseed` in UTF-8, as 8 hex digits: the name part of
    the embed's recording file. recording.js computes the same from the embed's attributes."""
    value = 0x811C9DC5
    for byte in f"{sim}\n{params_json}\n{seed}".encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def recording_path(sim: str, params_json: str, seed: int) -> str:
    """The recording's path relative to the site's root: `recordings/live-queue-1a2b3c4d.json.gz`."""
    return f"{FOLDER}/{sim}-{recording_key(sim, params_json, seed)}.json.gz"


def diff(old, new):
    """The patch that turns `old` into `new` (both plain JSON values), or None when they are equal."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        patch = {"d": {key: ({"v": value} if key not in old else diff(old[key], value))
                       for key, value in new.items() if key not in old or old[key] != value}}
        removed = [key for key in old if key not in new]
        if removed:
            patch["x"] = removed
        return patch
    if isinstance(old, list) and isinstance(new, list) and old and new:
        shared = min(len(old), len(new))
        items = {str(n): diff(old[n], new[n]) for n in range(shared) if old[n] != new[n]}
        if len(items) < shared:   # worth it only when some items are kept as they were
            patch = {"l": len(new), "i": items}
            if len(new) > shared:
                patch["a"] = new[shared:]
            return patch
    return {"v": new}


def patch(old, change):
    """`old` with `change` (a `diff`) applied, as a new value (`old` is left as it was)."""
    if change is None:
        return old
    if "v" in change:
        return change["v"]
    if "d" in change:
        value = {key: item for key, item in old.items() if key not in change.get("x", ())}
        for key, item in change["d"].items():
            value[key] = patch(old.get(key), item)
        return value
    value = old[:change["l"]]
    for index, item in change["i"].items():
        value[int(index)] = patch(value[int(index)], item)
    return value + change.get("a", [])


def frames(recording: dict) -> list[dict]:
    """Every frame of a recording, decoded (what recording.js does in the page)."""
    decoded = [recording["frames"][0]]
    for change in recording["frames"][1:]:
        decoded.append(patch(decoded[-1], change))
    return decoded


def record(sim: str, params: dict, seed: int) -> dict:
    """Run the embed's own run (no reader actions) step by step, as the page's bridge would, and
    return its recording (the shape in this module's docstring). Needs the `simulations` package
    importable (builder/config.py puts the book's root on sys.path)."""
    kind = importlib.import_module("simulations").SIMULATIONS[sim]
    timeline = importlib.import_module("simulations.engine.timeline_view").PageTimeline(kind, params, seed)
    # Through JSON, as the page receives it (tuples become lists, keys strings).
    previous = json.loads(json.dumps(timeline.snapshot()))
    kept, size, complete = [previous], 0, False
    while len(kept) <= MAX_FRAMES and previous["time"] <= MAX_SECONDS and size <= MAX_PATCH_BYTES:
        if not timeline.step():
            complete = True
            break
        frame = json.loads(json.dumps(timeline.snapshot()))
        change = diff(previous, frame)
        size += len(json.dumps(change, separators=(",", ":")))
        kept.append(change)
        previous = frame
    return {"format": FORMAT, "sim": sim, "params": params, "seed": seed, "complete": complete, "frames": kept}


def embeds(parsed) -> list[dict]:
    """Every simulation embed of the parsed chapters: [{"sim", "params", "params_json", "seed"}]."""
    found = []
    for chapter in parsed:
        for token in chapter.tokens:
            meta = token.meta or {}
            if "snapshot" in meta and "params_json" in meta:
                found.append({"sim": meta["name"], "params": meta["params"],
                              "params_json": meta["params_json"], "seed": meta["seed"]})
    return found


def source_digest(root: Path) -> str:
    """A digest of the simulation code a recording depends on (simulations/ and the capstone's
    tinyq), so a cached recording is used only while that code is unchanged."""
    digest = hashlib.sha256(str(FORMAT).encode())
    files = sorted([*(root / "simulations").rglob("*.py"), *(root / "code" / "capstone").glob("tinyq*.py")])
    for file in files:
        digest.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def write_recordings(folder: Path, parsed, root: Path, cache: Path | None = None) -> list[str]:
    """Write each embed's recording under `folder`/recordings/ (once per distinct run) and return
    the paths written. A book whose simulations have no timeline (a test's fixture book) gets none.
    `cache` (a folder) keeps recordings between builds, keyed by the simulation code's digest."""
    (folder / FOLDER).mkdir(parents=True, exist_ok=True)
    (folder / FOLDER / "index.json").write_text("[]", encoding="utf-8")   # until there are some
    try:
        importlib.import_module("simulations.engine.timeline_view")
    except ImportError:
        return []
    digest = source_digest(root) if cache else ""
    if cache and cache.is_dir():   # recordings of code that has changed since are of no more use
        for old in cache.glob("*.json.gz"):
            if not old.name.startswith(digest + "-"):
                old.unlink()
    written = {}
    for embed in embeds(parsed):
        path = recording_path(embed["sim"], embed["params_json"], embed["seed"])
        if path in written:
            continue
        cached = cache / f"{digest}-{Path(path).name}" if cache else None
        if cached and cached.is_file():
            data = cached.read_bytes()
        else:
            try:
                made = record(embed["sim"], embed["params"], embed["seed"])
            except Exception:   # a book whose simulations are not the guide's (a test's fixture):
                continue        # its page waits for Python, as it would with no recording at all
            text = json.dumps(made, separators=(",", ":"))
            data = gzip.compress(text.encode(), compresslevel=9, mtime=0)
            if cached:
                cached.parent.mkdir(parents=True, exist_ok=True)
                cached.write_bytes(data)
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written[path] = True
    # The list of them, so a page asks only for a recording that exists (an embed changed after
    # the build, or one past a future bound, then simply waits for Python, with no failed request).
    if written:
        index = sorted(Path(path).name for path in written)
        (folder / FOLDER / "index.json").write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")
    return list(written)
