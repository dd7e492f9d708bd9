"""Unit kinds of the game: the odds calculator's profiles (one source of truth for every
combat value and cost, A-10, A-14) plus what only the game needs: movement, the
industrial complex, research charts (A-7), transport capacity (A-14.6).

Unit kinds are the calculator's canonical names (``"infantry"``, ``"aa gun"``,
``"battleship"`` …) and ``"factory"``.  Army texts are read and printed like the
calculator's (``"3 inf, 1 tank"``), with the factory added (``"1 factory"``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Mapping, Protocol

from engine.aa.board import read_data
from engine.core.errors import NotationError, UnknownName
from engine.odds.aa_units import AIR, LAND, SEA, UnitProfile, catalogue

FACTORY = "factory"
INFANTRY, ARTILLERY, TANK, AA_GUN = "infantry", "artillery", "tank", "aa gun"
FIGHTER, BOMBER = "fighter", "bomber"
SUBMARINE, TRANSPORT, DESTROYER, CRUISER, CARRIER, BATTLESHIP = (
    "submarine", "transport", "destroyer", "cruiser", "carrier", "battleship")
SURFACE_WARSHIPS = frozenset({BATTLESHIP, CARRIER, CRUISER, DESTROYER})

_DATA = read_data("units.json")
MOVE: Mapping[str, int] = {str(k): int(v) for k, v in _DATA["move"].items()}
LONG_RANGE: Mapping[str, int] = {str(k): int(v) for k, v in _DATA["long_range_move"].items()}
FACTORY_COST = int(_DATA["factory_cost"])
RESEARCHER_COST = int(_DATA["researcher_cost"])
CHARTS: Mapping[int, tuple[str, ...]] = {int(k): tuple(v) for k, v in _DATA["charts"].items()}
TECHS: tuple[str, ...] = CHARTS[1] + CHARTS[2]
_TECH_ALIASES: dict[str, str] = {}
for _name, _aliases in _DATA["tech_aliases"].items():
    for _a in (_name, *_aliases):
        _TECH_ALIASES[re.sub(r"[\s\-_.]+", "", _a.lower())] = _name

# Technology names as the calculator knows them (the others act only in the game).
CALC_TECHS = frozenset(t.name for t in catalogue().technologies)

# The game is Anniversary's: the calculator's units of other rules sets only (the
# Global-1940 house rules' Sherman, T-34, Tiger) are not among its kinds, nor its
# damaged battleship (a battleship of the game with one hit taken, Unit.damage).
_GAME_UNITS = [u for u in catalogue().units if not u.rules and not u.damaged_of]
KINDS: tuple[str, ...] = tuple(u.name for u in _GAME_UNITS) + (FACTORY,)
SHORT: dict[str, str] = {u.name: u.short for u in _GAME_UNITS} | {FACTORY: "factory"}
_FACTORY_WORDS = {"factory", "factories", "ic", "complex", "industrialcomplex", "industrialcomplexes"}


def resolve_tech(word: str) -> str:
    k = re.sub(r"[\s\-_.]+", "", word.lower())
    if k in _TECH_ALIASES:
        return _TECH_ALIASES[k]
    raise UnknownName(f"Unknown breakthrough '{word.strip()}'.", legal=TECHS)


@lru_cache(maxsize=256)
def profiles(techs: frozenset[str] = frozenset()) -> Mapping[str, UnitProfile]:
    """Every combat profile with a power's breakthroughs applied (A-7)."""
    return catalogue().with_techs(sorted(t for t in techs if t in CALC_TECHS))


def profile(kind: str, techs: frozenset[str] = frozenset()) -> UnitProfile:
    return profiles(techs)[kind]


def domain(kind: str) -> str:
    if kind == FACTORY:
        return LAND
    return profiles()[kind].domain


def is_land(kind: str) -> bool:
    return kind != FACTORY and domain(kind) == LAND


def is_air(kind: str) -> bool:
    return kind != FACTORY and domain(kind) == AIR


def is_sea(kind: str) -> bool:
    return kind != FACTORY and domain(kind) == SEA


def move_of(kind: str, techs: frozenset[str] = frozenset()) -> int:
    if "long-range aircraft" in techs and kind in LONG_RANGE:
        return LONG_RANGE[kind]
    return MOVE.get(kind, 0)


def cost_of(kind: str, techs: frozenset[str] = frozenset()) -> int:
    if kind == FACTORY:
        return FACTORY_COST
    return profiles(techs)[kind].cost


def resolve_kind(word: str) -> str:
    k = re.sub(r"[\s_\-.']+", "", word.lower())
    if k in _FACTORY_WORDS:
        return FACTORY
    try:
        kind = catalogue().resolve(word)
    except UnknownName:
        kind = ""
    if kind not in KINDS:
        raise UnknownName(f"Unknown unit '{word.strip()}'.", legal=[SHORT[n] for n in KINDS])
    return kind


_ITEM = re.compile(r"^\s*(\d+)?\s*(?:[x×]\s*)?([a-z][a-z .'\-_]*?)\s*$", re.IGNORECASE)


def parse_counts(text: str) -> dict[str, int]:
    """``"3 inf, 1 tank"`` → ``{"infantry": 3, "tank": 1}`` (catalogue order, factory last)."""
    out: dict[str, int] = {}
    if text.strip().lower() in ("", "nothing", "none", "-"):
        return out
    for item in re.split(r"[,+]", text):
        if not item.strip():
            continue
        m = _ITEM.match(item)
        if m is None:
            raise NotationError(f"Cannot read '{item.strip()}' as a number of units.",
                                legal=["3 inf", "2 tank", "1 fig", "1 factory"])
        kind = resolve_kind(m.group(2))
        count = int(m.group(1) or 1)
        if count:
            out[kind] = out.get(kind, 0) + count
    return {k: out[k] for k in KINDS if k in out}


def format_counts(counts: Mapping[str, int] | Iterable[tuple[str, int]], empty: str = "nothing") -> str:
    items = dict(counts.items()) if isinstance(counts, Mapping) else dict(counts)
    parts = [f"{items[k]} {SHORT[k]}" for k in KINDS if items.get(k, 0) > 0]
    return ", ".join(parts) if parts else empty


class HasKind(Protocol):
    @property
    def kind(self) -> str: ...


def kind_counts(units: Iterable[HasKind]) -> dict[str, int]:
    """How many units of each kind, in the order met."""
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return out


def counts_tuple(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((k, counts[k]) for k in KINDS if counts.get(k, 0) > 0)
