"""Legal orders of a seat, lazily.

Decisions (casualties, retreat, submerging, battle choice, landing) are listed in full
where they are few; phase orders come from generators that yield only orders ``apply``
accepts (each is checked by the same code ``apply`` runs): every unit kind at every
place towards every space it can reach, loading and unloading, a few purchases and
research buys, every placement of one unit.  ``done`` is yielded whenever it is legal.
"""

from __future__ import annotations

from typing import Iterator

from engine.aa import combat, economy, movement
from engine.aa.orders import (
    Auto, Buy, Casualties, Done, Fight, First, Load, Move, Order, Place, Research,
    Rocket, Sel, Unload, parse_order,
)
from engine.aa.state import (
    CHINA, COMBAT, COMBAT_MOVE, FIRST, MOBILISE, NONCOMBAT, PURCHASE, RESEARCH, SIDE, USA, AAState, Unit,
)
from engine.aa.units import (
    CARRIER, FACTORY, INFANTRY, KINDS, RESEARCHER_COST, TRANSPORT, cost_of, is_sea, move_of,
)
from engine.core.errors import PlayerError


def legal_orders(state: AAState, seat: str) -> Iterator[Order]:
    if state.outcome is not None:
        return
    from engine.aa.game import pending

    waiting = [p for p in pending(state) if p.player == seat]
    b = state.battle
    if b is not None or state.scramble:
        for p in waiting:
            for text in p.choices:
                yield parse_order(state, seat, text)
            if b is not None and b.hits and not p.choices:
                yield Casualties(seat, Sel.of(combat.default_choice(state, b, b.hits[0])))
        yield Auto(seat, not state.setting(seat).auto)
        return
    yield Auto(seat, not state.setting(seat).auto)
    if seat != state.actor:
        return
    phase = state.phase
    if phase == RESEARCH:
        yield Done(seat)
        charts = economy.open_charts(state, seat)
        afford = state.ipcs.get(seat, 0) // RESEARCHER_COST
        for n in range(0, min(afford, 3) + 1):
            if n == 0 and not state.researchers.get(seat, 0):
                continue
            for c in charts:
                yield Research(seat, n, c)
    elif phase == PURCHASE:
        yield Done(seat)
        yield from _purchases(state, seat)
    elif phase == FIRST:
        yield First(seat, USA)
        yield First(seat, CHINA)
        yield Done(seat)
    elif phase in (COMBAT_MOVE, NONCOMBAT):
        if _done_ok(state, seat):
            yield Done(seat)
        yield from move_orders(state, seat)
    elif phase == COMBAT:
        for s in combat.ready_sites(state):
            yield Fight(seat, s.where)
        for a, t in combat.rocket_sites(state, seat):
            yield Rocket(seat, a, t)
        if not state.sites:
            yield Done(seat)
    elif phase == MOBILISE:
        if not economy.placeable(state, seat):
            yield Done(seat)
        yield from place_orders(state, seat)



def _done_ok(state: AAState, seat: str) -> bool:
    from engine.aa.game import combat_move_problem

    return state.phase != COMBAT_MOVE or combat_move_problem(state) is None


