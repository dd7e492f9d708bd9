"""Invariants of every A&A state, checked after every order of the soak and the
property tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from engine.aa.events import Lost, Placed, TurnStarted
from engine.aa.game import pending
from engine.aa.state import (
    CHINA, COMBAT, COMBAT_MOVE, MOBILISE, NONCOMBAT, POWERS, PURCHASE, RESEARCH, SIDE, AAState,
)
from engine.aa.units import CARRIER, FIGHTER, INFANTRY, KINDS, TRANSPORT, parse_counts
from engine.core.events import Event


def _count(text: str) -> int:
    return sum(parse_counts(text).values()) if text else 0


@dataclass
class Ledger:
    """Units may appear only by placement and disappear only by a reported loss."""

    removed: int = 0
    reported: int = 0
    seen: set[int] = field(default_factory=set)


def check(before: AAState, state: AAState, events: Sequence[Event], ledger: Ledger | None) -> None:
    """``ledger`` follows a whole game (losses are reported when chosen, removed at the end
    of the round); without one the balance of losses is not checked."""
    b = state.board
    # IPCs never negative
    for p, n in state.ipcs.items():
        assert n >= 0, f"{p} has {n} IPCs"
    # units appear only by placement, never come back, keep their kind and owner (AA guns
    # change hands with their territory)
    added = [u for uid, u in state.units.items() if uid not in before.units]
    gone = [uid for uid in before.units if uid not in state.units]
    placed = sum(_count(e.units) for e in events if isinstance(e, Placed) and e.units != "1 factory")
    assert len(added) == placed, f"{len(added)} new units but {placed} placed"
    for u in added:
        assert ledger is None or u.id not in ledger.seen, f"unit #{u.id} came back"
        assert u.id >= before.next_id
    if ledger is not None:
        ledger.seen.update(u.id for u in added)
        ledger.seen.update(before.units)
        ledger.removed += len(gone)
        ledger.reported += sum(_count(e.units) for e in events if isinstance(e, Lost))
        if state.battle is None:
            assert ledger.removed == ledger.reported, f"{ledger.removed} removed, {ledger.reported} reported lost"
    for uid, u in state.units.items():
        old = before.units.get(uid)
        if old is not None:
            assert old.kind == u.kind, f"#{uid} changed kind"
            assert old.owner == u.owner or u.kind == "aa gun", f"#{uid} changed owner"
    # every unit stands where its kind may stand
    cargo: dict[int, list[int]] = {}
    for u in state.units.values():
        assert u.kind in KINDS and u.owner in POWERS
        assert u.where in b.spaces and not b.space(u.where).neutral, f"#{u.id} in {u.where}"
        if u.owner == CHINA:
            assert u.where in b.china_movement, f"Chinese #{u.id} in {u.where}"
        if u.aboard is not None:
            ship = state.units.get(u.aboard)
            assert ship is not None, f"#{u.id} aboard a lost unit"
            assert ship.where == u.where, f"#{u.id} not where its carrier is"
            assert ship.kind in (TRANSPORT, CARRIER, "bomber")
            cargo.setdefault(ship.id, []).append(u.id)
        if u.is_land:
            if u.aboard is None:
                assert b.is_land(u.where), f"land unit #{u.id} at sea"
        elif u.is_sea:
            assert b.is_sea(u.where), f"ship #{u.id} on land"
        if state.battle is None:
            assert u.damage == 0 and not u.submerged
    for sid, load in cargo.items():
        ship = state.units[sid]
        kinds = [state.units[i].kind for i in load]
        if ship.kind == TRANSPORT:
            assert len(kinds) <= 2 and sum(1 for k in kinds if k != INFANTRY) <= 1, f"transport #{sid}: {kinds}"
        elif ship.kind == CARRIER:
            assert len(kinds) <= 2 and all(k == FIGHTER for k in kinds)
        else:
            assert kinds == [INFANTRY]
    # control: every playable territory, China only on its own
    for t in b.names:
        s = b.space(t)
        if s.is_land and not s.neutral:
            c = state.control.get(t)
            assert c in POWERS, f"nobody controls {t}"
            if c == CHINA:
                assert s.original == CHINA, f"China controls {t}"
    for t, d in state.factories.items():
        assert b.is_land(t) and 0 <= d <= 2 * b.space(t).ipc, f"factory {t} damage {d}"
    # land units outside battles stand on their side's territory
    if state.phase in (RESEARCH, PURCHASE, NONCOMBAT, MOBILISE) and state.battle is None:
        for u in state.units.values():
            if u.is_land and u.aboard is None:
                c = state.control[u.where]
                assert SIDE[c] == SIDE[u.owner], f"#{u.id} {u.kind} of {u.owner} in {u.where} held by {c}"
    # at the start of a turn every aircraft has landed
    if any(isinstance(e, TurnStarted) for e in events) and state.outcome is None:
        for zone, here in state.at.items():
            planes = [u for u in here if u.is_air]
            if not planes:
                continue
            if b.is_land(zone):
                for u in planes:
                    assert SIDE[state.control[zone]] == SIDE[u.owner], f"#{u.id} over enemy {zone}"
            else:
                for side in ("axis", "allies"):
                    f = sum(1 for u in planes if SIDE[u.owner] == side)
                    c = sum(2 for u in here if u.kind == CARRIER and SIDE[u.owner] == side)
                    assert f <= c and all(u.kind == FIGHTER for u in planes if SIDE[u.owner] == side), \
                        f"{f} {side} aircraft in {zone} with carrier room {c}"
    # someone is always waited for until the game ends
    if state.outcome is None:
        assert pending(state), "nobody to wait for"
        assert state.phase in (RESEARCH, PURCHASE, "first", COMBAT_MOVE, COMBAT, NONCOMBAT, MOBILISE)
    counts = state.victory_count()
    assert counts["axis"] + counts["allies"] == 18
