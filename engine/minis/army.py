"""M-2 Army building: reading a list, its cost, and whether it is legal.

``army sherman, 2 garand, bazooka`` names cards by key, name or a unique part of the
name; a number in front repeats the card.  The list is checked against the scenario
(M-2.1, M-2.2 points and unit count; M-1.4 side; M-2.3 historical limits and M-2.4
year, when the scenario or options turn them on).  Ruling: an army needs at least one
unit.  Historical groups are data (``data/historical.json``), and so are the short
names that would match several cards (``data/aliases.json``: "sherman" is the M4A1).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Mapping

from engine.core.errors import NotationError
from engine.minis.catalogue import Catalogue
from engine.minis.model import UnitCard
from engine.minis.scenario import Scenario

_COUNT = re.compile(r"^(?:(\d{1,2})\s*[x×]?\s+|(\d{1,2})[x×])?(.*?)(?:\s+[x×](\d{1,2}))?$", re.IGNORECASE)


def find_card(cards: Mapping[str, UnitCard], name: str) -> UnitCard:
    """The card a player means by ``name``: key, name, short name or a unique part of
    the name, as in the catalogue (``Catalogue.find``); UnknownName lists candidates."""
    key = name.strip().lower()
    if key in cards:
        return cards[key]
    alias = _aliases().get(" ".join(re.sub(r"[^a-z0-9]+", " ", key).split()))
    if alias is not None and alias in cards:
        return cards[alias]
    return Catalogue(list(cards.values())).find(name)


@lru_cache(maxsize=1)
def _aliases() -> dict[str, str]:
    text = resources.files("engine.minis").joinpath("data", "aliases.json").read_text("utf-8")
    return dict(json.loads(text)["aliases"])


def parse_army_text(cards: Mapping[str, UnitCard], text: str) -> tuple[str, ...]:
    """Card keys in list order for ``sherman, 2 garand, bazooka`` (empty text: no units)."""
    out: list[str] = []
    for part in re.split(r"[,;\n]+", text):
        entry = part.strip()
        if not entry:
            continue
        m = _COUNT.match(entry)
        assert m is not None
        count_text = m.group(1) or m.group(2) or m.group(4)
        count = int(count_text) if count_text else 1
        if not 1 <= count <= 15:
            raise NotationError(f"'{entry}': a count must be 1 to 15.")
        card = find_card(cards, m.group(3))
        out.extend([card.key] * count)
    return tuple(out)


@lru_cache(maxsize=1)
def _historical() -> tuple[tuple[frozenset[str], ...], dict[str, str]]:
    text = resources.files("engine.minis").joinpath("data", "historical.json").read_text("utf-8")
    doc = json.loads(text)
    groups = tuple(frozenset(g) for g in doc["groups"])
    return groups, dict(doc["aliases"])


def nation_group(nation: str) -> frozenset[str]:
    """M-2.3: the nations that may share an army with ``nation``."""
    groups, aliases = _historical()
    name = aliases.get(nation.strip(), nation.strip())
    for g in groups:
        if name in g:
            return g
    return frozenset({name})


def army_cost(cards: Mapping[str, UnitCard], keys: tuple[str, ...]) -> int:
    return sum(cards[k].cost for k in keys)


def army_problems(cards: Mapping[str, UnitCard], scenario: Scenario, side: str,
                  keys: tuple[str, ...]) -> list[str]:
    """Why this list is not a legal army for ``side`` (empty when it is)."""
    problems: list[str] = []
    limits = scenario.armies[side]
    if not keys:
        problems.append("the army has no units")
    if len(keys) > limits.units:
        problems.append(f"{len(keys)} units, more than {limits.units} (M-2.1)")
    cost = army_cost(cards, keys)
    if cost > limits.points:
        problems.append(f"{cost} points, more than {limits.points} (M-2.1, M-2.2)")
    for k in dict.fromkeys(keys):
        c = cards[k]
        if c.side != side:
            problems.append(f"{c.name} fights for the {c.side}, not the {side} (M-1.4)")
        if scenario.year is not None and c.year > scenario.year:
            problems.append(f"{c.name} ({c.year}) is later than {scenario.year} (M-2.4)")
    if scenario.historical and keys:
        nations = {cards[k].nation for k in keys}
        first = next(iter(sorted(nations)))
        group = nation_group(first)
        _, aliases = _historical()
        outside = sorted(n for n in nations if aliases.get(n, n) not in group)
        if outside:
            problems.append("historical limits (M-2.3): " + ", ".join(sorted(nations)) +
                            " may not share an army")
    return problems
