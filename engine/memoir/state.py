"""The game state: frozen dataclasses, never mutated (``apply`` builds new ones).

Per-seat pairs (hands, medals, …) are tuples indexed by ``SEATS.index(seat)``: axis 0,
allies 1.  Cards are ids from :func:`engine.memoir.tables.full_deck` (``probe-left#2``).
The deck's first card is the top card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable

from engine.core.game import Outcome
from engine.core.hexgrid import Hex
from engine.memoir.board import SEATS, label
from engine.memoir.scenario import Scenario
from engine.memoir.tables import TerrainRule, UnitRule, obstacle_rules, terrain_rules, unit_rule

STEPS = ("play", "order", "move", "battle", "recon", "over")
AMBUSH_STANDING = ("ask", "pass", "ambush")


@dataclass(frozen=True)
class Unit:
    id: str  # "ax1", "al3": stable for the whole game
    side: str
    type: str
    badge: str | None
    figures: int
    strength: int  # figures at full strength
    hex: Hex

    @property
    def rule(self) -> UnitRule:
        return unit_rule(self.type, self.badge)

    @property
    def where(self) -> str:
        return label(self.hex)


@dataclass(frozen=True)
class Acting:
    """An ordered unit's record for the current turn (E-4.3)."""

    unit: str
    moved: int = 0  # hexes moved by its (first) move
    moves: int = 0  # move orders made (Behind Enemy Lines allows 2)
    stopped: bool = False  # entered a move-ending hex this turn (E-9.3, E-15.2)
    no_battle: bool = False  # barred from battling this turn (E-9.5)
    battles: int = 0
    took_ground: bool = False
    overrun: bool = False  # its one Overrun is used (E-16.2)
    fallback: bool = False  # ordered through a card's fallback: acts as normal, no card powers


@dataclass(frozen=True)
class Played:
    """The card played in step 1 and what it does: ``effect`` is the card kind whose effect
    applies (the copied kind for Counter-Attack), ``sections`` the sections it acts in, in
    the absolute frame (as seen from the bottom seat; E-6.5 copies them unchanged)."""

    card: str
    effect: str
    sections: tuple[str, ...] = ()
    fallback: bool = False
    symbols: tuple[str, ...] = ()  # Their Finest Hour / Medics faces rolled


@dataclass(frozen=True)
class Fight:
    """A battle (or Air Power / Barrage / Ambush resolution) in progress, stopped at a
    decision.  ``stage`` says which: "ambush" (the defender's window), "ignore" (how many
    flags to ignore), "retreat" (where to), "take-ground", "overrun"."""

    kind: str  # "battle", "air", "barrage"
    stage: str
    side: str  # whose card/battle it is (the active seat): who takes ground
    attacker: str | None = None  # unit id
    target: str | None = None  # unit id of the unit battled now
    target_hex: Hex | None = None  # where the target stood when the battle was declared
    from_hex: Hex | None = None  # where the attacker stood
    close: bool = False
    overrun: bool = False  # this battle is an Overrun (E-16)
    retreater: str | None = None  # unit id that must take flags
    flags: int = 0
    ignorable: int = 0
    after: str = ""  # what follows the retreat: "ambush-done", "attack-done", "air-next"
    queue: tuple[Hex, ...] = ()  # Air Power hexes still to resolve
    ambushed: bool = False


@dataclass(frozen=True)
class MemoirState:
    scenario: Scenario
    units: tuple[Unit, ...]
    obstacles: tuple[tuple[Hex, str, str | None], ...]  # (hex, kind, owner), sorted by hex
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    active: str
    step: str = "play"
    turn: int = 1
    turns_done: tuple[int, int] = (0, 0)
    kills: tuple[int, int] = (0, 0)  # medals for eliminated units
    taken: tuple[tuple[Hex, str], ...] = ()  # permanent objectives taken (hex, side)
    played: Played | None = None
    last: tuple[Played | None, Played | None] = (None, None)  # each seat's latest step-1 card
    acting: tuple[Acting, ...] = ()
    fight: Fight | None = None
    drawn: tuple[str, ...] = ()  # Recon: the two cards drawn, one to discard
    ambusher: str | None = None  # the seat that played Ambush this turn (draws first, E-7.4)
    standing: tuple[str, str] = ("ask", "ask")  # Ambush standing settings (E-19.3)
    outcome: Outcome | None = None
    next_unit: int = 0  # counter for ids of units placed during play (airdrop)

    # ------------------------------------------------------------------ look-ups

    @cached_property
    def by_hex(self) -> dict[Hex, Unit]:
        return {u.hex: u for u in self.units}

    @cached_property
    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def obstacle_map(self) -> dict[Hex, tuple[str, str | None]]:
        return {h: (k, o) for h, k, o in self.obstacles}

    @cached_property
    def acting_map(self) -> dict[str, Acting]:
        return {a.unit: a for a in self.acting}

    def unit_at(self, h: Hex) -> Unit | None:
        return self.by_hex.get(h)

    def unit(self, unit_id: str) -> Unit | None:
        return self.by_id.get(unit_id)

    def terrain(self, h: Hex) -> TerrainRule:
        return terrain_rules()[self.scenario.terrain_map[h]]

    def terrain_name(self, h: Hex) -> str:
        return self.scenario.terrain_map[h]

    def obstacle(self, h: Hex) -> TerrainRule | None:
        o = self.obstacle_map.get(h)
        return None if o is None else obstacle_rules()[o[0]]

    def obstacle_name(self, h: Hex) -> str | None:
        o = self.obstacle_map.get(h)
        return None if o is None else o[0]

    def bunker_owner(self, h: Hex) -> str | None:
        o = self.obstacle_map.get(h)
        return o[1] if o is not None and o[0] == "bunker" else None

    def hand(self, seat: str) -> tuple[str, ...]:
        return self.hands[SEATS.index(seat)]

    def units_of(self, seat: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == seat)

    @property
    def top(self) -> str:
        return self.scenario.top

    @property
    def over(self) -> bool:
        return self.outcome is not None


def seat_index(seat: str) -> int:
    return SEATS.index(seat)


def with_pair(pair: tuple[int, int], seat: str, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == "axis" else (pair[0], value)


def with_hand(state: MemoirState, seat: str, hand: tuple[str, ...]) -> MemoirState:
    hands = (hand, state.hands[1]) if seat == "axis" else (state.hands[0], hand)
    return replace(state, hands=hands)


def replace_unit(state: MemoirState, unit_id: str, change: Callable[[Unit], Unit | None]) -> MemoirState:
    """A new state with one unit changed (``change`` returns None to remove it)."""
    units: list[Unit] = []
    for u in state.units:
        if u.id == unit_id:
            nu = change(u)
            if nu is not None:
                units.append(nu)
        else:
            units.append(u)
    return replace(state, units=tuple(units))


def set_acting(state: MemoirState, unit_id: str, **changes: object) -> MemoirState:
    acting = tuple(replace(a, **changes) if a.unit == unit_id else a for a in state.acting)  # type: ignore[arg-type]
    return replace(state, acting=acting)


def set_obstacle(state: MemoirState, h: Hex, kind: str | None, owner: str | None = None) -> MemoirState:
    rest = [o for o in state.obstacles if o[0] != h]
    if kind is not None:
        rest.append((h, kind, owner))
    return replace(state, obstacles=tuple(sorted(rest)))
