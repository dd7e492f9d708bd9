"""Legal orders (lazy) for a seat, and the pending decisions.

``legal_orders`` yields every order ``apply`` accepts now for the seat, except that a
move is offered once per destination (by a shortest legal path; longer paths to the
same hex are legal too) and the ``order`` step yields every allowed set of units (which
can be many: iterate, do not list, for cards such as General Advance).
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from engine.core.game import Pending
from engine.memoir import turn
from engine.memoir.board import hex_key, label
from engine.memoir.orders import (
    Ambush, Battle, ClearWire, Concede, Discard, Done, Hold, Ignore, Move, Order, OrderUnits, Pass, Play, Retreat,
    Standing, TakeGround, Target,
)
from engine.memoir.state import AMBUSH_STANDING, MemoirState, seat_index
from engine.memoir.tables import card_kinds, kind_of


def pending(state: MemoirState) -> list[Pending]:
    """Who must decide what now.  Never reveals a hand: the play step offers no choices
    (the cards are in the seat's own ``legal_orders``), and an Ambush window offers
    "ambush" and "pass" whether or not the defender holds the card (E-19.3)."""
    if state.over:
        return []
    f = state.fight
    active = state.active
    if f is not None:
        owner = turn._fight_owner(state)
        assert owner is not None
        reaction = owner != active
        if f.stage == "ambush":
            a, t = state.unit(f.attacker or ""), state.unit(f.target or "")
            assert a is not None and t is not None
            return [Pending(owner, f"Ambush? {a.where} close-assaults your unit on {t.where} (E-6.4)",
                            ("ambush", "pass"), reaction=True)]
        if f.stage == "ignore":
            u = state.unit(f.retreater or "")
            assert u is not None
            return [Pending(owner, f"{u.where} takes {f.flags} flag(s); it may ignore up to {f.ignorable} (E-14.6)",
                            tuple(f"ignore {i}" for i in range(f.ignorable, -1, -1)), reaction=reaction)]
        if f.stage == "retreat":
            u = state.unit(f.retreater or "")
            assert u is not None
            opts = turn.retreat_options(state)
            return [Pending(owner, f"{u.where} retreats {f.flags} hex(es): choose where it ends (E-14)",
                            tuple(f"retreat {label(h)}" for h in sorted(opts, key=label)), reaction=reaction)]
        if f.stage == "take-ground":
            assert f.target_hex is not None
            return [Pending(owner, f"Take Ground: move into {label(f.target_hex)}? (E-15)", ("take-ground", "hold"))]
        if f.stage == "overrun":
            return [Pending(owner, "Armor Overrun: battle again, or hold (E-16)",
                            tuple(t for t in _overrun_texts(state)) + ("hold",))]
    if state.step == "play":
        return [Pending(active, f"turn {state.turn}: play a command card")]
    if state.step == "order":
        p = state.played
        assert p is not None
        if p.effect in ("air-power", "barrage"):
            return [Pending(active, f"{card_kinds()[p.effect].name}: name the target hexes", ("target none",))]
        return [Pending(active, f"{card_kinds()[p.effect].name}: name the units you order", ("order none",))]
    if state.step == "move":
        return [Pending(active, "move your ordered units, then 'done'", ("done",))]
    if state.step == "battle":
        return [Pending(active, "battle with your ordered units, then 'done'", ("done",))]
    if state.step == "recon":
        return [Pending(active, "Recon: discard one of the two cards you drew (E-7.3)", ("discard 1", "discard 2"))]
    return []


def _overrun_texts(state: MemoirState) -> list[str]:
    f = state.fight
    assert f is not None
    u = state.unit(f.attacker or "")
    if u is None:
        return []
    return [f"battle {u.where} {t.where}" for t, _ in turn.battle_targets(state, u, overrun=True)]


def decision_orders(state: MemoirState, seat: str) -> list[Order]:
    """The answers to a pending fight decision of ``seat`` (empty if it has none)."""
    f = state.fight
    if f is None or turn._fight_owner(state) != seat:
        return []
    if f.stage == "ambush":
        out: list[Order] = [Pass(seat)]
        if turn._find_card(state, seat, turn.AMBUSH) is not None:
            out.insert(0, Ambush(seat))
        return out
    if f.stage == "ignore":
        return [Ignore(seat, i) for i in range(f.ignorable, -1, -1)]
    if f.stage == "retreat":
        return [Retreat(seat, h) for h in sorted(turn.retreat_options(state), key=label)]
    if f.stage == "take-ground":
        return [TakeGround(seat), Hold(seat)]
    if f.stage == "overrun":
        u = state.unit(f.attacker or "")
        assert u is not None
        return [Battle(seat, u.hex, t.hex) for t, _ in turn.battle_targets(state, u, overrun=True)] + [Hold(seat)]
    return []


def play_orders(state: MemoirState, seat: str) -> list[Play]:
    out: list[Play] = []
    for kind in sorted({kind_of(c) for c in state.hand(seat)}):
        sections: tuple[str | None, ...] = (None,)
        if card_kinds()[kind].get("choose_section"):
            sections = ("left", "centre", "right")
        for s in sections:
            try:
                turn.playable_effect(state, seat, kind, s)
            except Exception:
                continue
            out.append(Play(seat, kind, s))
    return out


def order_sets(state: MemoirState, seat: str) -> Iterator[OrderUnits]:
    p = state.played
    assert p is not None
    pool, limit = turn.eligible(state, seat, p)
    pool = sorted(pool, key=lambda u: hex_key(u.hex))
    top = len(pool) if limit == "all" else min(len(pool), 6 if p.effect in turn.SECTION_KINDS else int(limit))
    if p.fallback:
        top = min(top, 1)
    for k in range(top + 1):
        for combo in combinations(pool, k):
            if turn.check_order(state, seat, p, list(combo)) is None:
                yield OrderUnits(seat, tuple(u.hex for u in combo))


def target_sets(state: MemoirState, seat: str) -> Iterator[Target]:
    p = state.played
    assert p is not None
    yield Target(seat, ())
    enemies = sorted((u.hex for u in state.units if u.side != seat), key=hex_key)
    lo, hi = card_kinds()[p.effect].get("targets")
    if hi == 1:
        for h in enemies:
            yield Target(seat, (h,))
        return
    # connected groups, listed in every order the player may resolve them (E-6.2)
    from itertools import permutations

    for k in range(lo, hi + 1):
        for combo in combinations(enemies, k):
            if turn.check_targets(state, seat, p.effect, combo) is None:
                for perm in permutations(combo):
                    yield Target(seat, perm)


def legal_orders(state: MemoirState, seat: str) -> Iterator[Order]:
    if state.over:
        return
    yield from decision_orders(state, seat)
    if state.fight is None and seat == state.active:
        if state.step == "play":
            yield from play_orders(state, seat)
        elif state.step == "order":
            p = state.played
            assert p is not None
            if p.effect in ("air-power", "barrage"):
                yield from target_sets(state, seat)
            else:
                yield from order_sets(state, seat)
        elif state.step in ("move", "battle"):
            yield from unit_orders(state, seat)
            yield Done(seat)
        elif state.step == "recon":
            yield Discard(seat, 1)
            yield Discard(seat, 2)
    current = state.standing[seat_index(seat)]
    for s in AMBUSH_STANDING:
        if s != current:
            yield Standing(seat, s)
    yield Concede(seat)


def unit_orders(state: MemoirState, seat: str) -> Iterator[Order]:
    """Moves and battles of the ordered units in the move or battle step."""
    for u in turn._acting_units(state):
        reach = turn.move_options(state, u.hex)
        if reach is not None:
            for h in sorted(reach.paths, key=hex_key):
                yield Move(seat, (u.hex, *reach.paths[h]))
        if state.step == "battle":
            for t, _ in turn.battle_targets(state, u):
                yield Battle(seat, u.hex, t.hex)
            if turn.may_clear_wire(state, u):
                yield ClearWire(seat, u.hex)
