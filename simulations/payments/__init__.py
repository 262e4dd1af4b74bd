"""payments: charging cards through a flaky bank (model.py, bank.py) with idempotency keys, in
whole cents (money.py), with its picture and view."""
from .model import Payments

__all__ = ["Payments"]
