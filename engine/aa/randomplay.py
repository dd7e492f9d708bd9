"""Random legal play, for the soak test and the benchmark (not for the bot).

:func:`random_order` picks, for whoever must decide now, an order ``apply`` accepts (or
a timeout).  The player prefers attacking: in the combat move it sends land units from
neighbouring territories into the enemy territory where its side is strongest against
the defence, adds aircraft that can still land, attacks weak fleets and assaults from
loaded transports; in the non-combat move it lands its aircraft, loads transports and
moves land units towards the enemy; it spends its IPCs and places everything.  It
reaches every kind of order: research, purchases and repairs, moves, blitzes,
strategic raids, paratroopers, rockets, loading, amphibious assaults, battles,
casualty choices, retreats, submerging, landings of fighters whose carrier sank,
placement, order-of-loss settings and timeouts.  Randomness comes only from the
caller's ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

from engine.aa import combat, economy, movement
from engine.aa.game import pending
from engine.aa.orders import (
    Auto, Buy, Casualties, Continue, Done, Fight, First, Land, Load, LossOrder, Move, Order, Place,
    Research, Retreat, Rocket, Sel, Submerge, Unload,
)
from engine.aa.state import (
    CHINA, COMBAT, COMBAT_MOVE, FIRST, MOBILISE, NONCOMBAT, PURCHASE, RESEARCH, SIDE, USA, AAState, Unit,
)
from engine.aa.units import (
    AA_GUN, ARTILLERY, BATTLESHIP, BOMBER, CARRIER, CRUISER, DESTROYER, FACTORY, FIGHTER, INFANTRY, KINDS,
    RESEARCHER_COST, SUBMARINE, TANK, TRANSPORT, cost_of, move_of, profiles,
)
from engine.core.errors import PlayerError

TIMEOUT = "timeout"


@dataclass(frozen=True)
class Policy:
    p_timeout: float = 0.004
    p_research: float = 0.2
    p_retreat: float = 0.08
    p_setting: float = 0.003
    attack_margin: float = 0.9  # attack when own strength ≥ margin × the defence
    max_moves: int = 4  # extra non-combat moves per phase


def random_order(state: AAState, rng: random.Random, policy: Policy = Policy()) -> tuple[str, Order | str]:
    """``(seat, order)`` for a seat the game waits for, or ``(seat, "timeout")``."""
    waiting = pending(state)
    if not waiting:
        raise ValueError("the game is over")
    p = waiting[0]
    seat = p.player
    if rng.random() < policy.p_timeout:
        return seat, TIMEOUT
    if rng.random() < policy.p_setting:
        if rng.random() < 0.5:
            return seat, Auto(seat, not state.setting(seat).auto)
        kinds = [k for k in KINDS if k not in (AA_GUN, FACTORY)]
        rng.shuffle(kinds)
        return seat, LossOrder(seat, rng.choice(["attack", "defense", "both"]), tuple(kinds[: rng.randint(0, 4)]))
    b = state.battle
    if b is not None:
        if b.hits:
            opts = combat.options(state, b, b.hits[0], limit=12)
            if rng.random() < 0.6 or not opts:
                return seat, Casualties(seat, Sel.of(combat.default_choice(state, b, b.hits[0])))
            return seat, Casualties(seat, Sel(tuple((k, n) for k, n in rng.choice(opts).items())))
        if b.stage == "retreat":
            legal = combat.retreat_options(state)
            if legal and rng.random() < policy.p_retreat:
                return seat, Retreat(seat, rng.choice(legal))
            return seat, Continue(seat)
        subs = sum(1 for u in combat.side_units(state, b, combat.ATT if b.stage == "submerge-attacker"
                                                   else combat.DEF) if u.kind == SUBMARINE)
        return seat, Submerge(seat, rng.randint(0, subs) if rng.random() < 0.3 else 0)
    if state.scramble:
        for uid in state.scramble:
            u = state.units[uid]
            if u.owner == seat:
                spot = rng.choice(movement.scramble_options(state, u))
                return seat, Land(seat, Sel(ids=(u.id,)), u.where, spot)
    phase = state.phase
    if phase == RESEARCH:
        return seat, _research(state, seat, rng, policy)
    if phase == PURCHASE:
        if state.purchase is None:
            return seat, _buy(state, seat, rng)
        return seat, Done(seat)
    if phase == FIRST:
        return seat, First(seat, rng.choice([USA, CHINA]))
    if phase == COMBAT:
        choices: list[Order] = [Fight(seat, s.where) for s in combat.ready_sites(state)]
        choices += [Rocket(seat, a, t) for a, t in combat.rocket_sites(state, seat)]
        if not choices:
            return seat, Done(seat)
        return seat, rng.choice(choices)
    if phase == COMBAT_MOVE:
        return seat, _combat_move(state, seat, rng, policy) or Done(seat)
    if phase == NONCOMBAT:
        return seat, _noncombat(state, seat, rng, policy) or Done(seat)
    if phase == MOBILISE:
        return seat, _place(state, seat, rng) or Done(seat)
    return seat, Done(seat)



# --------------------------------------------------------------------------- phases 1, 2, 6


def _research(state: AAState, seat: str, rng: random.Random, policy: Policy) -> Order:
    charts = economy.open_charts(state, seat)
    if not charts or rng.random() > policy.p_research:
        return Done(seat)
    afford = min(2, state.ipcs.get(seat, 0) // RESEARCHER_COST)
    n = rng.randint(0 if state.researchers.get(seat, 0) else min(1, afford), afford)
    if n == 0 and not state.researchers.get(seat, 0):
        return Done(seat)
    return Research(seat, n, rng.choice(charts))


def _buy(state: AAState, seat: str, rng: random.Random) -> Order:
    have = state.ipcs.get(seat, 0)
    techs = state.tech(seat)
    repairs = []
    for t, d in state.factories.items():
        if d and state.controller(t) == seat and have >= d + 6:
            repairs.append((t, d))
            have -= economy.repair_cost(state, seat, d)
    room = economy.capacity_total(state, seat) + sum(d for _, d in repairs)
    coastal = any(state.board.coastal(f) for f in economy.placement_factories(state, seat))
    menu = [(INFANTRY, 5), (ARTILLERY, 2), (TANK, 3), (FIGHTER, 1), (BOMBER, 1), (AA_GUN, 0.2)]
    if coastal:
        menu += [(TRANSPORT, 1.5), (DESTROYER, 1), (SUBMARINE, 0.7), (CRUISER, 0.4), (CARRIER, 0.3),
                 (BATTLESHIP, 0.3)]
    bought: dict[str, int] = {}
    if have >= cost_of(FACTORY) + 20 and rng.random() < 0.05:
        bought[FACTORY] = 1
        have -= cost_of(FACTORY)
    count = 0
    for _ in range(40):
        if count >= room:
            break
        kind = rng.choices([k for k, _ in menu], weights=[w for _, w in menu])[0]
        c = cost_of(kind, techs)
        if c > have:
            if have < 3:
                break
            continue
        bought[kind] = bought.get(kind, 0) + 1
        have -= c
        count += 1
    return Buy(seat, tuple((k, bought[k]) for k in KINDS if k in bought), tuple(sorted(repairs)))


def _place(state: AAState, seat: str, rng: random.Random) -> Order | None:
    pool = state.pool_of(seat)
    b = state.board
    if seat == CHINA:
        spots = economy.china_spots(state)
        if spots and pool.get(INFANTRY):
            return Place(seat, ((INFANTRY, pool[INFANTRY]),), rng.choice(spots))
        return None
    if pool.get(FACTORY):
        for t in sorted(state.control, key=b.order.__getitem__):
            o = Place(seat, ((FACTORY, 1),), t)
            if _ok(state, o):
                return o
    facs = [f for f in economy.placement_factories(state, seat) if economy.free_capacity(state, f, seat) > 0]
    rng.shuffle(facs)
    for f in facs:
        free = economy.free_capacity(state, f, seat)
        land = {k: n for k, n in pool.items() if n > 0 and k != FACTORY and not profiles()[k].domain == "sea"}
        if land:
            take: dict[str, int] = {}
            for k in KINDS:
                if k in land and free > 0:
                    n = min(land[k], free)
                    take[k] = n
                    free -= n
            o = Place(seat, tuple(take.items()), f)
            if _ok(state, o):
                return o
        ships = {k: n for k, n in pool.items() if n > 0 and profiles()[k].domain == "sea" if k != FACTORY}
        zones = list(b.coastal(f))
        if ships and zones:
            k = next(k for k in KINDS if k in ships)
            o = Place(seat, ((k, min(ships[k], free)),), f, rng.choice(zones))
            if _ok(state, o):
                return o
    return None


def _ok(state: AAState, o: Order) -> bool:
    try:
        if isinstance(o, Place):
            economy.place(state, o, _NoDice())
        elif isinstance(o, Move):
            movement.check_move(state, o)
        elif isinstance(o, Load):
            movement.load(state, o)
        elif isinstance(o, Unload):
            movement.unload(state, o)
        return True
    except PlayerError:
        return False


class _NoDice:
    def roll(self, sides: int = 6) -> int:
        raise AssertionError

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]:
        raise AssertionError


# --------------------------------------------------------------------------- phase 3


def _strength(state: AAState, units: Iterable[Unit], role: str) -> float:
    total = 0.0
    for u in units:
        if u.kind == AA_GUN:
            continue
        p = profiles(state.tech(u.owner))[u.kind]
        total += p.value(role) * (p.attack_dice if role == "attack" else p.defense_dice) + (1 if p.hits > 1 else 0)
    return total


def _movable_land(state: AAState, seat: str, where: str) -> list[Unit]:
    return [u for u in state.units_at(where) if u.owner == seat and u.is_land and u.aboard is None
            and u.kind != AA_GUN and not u.p3 and not u.new and not u.fought]


def _combat_move(state: AAState, seat: str, rng: random.Random, policy: Policy) -> Order | None:
    b = state.board
    orders: list[Order] = []
    # 1. amphibious assaults from loaded transports
    for u in state.owned(seat):
        if u.kind == TRANSPORT and not u.stop and u.target is None:
            cargo = [c for c in state.transport_load(u.id) if c.owner == seat and c.target is None
                     and c.kind != AA_GUN]
            if not cargo:
                continue
            coast = [t for t in b.adj[u.where] if b.is_land(t) and state.hostile(t, seat)]
            if coast and rng.random() < 0.7:
                t = min(coast, key=lambda t: _strength(state, state.enemy_units(t, seat), "defense"))
                o: Order = Unload(seat, Sel.of(cargo), u.where, t)
                if _ok(state, o):
                    return o
            if not u.p3 and rng.random() < 0.3:
                for z in sorted(b.sea_distances(u.where), key=lambda z: rng.random()):
                    if z == u.where or b.sea_distances(u.where)[z] > 2:
                        continue
                    if any(b.is_land(t) and state.hostile(t, seat) for t in b.adj[z]):
                        mv = Move(seat, Sel(ids=(u.id,)), (u.where, z))
                        try:
                            return Move(seat, mv.sel, movement.find_path(state, mv))
                        except PlayerError:
                            continue
    # 2. land attacks where the side is strong enough
    targets: dict[str, list[str]] = {}
    for where, here in state.at.items():
        if not b.is_land(where) or not _movable_land(state, seat, where):
            continue
        for t in b.adj[where]:
            if b.is_land(t) and state.hostile(t, seat) and not b.space(t).neutral:
                if seat == CHINA and t not in b.china_movement:
                    continue
                targets.setdefault(t, []).append(where)
    best: list[tuple[float, str]] = []
    for t, sources in targets.items():
        enemy = state.enemy_units(t, seat)
        defence = _strength(state, enemy, "defense")
        committed = [u for u in state.units_at(t) if u.owner == seat]
        potential = [u for s in sources for u in _movable_land(state, seat, s)]
        att = _strength(state, committed + potential, "attack") + 0.5
        if att >= policy.attack_margin * defence:
            best.append((att / (defence + 1.0) + rng.random(), t))
    best.sort(reverse=True)
    for _, t in best[:2]:
        for s in sorted(targets[t], key=lambda s: rng.random()):
            units = _movable_land(state, seat, s)
            if not units:
                continue
            if len(units) > 1 and rng.random() < 0.4:
                units = units[: max(1, len(units) - 1)]  # leave a garrison sometimes
            step: Order = Move(seat, Sel.of(units), (s, t))
            if _ok(state, step):
                return step
    # 3. aircraft join a battle, raid a factory, carry paratroopers
    battles = sorted({u.where for u in state.owned(seat) if u.p3 and b.is_land(u.where)
                      and state.hostile(u.where, seat)})
    planes = [u for u in state.owned(seat) if u.is_air and not u.p3 and u.aboard is None]
    rng.shuffle(planes)
    for u in planes[:3]:
        r = rng.random()
        if u.kind == BOMBER and r < 0.15:
            for t in sorted(state.factories, key=lambda t: rng.random()):
                if state.hostile(t, seat) and b.distance(u.where, t) < move_of(BOMBER, state.tech(seat)):
                    mv = Move(seat, Sel(ids=(u.id,)), (u.where, t), "bomb")
                    try:
                        return Move(seat, mv.sel, movement.find_path(state, mv), "bomb")
                    except PlayerError:
                        pass
        if u.kind == BOMBER and r < 0.3 and "paratroopers" in state.tech(seat) and battles:
            if any(i.kind == INFANTRY and not i.moved and i.aboard is None for i in state.units_at(u.where)
                   if i.owner == seat):
                mv = Move(seat, Sel(((INFANTRY, 1),)), (u.where, rng.choice(battles)), "para")
                try:
                    return Move(seat, mv.sel, movement.find_path(state, mv), "para")
                except PlayerError:
                    pass
        if battles and rng.random() < 0.7:
            t = rng.choice(battles)
            if b.distance(u.where, t) <= move_of(u.kind, state.tech(seat)) - u.moved:
                mv = Move(seat, Sel(ids=(u.id,)), (u.where, t))
                try:
                    return Move(seat, mv.sel, movement.find_path(state, mv))
                except PlayerError:
                    pass
    # 4. fleets attack weaker fleets nearby
    for u in state.owned(seat):
        if u.is_sea and u.kind not in (TRANSPORT, CARRIER) and not u.stop and not u.p3 and rng.random() < 0.3:
            fleet = [x for x in state.units_at(u.where) if x.owner == seat and x.is_sea and not x.p3
                   and x.kind not in (TRANSPORT,)]
            for z, d in b.sea_distances(u.where).items():
                if not 0 < d <= 2:
                    continue
                hostile = [e for e in state.units_at(z) if SIDE[e.owner] != SIDE[seat] and (e.is_sea or e.is_air)]
                if hostile and _strength(state, fleet, "attack") >= 1.2 * _strength(state, hostile, "defense"):
                    mv = Move(seat, Sel.of(fleet), (u.where, z))
                    try:
                        return Move(seat, mv.sel, movement.find_path(state, mv))
                    except PlayerError:
                        continue
    del orders
    return None


# --------------------------------------------------------------------------- phase 5


def _noncombat(state: AAState, seat: str, rng: random.Random, policy: Policy) -> Order | None:
    b = state.board
    # 1. land every aircraft that is not on a legal landing
    for u in sorted(state.owned(seat), key=lambda u: u.id):
        if not u.is_air or u.p5 or u.stop:
            continue
        here_ok = movement.land_here_ok(state, u, u.where) if b.is_land(u.where) else (
            u.kind == FIGHTER and state.carrier_room(u.where, seat) >= 0 and u.moved == 0)
        if here_ok:
            continue
        left = move_of(u.kind, state.tech(seat)) - u.moved
        reach = movement.air_reach(state, u)
        spots = sorted((d, b.order[s], s) for s, d in reach.items() if 0 < d <= left)
        for _, _, s in spots:
            o = Move(seat, Sel(ids=(u.id,)), (u.where, s))
            try:
                return Move(seat, o.sel, movement.find_path(state, o))
            except PlayerError:
                continue
    # 2. a few moves: load transports, sail loaded ones, walk towards the enemy
    budget = sum(1 for u in state.owned(seat) if u.p5) < policy.max_moves * 2
    if not budget or rng.random() < 0.35:
        return None
    r = rng.random()
    if r < 0.35 and seat != CHINA:
        for t in sorted((u for u in state.owned(seat) if u.kind == TRANSPORT and not u.p3 and not u.stop),
                        key=lambda u: rng.random()):
            if state.enemy_surface(t.where, seat):
                continue
            room = 2 - len(state.transport_load(t.id))
            if room <= 0:
                continue
            for land in b.adj[t.where]:
                if b.is_land(land):
                    units = [u for u in state.units_at(land) if u.owner == seat and u.is_land and u.aboard is None
                             and not u.moved and not u.p3 and not u.new and u.kind != AA_GUN]
                    if units:
                        kinds = sorted(units, key=lambda u: u.kind != INFANTRY)[:room]
                        ld: Order = Load(seat, Sel.of(kinds), land, t.where)
                        if _ok(state, ld):
                            return ld
    if r < 0.6:
        for t in sorted((u for u in state.owned(seat) if u.kind == TRANSPORT and not u.p3 and not u.stop
                         and state.transport_load(u.id)), key=lambda u: rng.random()):
            zones = [z for z, d in b.sea_distances(t.where).items() if 0 < d <= 2 - t.moved]
            rng.shuffle(zones)
            for z in zones[:4]:
                o = Move(seat, Sel(ids=(t.id,)), (t.where, z))
                try:
                    return Move(seat, o.sel, movement.find_path(state, o))
                except PlayerError:
                    continue
    groups = [(w, u) for w, here in state.at.items() if b.is_land(w)
              for u in here if u.owner == seat and u.is_land and u.aboard is None and not u.p3
              and not u.p5 and not u.stop and not u.new and not u.fought]
    rng.shuffle(groups)
    for w, u in groups[:4]:
        nxt = [x for x in b.adj[w] if b.is_land(x) and state.friendly(x, seat) and not b.space(x).neutral]
        if seat == CHINA:
            nxt = [x for x in nxt if x in b.china_movement]
        if not nxt:
            continue
        dest = rng.choice(nxt)
        same = [x for x in state.units_at(w) if x.kind == u.kind and x.owner == seat and x.aboard is None
                and not x.p3 and not x.p5 and not x.stop and not x.new and not x.fought]
        walk: Order = Move(seat, Sel(((u.kind, rng.randint(1, len(same))),)), (w, dest))
        if _ok(state, walk):
            return walk
    return None
