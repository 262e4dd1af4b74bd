"""Every embed's recorded run (builder/recordings.py) is exact: the frame the page plays at a
moment is the frame Python draws at that moment, words and numbers.

The page plays a recording while its Python starts, then hands over: Python makes the same run
and steps it to the frame shown, in requests of at most 200 steps (recording.js, takeOver). This
does the same through the bridge, for every embed of the guide, at several moments, and
compares everything the page draws (the snapshot and its view; the events are handed over once,
so they are compared step by step in the first frames). The page's decoder and file name are
recording.js's own, run under Node.
"""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from builder.chapters import parse_chapter
from builder.config import PROJECT, Config
from builder.markdown import make_markdown
from builder.problems import Problems
from builder.recordings import MAX_PATCH_BYTES, diff, embeds, frames, patch, record, recording_key, recording_path
from builder.summary import load_summary
from simulations.bridge import handle

RECORDING_JS = PROJECT / "theme" / "js" / "sims" / "recording.js"


def guide_embeds() -> list[dict]:
    """The guide's embeds as the build sees them (distinct runs only)."""
    config, problems = Config(), Problems()
    md = make_markdown(config.root, config.simulations, lambda context: "")
    parsed = [parse_chapter(md, chapter, config.content / chapter.source, chapter.source, problems)
              for chapter in load_summary(config.content, problems)]
    problems.raise_if_any()
    distinct = {recording_path(e["sim"], e["params_json"], e["seed"]): e for e in embeds(parsed)}
    return list(distinct.values())


EMBEDS = guide_embeds()


def call(**message):
    reply = json.loads(handle(json.dumps(message)))
    assert reply["ok"], reply
    return reply


def without_events(snapshot: dict) -> dict:
    return {key: value for key, value in snapshot.items() if key not in ("events", "events_dropped")}


def test_every_simulation_is_recorded():
    assert {e["sim"] for e in EMBEDS} == {"live-queue", "race", "crash-timing", "payments"}
    # a casebook pair (one widget, two runs) is recorded once: its live run, the incident
    assert len(EMBEDS) > 35


@pytest.mark.parametrize("embed", EMBEDS, ids=[f"{e['sim']}:{e['params_json']}:{e['seed']}"[:90] for e in EMBEDS])
def test_the_recorded_frame_is_pythons_frame_at_that_moment(embed):
    recording = json.loads(json.dumps(record(embed["sim"], embed["params"], embed["seed"])))
    played = frames(recording)
    last = len(played) - 1
    moments = sorted({0, 1, 2, last // 3, (2 * last) // 3, last} & set(range(last + 1)))
    ident = "recording-check"
    first = call(op="create", id=ident, sim=embed["sim"], params=embed["params"], seed=embed["seed"])["snapshot"]
    assert played[0] == first   # frame 0 is the create reply, events and all
    at = 0
    for moment in moments:
        snapshot = first
        while at < moment:   # the handover's way: steps in requests of at most 200
            count = min(200, moment - at)
            reply = call(op="step", id=ident, count=count)
            assert reply["steps"] == count
            snapshot, at = reply["snapshot"], at + count
            if count == 1:   # one step's events are the frame's own
                assert snapshot["events"] == played[at]["events"]
        assert without_events(played[moment]) == without_events(snapshot), f"frame {moment} of {last}"
    call(op="destroy", id=ident)
    # A recording either holds the whole run or stops at a bound (builder/recordings.py).
    assert recording["complete"] == played[-1]["finished"] or not recording["complete"]
    assert len(json.dumps(recording["frames"][1:])) <= MAX_PATCH_BYTES + 200_000


def test_patches_rebuild_each_value():
    old = {"a": [1, {"b": 2}, 3], "gone": 1, "same": [4]}
    new = {"a": [1, {"b": 5}, 3, 6], "same": [4], "new": None}
    assert patch(old, diff(old, new)) == new
    assert old == {"a": [1, {"b": 2}, 3], "gone": 1, "same": [4]}   # left as it was
    assert diff(new, new) is None
    assert patch([1, 2, 3], diff([1, 2, 3], [1])) == [1]


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node for the page's own decoder")
def test_the_pages_decoder_and_file_name_agree_with_the_build(tmp_path):
    embed = next(e for e in EMBEDS if e["sim"] == "live-queue" and len(frames(record(e["sim"], e["params"], e["seed"]))) > 50)
    recording = record(embed["sim"], embed["params"], embed["seed"])
    source = tmp_path / "recording.json"
    source.write_text(json.dumps(recording), encoding="utf-8")
    script = tmp_path / "check.mjs"
    script.write_text(
        f"import {{ decode, recordingKey }} from {json.dumps(RECORDING_JS.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        f"const recording = JSON.parse(readFileSync({json.dumps(str(source))}, 'utf8'));\n"
        f"console.log(JSON.stringify({{key: recordingKey({json.dumps(embed['sim'])}, "
        f"{json.dumps(embed['params_json'])}, {json.dumps(str(embed['seed']))}), "
        "frames: ((f) => Array.from({length: f.length}, (_, n) => f.at(n)))(decode(recording).frames)}));\n",
        encoding="utf-8")
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, check=True, timeout=60).stdout
    result = json.loads(out)
    assert result["key"] == recording_key(embed["sim"], embed["params_json"], embed["seed"])
    assert result["frames"] == frames(json.loads(json.dumps(recording)))


def test_the_build_writes_one_gzipped_recording_per_distinct_run(tmp_path):
    from builder.recordings import write_recordings
    config, problems = Config(), Problems()
    md = make_markdown(config.root, config.simulations, lambda context: "")
    chapter = next(c for c in load_summary(config.content, problems) if c.source.startswith("05-"))
    parsed = [parse_chapter(md, chapter, config.content / chapter.source, chapter.source, problems)]
    written = write_recordings(tmp_path, parsed, PROJECT)
    assert written and len(written) == len(set(written))
    for path in written:
        data = json.loads(gzip.decompress((tmp_path / path).read_bytes()))
        assert data["format"] == 1 and path.startswith(f"recordings/{data['sim']}-")
