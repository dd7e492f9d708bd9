"""M-7 Attacks, M-8 effects, M-9 hit counters, and the attack abilities.

One attack: pick the dice for the range band and target type (M-7.1, M-7.2), roll
them one at a time, count successes (4+ after modifiers, M-7.3), compare with the
target's defense — front or rear (M-7.4, M-7.9) — for the hits (M-7.5), make the cover
roll (M-11), then either place face-down counters (assault phases, M-9) or, for
defensive fire, stop and disrupt the mover at once (M-12.4).

Dice order (documented so an order log replays exactly): the attack dice, one at a
time; then the cover die; then a Highly Flammable die.  With Blast, the attacks on the
units in the hex are made one after the other, the chosen target first, then the
others by unit id.

Abilities handled here: Close Assault, Hand to Hand, Coordinated Fire, Blast,
Bombardment (via cover), Indirect Fire (any friendly unit may spot, see
:func:`spotter_for`), Fixed Howitzer, Open Back, Enhanced/Extended/Limited Range,
Armor-Piercing Rounds, Superior Armor, Heavy Armor (casualty.py), Sideskirts,
Overheat, Ruthless, Gung Ho, Inaccurate, Shrapnel, Hull-Mounted Flamethrower,
Additional Hull-Mounted Cannon, Highly Flammable, Banzai Charge (+1 per die),
Fighting Platform and Exposed Transport (who may shoot and be shot).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.hexgrid import Hex, in_front_arc
from engine.minis import abilities as ab
from engine.minis.cover import cover_ignored_by, cover_roll, in_cover_terrain
from engine.minis.events import Attacked, HeavyArmorIgnored, UnitDestroyed, UnitDisrupted
from engine.minis.line_of_sight import line_of_sight
from engine.minis.model import BAND_NAMES, LONG, MEDIUM, SHORT, UnitCard
from engine.minis.state import Hit, MinisState, Phase, UnitState

HULL_CANNON = (12, 10, 8)  # used when a custom card gives the cannon no numbers
DEFAULT_LONG = 8


# --------------------------------------------------------------------------- ranges


def max_range(c: UnitCard, vs_vehicle: bool) -> int:
    """Long range ends at 8 (M-7.1); Enhanced Range X: X for all targets; Extended
    Range X: X against Vehicles."""
    far = DEFAULT_LONG
    far = max(far, ab.value(c, "Enhanced Range"))
    if vs_vehicle:
        far = max(far, ab.value(c, "Extended Range"))
    return far


SHORT_EDGE, MEDIUM_EDGE = 1, 4  # M-7.1: short 0–1, medium 2–4, long 5 onwards


def band_for(c: UnitCard, distance: int, vs_vehicle: bool) -> int | None:
    """M-7.1: short 0–1, medium 2–4, long 5 up to the maximum range."""
    if distance <= SHORT_EDGE:
        return SHORT
    if distance <= MEDIUM_EDGE:
        return MEDIUM
    if distance <= max_range(c, vs_vehicle):
        return LONG
    return None


# --------------------------------------------------------------------------- geometry


def position(state: MinisState, u: UnitState) -> Hex:
    assert u.hex is not None, f"{u.id} is not on the map"
    return u.hex


def attacked_from_front(state: MinisState, target: UnitState, from_hex: Hex) -> bool | None:
    """M-7.9 for Vehicles (None for Soldiers): is ``from_hex`` in the target's front arc?
    Attacks from the same hex are rear attacks."""
    tc = state.cards[target.card]
    if not tc.is_vehicle or target.facing is None:
        return None
    return in_front_arc(position(state, target), target.facing, from_hex)


def in_own_front_arc(state: MinisState, attacker: UnitState, target_hex: Hex) -> bool:
    if attacker.facing is None:
        return False
    return in_front_arc(position(state, attacker), attacker.facing, target_hex)


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class Plan:
    """Everything about one attack that does not need dice."""

    attacker: str
    target: str
    kind: str  # "normal", "guns", "cannon", "banzai", "defensive"
    distance: int
    band: int
    dice: int
    modifier: int
    defense: int
    front: bool | None
    hand_to_hand: bool
    indirect: str | None
    special: tuple[str, ...]


def attack_dice(state: MinisState, attacker: UnitState, target: UnitState, *, kind: str
                ) -> tuple[int, int, bool, tuple[str, ...]] | str:
    """(dice, band, hand-to-hand, abilities used) or the reason it cannot attack."""
    ac, tc = state.cards[attacker.card], state.cards[target.card]
    here, there = position(state, attacker), position(state, target)
    distance = here.distance(there)
    special: list[str] = []
    band = band_for(ac, distance, tc.is_vehicle)
    if kind == "cannon":
        if not tc.is_vehicle:
            return "the hull-mounted cannon only fires at Vehicles"
        if distance > DEFAULT_LONG:
            return f"it is {distance} hexes away, beyond range 8"
        band = band_for(ac, distance, True)
        assert band is not None
        cannon_ability = ac.ability("Additional Hull-Mounted Cannon")
        numbers = (cannon_ability.vs_vehicle if cannon_ability is not None and cannon_ability.vs_vehicle
                   else HULL_CANNON)
        dice = numbers[band]
        if not dice:
            return f"the hull-mounted cannon has no {BAND_NAMES[band]}-range attack"
        return dice, band, False, ("Additional Hull-Mounted Cannon",)
    if band is None:
        return f"it is {distance} hexes away, beyond its range {max_range(ac, tc.is_vehicle)}"
    limited = ac.ability("Limited Range")
    if limited is not None and distance > (limited.value or 0):
        return f"Limited Range {limited.value}: the target is {distance} hexes away"
    hand = False
    n: int | None
    if distance == 0 and tc.is_vehicle and ac.has("Close Assault"):
        n, hand = ab.value(ac, "Close Assault"), True
        special.append("Close Assault")
    elif distance == 0 and tc.is_soldier and ac.has("Hand to Hand"):
        n, hand = ab.value(ac, "Hand to Hand"), True
        special.append("Hand to Hand")
    else:
        n = (ac.vs_vehicle if tc.is_vehicle else ac.vs_soldier)[band]
        if tc.is_vehicle and tc.has("Open Back") and not attacked_from_front(state, target, here):
            alt = ac.vs_soldier[band]
            if alt is not None and (n is None or alt > n):
                n = alt
                special.append("Open Back")
    if not n:
        what = "Vehicles" if tc.is_vehicle else "Soldiers"
        return f"it has no attack against {what} at {BAND_NAMES[band]} range"
    if ac.has("Coordinated Fire") and ab.commander_present(state, attacker):
        n += 1
        special.append("Coordinated Fire")
    return n, band, hand, tuple(special)


def die_modifier(state: MinisState, attacker: UnitState, target: UnitState, *, kind: str) -> tuple[int, tuple[str, ...]]:
    ac = state.cards[attacker.card]
    mod = ab.attack_penalty(state, attacker)  # M-7.3, M-8.1 … M-8.3, Bravery Enforcement
    special: list[str] = []
    if ac.has("Inaccurate"):
        mod -= ab.value(ac, "Inaccurate", 1)
        special.append("Inaccurate")
    if ac.has("Ruthless") and (ab.is_disrupted(state, target) or target.damaged):
        mod += 1
        special.append("Ruthless")
    if kind == "defensive" and ac.has("Gung Ho"):
        mod += 1
        special.append("Gung Ho")
    if kind == "banzai":
        mod += 1
        special.append("Banzai Charge")
    return mod, tuple(special)


def defense_against(state: MinisState, attacker: UnitState, target: UnitState) -> tuple[int, bool | None, tuple[str, ...]]:
    """M-7.4: front or rear defense, −1 if disrupted (face-up) or damaged (once);
    Sideskirts +1 against a unit with Close Assault."""
    tc, ac = state.cards[target.card], state.cards[attacker.card]
    front = attacked_from_front(state, target, position(state, attacker))
    value = tc.defense_front if front in (True, None) else tc.defense_rear
    if ab.is_disrupted(state, target) or target.damaged:
        value -= 1
    special: tuple[str, ...] = ()
    if tc.has("Sideskirts") and ac.has("Close Assault"):
        value += 1
        special = ("Sideskirts",)
    return max(value, 0), front, special


def hits_for(successes: int, defense: int, superior: int = 0) -> int:
    """M-7.5 hit table; Superior Armor N: the second hit needs successes ≥ defense + N."""
    if successes < defense:
        return 0
    need_two = defense + max(1, superior)
    if successes < need_two:
        return 1
    if successes >= 2 * defense:
        return 3
    return 2


def spotter_for(state: MinisState, attacker: UnitState, target: UnitState) -> UnitState | None:
    """Indirect Fire (Ruling): any other friendly unit on the map, not aboard a transport
    and not disrupted, within 8 hexes of the target Soldier and with line of sight to it.
    The first such unit by id is named."""
    there = position(state, target)
    for s in state.units:
        if s.side != attacker.side or s.id == attacker.id or not s.on_map or s.carried_by is not None:
            continue
        if ab.is_disrupted(state, s) or s.hex is None or s.hex.distance(there) > 8:
            continue
        if line_of_sight(state.map, s.hex, there).clear:
            return s
    return None


def can_shoot(state: MinisState, attacker: UnitState) -> str | None:
    """Can this unit attack at all right now (position and transport rules)?"""
    if not attacker.on_map:
        return "it is not on the map"
    if attacker.carried_by is not None:
        carrier = state.unit(attacker.carried_by)
        cc, pc = state.cards[carrier.card], state.cards[attacker.card]
        if not cc.has("Fighting Platform") or not pc.is_soldier or pc.is_artillery:
            return "it is aboard a transport (M-15.3)"
        if state.phase is Phase.ASSAULT and carrier.id in state.flags.moved:
            return "Fighting Platform: its carrier moved this phase"
    return None


def targetable(state: MinisState, target: UnitState) -> str | None:
    if not target.on_map:
        return "it is not on the map"
    if target.carried_by is not None:
        carrier = state.unit(target.carried_by)
        if not state.cards[carrier.card].has("Exposed Transport"):
            return "it is aboard a transport and cannot be attacked on its own (M-15.3)"
    return None


def plan_attack(state: MinisState, attacker: UnitState, target: UnitState, *, kind: str,
                check_sight: bool = True) -> Plan | str:
    """The plan of one attack, or the reason it is not possible (M-7.1, M-7.2, M-7.6)."""
    why = can_shoot(state, attacker) or targetable(state, target)
    if why:
        return why
    if target.side == attacker.side and kind != "blast":
        return "it is a friendly unit"
    got = attack_dice(state, attacker, target, kind=kind)
    if isinstance(got, str):
        return got
    n, band, hand, special = got
    here, there = position(state, attacker), position(state, target)
    ac, tc = state.cards[attacker.card], state.cards[target.card]
    if (ac.has("Fixed Howitzer") or kind == "cannon") and not in_own_front_arc(state, attacker, there):
        return "the target is not in its front arc (Fixed Howitzer)" if kind != "cannon" else \
            "the hull-mounted cannon only fires into the front arc"
    indirect: str | None = None
    if check_sight and here != there and not line_of_sight(state.map, here, there).clear:
        spotter = spotter_for(state, attacker, target) if (ac.has("Indirect Fire") and tc.is_soldier) else None
        if spotter is None:
            blocked = line_of_sight(state.map, here, there).blocked_by
            return "no line of sight (blocked by " + ", ".join(state.map.label(h) for h in blocked) + ")"
        indirect = spotter.id
        special = special + ("Indirect Fire",)
    mod, mspecial = die_modifier(state, attacker, target, kind=kind)
    defense, front, dspecial = defense_against(state, attacker, target)
    return Plan(attacker.id, target.id, kind, here.distance(there), band, n, mod, defense, front,
                hand, indirect, special + mspecial + dspecial)


# --------------------------------------------------------------------------- resolution


@dataclass(frozen=True)
class Result:
    hits: int  # by the hit table (after Armor-Piercing Rounds), before cover
    covered: bool
    effective: bool  # defensive fire: the attack stops and disrupts the target
    destroyed_now: bool  # defensive fire: Hull-Mounted Flamethrower destroyed it at once


def _counter_sequence(state: MinisState, target: UnitState) -> tuple[Hit, ...]:
    """M-9.1 for one unit and turn."""
    tc = state.cards[target.card]
    if tc.is_soldier or target.damaged:
        return (Hit.DISRUPTED, Hit.DESTROYED)
    return (Hit.DISRUPTED, Hit.DAMAGED, Hit.DESTROYED)


def place_counters(state: MinisState, target: UnitState, hits: int, *, covered: bool,
                   destroy: bool, dice: Dice) -> tuple[MinisState, tuple[Hit, ...], list[Event]]:
    """M-9: face-down counters for ``hits`` simultaneous hits (M-9.4); a successful cover
    roll limits them to one Disrupted unless the unit already has one (M-11.2)."""
    events: list[Event] = []
    placed: list[Hit] = []
    current = list(target.hits)
    if Hit.DESTROYED in current or (hits <= 0 and not destroy):
        return state, (), events
    if destroy:
        placed.append(Hit.DESTROYED)
    elif covered:
        if not current:
            placed.append(Hit.DISRUPTED)
    else:
        seq = _counter_sequence(state, target)
        for _ in range(hits):
            if Hit.DESTROYED in current + placed:
                break
            i = len(current) + len(placed)
            counter = seq[i] if i < len(seq) else Hit.DESTROYED
            heavy = ab.once_key(target, "Heavy Armor")
            if counter is Hit.DAMAGED and state.cards[target.card].has("Heavy Armor") \
                    and heavy not in state.used_once:
                # Heavy Armor (ruling, docs/rules/minis.md): the first Damaged counter the unit
                # would receive in the game is ignored — not received — so the next hit on it
                # gives Damaged again (3 hits on a fresh KV-1: disrupted and damaged).
                state = replace(state, used_once=state.used_once | {heavy})
                events.append(HeavyArmorIgnored(target.id))
                continue
            if counter is Hit.DAMAGED and state.cards[target.card].has("Highly Flammable"):
                if dice.roll(6) >= 3:
                    counter = Hit.DESTROYED
                    events.append(UnitDestroyed(target.id, "Highly Flammable"))
            placed.append(counter)
    state = state.update_unit(target.id, hits=tuple(current + placed))
    return state, tuple(placed), events


def destroy_now(state: MinisState, unit_id: str) -> MinisState:
    """Remove a unit (and its passengers) immediately."""
    state = state.update_unit(unit_id, destroyed=True, carried_by=None)
    for p in state.passengers(unit_id):
        state = state.update_unit(p.id, destroyed=True)
    return state


@dataclass(frozen=True)
class DiceTerms:
    """How the rolled dice of a planned attack turn into hits, beyond the plan itself."""

    shrapnel: int  # Shrapnel N: each success against a Soldier counts N times (1 = none)
    superior: int  # the target's Superior Armor N (0 = none)
    flame: bool  # Hull-Mounted Flamethrower: three natural 6s at short range destroy
    flammable: bool  # Highly Flammable target: a Damaged counter may become Destroyed


def dice_terms(state: MinisState, plan: Plan) -> DiceTerms:
    ac = state.cards[state.unit(plan.attacker).card]
    tc = state.cards[state.unit(plan.target).card]
    shrapnel = ab.value(ac, "Shrapnel", 2) if tc.is_soldier and ac.has("Shrapnel") else 1
    flame = ac.has("Hull-Mounted Flamethrower") and plan.band == SHORT and plan.kind != "cannon"
    return DiceTerms(shrapnel, ab.value(tc, "Superior Armor"), flame, tc.has("Highly Flammable"))


def armor_piercing_problem(state: MinisState, attacker: UnitState, target: UnitState) -> str | None:
    """Why ``attacker`` cannot declare Armor-Piercing Rounds against ``target`` now."""
    if not state.cards[attacker.card].has("Armor-Piercing Rounds"):
        return f"{attacker.id} has no Armor-Piercing Rounds."
    if ab.once_key(attacker, "Armor-Piercing Rounds") in state.used_once:
        return f"{attacker.id} has used its Armor-Piercing Rounds (once per game)."
    if not state.cards[target.card].is_vehicle:
        return "Armor-Piercing Rounds are declared against a Vehicle."
    return None


def resolve(state: MinisState, plan: Plan, dice: Dice, *, ap: bool = False
            ) -> tuple[MinisState, list[Event], Result]:
    """Roll and apply one planned attack (normal or defensive)."""
    attacker, target = state.unit(plan.attacker), state.unit(plan.target)
    ac, tc = state.cards[attacker.card], state.cards[target.card]
    terms = dice_terms(state, plan)
    rolled = tuple(dice.roll(6) for _ in range(plan.dice))
    successes = sum(1 for d in rolled if d + plan.modifier >= 4)
    special = list(plan.special)
    if terms.shrapnel > 1:
        successes *= terms.shrapnel
        special.append("Shrapnel")
    hits = hits_for(successes, plan.defense, terms.superior)
    if terms.superior and successes > plan.defense:
        special.append("Superior Armor")
    if ap and tc.is_vehicle and hits == 2:
        hits = 3
        special.append("Armor-Piercing Rounds")
    flame = terms.flame and sum(1 for d in rolled if d == 6) >= 3
    if flame:
        special.append("Hull-Mounted Flamethrower")
    events: list[Event] = []
    covered = False
    cover_event = None
    if (hits > 0 or flame) and in_cover_terrain(state, target):
        if cover_ignored_by(state, attacker, hand_to_hand=plan.hand_to_hand, band=plan.band) is None:
            res = cover_roll(state, attacker, target, band=plan.band, dice=dice)
            covered, cover_event = res.success, res.event
    if cover_event is not None:
        events.append(cover_event)
    defensive = plan.kind == "defensive"
    counters: tuple[Hit, ...] = ()
    effect = "none"
    effective = False
    destroyed_now = False
    extra: list[Event] = []
    if defensive:
        if flame and not covered:
            state = destroy_now(state, target.id)
            effect, effective, destroyed_now = "destroyed", True, True
            extra.append(UnitDestroyed(target.id, "Hull-Mounted Flamethrower"))
        elif hits > 0 and not covered:
            effective = True
            effect = "disrupted"
            if not target.disrupted:
                state = state.update_unit(target.id, disrupted=True)
    elif hits > 0 or flame:
        state, counters, extra = place_counters(state, target, hits, covered=covered,
                                                destroy=flame and not covered, dice=dice)
        effect = "counters" if counters else "none"
    events.insert(0, Attacked(
        attacker=attacker.id, target=target.id, kind=plan.kind, range=plan.distance,
        band=BAND_NAMES[plan.band], dice=rolled, modifier=plan.modifier, successes=successes,
        defense=plan.defense, front=plan.front, hits=hits, covered=covered,
        counters=tuple(c.value for c in counters), effect=effect, indirect=plan.indirect,
        special=tuple(special)))
    events.extend(extra)
    # Overheat: three or more natural 1s on one attack disrupt the attacker at once.
    if ac.has("Overheat") and sum(1 for d in rolled if d == 1) >= 3:
        att = state.unit(attacker.id)
        state = state.update_unit(att.id, disrupted=True)
        state = replace(state, overheated=state.overheated | {att.id})
        events.append(UnitDisrupted(att.id, "Overheat"))
    return state, events, Result(hits, covered, effective, destroyed_now)


def blast_targets(state: MinisState, attacker: UnitState, target: UnitState) -> list[UnitState]:
    """Blast (M-14.6): the chosen target first, then every other unit in its hex by id —
    friendly units included, never the attacker itself, passengers only when exposed."""
    there = position(state, target)
    others = [u for u in state.units
              if u.on_map and u.hex == there and u.id not in (target.id, attacker.id)
              and targetable(state, u) is None]
    return [target] + sorted(others, key=lambda u: (u.side, _id_num(u.id)))


def _id_num(unit_id: str) -> int:
    return int(unit_id[2:])


def blast_plan(state: MinisState, attacker: UnitState, victim: UnitState, kind: str) -> Plan | None:
    """The separate Blast attack on another unit of the target hex (sight and the
    choice of target were checked for the chosen target)."""
    p = plan_attack(state, attacker, victim, kind="blast" if victim.side == attacker.side else kind,
                    check_sight=False)
    if isinstance(p, str):
        return None
    return replace(p, kind=kind)


def perform(state: MinisState, plan: Plan, dice: Dice, *, ap: bool = False
            ) -> tuple[MinisState, list[Event], Result]:
    """An attack as declared: with Blast, one attack per unit in the hex.  The result
    returned is the one against the chosen target."""
    attacker = state.unit(plan.attacker)
    target = state.unit(plan.target)
    ac = state.cards[attacker.card]
    state, events, result = resolve(state, plan, dice, ap=ap)
    if ac.has("Blast"):
        for victim in blast_targets(state, attacker, target)[1:]:
            victim = state.unit(victim.id)
            if not victim.on_map:
                continue
            p = blast_plan(state, state.unit(attacker.id), victim, plan.kind)
            if p is None:
                continue
            state, more, _ = resolve(state, p, dice)
            events.extend(more)
    return state, events, result


def attack_kind_for(state: MinisState, attacker: UnitState, target: UnitState, *, cannon: bool) -> str | None:
    """Which attack of the current activation this would be (M-5.4 and the extra-attack
    abilities), or None when the unit has no attack left for that target."""
    ac, tc = state.cards[attacker.card], state.cards[target.card]
    act = state.flags.activation
    mine = act is not None and act.unit == attacker.id
    if mine:
        assert act is not None
        if act.banzai_hex is not None:
            if act.attacks == 0 and target.hex == act.banzai_hex:
                return "banzai"
            return None
        if act.moved:
            return None
    elif attacker.id in state.flags.acted:
        return None
    attacks = act.attacks if (mine and act is not None) else 0
    extras = act.extras if (mine and act is not None) else frozenset()
    if cannon:
        if ac.has("Additional Hull-Mounted Cannon") and "cannon" not in extras and tc.is_vehicle:
            return "cannon"
        return None
    normal = 2 if ac.has("Double Shot") else 1
    if attacks < normal:
        return "normal"
    if ac.has("All Guns Blazing") and "guns" not in extras and tc.is_soldier:
        return "guns"
    return None
