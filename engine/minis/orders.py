"""Orders as values, and their short text notation (python-chess style).

Every order carries the seat that issues it (``player``: "axis", "allies" or "system").
``parse_order(state, player, text)`` reads the text against the board (hex labels,
unit ids, card names, paths) and fails with a precise :class:`PlayerError`;
``format_order(order)`` prints text that parses back to the same order.

Notation (one order per line, case-insensitive)::

    army sherman, 2 garand, bazooka     ready
    first | second                      map 3 | objective K8 | end west|east
    deploy ax3 F7 [face NE]             deploy ax5 aboard ax3        done
    move ax3 F7 [via E6 F6] [face N]    face ax3 N
    attack ax3 al5 [cannon] [ap]        board al2 al1   dismount al2   demolish al4 [F8]
    fire al5 leaving|entering           hold
    standing al5 ask|hold|first|vehicles
    concede                             timeout hold|done|forfeit   (seat "system")
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.errors import NotationError, UnknownName
from engine.core.hexgrid import Hex
from engine.minis.model import SIDES
from engine.minis.state import STANDING_ORDERS

if TYPE_CHECKING:
    from engine.minis.state import MinisState

SYSTEM = "system"
SEATS: tuple[str, ...] = (*SIDES, SYSTEM)


@dataclass(frozen=True)
class Order:
    player: str


@dataclass(frozen=True)
class ArmyList(Order):
    cards: tuple[str, ...]  # card keys in list order (unit ids follow this order)


@dataclass(frozen=True)
class Ready(Order):
    pass


@dataclass(frozen=True)
class ChooseFirst(Order):
    """The toss or initiative winner decides who is first player (M-3.3, M-5.2)."""

    first: bool


@dataclass(frozen=True)
class ChooseMap(Order):
    configuration: int  # M-17.2: the defender picks the configuration


@dataclass(frozen=True)
class ChooseObjective(Order):
    hex: Hex


@dataclass(frozen=True)
class ChooseEnd(Order):
    end: str  # "west" / "east"


@dataclass(frozen=True)
class Deploy(Order):
    unit: str
    hex: Hex
    facing: int | None = None


@dataclass(frozen=True)
class DeployAboard(Order):
    unit: str
    transport: str


@dataclass(frozen=True)
class Done(Order):
    pass


@dataclass(frozen=True)
class Move(Order):
    unit: str
    path: tuple[Hex, ...]  # every hex entered, in order; the last one is the destination
    facing: int | None = None

    @property
    def destination(self) -> Hex:
        return self.path[-1]


@dataclass(frozen=True)
class Face(Order):
    unit: str
    facing: int


@dataclass(frozen=True)
class Attack(Order):
    unit: str
    target: str
    cannon: bool = False  # Additional Hull-Mounted Cannon
    ap: bool = False  # declare Armor-Piercing Rounds


@dataclass(frozen=True)
class Board(Order):
    unit: str
    transport: str


@dataclass(frozen=True)
class Dismount(Order):
    unit: str


@dataclass(frozen=True)
class Demolish(Order):
    unit: str
    across: Hex | None = None  # the hex on the other side of the bridge, if several


@dataclass(frozen=True)
class Fire(Order):
    unit: str
    where: str  # "leaving" or "entering"


@dataclass(frozen=True)
class Hold(Order):
    pass


@dataclass(frozen=True)
class Standing(Order):
    unit: str
    policy: str


@dataclass(frozen=True)
class Concede(Order):
    pass


@dataclass(frozen=True)
class Timeout(Order):
    policy: str  # "hold", "done", "forfeit"


TIMEOUTS = ("hold", "done", "forfeit")
VERBS = (
    "army", "ready", "first", "second", "map", "objective", "end", "deploy", "done", "move",
    "face", "attack", "board", "dismount", "demolish", "fire", "hold", "standing", "concede",
    "timeout",
)

# --------------------------------------------------------------------------- formatting


def format_order(order: Order, state: MinisState | None = None) -> str:
    """Text for an order; hexes use the board's labels (flat-top odd-q by default)."""
    from engine.core.hexgrid import Labels

    labels = state.map.labels if state is not None else Labels()
    lab = labels.label
    face = labels.direction_name
    if isinstance(order, ArmyList):
        return "army " + _format_army(order.cards) if order.cards else "army"
    if isinstance(order, Ready):
        return "ready"
    if isinstance(order, ChooseFirst):
        return "first" if order.first else "second"
    if isinstance(order, ChooseMap):
        return f"map {order.configuration}"
    if isinstance(order, ChooseObjective):
        return f"objective {lab(order.hex)}"
    if isinstance(order, ChooseEnd):
        return f"end {order.end}"
    if isinstance(order, Deploy):
        tail = f" face {face(order.facing)}" if order.facing is not None else ""
        return f"deploy {order.unit} {lab(order.hex)}{tail}"
    if isinstance(order, DeployAboard):
        return f"deploy {order.unit} aboard {order.transport}"
    if isinstance(order, Done):
        return "done"
    if isinstance(order, Move):
        text = f"move {order.unit} {lab(order.destination)}"
        if len(order.path) > 1:
            text += " via " + " ".join(lab(h) for h in order.path[:-1])
        if order.facing is not None:
            text += f" face {face(order.facing)}"
        return text
    if isinstance(order, Face):
        return f"face {order.unit} {face(order.facing)}"
    if isinstance(order, Attack):
        return (f"attack {order.unit} {order.target}" + (" cannon" if order.cannon else "")
                + (" ap" if order.ap else ""))
    if isinstance(order, Board):
        return f"board {order.unit} {order.transport}"
    if isinstance(order, Dismount):
        return f"dismount {order.unit}"
    if isinstance(order, Demolish):
        return f"demolish {order.unit}" + (f" {lab(order.across)}" if order.across else "")
    if isinstance(order, Fire):
        return f"fire {order.unit} {order.where}"
    if isinstance(order, Hold):
        return "hold"
    if isinstance(order, Standing):
        return f"standing {order.unit} {order.policy}"
    if isinstance(order, Concede):
        return "concede"
    if isinstance(order, Timeout):
        return f"timeout {order.policy}"
    raise TypeError(f"not an order: {order!r}")


