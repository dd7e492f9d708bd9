"""M-6 and M-13: movement costs, roads, movement rolls, stacking, paths and facing.

A path is the list of hexes a unit enters.  Each step ``a → b`` costs:

* along a road (a road link between ``a`` and ``b`` that is not a destroyed bridge): 1,
  no movement roll, even into terrain the unit could not otherwise enter (M-13.5); the
  first road step of a Vehicle's move is free (road bonus);
* otherwise by the terrain of ``b``: Vehicles pay 2 for hill and forest (M-13.1;
  Excellent Suspension: hill as clear), may not enter marsh or lake; nobody enters
  lake.  A unit standing in terrain it could not enter leaves only along a road.

Movement rolls (4+ on one die, M-13.3): crossing a stream hexside (not Trench
Crossing), a Vehicle entering forest, Weak Suspension entering hill.  Stacking (M-6.2)
only limits where a move ends.

The default path for ``move ax3 F7`` is the one with the fewest movement rolls, then
the fewest steps that could provoke defensive fire, then the lowest cost, then the
fewest steps, then the first in hex order — a Ruling so the same text always means
the same path.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable

from engine.core.errors import IllegalOrder
from engine.core.hexgrid import Hex
from engine.minis import abilities as ab
from engine.minis.model import Terrain, UnitCard, edge
from engine.minis.state import MinisState, Phase, UnitState

ROLL_STREAM = "stream"
ROLL_FOREST = "forest"
ROLL_HILL = "hill (Weak Suspension)"


@dataclass(frozen=True)
class Step:
    cost: int  # hexes of movement spent (0 with the road bonus)
    rolls: tuple[str, ...]  # movement rolls needed, in the order they are rolled
    road: bool
    double: bool  # hill/forest double cost for a Vehicle (minimum move, M-13.2)


# --------------------------------------------------------------------------- terrain


def can_enter(c: UnitCard, terrain: Terrain) -> bool:
    """Terrain a unit may enter off-road (M-13 table)."""
    if terrain is Terrain.LAKE:
        return False
    if terrain is Terrain.MARSH and c.is_vehicle:
        return False
    return True


def road_link(state: MinisState, a: Hex, b: Hex) -> bool:
    """A usable road between two adjacent hexes (a destroyed bridge breaks it, M-13.6)."""
    e = edge(a, b)
    return e in state.map.roads and e not in state.destroyed_bridges


def stream_crossing(state: MinisState, a: Hex, b: Hex) -> bool:
    e = edge(a, b)
    return e in state.map.streams


def may_stand(state: MinisState, c: UnitCard, h: Hex) -> bool:
    """A unit may be in ``h``: on the map, and terrain it can enter or reached by road."""
    if not state.map.on_map(h):
        return False
    if can_enter(c, state.map.terrain_at(h)):
        return True
    return any(road_link(state, h, n) for n in h.neighbours())


def step(state: MinisState, c: UnitCard, a: Hex, b: Hex, *, bonus_left: bool) -> Step | None:
    """The cost and rolls of moving from ``a`` to the adjacent ``b``; None if impossible."""
    m = state.map
    if not m.on_map(b) or a.distance(b) != 1:
        return None
    if road_link(state, a, b):
        free = bonus_left and c.is_vehicle
        return Step(0 if free else 1, (), True, False)
    if not can_enter(c, m.terrain_at(a)):
        return None  # in impassable terrain by road: leave only along the road (M-13.5)
    t = m.terrain_at(b)
    if not can_enter(c, t):
        return None
    rolls: list[str] = []
    if stream_crossing(state, a, b) and not c.has("Trench Crossing"):
        rolls.append(ROLL_STREAM)
    cost, double = 1, False
    if c.is_vehicle and t is Terrain.FOREST:
        cost, double = 2, True
        rolls.append(ROLL_FOREST)
    elif c.is_vehicle and t is Terrain.HILL and not c.has("Excellent Suspension"):
        cost, double = 2, True
    if t is Terrain.HILL and c.has("Weak Suspension"):
        rolls.append(ROLL_HILL)
    return Step(cost, tuple(rolls), False, double)


# --------------------------------------------------------------------------- stacking


def stack_ok(state: MinisState, u: UnitState, h: Hex, *, ignore: Iterable[str] = ()) -> bool:
    """M-6.2: could ``u`` end a move in ``h``?  At most ``stacking`` (2, or 3 by option)
    units of its army there, and at most one Vehicle among all units in the hex.
    Passengers never count (M-15.3)."""
    skip = {u.id, *ignore}
    c = state.cards[u.card]
    friends = 0
    vehicles = 1 if c.is_vehicle else 0
    for o in state.units_at(h):
        if o.id in skip:
            continue
        if o.side == u.side:
            friends += 1
        if state.cards[o.card].is_vehicle:
            vehicles += 1
    return friends + 1 <= state.options.stacking and vehicles <= 1


def stacking_legal(state: MinisState, h: Hex) -> bool:
    """Does the hex, as it stands, respect M-6.2?"""
    units = state.units_at(h)
    vehicles = sum(1 for o in units if state.cards[o.card].is_vehicle)
    for side in {o.side for o in units}:
        if sum(1 for o in units if o.side == side) > state.options.stacking:
            return False
    return vehicles <= 1


# --------------------------------------------------------------------------- speed


def base_speed(state: MinisState, u: UnitState, *, kind: str = "move") -> int:
    """Speed for this move before High Gear: card speed (Relocate N in the assault phase
    for speed-0 units; Strike and Fade N after attacking), Tally-Ho! +1 in the movement
    phase, damaged −1 (M-8.2)."""
    c = state.cards[u.card]
    if kind == "fade":
        speed = ab.value(c, "Strike and Fade")
    elif state.phase is Phase.ASSAULT and c.speed == 0 and c.has("Relocate"):
        speed = ab.value(c, "Relocate")
    else:
        speed = c.speed
    if (state.phase is Phase.MOVEMENT and c.is_soldier and not c.is_artillery and speed > 0
            and ab.command_effect(state, u, "Tally-Ho!")):
        speed += 1
    if u.damaged:
        speed -= 1
    return max(speed, 0)


# --------------------------------------------------------------------------- paths


@dataclass(frozen=True)
class _Node:
    hex: Hex
    spent: int
    bonus_used: bool
    all_road: bool


Key = tuple[int, int, int, int]

# Step costs depend only on the map, the destroyed bridges and four facts of the card;
# they are cached across searches (the map is hashed by identity).
_Profile = tuple[bool, bool, bool, bool]
_Exits = tuple[tuple[Hex, Step], ...]
_STEP_CACHE: dict[tuple[object, frozenset[tuple[Hex, Hex]], _Profile], dict[Hex, _Exits]] = {}


def _profile(c: UnitCard) -> _Profile:
    return (c.is_vehicle, c.has("Trench Crossing"), c.has("Excellent Suspension"), c.has("Weak Suspension"))


def _step_table(state: MinisState, c: UnitCard) -> dict[Hex, _Exits]:
    key = (state.map, state.destroyed_bridges, _profile(c))
    table = _STEP_CACHE.get(key)
    if table is None:
        if len(_STEP_CACHE) > 256:
            _STEP_CACHE.clear()
        table = _STEP_CACHE[key] = {}
    return table


def _threat_masks(state: MinisState, u: UnitState) -> dict[Hex, int]:
    """For each hex, a bit per enemy unit adjacent to it that could fire defensively."""
    c = state.cards[u.card]
    masks: dict[Hex, int] = {}
    bit = 1
    for o in state.units:
        if o.side == u.side or not o.on_map or o.hex is None:
            continue
        oc = state.cards[o.card]
        if o.carried_by is not None and not oc.is_soldier:
            continue
        if c.is_soldier and oc.is_vehicle and not oc.has("Overlapping Fire"):
            continue
        for h in (o.hex, *o.hex.neighbours()):
            masks[h] = masks.get(h, 0) | bit
        bit <<= 1
    return masks


class PathSearch:
    """Lexicographic Dijkstra over (hex, spent, road bonus used, all steps on road),
    keeping only labels no other label at the same hex dominates."""

    def __init__(self, state: MinisState, u: UnitState, *, kind: str = "move") -> None:
        self.state = state
        self.unit = u
        self.card = state.cards[u.card]
        self.kind = kind
        self.speed = base_speed(state, u, kind=kind)
        self.high_gear = ab.value(self.card, "High Gear")
        self.minimum_move = (self.card.is_vehicle and state.phase is Phase.MOVEMENT
                             and self.speed == 1 and kind == "move")
        self.table = _step_table(state, self.card)
        self.masks = _threat_masks(state, u)

    def _exits(self, a: Hex) -> _Exits:
        """The neighbours a unit of this kind can step into from ``a``, with the step."""
        exits = self.table.get(a)
        if exits is None:
            found = []
            for b in a.neighbours():
                st = step(self.state, self.card, a, b, bonus_left=False)
                if st is not None:
                    found.append((b, st))
            exits = self.table[a] = tuple(found)
        return exits

    def _limit_ok(self, spent: int, all_road: bool) -> bool:
        return spent <= self.speed or (all_road and spent <= self.speed + self.high_gear)

    def run(self, starts: list[tuple[Key, tuple[Hex, ...], _Node]]
            ) -> dict[_Node, tuple[Key, tuple[Hex, ...]]]:
        best: dict[_Node, tuple[Key, tuple[Hex, ...]]] = {}
        settled: dict[Hex, list[tuple[int, bool, bool]]] = {}
        heap: list[tuple[Key, tuple[Hex, ...], int, bool, bool]] = []
        vehicle = self.card.is_vehicle
        masks = self.masks
        for key, path, node in starts:
            heapq.heappush(heap, (key, path, node.spent, node.bonus_used, node.all_road))
        while heap:
            key, path, spent, bonus_used, all_road = heapq.heappop(heap)
            here = path[-1]
            labels = settled.setdefault(here, [])
            if any(s2 <= spent and (b2 <= bonus_used) and (r2 >= all_road) for s2, b2, r2 in labels):
                continue
            labels.append((spent, bonus_used, all_road))
            best[_Node(here, spent, bonus_used, all_road)] = (key, path)
            here_mask = masks.get(here, 0)
            for nb, st in self._exits(here):
                cost = 0 if (st.road and vehicle and not bonus_used) else st.cost
                new_spent = spent + cost
                new_all_road = all_road and st.road
                new_bonus = bonus_used or (st.road and vehicle)
                if not self._limit_ok(new_spent, new_all_road):
                    if not (self.minimum_move and len(path) == 1 and st.double):
                        continue
                    # M-13.2: this one hex is the whole move; nothing may follow it.
                    new_spent, new_all_road, new_bonus = self.speed, False, True
                threat = bin(here_mask & masks.get(nb, 0)).count("1") if here_mask else 0
                nkey = (key[0] + len(st.rolls), key[1] + threat, key[2] + cost, key[3] + 1)
                heapq.heappush(heap, (nkey, path + (nb,), new_spent, new_bonus, new_all_road))
        return best


def _start(u: UnitState) -> list[tuple[Key, tuple[Hex, ...], _Node]]:
    assert u.hex is not None
    return [((0, 0, 0, 0), (u.hex,), _Node(u.hex, 0, False, True))]


def reachable(state: MinisState, u: UnitState, *, kind: str = "move") -> dict[Hex, tuple[Hex, ...]]:
    """Every hex where ``u`` could end a move now, with its default path (start excluded)."""
    if u.hex is None:
        return {}
    search = PathSearch(state, u, kind=kind)
    found = search.run(_start(u))
    out: dict[Hex, tuple[Key, tuple[Hex, ...]]] = {}
    for node, (key, path) in found.items():
        if node.hex == u.hex or len(path) < 2:
            continue
        if not stack_ok(state, u, node.hex):
            continue
        cur = out.get(node.hex)
        if cur is None or (key, path) < cur:
            out[node.hex] = (key, path)
    return {h: p[1:] for h, (_, p) in out.items()}


def path_problem(state: MinisState, u: UnitState, path: tuple[Hex, ...], *, kind: str = "move") -> str | None:
    """Why this exact path (hexes entered) is not a legal move, or None if it is."""
    if u.hex is None:
        return "it is not on the map"
    if not path:
        return "it does not go anywhere"
    c = state.cards[u.card]
    speed = base_speed(state, u, kind=kind)
    high_gear = ab.value(c, "High Gear")
    minimum = c.is_vehicle and state.phase is Phase.MOVEMENT and speed == 1 and kind == "move"
    here, spent, bonus_used, all_road = u.hex, 0, False, True
    lab = state.map.label
    for i, nb in enumerate(path):
        if not state.map.on_map(nb):
            return f"{lab(nb)} is off the map"
        if here.distance(nb) != 1:
            return f"{lab(nb)} is not next to {lab(here)}"
        st = step(state, c, here, nb, bonus_left=not bonus_used)
        if st is None:
            return f"it cannot go from {lab(here)} into {lab(nb)} ({state.map.terrain_at(nb).value})"
        spent += st.cost
        all_road = all_road and st.road
        bonus_used = bonus_used or (st.road and c.is_vehicle)
        if not (spent <= speed or (all_road and spent <= speed + high_gear)):
            if minimum and i == 0 and st.double and len(path) == 1:
                continue
            return f"the path costs more than its speed {speed}"
        here = nb
    if path[-1] == u.hex:
        return "it would end where it started (use 'face' to turn)"
    if not stack_ok(state, u, path[-1]):
        return f"{lab(path[-1])} would break stacking (M-6.2)"
    return None


def complete_path(state: MinisState, unit_id: str, waypoints: list[Hex], *, fade: bool = False) -> tuple[Hex, ...]:
    """The path for ``move``: the hexes as given when they already form a chain of
    neighbours from the unit's hex (checked later, with the precise reason if it is
    illegal); otherwise the default path through the waypoints (the last one is the
    destination).  ``fade``: a Strike and Fade move after attacking."""
    u = state.unit(unit_id)
    if u.hex is None or u.carried_by is not None:
        raise IllegalOrder(f"{unit_id} is not on the map on its own.")
    if list(waypoints) == [u.hex]:
        raise IllegalOrder(f"{unit_id} is already in {state.map.label(u.hex)}: a move must leave its hex"
                           " (a Vehicle may turn in place instead).", legal=(f"face {unit_id} N",))
    chain = (u.hex, *waypoints)
    if all(a.distance(b) == 1 for a, b in zip(chain, chain[1:])):
        return tuple(waypoints)
    kind = "fade" if fade else "move"
    search = PathSearch(state, u, kind=kind)
    starts = _start(u)
    for i, wp in enumerate(waypoints):
        found = search.run(starts)
        last = i == len(waypoints) - 1
        at = [(k, p, n) for n, (k, p) in found.items()
              if n.hex == wp and len(p) > 1 and (not last or stack_ok(state, u, wp))]
        if not at:
            dests = reachable(state, u, kind=kind)
            lab = state.map.label
            raise IllegalOrder(f"{unit_id} cannot reach {lab(wp)}: {_why_not(state, u, wp, kind)}.",
                               legal=sorted((lab(h) for h in dests), key=label_key))
        starts = at
    best = min(starts, key=lambda s: (s[0], s[1]))
    return best[1][1:]


def _why_not(state: MinisState, u: UnitState, h: Hex, kind: str) -> str:
    c = state.cards[u.card]
    t = state.map.terrain_at(h)
    if not may_stand(state, c, h):
        return f"it cannot enter {t.value}"
    if not stack_ok(state, u, h):
        return "it would break stacking (M-6.2)"
    return f"it is out of reach this phase (speed {base_speed(state, u, kind=kind)})"


def label_key(label: str) -> tuple[int, str, int]:
    """Sort key for hex labels: A1, A2 … A10, B1 … (column, then row number)."""
    letters = "".join(ch for ch in label if ch.isalpha())
    digits = "".join(ch for ch in label if ch.isdigit())
    return (len(letters), letters, int(digits) if digits else 0)


def facing_toward(a: Hex, b: Hex) -> int:
    """The facing of a unit moving from ``a`` into the adjacent ``b`` (M-6.4, M-12.3)."""
    return a.direction_to(b)
