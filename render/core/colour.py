"""Colours: parsing ``#rrggbb[aa]``, contrast (WCAG), and the alignment rule that lets the
palette encoder keep every theme colour exactly (see :mod:`render.core.encode`)."""

from __future__ import annotations

import re

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

_HEX = re.compile(r"^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$")


def parse_colour(text: str) -> RGBA:
    m = _HEX.match(text)
    if not m:
        raise ValueError(f"bad colour {text!r} (want #rrggbb or #rrggbbaa)")
    v = m.group(1)
    a = int(m.group(2), 16) if m.group(2) else 255
    return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16), a


def rgb(c: RGB | RGBA) -> RGB:
    return c[0], c[1], c[2]


def luminance(c: RGB | RGBA) -> float:
    """Relative luminance (WCAG) of an sRGB colour, 0 (black) … 1 (white)."""

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def contrast(a: RGB | RGBA, b: RGB | RGBA) -> float:
    """WCAG contrast ratio between two colours (1 … 21)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


DARK_TEXT: RGB = (16, 16, 16)
LIGHT_TEXT: RGB = (255, 255, 255)


def text_on(fill: RGB | RGBA) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    return DARK_TEXT if contrast(fill, DARK_TEXT) >= contrast(fill, LIGHT_TEXT) else LIGHT_TEXT


def mix(a: RGBA, b: RGBA, t: float) -> RGBA:
    """``a`` moved a share ``t`` towards ``b`` (opaque)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t), 255)


def aligned(c: RGB | RGBA) -> bool:
    """Every channel a multiple of 4 (or 255).  Pillow maps a pixel to a palette entry
    through a 64-level-per-channel cache, i.e. it looks for the entry nearest to the
    pixel's colour with its two low bits cleared; an aligned colour is its own cache
    point, so a palette holding it maps it to itself exactly (:mod:`render.core.encode`)."""
    return all(v % 4 == 0 or v == 255 for v in c[:3])
