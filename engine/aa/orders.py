"""Orders as values, and their canonical text (``parse_order`` / ``format_order``).

Every order belongs to the seat (power) that gives it.  Spaces are written by name
(any case; sea zones also ``sz5`` or ``5``; victory-city labels such as ``Berlin``);
units as counts (``2 inf, 1 tank``) or ids (``#12, #13``), or both.  A path is a list
of spaces joined by ``->``; a move written with only its start and end gets the first
legal path the engine finds, and the canonical text spells the whole path out.

================================  =====================================================
``done``                          end the current phase (or step)
``research 2 chart 1``            A-7: buy researchers, roll; a 6 rolls on chart 1
``buy 3 inf, 1 tank; repair       A-8: the purchase (replaces an earlier one this phase)
Germany 2``
``first China``                   A-5.3: who moves and fights first in the US turn
``move 2 inf, 1 tank: A -> B``    A-9, A-11: move units along a path
``bomb 2 bom: A -> ... -> X``     A-10.2: bombers on a strategic raid against X
``para 1 inf: A -> ... -> X``     A-7.6: bombers carry infantry from A and drop it on X
``load 1 inf: A -> 5 Sea Zone``   A-14.6: board transports (``onto #12`` names them)
``unload 1 inf: 5 Sea Zone -> X`` A-14.6, A-9.12: leave transports (phase 3: assault X)
``rocket A -> X``                 A-7.5: a rocket from A's AA gun at X's factory
``battle X``                      A-10.1: fight the battle in X next
``casualties 2 inf, 1 bat``       A-10.14: the units that take the hits
``continue`` / ``retreat X``      A-10.9, A-10.15: press on or retreat (``retreat``
                                  alone: aircraft only)
``submerge 2``                    A-10.6: that many submarines leave the battle
``land 1 fig: 5 Sea Zone -> X``   A-11.6: a fighter whose carrier sank
``place 3 inf: Germany``          A-12: mobilise (``place 1 des: Germany -> 5 Sea Zone``)
``ool attack inf, art, tank``     A-10.14: this power's default order of loss
``auto on``                       take casualties by the default order without asking
``concede``                       A-3.3 ruling: this power votes to concede
================================  =====================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Union

from engine.aa.board import board
from engine.aa.units import KINDS, SHORT, HasKind, counts_tuple, format_counts, kind_counts, parse_counts, resolve_kind
from engine.core.errors import IllegalOrder, NotationError

if TYPE_CHECKING:
    from engine.aa.state import AAState


@dataclass(frozen=True)
class Sel:
    """Which units: counts by kind and/or explicit ids."""

    counts: tuple[tuple[str, int], ...] = ()
    ids: tuple[int, ...] = ()

    @classmethod
    def of(cls, units: Iterable[HasKind]) -> "Sel":
        """The selection naming exactly these units by kind."""
        return cls(counts_tuple(kind_counts(units)))

    @property
    def empty(self) -> bool:
        return not self.counts and not self.ids

    def size(self) -> int:
        return sum(c for _, c in self.counts) + len(self.ids)


@dataclass(frozen=True)
class Done:
    power: str


@dataclass(frozen=True)
class Research:
    power: str
    buy: int
    chart: int | None = None


@dataclass(frozen=True)
class Buy:
    power: str
    units: tuple[tuple[str, int], ...] = ()
    repairs: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class First:
    power: str
    who: str


@dataclass(frozen=True)
class Move:
    power: str
    sel: Sel
    path: tuple[str, ...]
    verb: str = "move"  # "move" | "bomb" | "para"


@dataclass(frozen=True)
class Load:
    power: str
    sel: Sel
    frm: str
    zone: str
    onto: tuple[int, ...] = ()


@dataclass(frozen=True)
class Unload:
    power: str
    sel: Sel
    zone: str
    to: str


@dataclass(frozen=True)
class Rocket:
    power: str
    frm: str
    target: str


@dataclass(frozen=True)
class Fight:
    power: str
    where: str


@dataclass(frozen=True)
class Casualties:
    power: str
    sel: Sel


@dataclass(frozen=True)
class Continue:
    power: str


@dataclass(frozen=True)
class Retreat:
    power: str
    to: str | None


@dataclass(frozen=True)
class Submerge:
    power: str
    count: int


@dataclass(frozen=True)
class Land:
    power: str
    sel: Sel
    frm: str
    to: str


@dataclass(frozen=True)
class Place:
    power: str
    units: tuple[tuple[str, int], ...]
    at: str
    zone: str | None = None


@dataclass(frozen=True)
class LossOrder:
    power: str
    role: str  # "attack" | "defense" | "both"
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class Auto:
    power: str
    on: bool


@dataclass(frozen=True)
class Concede:
    power: str


Order = Union[Done, Research, Buy, First, Move, Load, Unload, Rocket, Fight, Casualties, Continue,
              Retreat, Submerge, Land, Place, LossOrder, Auto, Concede]

# Verbs a player might try to pass IPCs to another power with: refused by name.
IPC_TRANSFERS = ("give", "lend", "transfer", "send", "donate", "pay")
EXAMPLES = ("done", "buy 3 inf, 1 tank", "move 2 inf: Germany -> Poland", "battle Poland",
            "casualties 2 inf", "continue", "retreat Poland", "place 3 inf: Germany")


# --------------------------------------------------------------------------- parsing


def _space(text: str) -> str:
    return board().resolve(text)


def parse_sel(text: str) -> Sel:
    counts: dict[str, int] = {}
    ids: list[int] = []
    plain: list[str] = []
    for item in re.split(r"[,+]", text):
        item = item.strip()
        if not item:
            continue
        if item.startswith("#"):
            for part in item.split():
                m = re.fullmatch(r"#(\d+)", part)
                if m is None:
                    raise NotationError(f"Cannot read '{part}' as a unit id.", legal=["#12"])
                ids.append(int(m.group(1)))
        else:
            plain.append(item)
    if plain:
        counts = parse_counts(", ".join(plain))
    if len(set(ids)) != len(ids):
        raise NotationError("A unit id is listed twice.")
    return Sel(tuple((k, counts[k]) for k in KINDS if k in counts), tuple(sorted(ids)))


def format_sel(sel: Sel) -> str:
    parts = []
    if sel.counts:
        parts.append(format_counts(sel.counts))
    if sel.ids:
        parts.append(", ".join(f"#{i}" for i in sel.ids))
    return ", ".join(parts) if parts else "none"


def _path(text: str) -> tuple[str, ...]:
    parts = [p for p in re.split(r"\s*(?:->|→|>)\s*", text.strip()) if p.strip()]
    if len(parts) < 2:
        raise NotationError("A path needs a start and an end joined by '->'.",
                            legal=["Germany -> Poland", "5 Sea Zone -> 6 Sea Zone"])
    return tuple(_space(p) for p in parts)


def _units_and_path(rest: str, verb: str) -> tuple[Sel, tuple[str, ...]]:
    if ":" not in rest:
        raise NotationError(f"Write '{verb} <units>: <from> -> <to>'.",
                            legal=[f"{verb} 2 inf: Germany -> Poland"])
    units, path = rest.split(":", 1)
    sel = parse_sel(units)
    if sel.empty:
        raise NotationError("Name at least one unit.", legal=["2 inf", "#12"])
    return sel, _path(path)


def parse_order(state: "AAState | None", seat: str, text: str) -> Order:
    """Read an order of ``seat``.  With a state, a move's path is completed (only its
    ends given); without one, the path must be spelled out step by step."""
    raw = text.strip()
    if not raw:
        raise NotationError("Empty order.", legal=EXAMPLES)
    word, _, rest = raw.partition(" ")
    verb = word.lower()
    rest = rest.strip()
    if verb in ("done", "end", "pass"):
        _no_rest(rest, verb)
        return Done(seat)
    if verb == "research":
        m = re.fullmatch(r"(\d+)(?:\s+chart\s+([12]))?", rest, re.IGNORECASE)
        if m is None:
            raise NotationError("Write 'research <researchers to buy> chart <1|2>'.",
                                legal=["research 2 chart 1", "research 0 chart 2"])
        return Research(seat, int(m.group(1)), int(m.group(2)) if m.group(2) else None)
    if verb == "buy":
        return _buy(seat, rest)
    if verb == "first":
        who = rest.strip()
        names = {"china": "China", "us": "United States", "usa": "United States",
                 "unitedstates": "United States", "america": "United States"}
        key = re.sub(r"[\s.]+", "", who.lower())
        if key not in names:
            raise NotationError("Say who moves and fights first.", legal=["first China", "first United States"])
        return First(seat, names[key])
    if verb in ("move", "bomb", "para"):
        sel, path = _units_and_path(rest, verb)
        if state is not None and len(path) == 2 and path[1] not in board().adj[path[0]]:
            from engine.aa.movement import find_path

            path = find_path(state, Move(seat, sel, path, verb))
        return Move(seat, sel, path, verb)
    if verb == "load":
        onto: tuple[int, ...] = ()
        m = re.search(r"\s+onto\s+(.+)$", rest, re.IGNORECASE)
        if m:
            onto = parse_sel(m.group(1)).ids
            if not onto:
                raise NotationError("Name the transports by id.", legal=["onto #12", "onto #12, #13"])
            rest = rest[: m.start()]
        sel, path = _units_and_path(rest, verb)
        if len(path) != 2:
            raise NotationError("Load from one territory into one sea zone.",
                                legal=["load 1 inf: Germany -> 5 Sea Zone"])
        return Load(seat, sel, path[0], path[1], tuple(sorted(onto)))
    if verb in ("unload", "land"):
        sel, path = _units_and_path(rest, verb)
        if len(path) != 2:
            raise NotationError(f"'{verb}' goes from one space to one adjacent space.",
                                legal=[f"{verb} 1 inf: 5 Sea Zone -> Norway"])
        return Unload(seat, sel, path[0], path[1]) if verb == "unload" else Land(seat, sel, path[0], path[1])
    if verb == "rocket":
        path = _path(rest)
        if len(path) != 2:
            raise NotationError("Write 'rocket <AA gun territory> -> <factory territory>'.")
        return Rocket(seat, path[0], path[1])
    if verb in ("battle", "fight"):
        if not rest:
            raise NotationError("Name the space of the battle.", legal=["battle Poland"])
        return Fight(seat, _space(rest))
    if verb == "casualties":
        if rest.lower() in ("none", "nothing", "-"):
            return Casualties(seat, Sel())
        return Casualties(seat, parse_sel(rest))
    if verb in ("continue", "press"):
        _no_rest(rest, verb)
        return Continue(seat)
    if verb == "retreat":
        return Retreat(seat, _space(rest) if rest else None)
    if verb == "submerge":
        m = re.fullmatch(r"(\d+)(?:\s*(?:sub|subs|submarines?))?", rest, re.IGNORECASE)
        if m is None:
            raise NotationError("Write 'submerge <number of submarines>'.", legal=["submerge 2", "submerge 0"])
        return Submerge(seat, int(m.group(1)))
    if verb == "place":
        if ":" not in rest:
            raise NotationError("Write 'place <units>: <factory territory>[ -> <sea zone>]'.",
                                legal=["place 3 inf: Germany", "place 1 des: Germany -> 5 Sea Zone"])
        units, where = rest.split(":", 1)
        counts = parse_counts(units)
        if not counts:
            raise NotationError("Name the units to place.", legal=["place 3 inf: Germany"])
        spots = [p for p in re.split(r"\s*(?:->|→|>)\s*", where.strip()) if p.strip()]
        if len(spots) not in (1, 2):
            raise NotationError("Place at a territory, or from it into an adjacent sea zone.")
        return Place(seat, tuple(counts.items()), _space(spots[0]),
                     _space(spots[1]) if len(spots) == 2 else None)
    if verb in ("ool", "order-of-loss"):
        role = "both"
        m = re.match(r"(attack|defense|defence)\b\s*:?\s*(.*)$", rest, re.IGNORECASE)
        if m:
            role = "attack" if m.group(1).lower() == "attack" else "defense"
            rest = m.group(2)
        kinds: list[str] = []
        for w in re.split(r"[,;>]+", rest):
            if w.strip():
                k = resolve_kind(w)
                if k in kinds:
                    raise NotationError(f"'{w.strip()}' appears twice in the order of loss.")
                kinds.append(k)
        return LossOrder(seat, role, tuple(kinds))
    if verb == "auto":
        if rest.lower() not in ("on", "off"):
            raise NotationError("Write 'auto on' or 'auto off'.", legal=["auto on", "auto off"])
        return Auto(seat, rest.lower() == "on")
    if verb == "concede":
        _no_rest(rest, verb)
        return Concede(seat)
    if verb in IPC_TRANSFERS:
        raise IllegalOrder("IPCs are never lent or given to another power, allies included (A-8.3): "
                           "each power spends its own on its own purchase.", legal=["buy 3 inf, 1 tank", "done"])
    raise NotationError(f"Unknown order '{word}'.", legal=EXAMPLES)


def _no_rest(rest: str, verb: str) -> None:
    if rest:
        raise NotationError(f"'{verb}' takes nothing after it.", legal=[verb])


def _buy(seat: str, rest: str) -> Buy:
    parts = [p.strip() for p in rest.split(";")]
    units = parse_counts(parts[0]) if parts else {}
    repairs: dict[str, int] = {}
    for p in parts[1:]:
        if not p:
            continue
        m = re.fullmatch(r"repair\s+(.+?)\s+(\d+)", p, re.IGNORECASE)
        if m is None:
            raise NotationError("Write repairs as 'repair <territory> <markers>'.",
                                legal=["buy 3 inf; repair Germany 2"])
        t = _space(m.group(1))
        repairs[t] = repairs.get(t, 0) + int(m.group(2))
    return Buy(seat, tuple(units.items()), tuple(sorted(repairs.items())))


# --------------------------------------------------------------------------- printing


def format_order(order: Order) -> str:
    if isinstance(order, Done):
        return "done"
    if isinstance(order, Research):
        return f"research {order.buy}" + (f" chart {order.chart}" if order.chart else "")
    if isinstance(order, Buy):
        text = "buy " + format_counts(order.units)
        for t, n in order.repairs:
            text += f"; repair {t} {n}"
        return text
    if isinstance(order, First):
        return f"first {order.who}"
    if isinstance(order, Move):
        return f"{order.verb} {format_sel(order.sel)}: {' -> '.join(order.path)}"
    if isinstance(order, Load):
        text = f"load {format_sel(order.sel)}: {order.frm} -> {order.zone}"
        if order.onto:
            text += " onto " + ", ".join(f"#{i}" for i in order.onto)
        return text
    if isinstance(order, Unload):
        return f"unload {format_sel(order.sel)}: {order.zone} -> {order.to}"
    if isinstance(order, Land):
        return f"land {format_sel(order.sel)}: {order.frm} -> {order.to}"
    if isinstance(order, Rocket):
        return f"rocket {order.frm} -> {order.target}"
    if isinstance(order, Fight):
        return f"battle {order.where}"
    if isinstance(order, Casualties):
        return f"casualties {format_sel(order.sel)}"
    if isinstance(order, Continue):
        return "continue"
    if isinstance(order, Retreat):
        return "retreat" + (f" {order.to}" if order.to else "")
    if isinstance(order, Submerge):
        return f"submerge {order.count}"
    if isinstance(order, Place):
        return f"place {format_counts(order.units)}: {order.at}" + (f" -> {order.zone}" if order.zone else "")
    if isinstance(order, LossOrder):
        role = "" if order.role == "both" else order.role + " "
        return f"ool {role}{', '.join(SHORT[k] for k in order.kinds)}".rstrip()
    if isinstance(order, Auto):
        return "auto " + ("on" if order.on else "off")
    if isinstance(order, Concede):
        return "concede"
    raise TypeError(f"not an order: {order!r}")
