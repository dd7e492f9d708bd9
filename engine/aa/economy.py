"""Research (A-7), purchase and repair (A-8), mobilisation (A-12), China's infantry (A-5.4,
A-5.5), income and national objectives (A-13)."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping

from engine.aa.board import read_data
from engine.aa.events import ChineseRecruits, Income, Placed, Purchased, Researched
from engine.aa.orders import Buy, Place, Research
from engine.aa.state import CHINA, MOBILISE, PURCHASE, RESEARCH, SIDE, AAState, Purchase, Unit
from engine.aa.units import (
    BOMBER, CARRIER, CHARTS, FACTORY, FIGHTER, INFANTRY, KINDS, RESEARCHER_COST, SHORT,
    cost_of, counts_tuple, format_counts, is_land, is_sea,
)
from engine.core.dice import Dice
from engine.core.errors import IllegalOrder
from engine.core.events import Event

Result = tuple[AAState, list[Event]]


# --------------------------------------------------------------------------- research


def open_charts(state: AAState, power: str) -> list[int]:
    owned = state.tech(power)
    return [c for c, techs in CHARTS.items() if any(t not in owned for t in techs)]


def can_research(state: AAState, power: str) -> bool:
    if not state.options.research or power == CHINA or not state.capital_held(power):
        return False
    if not open_charts(state, power):
        return False
    return state.researchers.get(power, 0) > 0 or state.ipcs.get(power, 0) >= RESEARCHER_COST


def research(state: AAState, o: Research, dice: Dice) -> Result:
    power = o.power
    if state.phase != RESEARCH:
        raise IllegalOrder("Research happens in phase 1 (A-7).")
    if not can_research(state, power):
        raise IllegalOrder("This power cannot research now (A-7.3, A-7.4).", legal=["done"])
    if o.buy < 0:
        raise IllegalOrder("Buy zero or more researchers.")
    cost = o.buy * RESEARCHER_COST
    if cost > state.ipcs.get(power, 0):
        afford = state.ipcs.get(power, 0) // RESEARCHER_COST
        raise IllegalOrder(f"{o.buy} researchers cost {cost} IPCs; you have {state.ipcs.get(power, 0)} "
                           f"(at most {afford}).")
    total = state.researchers.get(power, 0) + o.buy
    charts = open_charts(state, power)
    if total and o.chart not in charts:
        raise IllegalOrder("Name the chart to roll on if a 6 comes up (A-7.3 ruling).",
                           legal=[f"research {o.buy} chart {c}" for c in charts])
    faces = dice.roll_many(total, 6)
    ipcs = dict(state.ipcs)
    ipcs[power] -= cost
    researchers = dict(state.researchers)
    techs = dict(state.techs)
    gained = None
    chart_dice: list[int] = []
    if 6 in faces:
        assert o.chart is not None
        researchers[power] = 0
        owned = state.tech(power)
        while True:  # an owned breakthrough is rolled again
            d = dice.roll(6)
            chart_dice.append(d)
            name = CHARTS[o.chart][d - 1]
            if name not in owned:
                gained = name
                break
        techs[power] = owned | {gained}
    else:
        researchers[power] = total
    new = replace(state, ipcs=ipcs, researchers=researchers, techs=techs)
    return new, [Researched(power, o.buy, faces, o.chart if 6 in faces else None, tuple(chart_dice), gained)]


# --------------------------------------------------------------------------- purchase


def repair_cost(state: AAState, power: str, markers: int) -> int:
    if "increased factory production" in state.tech(power):
        return math.ceil(markers / 2)  # ruling
    return markers


def check_buy(state: AAState, o: Buy) -> int:
    power = o.power
    if state.phase != PURCHASE:
        raise IllegalOrder("Units are bought in phase 2 (A-8).")
    total = 0
    for kind, n in o.units:
        if n < 0:
            raise IllegalOrder("Counts are positive.")
        total += n * cost_of(kind, state.tech(power))
    markers = 0
    for t, n in o.repairs:
        if t not in state.factories or state.controller(t) != power:
            raise IllegalOrder(f"You have no industrial complex in {t} to repair (A-8.2).",
                               legal=[f"repair {f} {d}" for f, d in state.factories.items()
                                      if d and state.controller(f) == power])
        if n < 1 or n > state.factories[t]:
            raise IllegalOrder(f"{t} has {state.factories[t]} damage markers.")
        markers += n
    total += repair_cost(state, power, markers)
    have = state.ipcs.get(power, 0)
    if total > have:
        raise IllegalOrder(f"That costs {total} IPCs; {power} has {have} (A-8.1).")
    return total


def buy(state: AAState, o: Buy, dice: Dice) -> Result:
    check_buy(state, o)
    return replace(state, purchase=Purchase(o.units, o.repairs)), []


def end_purchase(state: AAState) -> Result:
    """Pay for the purchase (A-8.1): units go to the pool, repairs act at once."""
    power = state.actor
    p = state.purchase or Purchase()
    cost = check_buy(state, Buy(power, p.units, p.repairs))
    ipcs = dict(state.ipcs)
    ipcs[power] -= cost
    pool = state.pool_of(power)
    for kind, n in p.units:
        pool[kind] = pool.get(kind, 0) + n
    pools = dict(state.pool)
    pools[power] = counts_tuple(pool)
    factories = dict(state.factories)
    for t, n in p.repairs:
        factories[t] -= n
    new = replace(state, ipcs=ipcs, pool=pools, factories=factories, purchase=None)
    over = max(0, sum(n for k, n in pool.items() if k != FACTORY) - capacity_total(new, power))
    events: list[Event] = [Purchased(power, format_counts(p.units), p.repairs, cost, over)]
    if power == "United States":
        new, more = china_recruits(new)
        events.extend(more)
    return new, events


def china_territories(state: AAState) -> int:
    return sum(1 for c in state.control.values() if c == CHINA)


def china_recruit_count(state: AAState) -> int:
    """A-5.4: one infantry per two territories China controls (rounded down)."""
    return china_territories(state) // 2


def china_recruits(state: AAState) -> Result:
    """A-5.4: China's new infantry, into its pool."""
    n = china_recruit_count(state)
    if not n:
        return state, []
    pool = state.pool_of(CHINA)
    pool[INFANTRY] = pool.get(INFANTRY, 0) + n
    pools = dict(state.pool)
    pools[CHINA] = counts_tuple(pool)
    return replace(state, pool=pools), [ChineseRecruits(n)]