def _purchases(state: AAState, seat: str) -> Iterator[Buy]:
    have = state.ipcs.get(seat, 0)
    techs = state.tech(seat)
    for kind in KINDS:
        if kind == FACTORY and have < cost_of(FACTORY):
            continue
        c = cost_of(kind, techs)
        if c <= have:
            yield Buy(seat, ((kind, 1),))
            n = min(have // c, 10)
            if n > 1:
                yield Buy(seat, ((kind, n),))


def _group_kinds(state: AAState, seat: str, where: str) -> list[str]:
    return sorted({u.kind for u in state.units_at(where) if u.owner == seat and u.aboard is None},
                  key=KINDS.index)


def move_orders(state: AAState, seat: str, *, limit_per_group: int | None = None) -> Iterator[Order]:
    """Single-unit moves of every kind from every place to every reachable space, then
    loads and unloads; each checked as ``apply`` would."""
    b = state.board
    phase = state.phase
    for where in sorted({u.where for u in state.owned(seat)}, key=b.order.__getitem__):
        for kind in _group_kinds(state, seat, where):
            sample = next(u for u in state.units_at(where) if u.owner == seat and u.kind == kind
                          and u.aboard is None)
            reach = _reach(state, sample)
            found = 0
            for dest in reach:
                order = Move(seat, Sel(((kind, 1),)), (where, dest))
                try:
                    path = movement.find_path(state, order)
                except PlayerError:
                    continue
                yield Move(seat, order.sel, path)
                found += 1
                if limit_per_group and found >= limit_per_group:
                    break
    if seat == CHINA:
        return
    if phase == NONCOMBAT:
        for where in sorted({u.where for u in state.owned(seat) if u.is_land and u.aboard is None},
                            key=b.order.__getitem__):
            for zone in b.coastal(where):
                if not any(t.kind == TRANSPORT and SIDE[t.owner] == SIDE[seat] for t in state.units_at(zone)):
                    continue
                for kind in (INFANTRY,) + tuple(k for k in _group_kinds(state, seat, where) if k != INFANTRY):
                    o = Load(seat, Sel(((kind, 1),)), where, zone)
                    if _ok(state, o):
                        yield o
    for zone in sorted({u.where for u in state.owned(seat) if u.aboard is not None and u.is_land},
                       key=b.order.__getitem__):
        kinds = sorted({u.kind for u in state.units_at(zone) if u.owner == seat and u.aboard is not None
                        and u.is_land}, key=KINDS.index)
        for t in b.adj[zone]:
            if not b.is_land(t):
                continue
            for kind in kinds:
                out = Unload(seat, Sel(((kind, 1),)), zone, t)
                if _ok(state, out):
                    yield out


def _ok(state: AAState, o: Order) -> bool:
    try:
        if isinstance(o, Load):
            movement.load(state, o)
        elif isinstance(o, Unload):
            movement.unload(state, o)
        elif isinstance(o, Place):
            economy.place(state, o, _NoDice())
        return True
    except PlayerError:
        return False


class _NoDice:
    def roll(self, sides: int = 6) -> int:
        raise AssertionError

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]:
        raise AssertionError


def _reach(state: AAState, u: Unit) -> list[str]:
    b = state.board
    techs = state.tech(u.owner)
    if u.is_air:
        left = move_of(u.kind, techs) - u.moved
        dist = movement.air_reach(state, u)
        return sorted((s for s, d in dist.items() if 0 < d <= left), key=b.order.__getitem__)
    if u.is_sea:
        left = move_of(u.kind, techs) - u.moved
        dist = b.sea_distances(u.where)
        return sorted((s for s, d in dist.items() if 0 < d <= left), key=b.order.__getitem__)
    steps = 2 if u.kind in ("tank", INFANTRY) else move_of(u.kind, techs)
    dist = b.bfs(u.where, lambda n: b.is_land(n) and not b.space(n).neutral, limit=steps)
    return sorted((s for s, d in dist.items() if d > 0), key=b.order.__getitem__)


def place_orders(state: AAState, seat: str) -> Iterator[Place]:
    pool = state.pool_of(seat)
    b = state.board
    if seat == CHINA:
        for t in economy.china_spots(state):
            if pool.get(INFANTRY, 0):
                yield Place(seat, ((INFANTRY, pool[INFANTRY]),), t)
        return
    for kind in KINDS:
        if pool.get(kind, 0) <= 0:
            continue
        if kind == FACTORY:
            for t in sorted(state.control, key=b.order.__getitem__):
                o = Place(seat, ((kind, 1),), t)
                if _ok(state, o):
                    yield o
            continue
        for f in economy.placement_factories(state, seat):
            spots: list[str | None] = list(b.coastal(f)) if is_sea(kind) else [None]
            if kind == "fighter":
                spots += [z for z in b.coastal(f) if any(c.kind == CARRIER and c.owner == seat
                                                         for c in state.units_at(z))]
            for z in spots:
                o = Place(seat, ((kind, 1),), f, z)
                if _ok(state, o):
                    yield o
