"""The A&A Miniatures theme: ``render/minis/theme.json`` over the core defaults, with the
game's own sections — terrain styles, the two sides, nation colours and aliases, and
subtype → symbol overrides."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from render.core.colour import RGB, RGBA, parse_colour, rgb, text_on
from render.core.theme import Theme, base_fields, load_theme_data


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
class MinisTheme(Theme):
    terrain: Mapping[str, TerrainStyle] = field(default_factory=dict)
    sides: Mapping[str, SideStyle] = field(default_factory=dict)
    nations: Mapping[str, NationStyle] = field(default_factory=dict)
    nation_aliases: Mapping[str, str] = field(default_factory=dict)
    symbols: Mapping[str, str] = field(default_factory=dict)

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


@lru_cache(maxsize=None)
def theme() -> MinisTheme:
    """The packaged Minis theme."""
    data = load_theme_data("render.minis")
    terrain = {k: TerrainStyle(parse_colour(v["fill"]), parse_colour(v["detail"]), parse_colour(v["label"]))
               for k, v in data["terrain"].items()}
    sides = {k: SideStyle(k, v["name"], parse_colour(v["cap"]), parse_colour(v["cap_symbol"]),
                          parse_colour(v["fill"]), v["id_prefix"]) for k, v in data["sides"].items()}
    nations = {k: NationStyle(k, v["name"], v["side"], parse_colour(v["fill"])) for k, v in data["nations"].items()}
    extra: list[RGB] = []
    for t in terrain.values():
        extra += [rgb(t.fill), rgb(t.detail), rgb(t.label)]
    for s in sides.values():
        extra += [rgb(s.cap), rgb(s.cap_symbol), rgb(s.fill)]
    extra += [rgb(n.fill) for n in nations.values()]
    extra += [(16, 16, 16), (255, 255, 255)]  # unit numbers (text_on)
    return MinisTheme(**base_fields(data, name="minis", extra=extra),
                      terrain=MappingProxyType(terrain), sides=MappingProxyType(sides),
                      nations=MappingProxyType(nations),
                      nation_aliases=MappingProxyType(dict(data["nation_aliases"])),
                      symbols=MappingProxyType({k: v for k, v in data["symbols"].items() if not k.startswith("_")}))
