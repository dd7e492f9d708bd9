"""A theme: colours and sizes as data (JSON shipped inside a package), one per game.

Sizes are multiples of one unit ``R`` (the hex radius on a hex board, a base unit on any
other picture), so a whole picture scales with one number.  Colours are ``#rrggbb`` or
``#rrggbbaa``.

The generic pieces (frame, title bar, legend, roster, captions) read the keys listed in
:data:`CORE_SIZES` and :data:`CORE_COLOURS`; :file:`render/core/theme.json` holds
defaults for all of them, and a game's theme file overrides what it wants and adds its
own sections (Minis: terrain, sides, nations).  A game theme is loaded with
:func:`load_theme_data` (defaults merged in) and usually wrapped in its own dataclass
extending :class:`Theme`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from render.core.colour import RGB, RGBA, parse_colour, rgb

# Keys the generic pieces read (all present in render/core/theme.json).
CORE_SIZES = (
    "frame_left", "frame_right", "frame_top", "frame_bottom", "frame_font",
    "title_height", "title_font", "panel_font", "panel_line", "panel_pad",
    "hex_label_font", "hex_label_top", "grid_width",
)
CORE_COLOURS = (
    "frame", "frame_text", "title_bar", "title_text", "title_accent", "panel", "panel_text",
    "panel_dim", "grid", "outline",
)


@dataclass(frozen=True)
class Theme:
    """Colours and sizes of one game's pictures."""

    unit_px: int  # R in pixels at the default size
    supersample: int  # static layers are drawn this many times larger, then reduced
    sizes: Mapping[str, float]
    colours: Mapping[str, RGBA]
    name: str = "core"
    extra_colours: tuple[RGB, ...] = field(default=())  # more colours drawn flat (a game's own sections)

    def size(self, name: str, unit: float) -> float:
        """Size ``name`` in pixels for unit ``unit`` (the hex radius R on boards)."""
        return self.sizes[name] * unit

    def colour(self, name: str) -> RGBA:
        return self.colours[name]

    def flat_colours(self) -> tuple[RGB, ...]:
        """Every opaque colour this theme draws as a flat fill or ink, without
        repetition: the colours the palette encoder keeps exactly."""
        out: dict[RGB, None] = {}
        for c in self.colours.values():
            if c[3] == 255:
                out[rgb(c)] = None
        for c3 in self.extra_colours:
            out[c3] = None
        return tuple(out)


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``, one level deep for mappings (sizes, colours …)."""
    out: dict[str, Any] = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            inner = dict(out[k])
            inner.update(v)
            out[k] = inner
        else:
            out[k] = v
    return out


@lru_cache(maxsize=None)
def _core_data() -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads((resources.files("render.core") / "theme.json").read_text("utf-8"))
    return data


def load_theme_data(package: str, resource: str = "theme.json") -> dict[str, Any]:
    """The JSON theme of ``package`` merged over the core defaults."""
    text = (resources.files(package) / resource).read_text(encoding="utf-8")
    return merge(_core_data(), json.loads(text))


def base_fields(data: Mapping[str, Any], *, name: str, extra: Iterable[RGB] = ()) -> dict[str, Any]:
    """The :class:`Theme` fields of a loaded theme (for a game's dataclass to extend)."""
    colours = {k: parse_colour(v) for k, v in data["colours"].items() if not k.startswith("_")}
    sizes = {k: float(v) for k, v in data["sizes"].items() if not k.startswith("_")}
    missing = [k for k in CORE_SIZES if k not in sizes] + [k for k in CORE_COLOURS if k not in colours]
    if missing:
        raise ValueError(f"theme {name!r} lacks {', '.join(missing)}")
    return {"unit_px": int(data["unit_px"]), "supersample": int(data["supersample"]),
            "sizes": MappingProxyType(sizes), "colours": MappingProxyType(colours), "name": name,
            "extra_colours": tuple(dict.fromkeys(extra))}


@lru_cache(maxsize=None)
def core_theme() -> Theme:
    """The defaults alone: for pictures that belong to no game (dice, captions)."""
    return Theme(**base_fields(_core_data(), name="core"))
