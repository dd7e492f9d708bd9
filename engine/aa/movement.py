"""Movement: combat move (A-9) and non-combat move (A-11), transports (A-14.6).

One order moves a group of units along one path.  Each unit is checked on its own
(its movement left, what it may enter) and the group together (mechanised infantry
paired with tanks, A-7.6; paratroopers with their bombers).  Land units and aircraft
make one move per phase; ships may make several while they have movement left and have
not stopped (a transport may load, move, load again and unload).

Air range (A-9.9 – A-9.11): every space entered counts one; after every phase-3 move the
engine checks that each attacking aircraft can still reach a possible landing (a
territory friendly since the turn began, or for a fighter a friendly carrier there now,
one of the power's carriers that can still move there in phase 5, or a carrier in the
pool that can be placed there), as if every battle were won.  A move that would leave an
aircraft with no possible landing is refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Sequence

from engine.aa.control import capture
from engine.aa.events import Lost, Moved
from engine.aa.orders import Land, Load, Move, Sel, Unload, format_sel
from engine.aa.state import (
    CHINA, COMBAT_MOVE, NONCOMBAT, SIDE, AAState, Unit, with_units,
)
from engine.aa.units import (
    AA_GUN, BOMBER, CARRIER, FIGHTER, INFANTRY, SHORT, TANK, TRANSPORT, format_counts, kind_counts, move_of,
)
from engine.core.errors import IllegalOrder
from engine.core.events import Event

Result = tuple[AAState, list[Event]]


# --------------------------------------------------------------------------- selecting units


def describe(units: Iterable[Unit]) -> str:
    return format_counts(kind_counts(units))


def select_units(
    state: AAState,
    power: str,
    sel: Sel,
    where: str,
    why_not: Callable[[Unit], str | None],
    key: Callable[[Unit], Any] | None = None,
    pool: Sequence[Unit] | None = None,
) -> list[Unit]:
    """The units an order names: ids as given, counts filled by ``key`` order from the
    eligible units of ``power`` at ``where``."""
    here = list(pool) if pool is not None else [u for u in state.units_at(where) if u.owner == power]
    chosen: list[Unit] = []
    for uid in sel.ids:
        u = state.units.get(uid)
        if u is None or u not in here:
            raise IllegalOrder(f"#{uid} is not one of your units in {where}.",
                               legal=[f"#{x.id} {SHORT[x.kind]}" for x in here])
        reason = why_not(u)
        if reason:
            raise IllegalOrder(f"#{uid} ({SHORT[u.kind]}) cannot: {reason}.")
        chosen.append(u)
    for kind, count in sel.counts:
        all_of = [u for u in here if u.kind == kind and u not in chosen]
        ok = [u for u in all_of if why_not(u) is None]
        ok.sort(key=key or (lambda u: u.id))
        if len(ok) < count:
            if not all_of:
                kinds = sorted({SHORT[u.kind] for u in here if why_not(u) is None})
                raise IllegalOrder(f"You have no {SHORT[kind]} in {where} for this.", legal=kinds)
            bad = next((u for u in all_of if why_not(u) is not None), None)
            tail = f" (the others: {why_not(bad)})" if bad is not None else ""
            raise IllegalOrder(f"Only {len(ok)} of your {len(all_of)} {SHORT[kind]} in {where} "
                               f"can do this{tail}.")
        chosen.extend(ok[:count])
    return chosen


def _move_key(state: AAState) -> Callable[[Unit], tuple[int, int, int]]:
    def key(u: Unit) -> tuple[int, int, int]:
        return (u.moved, -len(state.transport_load(u.id)) if u.kind == TRANSPORT else 0, u.id)
    return key


# --------------------------------------------------------------------------- shared checks


def _steps(state: AAState, power: str, path: Sequence[str]) -> None:
    b = state.board
    for a, c in zip(path, path[1:]):
        if c not in b.adj[a]:
            raise IllegalOrder(f"{a} and {c} are not adjacent.", legal=b.adj[a])
        if b.space(c).neutral:
            raise IllegalOrder(f"{c} is neutral: no unit may enter or fly over it (A-2.4).")
        if power == CHINA and c not in b.china_movement:
            raise IllegalOrder(f"Chinese units stay in China's area (A-5.6); {c} is outside it.",
                               legal=sorted(b.china_movement))


def _canal_open(state: AAState, power: str, a: str, c: str) -> None:
    canal = state.board.canal(a, c)
    if canal is None:
        return
    if not all(state.friendly_at_start(t, power) for t in canal.requires):
        raise IllegalOrder(f"The {canal.name} canal is shut to your side: it needs "
                           f"{' and '.join(canal.requires)} held since the turn began (A-2.10).")


def enemy_units_at(state: AAState, where: str, power: str) -> list[Unit]:
    return [u for u in state.units_at(where) if SIDE[u.owner] != SIDE[power]]


def air_reach(state: AAState, u: Unit) -> dict[str, int]:
    b = state.board
    if u.owner == CHINA:
        return b.bfs(u.where, lambda n: n in b.china_movement)
    return b.distances(u.where)


def reachable(state: AAState, power: str, start: str, kinds: Iterable[str] = ()) -> list[str]:
    """Spaces the power's units in ``start`` (of ``kinds``, or all) could still reach this
    turn, nearest first: land units over land, ships over sea, aircraft anywhere but over
    neutrals (A-2.4); a hint for choosing (autocomplete): the move itself checks the rest."""
    b = state.board
    wanted = set(kinds)
    units = [u for u in state.units_at(start) if u.owner == power and not u.stop
             and (not wanted or u.kind in wanted) and u.aboard is None]
    techs = state.tech(power)
    found: dict[str, int] = {}
    for u in units:
        steps = move_of(u.kind, techs) - u.moved
        if steps <= 0:
            continue
        if u.is_air:
            spaces = b.bfs(start, lambda n: not b.space(n).neutral, steps) if u.owner != CHINA else b.bfs(
                start, lambda n: n in b.china_movement, steps)
        elif u.is_land:
            spaces = b.bfs(start, lambda n: b.is_land(n) and not b.space(n).neutral, steps)
        else:
            spaces = b.bfs(start, lambda n: b.is_sea(n), steps)
        for name, d in spaces.items():
            if name != start and (name not in found or d < found[name]):
                found[name] = d
    return sorted(found, key=lambda n: (found[n], n))


def land_here_ok(state: AAState, u: Unit, space: str) -> bool:
    """A-11.4: a territory friendly since the turn began (never one taken this turn)."""
    b = state.board
    if b.is_land(space):
        if u.owner == CHINA and space not in b.china_movement:
            return False
        return (state.friendly(space, u.owner) and state.friendly_at_start(space, u.owner)
                and space not in state.captured)
    return False


def pool_carrier_zones(state: AAState, power: str) -> frozenset[str]:
    """Zones where a carrier from the pool could be placed in phase 6 (A-11.4)."""
    if state.pool_of(power).get(CARRIER, 0) <= 0:
        return frozenset()
    from engine.aa.economy import placement_factories

    out: set[str] = set()
    for f in placement_factories(state, power):
        out.update(state.board.coastal(f))
    return frozenset(out)


def landing_spots(state: AAState, u: Unit) -> set[str]:
    """Every space where the aircraft could land by the end of the turn (A-9.11)."""
    remaining = move_of(u.kind, state.tech(u.owner)) - u.moved
    reach = air_reach(state, u)
    spots: set[str] = set()
    carriers_to: set[str] = set()
    zones_ok: frozenset[str] = frozenset()
    if u.kind == FIGHTER and u.owner != CHINA:
        for c in state.owned(u.owner):
            if c.kind == CARRIER and not (c.p3 or c.fought or c.stop) and c.moved < 2:
                carriers_to.update(z for z, d in state.board.sea_distances(c.where).items()
                                   if d <= 2 - c.moved)
        zones_ok = pool_carrier_zones(state, u.owner)
    b = state.board
    for s, d in reach.items():
        if d > remaining:
            continue
        if b.is_land(s):
            if land_here_ok(state, u, s):
                spots.add(s)
        elif u.kind == FIGHTER and u.owner != CHINA:
            if s in carriers_to or s in zones_ok or any(
                    c.kind == CARRIER and SIDE[c.owner] == SIDE[u.owner] for c in state.units_at(s)):
                spots.add(s)
    return spots


def stranded(state: AAState, power: str) -> list[Unit]:
    """Attacking aircraft of ``power`` with no possible landing (A-9.11)."""
    return [u for u in state.owned(power) if u.is_air and u.p3 and not landing_spots(state, u)]


# --------------------------------------------------------------------------- why a unit cannot move


def _why_not(state: AAState, phase: str, verb: str) -> Callable[[Unit], str | None]:
    def why(u: Unit) -> str | None:
        if u.new:
            return "it was just placed"
        if u.fought and not u.is_air:
            return "it fought this turn"
        if u.is_land:
            if u.aboard is not None:
                return "it is aboard; use 'unload'"
            if phase == COMBAT_MOVE:
                if u.kind == AA_GUN:
                    return "AA guns move only in the non-combat move (A-9.17)"
                if u.p3:
                    return "it already moved this phase"
            else:
                if u.p3:
                    return "it moved in the combat move"
                if u.p5 or u.stop:
                    return "it already moved this phase"
            return None
        if u.is_air:
            if phase == COMBAT_MOVE:
                if u.p3:
                    return "it already moved this phase"
            else:
                if u.p5 or u.stop:
                    return "it already moved this phase"
            return None
        # ships
        if u.stop:
            return "it stopped for this turn"
        if phase == NONCOMBAT and u.p3:
            return "it moved, loaded or unloaded in the combat move"
        return None
    return why


# --------------------------------------------------------------------------- the move order


def _mech_pairs(state: AAState, power: str, units: Sequence[Unit], steps: int) -> bool:
    """A-7.6 Mechanised Infantry: infantry paired one-to-one with tanks may move 2."""
    if "mechanised infantry" not in state.tech(power) or steps != 2:
        return False
    inf = sum(1 for u in units if u.kind == INFANTRY)
    tanks = sum(1 for u in units if u.kind == TANK)
    return 0 < inf <= tanks


def _check_land(state: AAState, power: str, units: Sequence[Unit], path: Sequence[str],
                phase: str) -> str | None:
    """Land movement; returns the territory blitzed (A-9.15), if any."""
    b = state.board
    n = len(path) - 1
    paired = _mech_pairs(state, power, units, n)
    techs = state.tech(power)
    for u in units:
        mv = 2 if (u.kind == INFANTRY and paired) else move_of(u.kind, techs)
        if n > mv:
            raise IllegalOrder(f"{SHORT[u.kind]} moves {mv}; this path is {n} long (A-14).")
    for s in path[1:]:
        if not b.is_land(s):
            raise IllegalOrder("Land units enter a sea zone only by loading a transport ('load …', A-14.6).")
    if phase == COMBAT_MOVE:
        blitz = None
        for i in range(1, n):
            s = path[i]
            if state.friendly(s, power):
                continue
            can_blitz = all(u.kind == TANK or (u.kind == INFANTRY and paired) for u in units)
            if i == 1 and can_blitz and not enemy_units_at(state, s, power) and s not in state.factories:
                blitz = s
                continue
            if i == 1 and can_blitz:
                raise IllegalOrder(f"A tank blitzes only through a hostile territory empty of enemy "
                                   f"units and factories (A-9.15); {s} is not.")
            raise IllegalOrder(f"Units must stop on entering hostile {s} (A-9.4).")
        end = path[-1]
        if not state.hostile(end, power) and blitz is None:
            raise IllegalOrder(f"In the combat move land units end in a hostile territory (A-9.2); "
                               f"{end} is friendly: move there in the non-combat move.")
        return blitz
    for s in path[1:]:
        if not state.friendly(s, power):
            raise IllegalOrder(f"In the non-combat move land units enter only friendly territories "
                               f"(A-11.2); {s} is not.")
    return None


def _check_sea(state: AAState, power: str, units: Sequence[Unit], path: Sequence[str], phase: str) -> None:
    b = state.board
    n = len(path) - 1
    for s in path[1:]:
        if not b.is_sea(s):
            raise IllegalOrder(f"Ships stay at sea (A-14.1); {s} is land.")
    for a, c in zip(path, path[1:]):
        _canal_open(state, power, a, c)
    techs = state.tech(power)
    for u in units:
        if u.moved + n > move_of(u.kind, techs):
            left = move_of(u.kind, techs) - u.moved
            raise IllegalOrder(f"{SHORT[u.kind]} #{u.id} has {left} movement left; this path is {n} long.")
    subs = [u for u in units if u.kind == "submarine"]
    surface = [u for u in units if u.kind != "submarine"]
    for i in range(1, n + 1):
        s = path[i]
        last = i == n
        hostile = state.enemy_surface(s, power)
        if surface and hostile and (not last or phase == NONCOMBAT):
            if phase == NONCOMBAT:
                raise IllegalOrder(f"In the non-combat move ships enter only friendly zones (A-11.3); "
                                   f"{s} holds enemy warships.")
            raise IllegalOrder(f"Ships must stop on entering {s}, which holds enemy warships (A-9.4).")
        if subs and not last and state.has_enemy_destroyer(s, power):
            raise IllegalOrder(f"An enemy destroyer in {s} ends a submarine's move there (A-9.14).")
    if phase == NONCOMBAT:
        start = path[0]
        leaving = sum(2 for u in units if u.kind == CARRIER)
        if leaving and any(f.mission == "landed" for f in state.units_at(start) if f.kind == FIGHTER
                           and SIDE[f.owner] == SIDE[power]):
            if state.carrier_room(start, power) - leaving < 0:
                raise IllegalOrder(f"Fighters landed on the carriers in {start}: landing ended the "
                                   f"carriers' move (A-11.4).")


def _check_air(state: AAState, power: str, units: Sequence[Unit], path: Sequence[str], phase: str,
               verb: str) -> None:
    b = state.board
    n = len(path) - 1
    techs = state.tech(power)
    for u in units:
        mv = move_of(u.kind, techs)
        if u.moved + n > mv:
            raise IllegalOrder(f"{SHORT[u.kind]} #{u.id} has {mv - u.moved} movement left; this path "
                               f"is {n} long (A-9.9).")
        if u.owner == CHINA and any(b.is_sea(s) for s in path[1:]):
            raise IllegalOrder("Chinese aircraft never enter a sea zone (A-5.6).")
    end = path[-1]
    if phase == COMBAT_MOVE:
        if verb == "bomb":
            if any(u.kind != BOMBER for u in units):
                raise IllegalOrder("Only bombers make strategic bombing raids (A-10.2).")
            if not (b.is_land(end) and state.hostile(end, power) and end in state.factories):
                raise IllegalOrder(f"A strategic raid targets an enemy industrial complex; {end} has none.",
                                   legal=sorted(t for t in state.factories if state.hostile(t, power)))
            return
        if verb == "para":
            for s in path[1:-1]:
                if b.is_land(s) and state.hostile(s, power):
                    raise IllegalOrder(f"A bomber carrying paratroopers stops in the first hostile "
                                       f"territory it enters (A-7.6): {s}.")
            if not (b.is_land(end) and state.hostile(end, power)):
                raise IllegalOrder("Paratroopers drop on a hostile territory (A-7.6).")
            return
        if b.is_land(end):
            if not state.hostile(end, power):
                raise IllegalOrder(f"In the combat move aircraft go to a battle (A-9.2); {end} is friendly: "
                                   f"fly there in the non-combat move.")
        elif not enemy_units_at(state, end, power):
            raise IllegalOrder(f"In the combat move aircraft go to a battle (A-9.2); {end} holds no enemy.")
        return
    # phase 5: land
    if b.is_land(end):
        for u in units:
            if not land_here_ok(state, u, end):
                raise IllegalOrder(f"Aircraft land only in a territory friendly since the turn began, "
                                   f"never one taken this turn (A-11.4); {end} is not.")
        return
    fighters = [u for u in units if u.kind == FIGHTER]
    if len(fighters) != len(units) or any(u.owner == CHINA for u in units):
        raise IllegalOrder("Only fighters land at sea, on carriers (A-11.4); Chinese aircraft never do.")
    room = state.carrier_room(end, power) + sum(1 for u in units if u.where == end)
    if room < len(fighters) and end not in pool_carrier_zones(state, power):
        raise IllegalOrder(f"No room for {len(fighters)} fighter(s) on friendly carriers in {end} "
                           f"(2 per carrier, A-11.4).")


def check_move(state: AAState, o: Move) -> Result:
    """Validate and make a move, bombing or paratroop order."""
    power, phase, path = o.power, state.phase, o.path
    if phase not in (COMBAT_MOVE, NONCOMBAT):
        raise IllegalOrder(f"Units move only in the combat and non-combat moves; now it is {phase}.")
    if len(path) < 2 or len(set(path)) != len(path) and not (phase == COMBAT_MOVE and path[-1] == path[0]):
        raise IllegalOrder("A path goes from one space to another without visiting a space twice.")
    if o.verb != "move" and phase != COMBAT_MOVE:
        raise IllegalOrder(f"'{o.verb}' is a combat move (A-9, A-10.2, A-7.6).")
    _steps(state, power, path)
    why = _why_not(state, phase, o.verb)
    start = path[0]
    carried: list[Unit] = []
    if o.verb == "para":
        if "paratroopers" not in state.tech(power):
            raise IllegalOrder("Paratroopers need the Paratroopers breakthrough (A-7.6).")
        if any(k != INFANTRY for k, _ in o.sel.counts) or any(state.units[i].kind != INFANTRY
                                                               for i in o.sel.ids if i in state.units):
            raise IllegalOrder("Only infantry jump (A-7.6): 'para 2 inf: A -> … -> X'.")
        carried = select_units(state, power, o.sel, start,
                               lambda u: why(u) or ("it already moved" if u.moved else None))
        bombers = select_units(state, power, Sel(((BOMBER, len(carried)),)), start,
                               lambda u: why(u) or ("it is on a mission" if u.mission else None))
        units = bombers
    else:
        units = select_units(state, power, o.sel, start, why, _move_key(state))
    kinds = {("land" if u.is_land else "air" if u.is_air else "sea") for u in units}
    if "sea" in kinds and len(kinds) > 1:
        raise IllegalOrder("Ships move on their own; land units travel by transport, aircraft fly.")
    land = [u for u in units if u.is_land]
    air = [u for u in units if u.is_air]
    sea = [u for u in units if u.is_sea]
    blitz = None
    if land:
        if path[-1] == path[0] and not (phase == COMBAT_MOVE):
            raise IllegalOrder("A path goes somewhere.")
        blitz = _check_land(state, power, land, path, phase)
    if air:
        _check_air(state, power, air, path, phase, o.verb)
    if sea:
        _check_sea(state, power, sea, path, phase)
    if path[-1] == path[0] and blitz is None:
        raise IllegalOrder("Only a blitzing tank may come back to where it started (A-9.15).")
    n = len(path) - 1
    end, before = path[-1], path[-2]
    p3 = phase == COMBAT_MOVE
    changed: dict[int, Unit | None] = {}
    events: list[Event] = []
    for u in units:
        fields: dict[str, object] = dict(where=end, moved=u.moved + n)
        if p3:
            fields.update(p3=True, came_from=before)
        else:
            fields.update(p5=True)
        if u.is_land:
            fields["stop"] = True
        elif u.is_air:
            fields["aboard"] = None
            if o.verb == "bomb":
                fields.update(mission="bomb", target=end)
            elif o.verb == "para":
                fields.update(mission="para", target=end)
            if not p3:
                fields.update(stop=True, mission="landed" if state.board.is_sea(end) else "")
        else:
            if p3:
                enemy = enemy_units_at(state, end, power)
                if u.kind == "submarine":
                    stop = any(e.kind == "destroyer" for e in enemy) or any(e.is_sea for e in enemy)
                elif u.kind == TRANSPORT:
                    stop = state.enemy_surface(end, power)
                else:
                    stop = any(e.is_sea for e in enemy)
                fields["stop"] = stop
            elif u.kind == "submarine" and state.has_enemy_destroyer(end, power):
                fields["stop"] = True
        changed[u.id] = replace(u, **fields)  # type: ignore[arg-type]
        if u.is_sea:
            for c in state.transport_load(u.id):
                if u.kind == CARRIER and c.owner == u.owner:
                    changed[c.id] = replace(c, aboard=None)  # own fighters took off
                else:
                    changed[c.id] = replace(c, where=end)
    for i, inf in enumerate(carried):
        changed[inf.id] = replace(inf, where=end, aboard=units[i].id, moved=1, p3=True,
                                  came_from=before if state.board.is_land(before) else None, stop=True)
    if o.verb == "para":
        events.append(Moved(power, f"{len(units)} bom carrying {len(carried)} inf", tuple(path), "para"))
    else:
        events.append(Moved(power, describe(units), tuple(path), o.verb))
    new = with_units(state, changed)
    if blitz is not None:
        new, more = capture(new, blitz, power)
        events.extend(more)
    if p3 and (air or any(u.kind == CARRIER for u in sea)):
        lost = stranded(new, power)
        if lost:
            raise IllegalOrder("No possible landing would be left for "
                               + ", ".join(f"#{u.id} {SHORT[u.kind]} in {u.where}" for u in lost)
                               + " (A-9.11).")
    return new, events


# --------------------------------------------------------------------------- path finding


def _land_paths(state: AAState, start: str, end: str, limit: int, power: str) -> list[tuple[str, ...]]:
    b = state.board
    out: list[tuple[str, ...]] = []
    frontier: list[tuple[str, ...]] = [(start,)]
    for _ in range(limit):
        nxt: list[tuple[str, ...]] = []
        for p in frontier:
            for m in b.adj[p[-1]]:
                if b.space(m).neutral or (m in p and not (m == end == start)):
                    continue
                q = p + (m,)
                if m == end:
                    out.append(q)
                else:
                    nxt.append(q)
        frontier = nxt
    # shortest first; then through friendly spaces before hostile ones; then board order
    out.sort(key=lambda p: (len(p), sum(1 for s in p[1:-1] if not (b.is_sea(s) or state.friendly(s, power))),
                            [b.order[s] for s in p]))
    return out


def find_path(state: AAState, o: Move) -> tuple[str, ...]:
    """The first legal path between the two ends of ``o.path`` for its units."""
    start, end = o.path[0], o.path[-1]
    b = state.board
    first_error: IllegalOrder | None = None
    try:
        units = select_units(state, o.power, o.sel, start, lambda u: None)
    except IllegalOrder:
        units = []
    flying = bool(units) and all(u.is_air for u in units) or o.verb in ("bomb", "para")
    if flying:
        longest = max((move_of(u.kind, state.tech(o.power)) - u.moved for u in units), default=8)
        if o.verb == "para":
            longest = max(longest, move_of(BOMBER, state.tech(o.power)))

        def allowed(n: str) -> bool:
            if b.space(n).neutral:
                return False
            if o.power == CHINA and n not in b.china_movement:
                return False
            if o.verb == "para" and n != end and b.is_land(n) and state.hostile(n, o.power):
                return False
            return True
        seen: dict[str, tuple[str, ...]] = {start: (start,)}
        frontier = [start]
        while frontier and end not in seen:
            nxt = []
            for n in frontier:
                for m in b.adj[n]:
                    if m not in seen and allowed(m):
                        seen[m] = seen[n] + (m,)
                        nxt.append(m)
            frontier = nxt
        candidates: list[tuple[str, ...]] = [seen[end]] if end in seen and len(seen[end]) - 1 <= max(longest, 1) else []
    else:
        candidates = _land_paths(state, start, end, 2, o.power)
    for p in candidates:
        try:
            check_move(state, replace(o, path=p))
            return p
        except IllegalOrder as err:
            first_error = first_error or err
    if first_error is not None:
        raise first_error
    raise IllegalOrder(f"No legal path from {start} to {end} for these units.")


# --------------------------------------------------------------------------- transports


def _capacity_ok(cargo: Sequence[Unit]) -> bool:
    """A-14.6: one land unit of any type plus one infantry."""
    return len(cargo) <= 2 and sum(1 for c in cargo if c.kind != INFANTRY) <= 1


def load(state: AAState, o: Load) -> Result:
    power, phase, b = o.power, state.phase, state.board
    if phase not in (COMBAT_MOVE, NONCOMBAT):
        raise IllegalOrder("Transports load in the combat or non-combat move.")
    if power == CHINA:
        raise IllegalOrder("Chinese units never board transports (A-5.6).")
    if not (b.is_land(o.frm) and b.is_sea(o.zone) and o.zone in b.adj[o.frm]):
        raise IllegalOrder(f"Load from a territory into an adjacent sea zone; {o.zone} does not touch {o.frm}.",
                           legal=b.coastal(o.frm) if b.is_land(o.frm) else ())
    if state.enemy_surface(o.zone, power):
        raise IllegalOrder(f"No loading in a hostile zone (A-14.6): {o.zone} holds enemy warships.")

    def why(u: Unit) -> str | None:
        if not u.is_land or u.aboard is not None:
            return "only land units on land board"
        if u.new or u.fought or u.moved or u.p3 or u.p5:
            return "boarding is a land unit's whole move (A-14.6)"
        if u.kind == AA_GUN and phase == COMBAT_MOVE:
            return "AA guns move only in the non-combat move (A-9.17)"
        return None
    units = select_units(state, power, o.sel, o.frm, why)
    boats = []
    for t in state.units_at(o.zone):
        if t.kind != TRANSPORT or SIDE[t.owner] != SIDE[power]:
            continue
        if o.onto and t.id not in o.onto:
            continue
        if t.owner == power:
            if t.stop or t.target is not None or (phase == NONCOMBAT and t.p3) or t.mission == "retreated":
                continue
        elif phase == COMBAT_MOVE:
            continue  # allied cargo boards in the non-combat move (it leaves on a later turn)
        boats.append(t)
    for tid in o.onto:
        if not any(t.id == tid for t in boats):
            raise IllegalOrder(f"#{tid} is not a transport in {o.zone} that can load now.")
    if not boats:
        raise IllegalOrder(f"No transport of yours (or, in the non-combat move, of an ally) in {o.zone} "
                           f"can load now.")
    loads = {t.id: list(state.transport_load(t.id)) for t in boats}
    order = sorted(boats, key=lambda t: (t.owner != power, -len(loads[t.id]), t.id))
    assignment: dict[int, int] = {}
    for u in sorted(units, key=lambda u: (u.kind == INFANTRY, u.id)):
        for t in order:
            trial = loads[t.id] + [u]
            if _capacity_ok(trial):
                loads[t.id] = trial
                assignment[u.id] = t.id
                break
        else:
            raise IllegalOrder(f"Not enough room on the transports in {o.zone}: each carries one land "
                               f"unit of any type plus one infantry (A-14.6).")
    changed: dict[int, Unit | None] = {}
    p = 3 if phase == COMBAT_MOVE else 5
    for u in units:
        changed[u.id] = replace(u, where=o.zone, aboard=assignment[u.id], moved=1, boarded=p,
                                p3=p == 3, p5=p == 5)
    for t in boats:
        if any(a == t.id for a in assignment.values()) and t.owner == power:
            changed[t.id] = replace(t, p3=t.p3 or p == 3, p5=t.p5 or p == 5)
    return with_units(state, changed), [Moved(power, describe(units), (o.frm, o.zone), "load")]


def unload(state: AAState, o: Unload) -> Result:
    power, phase, b = o.power, state.phase, state.board
    if phase not in (COMBAT_MOVE, NONCOMBAT):
        raise IllegalOrder("Transports unload in the combat or non-combat move.")
    if not (b.is_sea(o.zone) and b.is_land(o.to) and o.to in b.adj[o.zone]):
        raise IllegalOrder(f"Unload from a sea zone into an adjacent territory; {o.to} does not touch {o.zone}.")
    if b.space(o.to).neutral:
        raise IllegalOrder(f"{o.to} is neutral (A-2.4).")

    def why(u: Unit) -> str | None:
        if u.aboard is None or not u.is_land:
            return "it is not aboard a transport"
        t = state.units.get(u.aboard)
        if t is None or t.kind != TRANSPORT:
            return "it is not aboard a transport"
        if u.target is not None:
            return "it is already committed to an assault"
        if t.mission == "retreated":
            return "its transport retreated; no unloading after a retreat (A-14.6)"
        if t.target is not None and t.target != o.to:
            return f"its transport already unloads into {t.target} this turn (one territory per turn)"
        if t.owner != power and u.boarded:
            return "cargo on an ally's transport leaves on a later turn of its owner (A-14.6)"
        if phase == COMBAT_MOVE:
            if u.kind == AA_GUN:
                return "AA guns never attack"
        else:
            if u.p3 or (t.owner == power and t.p3):
                return "it or its transport acted in the combat move"
        return None
    cargo = [u for u in state.units_at(o.zone) if u.owner == power and u.aboard is not None]
    units = select_units(state, power, o.sel, o.zone, why, pool=cargo)
    changed: dict[int, Unit | None] = {}
    if phase == COMBAT_MOVE:
        if not state.hostile(o.to, power):
            raise IllegalOrder(f"In the combat move transports unload only into a hostile territory, by "
                               f"amphibious assault (A-9.12); {o.to} is friendly.")
        for u in units:
            changed[u.id] = replace(u, target=o.to, p3=True, came_from=o.zone)
    else:
        if not state.friendly(o.to, power):
            raise IllegalOrder(f"In the non-combat move transports unload only into friendly territory "
                               f"(A-11.5); {o.to} is hostile.")
        if state.enemy_surface(o.zone, power):
            raise IllegalOrder("No unloading in a hostile zone (A-14.6).")
        for u in units:
            changed[u.id] = replace(u, where=o.to, aboard=None, p5=True, stop=True, moved=max(u.moved, 1))
    for u in units:
        t = state.units[u.aboard]  # type: ignore[index]
        if t.owner == power:
            t0 = changed.get(t.id) or t
            assert t0 is not None
            changed[t.id] = replace(t0, stop=True, target=o.to, p3=t0.p3 or phase == COMBAT_MOVE,
                                    p5=t0.p5 or phase == NONCOMBAT)
    verb = "assault" if phase == COMBAT_MOVE else "unload"
    return with_units(state, changed), [Moved(power, describe(units), (o.zone, o.to), verb)]


# ---------------------------------------------------------------------------


def scramble_options(state: AAState, u: Unit) -> list[str]:
    """Where a fighter whose carrier sank may go: another carrier in its zone, or one step
    to a friendly territory or a carrier with room (A-11.6)."""
    out: list[str] = []
    if state.carrier_room(u.where, u.owner) >= 0 and any(
            c.kind == CARRIER and SIDE[c.owner] == SIDE[u.owner] for c in state.units_at(u.where)):
        out.append(u.where)
    b = state.board
    for n in b.adj[u.where]:
        if b.is_land(n):
            if state.friendly(n, u.owner) and not b.space(n).neutral:
                out.append(n)
        elif state.carrier_room(n, u.owner) > 0:
            out.append(n)
    return out


def land_fighter(state: AAState, o: Land) -> Result:
    if not state.scramble:
        raise IllegalOrder("No fighter is waiting to land (A-11.6).")
    waiting = [state.units[i] for i in state.scramble if state.units[i].owner == o.power
               and state.units[i].where == o.frm]
    units = select_units(state, o.power, o.sel, o.frm, lambda u: None, pool=waiting)
    changed: dict[int, Unit | None] = {}
    for u in units:
        options = scramble_options(state, u)
        if o.to not in options:
            raise IllegalOrder(f"Fighter #{u.id} may land only at one of these (A-11.6).", legal=options)
        changed[u.id] = replace(u, where=o.to, aboard=None)
    left = tuple(i for i in state.scramble if i not in changed)
    new = with_units(state, changed, scramble=left)
    return new, [Moved(o.power, describe(units), (o.frm, o.to), "land")]


def lose_units(state: AAState, units: Sequence[Unit], why: str) -> Result:
    """Remove units (and everything aboard them)."""
    if not units:
        return state, []
    gone: dict[int, Unit | None] = {}
    for u in units:
        gone[u.id] = None
        for c in state.transport_load(u.id):
            gone[c.id] = None
    lost = [state.units[i] for i in gone]
    where = units[0].where
    owners = tuple(sorted({u.owner for u in lost}))
    return with_units(state, gone), [Lost(where, describe(lost), why, owners)]


def format_units(units: Iterable[Unit]) -> str:
    return format_sel(Sel(ids=tuple(sorted(u.id for u in units))))