# --------------------------------------------------------------------------- mobilisation


def factory_capacity(state: AAState, territory: str, power: str) -> int:
    ipc = state.board.space(territory).ipc
    cap = ipc - state.factories.get(territory, 0)
    if "increased factory production" in state.tech(power) and ipc >= 3:
        cap += 2
    return max(0, cap)


def placement_factories(state: AAState, power: str) -> list[str]:
    """A-12.1, A-12.3: factories in territories the power controls since the turn began
    (not captured nor built this turn)."""
    if power == CHINA:
        return []
    return [t for t in state.factories
            if state.control.get(t) == power and state.control_start.get(t) == power
            and t not in state.captured and t not in state.new_factories]


def free_capacity(state: AAState, territory: str, power: str) -> int:
    return factory_capacity(state, territory, power) - state.placed.get(territory, 0)


def capacity_total(state: AAState, power: str) -> int:
    return sum(max(0, free_capacity(state, t, power)) for t in placement_factories(state, power))


def placement_spots(state: AAState, power: str) -> list[str]:
    """Where ``power`` may place new units this turn: its usable factories (A-12.1), or
    for China its territories with room (A-5.5)."""
    return china_spots(state) if power == CHINA else placement_factories(state, power)


def china_spots(state: AAState) -> list[str]:
    """A-5.5: Chinese-held territories that held fewer than three Chinese units when
    placement began."""
    out = []
    for t, c in state.control.items():
        if c != CHINA:
            continue
        before = sum(1 for u in state.units_at(t) if u.owner == CHINA and not u.new)
        if before < 3:
            out.append(t)
    return sorted(out, key=state.board.order.__getitem__)


def china_placements(state: AAState, count: int | None = None) -> list[str]:
    """The orders placing Chinese infantry (``count``, or the whole pool) where A-5.5
    allows, e.g. ``place 2 inf: Hupeh``."""
    n = count if count is not None else state.pool_of(CHINA).get(INFANTRY, 0)
    return [f"place {n} {SHORT[INFANTRY]}: {t}" for t in china_spots(state)]


