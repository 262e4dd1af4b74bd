"""Chapter 9's storm embed: what the prose says the reader will see, checked on the embed itself.

The chapter says: with nobody restarting workers, the workers die one by one and the last jobs wait
for ever; tick "Restart dead workers" and every job still ends done. The parameters are read from
the chapter's own embed, so the two cannot drift apart.
"""
import re
from pathlib import Path

from simulations.live_queue import LiveQueue

CHAPTER = Path(__file__).resolve().parents[2] / "content" / "12-capstone.md"


def storm_params():
    text = CHAPTER.read_text(encoding="utf-8")
    block = re.search(r"storm in slow motion.*?```sim live-queue[^\n]*\n(.*?)\n---\n", text, re.S)
    assert block, "chapter 9 no longer has its storm embed"
    assert '"Restart dead workers"' in text[block.start():block.end()]
    return dict(line.split(": ", 1) for line in block.group(1).splitlines())


def statuses(sim):
    found = {}
    for job in sim.snapshot()["jobs"]:
        found[job["status"]] = found.get(job["status"], 0) + 1
    return found


def test_the_checkbox_the_chapter_names_is_the_supervisor_parameter():
    labels = {param["name"]: param["label"] for param in LiveQueue.PARAMS}
    assert labels["supervisor"] == "Restart dead workers"


def test_with_nobody_restarting_workers_some_jobs_wait_for_ever():
    stuck = 0
    for seed in range(10):
        sim = LiveQueue(storm_params(), seed=seed)
        sim.run(until=600)
        stuck += statuses(sim).get("done", 0) < 30
    assert stuck >= 8, f"only {stuck} of 10 runs left jobs waiting"


def test_with_the_supervisor_every_job_ends_done():
    for seed in range(10):
        sim = LiveQueue({**storm_params(), "supervisor": "true"}, seed=seed)
        sim.run(until=600)
        assert statuses(sim) == {"done": 30}, seed
