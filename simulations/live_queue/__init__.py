"""live-queue: a producer and a crew of workers sharing one tinyq queue (model.py), with its
settings (params.py), its reader's actions, its optional behaviours (delivery, deploy, heartbeat,
poison, retry, libraries), its levels, its picture, view and jobs table, and its clock of
0.1-second ticks (ticks.py)."""
from .model import LiveQueue

__all__ = ["LiveQueue"]