def place(state: AAState, o: Place, dice: Dice) -> Result:
    power, b = o.power, state.board
    if state.phase != MOBILISE:
        raise IllegalOrder("Units are placed in phase 6 (A-12).")
    pool = state.pool_of(power)
    for kind, n in o.units:
        if pool.get(kind, 0) < n:
            raise IllegalOrder(f"Your pool holds {pool.get(kind, 0)} {SHORT[kind]}.",
                               legal=[format_counts(pool)] if pool else ["done"])
    units = dict(o.units)
    count = sum(units.values())
    if power == CHINA:
        if o.zone is not None or set(units) - {INFANTRY}:
            raise IllegalOrder("China places only infantry, on land (A-5.5).")
        if o.at not in china_spots(state):
            raise IllegalOrder("Chinese infantry go to a Chinese-held territory that held fewer than "
                               "three Chinese units when placement began (A-5.5).",
                               legal=china_placements(state, count))
        return _put(state, power, units, o.at, None)
    if FACTORY in units:
        if len(units) != 1 or count != 1 or o.zone is not None:
            raise IllegalOrder("Place a new industrial complex on its own: 'place 1 factory: <territory>'.")
        t = o.at
        if not (b.is_land(t) and state.control.get(t) == power and state.control_start.get(t) == power
                and t not in state.captured and b.space(t).ipc >= 1 and t not in state.factories):
            raise IllegalOrder("A new industrial complex goes in a territory worth at least 1 IPC, held "
                               "since the turn began, with no complex yet (A-12.5).")
        factories = dict(state.factories)
        factories[t] = 0
        new = replace(state, factories=factories, new_factories=state.new_factories | {t})
        new = _take_from_pool(new, power, units)
        return new, [Placed(power, "1 factory", t)]
    if o.at not in placement_factories(state, power):
        raise IllegalOrder(f"You cannot mobilise at {o.at} (a factory of yours held since the turn began, "
                           f"A-12.1).", legal=placement_factories(state, power))
    free = free_capacity(state, o.at, power)
    if count > free:
        raise IllegalOrder(f"The complex in {o.at} can place {max(free, 0)} more unit(s) this turn (A-12.2).")
    ships = {k: n for k, n in units.items() if is_sea(k)}
    fighters = units.get(FIGHTER, 0)
    if o.zone is None:
        if ships:
            raise IllegalOrder("Ships go into a sea zone next to the complex: 'place 1 des: "
                               f"{o.at} -> <sea zone>'.", legal=list(b.coastal(o.at)))
        return _put(state, power, units, o.at, o.at)
    if o.zone not in b.coastal(o.at):
        raise IllegalOrder(f"{o.zone} is not next to {o.at}.", legal=list(b.coastal(o.at)))
    others = {k: n for k, n in units.items() if not is_sea(k) and k != FIGHTER}
    if others:
        raise IllegalOrder("Land units and bombers are placed in the complex's territory (A-12.4).")
    if fighters:
        own_carriers = sum(1 for u in state.units_at(o.zone) if u.kind == CARRIER and u.owner == power)
        own_carriers += units.get(CARRIER, 0)
        on_them = sum(1 for u in state.units_at(o.zone) if u.kind == FIGHTER and u.owner == power)
        if fighters > 2 * own_carriers - on_them:
            raise IllegalOrder("New fighters go on your own carriers with room (A-12.4).")
    return _put(state, power, units, o.zone, o.at)


def _take_from_pool(state: AAState, power: str, units: Mapping[str, int]) -> AAState:
    pool = state.pool_of(power)
    for k, n in units.items():
        pool[k] -= n
    pools = dict(state.pool)
    pools[power] = counts_tuple({k: n for k, n in pool.items() if n > 0})
    return replace(state, pool=pools)


def _put(state: AAState, power: str, units: Mapping[str, int], where: str, factory: str | None) -> Result:
    state = _take_from_pool(state, power, units)
    new_units = dict(state.units)
    nid = state.next_id
    for kind in KINDS:
        for _ in range(units.get(kind, 0)):
            new_units[nid] = Unit(nid, kind, power, where, new=True)
            nid += 1
    placed = dict(state.placed)
    if factory is not None:
        placed[factory] = placed.get(factory, 0) + sum(units.values())
    new = replace(state, units=new_units, next_id=nid, placed=placed)
    return new, [Placed(power, format_counts(units), where)]


