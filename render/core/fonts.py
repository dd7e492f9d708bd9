"""The fonts every image uses, shipped in ``render/core/fonts`` (DejaVu, Bitstream Vera
licence in ``render/core/fonts/LICENSE``) and loaded with importlib.resources, so a fresh
machine draws exactly the same glyphs as the one that made the reference images."""

from __future__ import annotations

import enum
from functools import lru_cache
from importlib import resources

from PIL import ImageFont


class Face(enum.Enum):
    SANS = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed.ttf"
    CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"


@lru_cache(maxsize=None)
def _font_bytes(face: Face) -> bytes:
    return (resources.files("render.core") / "fonts" / face.value).read_bytes()


@lru_cache(maxsize=256)
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels (the em size), cached."""
    if size < 1:
        raise ValueError(f"font size must be positive, got {size}")
    from io import BytesIO

    return ImageFont.truetype(BytesIO(_font_bytes(face)), size)


@lru_cache(maxsize=None)
def cap_ratio(face: Face) -> float:
    """Cap height / em size of ``face`` (measured on 'H' at a large size)."""
    big = font(face, 200)
    left, top, right, bottom = big.getbbox("H", anchor="ls")
    return (bottom - top) / 200


@lru_cache(maxsize=16384)
def text_width(face: Face, size: int, text: str) -> float:
    """The advance width of ``text`` in ``face`` at ``size`` (cached: labels repeat)."""
    return float(font(face, size).getlength(text))


def wrap_text(text: str, face: Face, size: int, width: float) -> list[str]:
    """Greedy word wrap of ``text`` to lines at most ``width`` pixels wide (a word wider
    than that stands alone on its line); no lines for blank text."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(face, size, f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
