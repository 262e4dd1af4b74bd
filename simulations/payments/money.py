"""Money in words, written one way everywhere the guide shows it: "$1,000", and "−$100"
below zero (a true minus sign before the dollar sign, never "$-100").

The payments snapshot carries amounts already written by money(); the widget and the
chapter show those words as they are, so nothing else formats a dollar amount.
"""

MINUS = "\u2212"   # −, the minus sign (U+2212), not the hyphen


def money(dollars):
    """Whole dollars (an int) as words: money(1000) -> "$1,000", money(-100) -> "−$100".
    Raises TypeError for anything but an int (a bool is not an amount)."""
    if isinstance(dollars, bool) or not isinstance(dollars, int):
        raise TypeError(f"money takes whole dollars as an int, got {dollars!r}")
    return f"${dollars:,}" if dollars >= 0 else f"{MINUS}${-dollars:,}"
