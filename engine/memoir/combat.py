"""Battle arithmetic (E-10, E-11, E-12, E-13): sight on a position, dice counts, legal
targets, hits and flags."""

from __future__ import annotations

from typing import Callable, Iterable

from engine.core.hexgrid import Hex
from engine.memoir.board import hex_key, neighbours
from engine.memoir.sight import blocked_by, segment
from engine.memoir.state import Acting, MemoirState, Played, Unit
from engine.memoir.tables import die_faces

# Card effects that add a battle die (E-6), and when.
_CLOSE_ONLY_ARMOR = "armor-assault"


def sight(state: MemoirState, a: Hex, b: Hex) -> tuple[bool, tuple[Hex, ...]]:
    """E-11: (clear, the hexes that block).  Units and blocking terrain obstruct; hills
    follow E-11.5 (the hill group both ends stand on does not block)."""
    groups = state.scenario.hill_groups
    shared = groups.get(a)
    if shared is None or groups.get(b) != shared:
        shared = None
    blocks: set[Hex] = set()
    tmap = state.scenario.terrain_map
    seg = segment(a, b)
    for h in seg.crossed | seg.left | seg.right:
        if h not in tmap:
            continue  # off the board: nothing there
        if h in state.by_hex:
            blocks.add(h)
            continue
        ob = state.obstacle(h)
        if ob is not None and ob.blocks_sight:
            blocks.add(h)
            continue
        if tmap[h] == "hill":
            if shared is None or groups.get(h) != shared:
                blocks.add(h)
            continue
        if state.terrain(h).blocks_sight:
            blocks.add(h)
    found = blocked_by(a, b, blocks)
    return not found, found


def adjacent_enemies(state: MemoirState, unit: Unit) -> list[Unit]:
    out = []
    for n in neighbours(unit.hex):
        other = state.by_hex.get(n)
        if other is not None and other.side != unit.side:
            out.append(other)
    return out


def on_hill(state: MemoirState, h: Hex) -> bool:
    return state.scenario.terrain_map[h] == "hill"


def reduction(state: MemoirState, attacker_type: str, attacker_hex: Hex, target: Unit) -> int:
    """E-12: dice an attacker of ``attacker_type`` loses against ``target`` in its hex: the
    single largest of the terrain's and the obstacle's reductions."""
    t = state.terrain(target.hex)
    best = 0
    if not (t.only_from_below and on_hill(state, attacker_hex)):
        best = t.reduction.get(attacker_type, 0)
    ob = state.obstacle(target.hex)
    if ob is not None:
        if not ob.owner_only or state.bunker_owner(target.hex) == target.side:
            best = max(best, ob.reduction.get(attacker_type, 0))
    return best


def battle_out(state: MemoirState, unit: Unit) -> int:
    """E-10.5: dice a unit loses battling *from* its hex (armor in a town, infantry in wire)."""
    penalty = state.terrain(unit.hex).battle_out.get(unit.type, 0)
    ob = state.obstacle(unit.hex)
    if ob is not None:
        penalty += ob.battle_out.get(unit.type, 0)
    return penalty


def card_bonus(played: Played | None, acting: Acting | None, unit: Unit, distance: int, overrun: bool) -> int:
    """E-6: +1 die from Armor Assault (armor at distance 1, Overrun included), Behind Enemy
    Lines, Close Assault (not the Overrun, E-6.8), Firefight and Their Finest Hour."""
    if played is None or acting is None or acting.fallback or played.fallback:
        return 0
    e = played.effect
    if e == _CLOSE_ONLY_ARMOR:
        return 1 if unit.type == "armor" and distance == 1 else 0
    if e == "close-assault":
        return 0 if overrun or distance != 1 else 1
    if e in ("behind-enemy-lines", "firefight", "their-finest-hour"):
        return 1
    return 0


def base_dice(state: MemoirState, attacker: Unit, target: Unit) -> int:
    """E-10.5 without card bonuses: range value − target terrain − battle-out (may be ≤ 0;
    0 when out of range)."""
    d = attacker.hex.distance(target.hex)
    table = attacker.rule.dice
    if d < 1 or d > len(table):
        return 0
    n = table[d - 1]
    if attacker.type != "artillery":  # E-8.1, E-12.1
        n -= reduction(state, attacker.type, attacker.hex, target)
    return n - battle_out(state, attacker)


def may_battle(state: MemoirState, unit: Unit, acting: Acting | None, battles_allowed: int = 1) -> bool:
    """E-10.2: ordered, not battled yet (or a second Bombard battle), not barred by E-9.5,
    not in the ocean."""
    if acting is None or acting.no_battle or acting.battles >= battles_allowed:
        return False
    return not state.terrain(unit.hex).no_battle_from


def targets(state: MemoirState, unit: Unit,
            bonus_for: Callable[[Unit, int], int] | None = None) -> list[tuple[Unit, int]]:
    """E-10.3/E-10.4: the units ``unit`` may battle from where it stands, with the dice
    (``bonus_for(target_unit, distance)`` adds card dice).  Adjacent to an enemy, only
    adjacent enemies qualify; if none of them does, nothing does."""
    enemies = [u for u in state.units if u.side != unit.side]
    rng = unit.rule.range
    adjacent = [e for e in enemies if unit.hex.distance(e.hex) == 1]
    pool = adjacent if adjacent else [e for e in enemies if unit.hex.distance(e.hex) <= rng]
    out: list[tuple[Unit, int]] = []
    for e in pool:
        d = unit.hex.distance(e.hex)
        n = base_dice(state, unit, e) + (bonus_for(e, d) if bonus_for is not None else 0)
        if n < 1:
            continue
        if unit.rule.needs_sight and d > 1 and not sight(state, unit.hex, e.hex)[0]:
            continue
        out.append((e, n))
    out.sort(key=lambda t: hex_key(t[0].hex))
    return out


def ambush_dice(state: MemoirState, defender: Unit, attacker: Unit) -> int:
    """E-6.4: the ambushed unit's own close-assault dice against the attacker (terrain
    applies; no card bonus); 0 when it could not battle it (ocean, no dice)."""
    if state.terrain(defender.hex).no_battle_from:
        return 0
    if defender.hex.distance(attacker.hex) != 1:
        return 0
    return max(0, base_dice(state, defender, attacker))


def faces(rolls: Iterable[int]) -> tuple[str, ...]:
    table = die_faces()
    return tuple(table[r - 1] for r in rolls)


def count_hits(rolled: tuple[str, ...], target: Unit, stars_hit: bool = False) -> tuple[int, int]:
    """E-13: (hits, flags) on ``target``: its own symbol and grenades hit (artillery has
    no symbol); stars too for Air Power."""
    hits = flags = 0
    for f in rolled:
        if f == "grenade" or (f == target.type and f != "artillery") or (stars_hit and f == "star"):
            hits += 1
        elif f == "flag":
            flags += 1
    return hits, flags


def ignorable_flags(state: MemoirState, unit: Unit) -> int:
    """E-14.6: flags the unit may ignore where it stands (sandbags for the occupant, a
    bunker for its owner's unit, a hedgehog for infantry; different sources add up)."""
    total = 0
    ob = state.obstacle(unit.hex)
    if ob is not None and ob.ignore_flags:
        who = ob.ignore_for
        if who == "occupant" or (who == "owner" and state.bunker_owner(unit.hex) == unit.side) or (
                who == "infantry" and unit.type == "infantry"):
            total += ob.ignore_flags
    return total