def _format_army(cards: tuple[str, ...]) -> str:
    parts: list[str] = []
    i = 0
    while i < len(cards):
        j = i
        while j < len(cards) and cards[j] == cards[i]:
            j += 1
        n = j - i
        parts.append(cards[i] if n == 1 else f"{n} {cards[i]}")
        i = j
    return ", ".join(parts)


# --------------------------------------------------------------------------- parsing

_WORDS = re.compile(r"\S+")


def parse_order(state: MinisState, player: str, text: str) -> Order:
    """Read one order issued by ``player``.  Hex paths are completed against the board
    (``move ax3 F7`` gets the default path, ``via`` hexes are waypoints)."""
    seat = player.strip().lower()
    if seat not in SEATS:
        raise NotationError(f"'{player}' is not a seat.", legal=SEATS)
    words = _WORDS.findall(text.strip())
    if not words:
        raise NotationError("An empty order.", legal=VERBS)
    verb, args = words[0].lower(), words[1:]
    low = [a.lower() for a in args]
    m = state.map

    def need(n: int, usage: str) -> None:
        if len(args) < n:
            raise NotationError(f"'{verb}' needs more: {usage}.", legal=(usage,))

    def none_left(k: int, usage: str) -> None:
        if len(args) > k:
            raise NotationError(f"Unexpected '{' '.join(args[k:])}' after '{verb}'.", legal=(usage,))

    def unit_id(word: str) -> str:
        key = word.lower()
        if not re.fullmatch(r"(ax|al)\d{1,2}", key):
            raise NotationError(f"'{word}' is not a unit id.",
                                legal=("ax1 … ax15 (Axis)", "al1 … al15 (Allies)"))
        from engine.minis.visibility import visible_units

        seen = visible_units(state, seat)
        if key not in {u.id for u in seen}:
            raise UnknownName(f"There is no unit '{word}' that you can see.",
                              legal=[u.id for u in seen])
        return key

    def facing(word: str) -> int:
        return m.labels.parse_direction(word)

    if verb == "army":
        from engine.minis.army import parse_army_text

        body = text.strip()[len(words[0]):]
        return ArmyList(seat, parse_army_text(state.cards, body))
    if verb == "ready":
        none_left(0, "ready")
        return Ready(seat)
    if verb in ("first", "second"):
        none_left(0, verb)
        return ChooseFirst(seat, verb == "first")
    if verb == "map":
        need(1, "map 1…6")
        none_left(1, "map 1…6")
        if not args[0].isdigit():
            raise NotationError(f"'{args[0]}' is not a configuration number.", legal=("1", "2", "3", "4", "5", "6"))
        return ChooseMap(seat, int(args[0]))
    if verb == "objective":
        need(1, "objective F7")
        none_left(1, "objective F7")
        return ChooseObjective(seat, m.parse_hex(args[0]))
    if verb == "end":
        need(1, "end west|east")
        none_left(1, "end west|east")
        if low[0] not in ("west", "east"):
            raise NotationError(f"'{args[0]}' is not an end of the map.", legal=("west", "east"))
        return ChooseEnd(seat, low[0])
    if verb == "deploy":
        usage = "deploy ax3 F7 [face NE] | deploy ax5 aboard ax3"
        need(2, usage)
        uid = unit_id(args[0])
        if low[1] == "aboard":
            need(3, usage)
            none_left(3, usage)
            return DeployAboard(seat, uid, unit_id(args[2]))
        h = m.parse_hex(args[1])
        face_dir = None
        if len(args) > 2:
            if low[2] != "face" or len(args) != 4:
                raise NotationError(f"Cannot read '{' '.join(args[2:])}'.", legal=(usage,))
            face_dir = facing(args[3])
        return Deploy(seat, uid, h, face_dir)
    if verb == "done":
        none_left(0, "done")
        return Done(seat)
    if verb == "move":
        usage = "move ax3 F7 [via E6 F6] [face N]"
        need(2, usage)
        uid = unit_id(args[0])
        dest = m.parse_hex(args[1])
        rest, rlow = args[2:], low[2:]
        face_dir = None
        if "face" in rlow:
            k = rlow.index("face")
            if k != len(rlow) - 2:
                raise NotationError("'face' takes one direction at the end.", legal=(usage,))
            face_dir = facing(rest[k + 1])
            rest, rlow = rest[:k], rlow[:k]
        waypoints: list[Hex] = []
        if rest:
            if rlow[0] != "via" or len(rest) < 2:
                raise NotationError(f"Cannot read '{' '.join(rest)}'.", legal=(usage,))
            waypoints = [m.parse_hex(w) for w in rest[1:]]
        from engine.minis.battle import move_kind, my_phase, own
        from engine.minis.movement import complete_path

        my_phase(state, seat, "move")
        kind = move_kind(state, own(state, seat, uid))
        # A path that already ends at the destination is taken as written.
        stops = waypoints if waypoints and waypoints[-1] == dest else waypoints + [dest]
        path = complete_path(state, uid, stops, fade=kind == "fade")
        return Move(seat, uid, path, face_dir)
    if verb == "face":
        need(2, "face ax3 N")
        none_left(2, "face ax3 N")
        return Face(seat, unit_id(args[0]), facing(args[1]))
    if verb == "attack":
        usage = "attack ax3 al5 [cannon] [ap]"
        need(2, usage)
        flags = low[2:]
        for f in flags:
            if f not in ("cannon", "ap"):
                raise NotationError(f"Unknown attack option '{f}'.", legal=("cannon", "ap"))
        return Attack(seat, unit_id(args[0]), unit_id(args[1]), "cannon" in flags, "ap" in flags)
    if verb == "board":
        need(2, "board al2 al1")
        none_left(2, "board al2 al1")
        return Board(seat, unit_id(args[0]), unit_id(args[1]))
    if verb == "dismount":
        need(1, "dismount al2")
        none_left(1, "dismount al2")
        return Dismount(seat, unit_id(args[0]))
    if verb == "demolish":
        need(1, "demolish al4 [F8]")
        none_left(2, "demolish al4 [F8]")
        return Demolish(seat, unit_id(args[0]), m.parse_hex(args[1]) if len(args) > 1 else None)
    if verb == "fire":
        need(2, "fire al5 leaving|entering")
        none_left(2, "fire al5 leaving|entering")
        if low[1] not in ("leaving", "entering"):
            raise NotationError(f"'{args[1]}': fire at the hex the unit is leaving or entering.",
                                legal=("leaving", "entering"))
        return Fire(seat, unit_id(args[0]), low[1])
    if verb == "hold":
        none_left(0, "hold")
        return Hold(seat)
    if verb == "standing":
        need(2, "standing al5 ask|hold|first|vehicles")
        none_left(2, "standing al5 ask|hold|first|vehicles")
        if low[1] not in STANDING_ORDERS:
            raise NotationError(f"'{args[1]}' is not a standing order.", legal=STANDING_ORDERS)
        return Standing(seat, unit_id(args[0]), low[1])
    if verb == "concede":
        none_left(0, "concede")
        return Concede(seat)
    if verb == "timeout":
        need(1, "timeout hold|done|forfeit")
        none_left(1, "timeout hold|done|forfeit")
        if low[0] not in TIMEOUTS:
            raise NotationError(f"'{args[0]}' is not a timeout policy.", legal=TIMEOUTS)
        return Timeout(seat, low[0])
    raise NotationError(f"Unknown order '{words[0]}'.", legal=VERBS)
