"""What the race widget shows in words (view.py's shape): the jobs table, from a snapshot of
race.py. The picture (the program and the job rows with the workers' marks) is race_picture.py's."""
from ..engine.view import bad_if, chip, dash, table, view


def race_view(s):
    """The snapshot's "view" (view.py)."""
    rows = [(job["id"], [str(job["id"]), job["address"], chip(job["status"]),
                         str(job["attempts"]), dash(job["token"]),
                         {"text": str(job["emails"]), "tone": bad_if(job["emails"] > 1)},
                         job["workers_words"]])
            for job in s["jobs"]]
    jobs = table("jobs", "The jobs table",
                 ["Job", "Address", "Status", "Attempts", "Token", "Emails", "Workers on it"],
                 rows, empty="No jobs.")
    return view(tables=[jobs], outcome=s["outcome"])
