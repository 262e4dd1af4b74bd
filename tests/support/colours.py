"""Colours as the browser reports them, and WCAG's contrast ratio between two of them."""
import re


def rgb(css: str) -> tuple:
    """'rgb(12, 34, 56)' or 'rgba(12, 34, 56, 0.5)' -> (12, 34, 56); the alpha is dropped."""
    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", css)[:3])


def contrast(a: tuple, b: tuple) -> float:
    """WCAG's contrast ratio of two (r, g, b) colours, 1 to 21:
    https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio"""
    def luminance(colour):
        linear = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
                  for v in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
