"""Orders as values and their text (one order per line, case-insensitive).

::

    play CARD [SECTION]            play probe-left | play infantry-assault right
    order HEX… | order none        the units the card orders (Medics: the unit to heal)
    target HEX… | target none      Air Power (1-4 hexes, in order) / Barrage (1 hex)
    move FROM TO [via HEX…]        via = the hexes in between (default: a shortest legal path)
    battle FROM TARGET             also an Overrun battle
    clear-wire HEX                 ordered infantry removes the wire it stands in
    done                           close the movement step / the battle step
    ambush | pass                  answer an Ambush window (E-19.3)
    ignore N                       flags to ignore (E-14.6)
    retreat HEX                    where the retreat ends (E-14.2)
    take-ground | hold             after a successful close assault / instead of an Overrun
    discard 1|2                    Recon: which of the two cards drawn to discard
    standing ask|pass|ambush       your Ambush standing setting (private)
    concede
    timeout done|forfeit           (seat "system")

Cards are written as their kind: ``probe-left``, ``recon-in-force``, ``air-power``
(names such as "Probe Center" or "Medics & Mechanics" are understood too).  The canonical
text always spells the card kind, sections as ``left|centre|right``, and a move's full path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.errors import NotationError
from engine.core.hexgrid import Hex
from engine.memoir.board import SEATS, label, parse_hex, parse_section
from engine.memoir.tables import card_key, card_kinds, kind_of
from engine.memoir.state import AMBUSH_STANDING

if TYPE_CHECKING:
    from engine.memoir.state import MemoirState

SYSTEM = "system"
ALL_SEATS: tuple[str, ...] = (*SEATS, SYSTEM)
TIMEOUTS = ("done", "forfeit")


@dataclass(frozen=True)
class Order:
    seat: str


@dataclass(frozen=True)
class Play(Order):
    card: str  # card kind
    section: str | None = None  # Infantry Assault: the section, as named from the player's side


@dataclass(frozen=True)
class OrderUnits(Order):
    hexes: tuple[Hex, ...]


@dataclass(frozen=True)
class Target(Order):
    hexes: tuple[Hex, ...]


@dataclass(frozen=True)
class Move(Order):
    path: tuple[Hex, ...]  # the unit's hex, then every hex entered

    @property
    def start(self) -> Hex:
        return self.path[0]

    @property
    def end(self) -> Hex:
        return self.path[-1]


@dataclass(frozen=True)
class Battle(Order):
    attacker: Hex
    target: Hex


@dataclass(frozen=True)
class ClearWire(Order):
    hex: Hex


@dataclass(frozen=True)
class Done(Order):
    pass


@dataclass(frozen=True)
class Ambush(Order):
    pass


@dataclass(frozen=True)
class Pass(Order):
    pass


@dataclass(frozen=True)
class Ignore(Order):
    count: int


@dataclass(frozen=True)
class Retreat(Order):
    hex: Hex


@dataclass(frozen=True)
class TakeGround(Order):
    pass


@dataclass(frozen=True)
class Hold(Order):
    pass


@dataclass(frozen=True)
class Discard(Order):
    index: int  # 1 or 2: which of the two cards drawn


@dataclass(frozen=True)
class Standing(Order):
    setting: str


@dataclass(frozen=True)
class Concede(Order):
    pass


@dataclass(frozen=True)
class Timeout(Order):
    policy: str


VERBS = ("play", "order", "target", "move", "battle", "clear-wire", "done", "ambush", "pass", "ignore", "retreat",
         "take-ground", "hold", "discard", "standing", "concede", "timeout")


def format_order(order: Order) -> str:
    if isinstance(order, Play):
        return f"play {order.card}" + (f" {order.section}" if order.section else "")
    if isinstance(order, OrderUnits):
        return "order " + (" ".join(label(h) for h in order.hexes) if order.hexes else "none")
    if isinstance(order, Target):
        return "target " + (" ".join(label(h) for h in order.hexes) if order.hexes else "none")
    if isinstance(order, Move):
        text = f"move {label(order.start)} {label(order.end)}"
        if len(order.path) > 2:
            text += " via " + " ".join(label(h) for h in order.path[1:-1])
        return text
    if isinstance(order, Battle):
        return f"battle {label(order.attacker)} {label(order.target)}"
    if isinstance(order, ClearWire):
        return f"clear-wire {label(order.hex)}"
    if isinstance(order, Ignore):
        return f"ignore {order.count}"
    if isinstance(order, Retreat):
        return f"retreat {label(order.hex)}"
    if isinstance(order, Discard):
        return f"discard {order.index}"
    if isinstance(order, Standing):
        return f"standing {order.setting}"
    if isinstance(order, Timeout):
        return f"timeout {order.policy}"
    simple = {Done: "done", Ambush: "ambush", Pass: "pass", TakeGround: "take-ground", Hold: "hold",
              Concede: "concede"}
    for cls, word in simple.items():
        if isinstance(order, cls):
            return word
    raise TypeError(f"not an order: {order!r}")


def _hexes(words: list[str]) -> tuple[Hex, ...]:
    if len(words) == 1 and words[0] == "none":
        return ()
    return tuple(parse_hex(w) for w in words)


def _card(words: list[str]) -> tuple[str, str | None]:
    """The card kind and an optional trailing section ("play infantry assault left")."""
    kinds = card_kinds()
    section: str | None = None
    if len(words) > 1 and words[-1] in ("left", "centre", "center", "right"):
        whole = card_key(" ".join(words))
        if whole not in kinds:
            section = parse_section(words[-1])
            words = words[:-1]
    key = card_key(" ".join(words))
    if key not in kinds:
        raise NotationError(f"'{' '.join(words)}' is not a command card", legal=sorted(kinds))
    return key, section


def parse_order(state: MemoirState | None, seat: str, text: str) -> Order:
    """Read one order of ``seat``; hex names must be on the board.  A move without ``via``
    takes a shortest legal path for the unit (when there is one)."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise NotationError("Empty order.", legal=VERBS)
    verb, rest = words[0], words[1:]
    if verb == "take" and rest[:1] == ["ground"]:
        verb, rest = "take-ground", rest[1:]
    if verb == "clear" and rest[:1] == ["wire"]:
        verb, rest = "clear-wire", rest[1:]
    if seat == SYSTEM:
        if verb == "timeout" and len(rest) == 1 and rest[0] in TIMEOUTS:
            return Timeout(seat, rest[0])
        raise NotationError(f"The system seat only issues timeouts, not '{text}'.",
                            legal=tuple(f"timeout {p}" for p in TIMEOUTS))
    if seat not in SEATS:
        raise NotationError(f"'{seat}' is not a seat.", legal=ALL_SEATS)

    def need(n: int, how: str) -> None:
        if len(rest) != n:
            raise NotationError(f"'{text.strip()}' is not a {verb} order.", legal=(how,))

    if verb == "play":
        if not rest:
            raise NotationError("Play which card?", legal=("play probe-left", "play infantry-assault right"))
        card, section = _card(rest)
        return Play(seat, card, section)
    if verb in ("order", "target"):
        if not rest:
            raise NotationError(f"'{verb}' needs hexes, or 'none'.", legal=(f"{verb} C6 D7", f"{verb} none"))
        return (OrderUnits if verb == "order" else Target)(seat, _hexes(rest))
    if verb == "move":
        if len(rest) < 2 or (len(rest) > 2 and rest[2] != "via") or len(rest) == 3:
            raise NotationError(f"'{text.strip()}' is not a move.", legal=("move C6 D5", "move C6 E5 via D5"))
        start, end = parse_hex(rest[0]), parse_hex(rest[1])
        if len(rest) > 3:
            return Move(seat, (start, *(parse_hex(w) for w in rest[3:]), end))
        return Move(seat, _default_path(state, start, end))
    if verb == "battle":
        need(2, "battle C6 D5")
        return Battle(seat, parse_hex(rest[0]), parse_hex(rest[1]))
    if verb == "clear-wire":
        need(1, "clear-wire G4")
        return ClearWire(seat, parse_hex(rest[0]))
    if verb == "ignore":
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError("'ignore' takes a number of flags.", legal=("ignore 1", "ignore 0"))
        return Ignore(seat, int(rest[0]))
    if verb == "retreat":
        need(1, "retreat F4")
        return Retreat(seat, parse_hex(rest[0]))
    if verb == "discard":
        if len(rest) == 1 and rest[0] in ("1", "2"):
            return Discard(seat, int(rest[0]))
        if rest and state is not None and len(state.drawn) == 2 and seat == state.active:
            key = card_key(" ".join(rest))
            kinds = [kind_of(c) for c in state.drawn]
            if key in kinds:
                return Discard(seat, kinds.index(key) + 1)
        raise NotationError("Discard which of the two cards drawn?", legal=("discard 1", "discard 2"))
    if verb == "standing":
        if len(rest) == 2 and rest[0] == "ambush":
            rest = rest[1:]
        if len(rest) != 1 or rest[0] not in AMBUSH_STANDING:
            raise NotationError("Your Ambush standing setting is ask, pass or ambush.",
                                legal=tuple(f"standing {s}" for s in AMBUSH_STANDING))
        return Standing(seat, rest[0])
    simple = {"done": Done, "ambush": Ambush, "pass": Pass, "take-ground": TakeGround, "hold": Hold,
              "concede": Concede}
    if verb in simple:
        need(0, verb)
        return simple[verb](seat)
    raise NotationError(f"'{text.strip()}' is not an order.", legal=VERBS)


def _default_path(state: MemoirState | None, start: Hex, end: Hex) -> tuple[Hex, ...]:
    if state is not None and start != end:
        from engine.memoir.turn import move_options

        reach = move_options(state, start)
        if reach is not None and end in reach.paths:
            return (start, *reach.paths[end])
    return (start, end)
