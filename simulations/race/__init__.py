"""race: three workers claiming jobs a statement at a time (model.py), its picture and view."""
from .model import Race

__all__ = ["Race"]
