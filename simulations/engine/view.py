"""What a reader is shown of a simulation, as data with its words: the snapshot's "view".

Every simulation's snapshot carries one, built by its own view module from its state, so the
words and numbers a reader sees are decided here, in Python, once. Two drawings read it and
nothing else: the Jinja macros of theme/templates/sim/_view.html (the first frame, print, and
readers without JavaScript) and theme/js/sims/view.js (every later frame). Adding a figure is
adding a tile here; neither drawing changes.

    view = {
      "figures": [tile]       tile = {key, label, text, tone, group, help}
                                key    a name unique in the view ("done", "dead")
                                label  what the reader reads it as ("Dead jobs")
                                text   its value in words ("2 (1 charged)", "0.5 jobs/s")
                                tone   "" or "bad" (drawn in the warning colour)
                                group  which box of the widget it sits in ("figures" unless
                                       said: payments' "balances", the live queue's "charts")
                                help   a sentence under it, or ""
      "tables":  [table]      table = {key, caption, note, columns, rows, empty}
                                columns  [{label, class}]: the headings, left to right
                                rows     [{key, cells}]: a cell is its text, or
                                         {text, chip, tone, class} (chip: a status chip's
                                         class names; tone "bad"; class: the cell's own class)
                                note     words after the caption ("(showing 50 of 200)"), or ""
                                empty    what the table says with no rows
      "outcome": sentence     the run's result in one line
      "alt":     text         the picture in words, for a reader who cannot see it
      "notes":   [{key, text}]  sentences of the widget's own places (crash timing's effects)
      "key":     [item]       the picture's key: item = {key, samples: [{class, text}], text},
                              each sample a mark drawn as the picture draws it (its class), then
                              the words; **a phrase** between double asterisks is in bold
    }
"""


def tile(key, label, text, tone="", group="figures", help=""):
    """One figure: {key, label, text, tone, group, help} (see the module's docstring)."""
    return {"key": key, "label": label, "text": text, "tone": tone, "group": group, "help": help}


def bad_if(condition):
    """The tone of a figure that is a warning when `condition` holds."""
    return "bad" if condition else ""


def chip(status, kind="status"):
    """A cell holding a status chip, coloured by its class ("sim-chip status-done")."""
    return {"text": status, "chip": f"sim-chip {kind}-{status}"}


def table(key, caption, columns, rows, note="", empty=""):
    """One table: `columns` a list of headings (a string, or (heading, class)), `rows` a list
    of (row key, [cell, ...])."""
    heads = [{"label": c, "class": ""} if isinstance(c, str) else {"label": c[0], "class": c[1]}
             for c in columns]
    return {"key": key, "caption": caption, "note": note, "empty": empty, "columns": heads,
            "rows": [{"key": str(k), "cells": cells} for k, cells in rows]}


def view(figures=(), tables=(), outcome="", alt="", notes=(), key=()):
    """The snapshot's "view" (see the module's docstring)."""
    return {"figures": list(figures), "tables": list(tables), "outcome": outcome, "alt": alt,
            "notes": list(notes), "key": list(key)}


def key_item(key, text, *samples):
    """One entry of the picture's key: samples as (class, text) pairs, then the words."""
    return {"key": key, "samples": [{"class": c, "text": t} for c, t in samples], "text": text}


def dash(value, shown=str):
    """A cell's text: "—" for nothing, else shown(value)."""
    return "—" if value is None else shown(value)


def secs(value):
    """Seconds as the page writes them: 2.50 -> "2.5", 1/3 -> "0.33" (builder/theme.py's)."""
    return f"{round(float(value), 2):g}"


def per_second(value, noun):
    """A rate in words: (1, "job") -> "1 job/s", (2.5, "job") -> "2.5 jobs/s"; value in events
    per second."""
    shown = secs(value)
    return f"{shown} {noun if shown == '1' else noun + 's'}/s"


def note(key, text):
    """A sentence the widget shows in its place `key` (an empty one hides it)."""
    return {"key": key, "text": text}


def jobs_table(snapshot):
    """The table any simulation has: its jobs' id, status, attempts and lease."""
    rows = [(job["id"], [str(job["id"]), chip(job["status"]), str(job["attempts"]),
                         dash(job["lease_left"], secs)]) for job in snapshot["jobs"]]
    return table("jobs", f"Jobs at {secs(snapshot['time'])} s",
                 ["Job", "Status", "Attempts", "Lease left (s)"], rows, empty="No jobs yet.")


def generic(snapshot):
    """The view of a simulation with no view of its own: its jobs and its outcome."""
    return view(tables=[jobs_table(snapshot)], outcome=snapshot["outcome"])
