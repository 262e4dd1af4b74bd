"""crash-timing: a worker crashing at each point of a job's handling (model.py), with its
policies, options, batches, producer, chapter levels, picture and view."""
from .model import CrashTiming

__all__ = ["CrashTiming"]