def placeable(state: AAState, power: str) -> bool:
    """Whether anything in the pool can still be placed (A-12.8)."""
    pool = state.pool_of(power)
    if not any(pool.values()):
        return False
    if power == CHINA:
        return bool(china_spots(state)) and pool.get(INFANTRY, 0) > 0
    if pool.get(FACTORY, 0) and any(
            state.control.get(t) == power and state.control_start.get(t) == power and t not in state.captured
            and state.board.space(t).ipc >= 1 and t not in state.factories for t in state.control):
        return True
    for f in placement_factories(state, power):
        if free_capacity(state, f, power) <= 0:
            continue
        for k, n in pool.items():
            if n <= 0 or k == FACTORY:
                continue
            if is_land(k) or k == BOMBER or k == FIGHTER:
                return True
            if is_sea(k) and state.board.coastal(f):
                return True
    return False


def auto_place(state: AAState, power: str) -> Result:
    """A-12.8 ruling (timeout): place in pool order at the factory with most free capacity;
    ships in the first adjacent zone in data order."""
    events: list[Event] = []
    for _ in range(200):
        if not placeable(state, power):
            break
        pool = state.pool_of(power)
        done = False
        if power == CHINA:
            spots = china_spots(state)
            state, more = place(state, Place(power, ((INFANTRY, pool[INFANTRY]),), spots[0]), _NoDice())
            events.extend(more)
            continue
        facs = sorted(placement_factories(state, power),
                      key=lambda t: (-free_capacity(state, t, power), state.board.order[t]))
        for kind in KINDS:
            if pool.get(kind, 0) <= 0 or kind == FACTORY:
                continue
            for f in facs:
                if free_capacity(state, f, power) <= 0:
                    continue
                if is_sea(kind):
                    zones = state.board.coastal(f)
                    if not zones:
                        continue
                    order = Place(power, ((kind, 1),), f, zones[0])
                else:
                    order = Place(power, ((kind, 1),), f)
                try:
                    state, more = place(state, order, _NoDice())
                except IllegalOrder:
                    continue
                events.extend(more)
                done = True
                break
            if done:
                break
        if not done:
            break
    return state, events


class _NoDice:
    def roll(self, sides: int = 6) -> int:
        raise AssertionError("placement rolls no dice")

    def roll_many(self, count: int, sides: int = 6) -> tuple[int, ...]:
        raise AssertionError("placement rolls no dice")


# --------------------------------------------------------------------------- income


@lru_cache(maxsize=1)
def objectives() -> tuple[Mapping[str, Any], ...]:
    return tuple(read_data("objectives.json")["objectives"])


def objective_met(state: AAState, obj: Mapping[str, Any]) -> bool:
    power = str(obj["power"])
    hold = list(obj["hold"])
    need = int(obj.get("at_least", len(hold)))
    side = obj.get("side", "own")
    if side == "own":
        held = sum(1 for t in hold if state.control.get(t) == power)
    else:
        held = sum(1 for t in hold if (c := state.control.get(t)) is not None and SIDE[c] == side)
    if held < need:
        return False
    for zone in obj.get("no_enemy_surface", ()):
        if state.enemy_surface(zone, power):
            return False
    if obj.get("no_allied_units_in_own"):
        for t, c in state.control.items():
            if c == power and any(u.owner != power and SIDE[u.owner] == SIDE[power]
                                  for u in state.units_at(t)):
                return False
    return True


def collect_income(state: AAState, dice: Dice) -> Result:
    """Phase 7 (A-13): territories, national objectives (option), War Bonds (A-7)."""
    power = state.power
    if power == CHINA or not state.capital_held(power):
        return state, [Income(power, 0, (), 0, 0, state.ipcs.get(power, 0))]
    base = sum(state.board.space(t).ipc for t, c in state.control.items() if c == power)
    bonuses: tuple[int, ...] = ()
    if state.options.national_objectives:
        bonuses = tuple(int(o["bonus"]) for o in objectives() if o["power"] == power and objective_met(state, o))
    bonds = dice.roll(6) if "war bonds" in state.tech(power) else 0
    total = base + sum(bonuses) + bonds
    ipcs = dict(state.ipcs)
    ipcs[power] = ipcs.get(power, 0) + total
    return replace(state, ipcs=ipcs), [Income(power, base, bonuses, bonds, total, ipcs[power])]


def production(state: AAState, power: str) -> int:
    return sum(state.board.space(t).ipc for t, c in state.control.items() if c == power)
