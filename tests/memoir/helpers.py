"""Small positions for worked examples: a scenario from a compact unit list, a stacked
deck and hands, orders applied with scripted dice that must all be used."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from engine.core.dice import scripted_dice
from engine.core.events import Event
from engine.memoir.board import label, parse_hex
from engine.memoir.game import apply_text
from engine.memoir.scenario import Scenario, scenario_from_dict
from engine.memoir.state import MemoirState, Unit
from engine.memoir.tables import full_deck, kind_of
from engine.memoir.turn import start_state

# battle die rolls by face (E-13.1): 1-2 infantry, 3 armor, 4 grenade, 5 star, 6 flag
FACE = {"I": 1, "A": 3, "G": 4, "S": 5, "F": 6}


def rolls(faces: str) -> list[int]:
    """'IIGF' → [1, 1, 4, 6]."""
    return [FACE[c] for c in faces]


def scenario(units: str, *, terrain: Mapping[str, str] | None = None, obstacles: Mapping[str, Any] | None = None,
             face: str = "countryside", top: str = "axis", first: str = "allies", medals: tuple[int, int] = (4, 4),
             cards: tuple[int, int] = (4, 4), objectives: Sequence[Mapping[str, Any]] = (),
             rules: Mapping[str, Any] | None = None) -> Scenario:
    """``units``: comma-separated ``side type[:badge][/figures] HEX`` items, e.g.
    ``"allies infantry G5, axis armor/2 G3, allies infantry:special-forces A9"``."""
    specs = []
    for item in units.split(","):
        item = item.strip()
        if not item:
            continue
        side, kind, hexname = item.split()
        badge = None
        figures = None
        if "/" in kind:
            kind, n = kind.split("/")
            figures = int(n)
        if ":" in kind:
            kind, badge = kind.split(":")
        spec: dict[str, Any] = {"hex": hexname, "side": side, "type": kind}
        if badge:
            spec["badge"] = badge
        if figures:
            spec["figures"] = figures
        specs.append(spec)
    doc = {"name": "Test", "face": face, "top": top, "first": first,
           "cards": {"axis": cards[0], "allies": cards[1]}, "medals": {"axis": medals[0], "allies": medals[1]},
           "terrain": dict(terrain or {}), "obstacles": dict(obstacles or {}), "units": specs,
           "objectives": list(objectives), "rules": dict(rules or {})}
    return scenario_from_dict(doc)


def game(sc: Scenario, *, axis: Iterable[str] = (), allies: Iterable[str] = (), deck: Iterable[str] = (),
         discard: Iterable[str] = (), active: str | None = None, last: tuple[str | None, str | None] = (None, None),
         standing: tuple[str, str] = ("pass", "pass")) -> MemoirState:
    """A position with stacked cards: the hands and the top of the deck are card kinds;
    the rest of the 60 cards follow in the deck (in deck order) unless ``discard`` names
    some.  Ambush standing settings default to "pass" so windows open only when asked."""
    pool = list(full_deck())

    def take(kinds: Iterable[str]) -> tuple[str, ...]:
        out = []
        for k in kinds:
            card = next(c for c in pool if kind_of(c) == k)
            pool.remove(card)
            out.append(card)
        return tuple(out)

    hand_axis, hand_allies = take(axis), take(allies)
    top_deck = take(deck)
    disc = take(discard)
    state = start_state(sc, standing)
    state = replace(state, hands=(hand_axis, hand_allies), deck=top_deck + tuple(pool), discard=disc)
    if active:
        state = replace(state, active=active)
    return state


def do(state: MemoirState, seat: str, text: str, dice: Sequence[int] = ()) -> tuple[MemoirState, list[Event]]:
    """Apply one order with exactly these dice (all of them must be used)."""
    d = scripted_dice(dice)
    new, events = apply_text(state, seat, text, d)
    assert d.remaining == (), f"dice left over: {d.remaining}"
    return new, list(events)


def run(state: MemoirState, seat: str, *texts: str) -> MemoirState:
    for t in texts:
        state, _ = do(state, seat, t)
    return state


def ordered(units: str, hexes: str, card: str = "direct-from-hq", **kw: object):  # type: ignore[no-untyped-def]
    """Allies to act, the card played and ``hexes`` ordered."""
    state = game(scenario(units, **kw), allies=[card, "probe-left", "probe-right", "attack-left"],  # type: ignore[arg-type]
                 axis=["probe-centre"] * 4)
    return run(state, "allies", f"play {card}", f"order {hexes}")


def ready(units: str, hexes: str, card: str = "direct-from-hq", **kw: object):  # type: ignore[no-untyped-def]
    """Allies have played ``card``, ordered ``hexes`` and closed the movement step."""
    state = game(scenario(units, **kw), allies=[card, "probe-left", "probe-right", "attack-left"],  # type: ignore[arg-type]
                 axis=["probe-centre"] * 4)
    state = run(state, "allies", f"play {card}", f"order {hexes}")
    if state.step == "move":
        state, _ = do(state, "allies", "done")
    return state


def at(state: MemoirState, hexname: str) -> Unit | None:
    return state.unit_at(parse_hex(hexname))


def figures(state: MemoirState) -> dict[str, tuple[str, str, int]]:
    """hex → (side, type, figures) for every unit."""
    return {label(u.hex): (u.side, u.type, u.figures) for u in state.units}


def kinds(cards: Iterable[str]) -> list[str]:
    return [kind_of(c) for c in cards]


def types(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
