"""Colours and sizes, read from the packaged ``theme.json`` (data, not code).

Colours are ``#rrggbb`` or ``#rrggbbaa``; sizes are multiples of the hex radius R so
the whole picture scales with one number.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

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


def rgb(c: RGBA) -> RGB:
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


def text_on(fill: RGB | RGBA) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    return (16, 16, 16) if contrast(fill, (16, 16, 16)) >= contrast(fill, (255, 255, 255)) else (255, 255, 255)


@dataclass(frozen=True)
class TerrainStyle:
    fill: RGBA
    detail: RGBA
    label: RGBA


@dataclass(frozen=True)
class SideStyle:
    key: str
    name: str
    cap: RGBA
    cap_symbol: RGBA
    fill: RGBA  # fallback body colour for nations the theme does not know
    id_prefix: str


@dataclass(frozen=True)
class NationStyle:
    key: str
    name: str
    side: str
    fill: RGBA

    @property
    def text(self) -> RGB:
        return text_on(self.fill)


@dataclass(frozen=True)
class Theme:
    hex_radius_px: int
    supersample: int
    sizes: Mapping[str, float]
    colours: Mapping[str, RGBA]
    terrain: Mapping[str, TerrainStyle]
    sides: Mapping[str, SideStyle]
    nations: Mapping[str, NationStyle]
    nation_aliases: Mapping[str, str]
    symbols: Mapping[str, str]

    def size(self, name: str, radius: float) -> float:
        """Size ``name`` in pixels for hex radius ``radius``."""
        return self.sizes[name] * radius

    def colour(self, name: str) -> RGBA:
        return self.colours[name]

    def nation(self, nation: str, side: str) -> NationStyle:
        """The style of ``nation`` (case and spacing ignored; aliases resolved); unknown
        nations get their side's fallback colour under their own name."""
        key = " ".join(nation.lower().split())
        key = self.nation_aliases.get(key, key)
        style = self.nations.get(key)
        if style is not None:
            return style
        fallback = self.sides[side].fill
        return NationStyle(key or side, nation.strip() or self.sides[side].name, side, fallback)


def _load(data: Mapping[str, Any]) -> Theme:
    colours = {k: parse_colour(v) for k, v in data["colours"].items()}
    terrain = {
        k: TerrainStyle(parse_colour(v["fill"]), parse_colour(v["detail"]), parse_colour(v["label"]))
        for k, v in data["terrain"].items()
    }
    sides = {
        k: SideStyle(k, v["name"], parse_colour(v["cap"]), parse_colour(v["cap_symbol"]),
                     parse_colour(v["fill"]), v["id_prefix"])
        for k, v in data["sides"].items()
    }
    nations = {
        k: NationStyle(k, v["name"], v["side"], parse_colour(v["fill"])) for k, v in data["nations"].items()
    }
    symbols = {k: v for k, v in data["symbols"].items() if not k.startswith("_")}
    sizes = {k: float(v) for k, v in data["sizes"].items()}
    return Theme(
        hex_radius_px=int(data["hex_radius_px"]),
        supersample=int(data["supersample"]),
        sizes=MappingProxyType(sizes),
        colours=MappingProxyType(colours),
        terrain=MappingProxyType(terrain),
        sides=MappingProxyType(sides),
        nations=MappingProxyType(nations),
        nation_aliases=MappingProxyType(dict(data["nation_aliases"])),
        symbols=MappingProxyType(symbols),
    )


@lru_cache(maxsize=None)
def theme() -> Theme:
    """The packaged theme (``render/theme.json``)."""
    text = (resources.files("render") / "theme.json").read_text(encoding="utf-8")
    return _load(json.loads(text))
