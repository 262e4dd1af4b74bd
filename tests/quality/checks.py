"""Turn a check's findings into one assertion message a person can act on."""
from __future__ import annotations


def report(what: str, problems: list[str], limit: int = 40) -> str:
    shown = problems[:limit]
    more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
    return f"{what}: {len(problems)} problem(s)\n  " + "\n  ".join(shown) + more


def usable(audit) -> None:
    """Fail when the audit itself could not finish (the page crashed, a wait timed out...)."""
    assert not audit.broken, f"{audit.page}: the audit could not finish: {audit.broken}"
