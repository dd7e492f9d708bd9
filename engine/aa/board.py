"""The Anniversary Edition board (A-2, A-3): spaces, connections, canals, distances.

Loaded once from ``data/map.json`` and validated: every connection joins two known
spaces, no connection is listed twice (either way round) and none joins a space to
itself, so the adjacency built from the list is symmetric; sea zones touch only sea
zones and land; canals join two adjacent sea zones and name land territories.

Names are the data's spellings (``"Karelia S.S.R."``, ``"5 Sea Zone"``).  Players may
also write a sea zone as ``5``, ``sz5``, ``sz 5`` or ``sea zone 5``, any name in any
case, and the board labels of victory cities (``Berlin`` = Germany, A-3.1).
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping

from engine.core.errors import DataError, UnknownName

AXIS, ALLIES = "axis", "allies"
LAND, SEA = "land", "sea"


@dataclass(frozen=True)
class Space:
    name: str
    kind: str  # "land" | "sea"
    ipc: int = 0
    original: str | None = None  # original controller (None: neutral or sea)
    victory_city: str | None = None  # the city's name
    capital_of: str | None = None  # the power whose capital this is
    neutral: bool = False  # impassable
    island: bool = False  # no passable land neighbour
    number: int | None = None  # sea zones: 1..65
    canal: str | None = None  # sea zones at either end of a canal

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA

    @property
    def is_land(self) -> bool:
        return self.kind == LAND


@dataclass(frozen=True)
class Canal:
    name: str
    zones: tuple[str, str]
    requires: tuple[str, ...]


@dataclass(frozen=True)
class PowerInfo:
    name: str
    side: str
    capital: str | None


def _key(text: str) -> str:
    return re.sub(r"[\s_\-.'’]+", "", text.lower())


class Board:
    """The map: look-ups by name, adjacency in data order, distances."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        try:
            self.powers: tuple[PowerInfo, ...] = tuple(
                PowerInfo(str(p["name"]), str(p["side"]), p.get("capital")) for p in raw["powers"]
            )
            spaces: list[Space] = []
            for t in raw["territories"]:
                if t["kind"] == LAND:
                    spaces.append(Space(
                        name=str(t["name"]), kind=LAND, ipc=int(t["ipc"]), original=t.get("original"),
                        victory_city=t.get("victory_city"), capital_of=t.get("capital_of"),
                        neutral=bool(t.get("neutral", False)), island=bool(t.get("island", False)),
                    ))
                elif t["kind"] == SEA:
                    spaces.append(Space(name=str(t["name"]), kind=SEA, number=int(t["number"]),
                                        canal=t.get("canal")))
                else:
                    raise DataError(f"Space {t['name']}: kind must be land or sea.")
            connections = [(str(a), str(b)) for a, b in raw["connections"]]
            canals = tuple(Canal(str(c["name"]), (str(c["zones"][0]), str(c["zones"][1])),
                                 tuple(str(x) for x in c["requires"])) for c in raw["canals"])
            china = raw["china"]
            self.china_territories: frozenset[str] = frozenset(china["territories"])
            self.china_movement: frozenset[str] = frozenset(china["movement"])
            self.china_passes_to: Mapping[str, str] = dict(china.get("passes_to", {}))
            aliases = {str(k): str(v) for k, v in raw.get("aliases", {}).items()}
            self.straits: tuple[Any, ...] = tuple(raw.get("straits", ()))
            self.convoy_zones: tuple[str, ...] = tuple(raw.get("convoy_zones", ()))
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise DataError(f"Bad map data: {err!r}") from None
        self.spaces: dict[str, Space] = {}
        for s in spaces:
            if s.name in self.spaces:
                raise DataError(f"Space {s.name} is listed twice.")
            self.spaces[s.name] = s
        self.names: tuple[str, ...] = tuple(s.name for s in spaces)
        self.order: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        power_names = {p.name for p in self.powers}
        for s in spaces:
            for who in (s.original, s.capital_of):
                if who is not None and who not in power_names:
                    raise DataError(f"Space {s.name} names an unknown power {who}.")
        self.connections: tuple[tuple[str, str], ...] = tuple(connections)
        adj: dict[str, list[str]] = {n: [] for n in self.names}
        seen: set[frozenset[str]] = set()
        for a, b in connections:
            if a not in self.spaces or b not in self.spaces:
                raise DataError(f"Connection {a}|{b} names an unknown space.")
            if a == b:
                raise DataError(f"Connection {a}|{b} joins a space to itself.")
            pair = frozenset((a, b))
            if pair in seen:
                raise DataError(f"Connection {a}|{b} is listed twice.")
            seen.add(pair)
            adj[a].append(b)
            adj[b].append(a)
        for a, near in adj.items():  # symmetric by construction; checked all the same
            for b in near:
                if a not in adj[b]:
                    raise DataError(f"Adjacency is not symmetric: {a} lists {b} but not back.")
        self.adj: dict[str, tuple[str, ...]] = {
            n: tuple(sorted(v, key=self.order.__getitem__)) for n, v in adj.items()
        }
        self.canals = canals
        self._canal_of: dict[frozenset[str], Canal] = {}
        for c in canals:
            a, b = c.zones
            if not (self.spaces[a].is_sea and self.spaces[b].is_sea and b in self.adj[a]):
                raise DataError(f"Canal {c.name} must join two adjacent sea zones.")
            for t in c.requires:
                if t not in self.spaces or not self.spaces[t].is_land:
                    raise DataError(f"Canal {c.name} requires an unknown territory {t}.")
            self._canal_of[frozenset(c.zones)] = c
        for t in self.china_movement | self.china_territories:
            if t not in self.spaces:
                raise DataError(f"China's area names an unknown territory {t}.")
        self._names: dict[str, str] = {}
        for n in self.names:
            self._names[_key(n)] = n
            s = self.spaces[n]
            if s.number is not None:
                for form in (str(s.number), f"sz{s.number}", f"seazone{s.number}", f"{s.number}sz"):
                    self._names[form] = n
        for alias, target in aliases.items():
            if target not in self.spaces:
                raise DataError(f"Alias {alias} names an unknown space {target}.")
            self._names.setdefault(_key(alias), target)
        self.aliases = aliases
        self.passable: tuple[str, ...] = tuple(n for n in self.names if not self.spaces[n].neutral)
        self._dist: dict[str, dict[str, int]] = {}
        self._power = {p.name: p for p in self.powers}

    # -- look-ups --------------------------------------------------------------------------

    def __contains__(self, name: object) -> bool:
        return name in self.spaces

    def space(self, name: str) -> Space:
        return self.spaces[name]

    def resolve(self, text: str) -> str:
        """The canonical name of a space written any accepted way."""
        k = _key(text)
        got = self._names.get(k)
        if got is None:
            raise UnknownName(f"There is no space '{text.strip()}' on the board.",
                              legal=self._close(text))
        return got

    def _close(self, text: str) -> list[str]:
        k = _key(text)
        hits = [n for n in self.names if k and k[:3] in _key(n)]
        return hits[:8] or ["Germany", "5 Sea Zone", "sz5"]

    def is_sea(self, name: str) -> bool:
        return self.spaces[name].kind == SEA

    def is_land(self, name: str) -> bool:
        return self.spaces[name].kind == LAND

    def side_of(self, power: str) -> str:
        return self._power[power].side

    def capital_of(self, power: str) -> str | None:
        return self._power[power].capital

    @property
    def power_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.powers)

    def canal(self, a: str, b: str) -> Canal | None:
        return self._canal_of.get(frozenset((a, b)))

    def coastal(self, territory: str) -> tuple[str, ...]:
        return tuple(n for n in self.adj[territory] if self.is_sea(n))

    def victory_cities(self) -> tuple[str, ...]:
        return tuple(n for n in self.names if self.spaces[n].victory_city)

    def capitals(self) -> dict[str, str]:
        return {p.name: p.capital for p in self.powers if p.capital}

    # -- distances -------------------------------------------------------------------------

    def distances(self, start: str) -> dict[str, int]:
        """Steps from ``start`` to every passable space (air movement: land and sea alike,
        never through a neutral, A-2.4, A-9.10)."""
        got = self._dist.get(start)
        if got is None:
            got = self._dist[start] = self.bfs(start, lambda n: not self.spaces[n].neutral)
        return got

    def distance(self, a: str, b: str) -> int:
        return self.distances(a).get(b, 10**6)

    def bfs(self, start: str, allowed: Any, limit: int | None = None) -> dict[str, int]:
        out = {start: 0}
        queue = deque([start])
        while queue:
            n = queue.popleft()
            d = out[n]
            if limit is not None and d >= limit:
                continue
            for m in self.adj[n]:
                if m not in out and allowed(m):
                    out[m] = d + 1
                    queue.append(m)
        return out

    def sea_distances(self, start: str) -> dict[str, int]:
        key = "sea:" + start
        got = self._dist.get(key)
        if got is None:
            got = self._dist[key] = self.bfs(start, self.is_sea)
        return got

    def within(self, start: str, steps: int) -> Iterable[str]:
        return (n for n, d in self.distances(start).items() if d <= steps)


def _read(name: str) -> Any:
    text = resources.files("engine.aa").joinpath("data", name).read_text("utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(f"{name} is not valid JSON: {err}") from None


@lru_cache(maxsize=1)
def board() -> Board:
    """The packaged Anniversary Edition board."""
    return Board(_read("map.json"))


def read_data(name: str) -> Any:
    return _read(name)
