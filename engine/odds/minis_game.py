"""Odds of an attack in a live A&A Miniatures game: every number read off the game.

:func:`live_attack` takes a game state and two unit ids and builds the
:class:`~engine.odds.minis.MinisAttack` the rules would resolve if that attack were
made now, with a description for players; :func:`attack_from_game` returns the attack
alone.  Nothing here re-implements a rule: the plan (range band, dice, die modifier,
defense and arc, line of sight) comes from ``engine.minis.attacks.plan_attack``, the
cover roll from ``engine.minis.cover.cover_terms``, defensive fire from
``engine.minis.defensive_fire``.  The few abilities that ``attacks.resolve`` applies
inline (Shrapnel, Superior Armor, Armor-Piercing Rounds, Hull-Mounted Flamethrower,
Highly Flammable) are read the same way; tests/odds check the odds against the
engine's own resolution of every dice outcome.

Odds are hypothetical: the phase, whose turn it is and whether the unit already acted
are not checked.  Everything else is: a unit off the map, a friendly target, range,
line of sight (Indirect Fire spotters included), Limited Range, Fixed Howitzer arcs,
transports; for defensive fire also range 0–1, a disrupted firer and Soldiers that
never provoke Vehicles (M-12.1, M-12.2).  Refusals are :class:`IllegalOrder` with the
rules' reason.

Modelled per attack: dice for the band and target type (Close Assault / Hand to Hand in
the same hex, Open Back, Coordinated Fire), the die modifier (disrupted or damaged,
Bravery Enforcement, Inaccurate, Ruthless, Gung Ho on defensive fire), defense front or
rear (M-7.9; a moving Vehicle faces the hex it enters, M-12.3), −1 if disrupted (not
Fanatic) or damaged, Sideskirts, cover (terrain, Soldiers-only marsh, abilities that
ignore it or change it), Shrapnel, Superior Armor, Armor-Piercing Rounds, the
flamethrower's three 6s, Highly Flammable, and the target's face-down counters placed
earlier this phase.  Blast: each other unit in the target hex gets its own
:class:`LiveAttack` in ``blast``.  Computed as well: Heavy Armor (the target's first
Damaged counter in the game is ignored, while it is unused), Overheat (the attacker's
chance of three natural 1s) and Double Shot (the same attack twice, counters adding
up); All Guns Blazing at a Soldier also gives ``extra_attack``, the attack made twice
at the same target (its extra attack may go elsewhere).  The hull-mounted cannon is a
separate attack with its own dice (``cannon=True``), named in ``notes``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.errors import IllegalOrder
from engine.minis import abilities as ab
from engine.minis import defensive_fire as df
from engine.minis.attacks import Plan, armor_piercing_problem, blast_plan, blast_targets, dice_terms, plan_attack
from engine.minis.cover import cover_ignored_by, cover_terms, in_cover_terrain
from engine.minis.model import BAND_NAMES
from engine.minis.movement import facing_toward
from engine.minis.state import MinisState, UnitState
from engine.odds.minis import SOLDIER, VEHICLE, MinisAttack

WHERE = (df.LEAVING, df.ENTERING)


@dataclass(frozen=True)
class LiveAttack:
    """One attack of a live game, as the odds calculator sees it."""

    attack: MinisAttack
    attacker: str  # unit ids
    target: str
    attacker_name: str  # card names
    target_name: str
    attacker_hex: str  # labels
    target_hex: str  # where the target is attacked (defensive fire: leaving or entering hex)
    kind: str  # "normal", "defensive", "cannon"
    distance: int
    band: str  # "short", "medium", "long"
    modifier_parts: tuple[str, ...]  # what makes up the die modifier
    defense_front: int  # the target card's numbers
    defense_rear: int
    front: bool | None  # Vehicle target attacked from its front arc (None: a Soldier)
    defense_parts: tuple[str, ...]  # "-1 disrupted", "+1 Sideskirts"
    terrain: str  # the target's terrain
    cover: str  # how cover works for this attack, in words
    special: tuple[str, ...]  # abilities that shape this attack
    notes: tuple[str, ...]  # what the odds leave out, or worth knowing
    where: str | None = None  # defensive fire at the current mover: "leaving" or "entering"
    blast: tuple[LiveAttack, ...] = ()  # Blast: the separate attacks on the others in the hex
    # All Guns Blazing at a Soldier: the attack with its extra attack at the same target too.
    extra_attack: MinisAttack | None = None


def attack_from_game(state: MinisState, attacker_id: str, target_id: str, *, defensive: bool = False,
                     armor_piercing: bool = False, cannon: bool = False, where: str | None = None) -> MinisAttack:
    """The :class:`MinisAttack` of this attack now (see :func:`live_attack`)."""
    return live_attack(state, attacker_id, target_id, defensive=defensive, armor_piercing=armor_piercing,
                       cannon=cannon, where=where).attack


def live_attack(state: MinisState, attacker_id: str, target_id: str, *, defensive: bool = False,
                armor_piercing: bool = False, cannon: bool = False, where: str | None = None) -> LiveAttack:
    """Everything about ``attacker_id`` attacking ``target_id`` now, or :class:`IllegalOrder`
    with the reason it cannot.  ``defensive``: defensive fire (M-12); at the unit whose
    move waits for the defender's answer, ``where`` picks the hex it is leaving or
    entering (default: the stage the move is at).  ``armor_piercing``: declare the
    once-per-game Armor-Piercing Rounds; ``cannon``: the Additional Hull-Mounted Cannon."""
    attacker, target = state.unit(attacker_id), state.unit(target_id)
    if defensive and cannon:
        raise IllegalOrder("The hull-mounted cannon is an assault-phase attack, not defensive fire.")
    kind = "defensive" if defensive else "cannon" if cannon else "normal"
    state, where = _placed(state, attacker, target, defensive, where)
    attacker, target = state.unit(attacker.id), state.unit(target.id)
    if defensive:
        _check_defensive(state, attacker, target)
    plan = plan_attack(state, attacker, target, kind=kind)
    if isinstance(plan, str):
        raise IllegalOrder(f"{attacker.id} cannot attack {target.id}: {plan}.",
                           legal=() if defensive else _attackable(state, attacker, kind))
    if armor_piercing:
        _check_armor_piercing(state, attacker, target, kind)
    main = _describe(state, attacker, target, plan, armor_piercing=armor_piercing, where=where)
    if not state.cards[attacker.card].has("Blast"):
        return main
    extra = []
    for victim in blast_targets(state, attacker, target)[1:]:  # M-14.6, M-12.7
        p = blast_plan(state, attacker, victim, kind)
        if p is not None:
            extra.append(_describe(state, attacker, victim, p, armor_piercing=False, where=None))
    return replace(main, blast=tuple(extra))


def _attackable(state: MinisState, attacker: UnitState, kind: str) -> list[str]:
    """The odds of ``attacker``'s attacks (``kind``: normal or cannon) that it could make
    from where it stands, one per enemy unit in reach (M-7: range, line of sight, arc),
    as the command that asks them; whether this phase still allows the attack is not
    asked, as for every odds question."""
    flag = " cannon:true" if kind == "cannon" else ""
    return [f"/odds minis attacker:{attacker.id} target:{t.id}{flag}" for t in state.units
            if t.side != attacker.side and t.on_map and not isinstance(plan_attack(state, attacker, t, kind=kind), str)]


# --------------------------------------------------------------------------- checks


def _placed(state: MinisState, attacker: UnitState, target: UnitState, defensive: bool,
            where: str | None) -> tuple[MinisState, str | None]:
    """Defensive fire at the unit whose move is waiting: put it in the leaving or the
    entering hex, facing the hex it enters (M-12.2, M-12.3), as defensive_fire does."""
    mip = state.move
    if not defensive or mip is None or mip.unit != target.id:
        if where is not None and not defensive:
            raise IllegalOrder("The leaving or entering hex is for defensive fire (M-12.2).")
        if where is not None:
            raise IllegalOrder(f"{target.id} is not moving: the leaving or entering hex is for defensive "
                               "fire at the unit whose move waits for an answer.")
        return state, None
    if where is None:
        where = mip.stage
    if where not in WHERE:
        raise IllegalOrder(f"Defensive fire is at the hex the unit is leaving or entering, not '{where}'.",
                           legal=WHERE)
    if where == df.LEAVING and mip.stage == df.ENTERING:
        raise IllegalOrder(f"{target.id} has already entered {state.map.label(mip.path[mip.step + 1])}: "
                           "it can only be attacked there now (M-12.2).", legal=(df.ENTERING,))
    a, b = df.step_hexes(mip)
    facing = facing_toward(a, b) if state.cards[target.card].is_vehicle else target.facing
    return df.at_hex(state, target.id, a if where == df.LEAVING else b, facing), where


def _check_defensive(state: MinisState, d: UnitState, mover: UnitState) -> None:
    """M-12.1, M-12.2: who may make defensive fire at whom (this phase's allowance is
    not checked: odds are hypothetical)."""
    if d.side == mover.side:
        raise IllegalOrder(f"{d.id} cannot attack {mover.id}: it is a friendly unit.")
    if not d.on_map or not mover.on_map:
        return  # plan_attack says which one is off the map
    fresh = state.with_flags(df_fired=frozenset())
    if not df.may_fire_at_all(fresh, d, mover):
        if ab.is_disrupted(state, d):
            why = "a disrupted unit cannot make defensive fire (M-8.1, M-12.2)"
        elif state.cards[mover.card].is_soldier and state.cards[d.card].is_vehicle:
            why = "Soldiers never provoke defensive fire from Vehicles (M-12.1)"
        else:
            why = "it cannot make defensive fire from where it is (M-12.2, M-15.3)"
        raise IllegalOrder(f"{d.id} cannot make defensive fire at {mover.id}: {why}.")
    assert d.hex is not None and mover.hex is not None
    distance = d.hex.distance(mover.hex)
    if distance > 1:
        raise IllegalOrder(f"{d.id} cannot make defensive fire at {mover.id}: it is {distance} hexes "
                           "away; defensive fire is at range 0 or 1 (M-12.2).")


def _check_armor_piercing(state: MinisState, u: UnitState, t: UnitState, kind: str) -> None:
    """The same conditions as the attack order (engine/minis/battle.py)."""
    problem = armor_piercing_problem(state, u, t)
    if problem:
        raise IllegalOrder(problem)
    if kind == "defensive":
        raise IllegalOrder("Armor-Piercing Rounds are declared with an assault-phase attack, "
                           "not with defensive fire.")


# --------------------------------------------------------------------------- the numbers


def _describe(state: MinisState, attacker: UnitState, target: UnitState, plan: Plan, *,
              armor_piercing: bool, where: str | None) -> LiveAttack:
    ac, tc = state.cards[attacker.card], state.cards[target.card]
    assert attacker.hex is not None and target.hex is not None
    special = list(plan.special)
    notes: list[str] = []
    defensive = plan.kind == "defensive"

    # M-7.3: the -1 for a disrupted or damaged attacker is its own flag; the rest of the
    # plan's modifier comes from "each attack die" abilities.
    penalty = ab.attack_penalty(state, attacker)
    modifier_parts: list[str] = []
    if penalty:
        modifier_parts.append("-1 " + ("disrupted and damaged" if ab.is_disrupted(state, attacker)
                                       and attacker.damaged else "damaged" if attacker.damaged else "disrupted"))
    modifier_parts += [s for s in plan.special if s in ("Inaccurate", "Ruthless", "Gung Ho", "Banzai Charge")]

    # M-7.4: the plan's defense already has the -1; MinisAttack takes it as a flag.
    target_penalty = ab.is_disrupted(state, target)
    defense = plan.defense + (1 if target_penalty or target.damaged else 0)
    defense_parts: list[str] = []
    if target_penalty or target.damaged:
        defense_parts.append("-1 " + ("damaged" if target.damaged else "disrupted"))
    if "Sideskirts" in plan.special:
        defense_parts.append("+1 Sideskirts")
    if target.disrupted and not target_penalty:
        notes.append(f"Fanatic: {target.id} ignores its Disrupted counter.")

    # M-11: cover, through the engine's own terms.
    terrain = state.map.terrain_at(target.hex).value
    cover: int | None = None
    cover_modifier, same_hex, automatic = 0, False, False
    if not in_cover_terrain(state, target):
        cover_text = f"none ({terrain})"
    else:
        ignored = cover_ignored_by(state, attacker, hand_to_hand=plan.hand_to_hand, band=plan.band)
        if ignored is not None:
            cover_text = f"none: {ignored} ignores cover"
            special.append(ignored)
        else:
            terms = cover_terms(state, attacker, target, band=plan.band)
            if terms.automatic is False:
                cover_text = f"none: {terms.reason} (the cover roll always fails)"
            elif terms.automatic:
                cover, automatic = terms.needed, True
                cover_text = f"{terrain}, automatic: {terms.reason}"
            else:
                cover = terms.needed
                same_hex = ("same hex", -1) in terms.parts
                cover_modifier = terms.modifier + (1 if same_hex else 0)
                cover_text = f"{terrain}, {terms.needed}+" + "".join(
                    f", {d:+d} {name}" for name, d in terms.parts)
            if terms.reason:
                special.append(terms.reason)
            special += [name for name, _ in terms.parts if name != "same hex"]

    # The abilities resolve() applies to the rolled dice (engine/minis/attacks.py).
    rolled = dice_terms(state, plan)
    shrapnel, superior, flame = rolled.shrapnel, rolled.superior, rolled.flame
    if shrapnel > 1:
        special.append(f"Shrapnel {shrapnel}")
    if superior:
        special.append(f"Superior Armor {superior}")
    ap = armor_piercing and tc.is_vehicle
    if ap:
        special.append("Armor-Piercing Rounds")
    if flame:
        special.append("Hull-Mounted Flamethrower")
    flammable = rolled.flammable and not defensive
    if flammable:
        special.append("Highly Flammable")
    prior = () if defensive else tuple(h.value for h in target.hits)

    if plan.indirect:
        notes.append(f"Indirect Fire: {plan.indirect} spots the target.")
    double = ac.has("Double Shot")
    if double:
        notes.append("Double Shot: both attacks at this target are counted (counters after the second).")
    guns = ac.has("All Guns Blazing") and tc.is_soldier and not defensive and plan.kind == "normal" \
        and not double
    if guns:
        notes.append("All Guns Blazing: it may make one extra attack at a Soldier after this one; the "
                     "last line counts it at this target too.")
    if ac.has("Additional Hull-Mounted Cannon") and plan.kind == "normal":
        notes.append("Its hull-mounted cannon is a separate attack with its own dice (ask with cannon:true).")
    heavy = tc.has("Heavy Armor") and ab.once_key(target, "Heavy Armor") not in state.used_once \
        and not defensive and tc.is_vehicle
    if heavy:
        notes.append(f"Heavy Armor: the first Damaged counter {target.id} would get in the game is "
                     "ignored (counted).")
    overheat = ac.has("Overheat")
    if overheat:
        notes.append("Overheat: three or more natural 1s disrupt the attacker (counted).")
    if prior:
        notes.append(f"{target.id} already has face-down counters this phase: {', '.join(prior)} (M-9.1).")
    if "destroyed" in prior:
        notes.append("It is already destroyed: further hits change nothing (M-9.2).")

    attack = MinisAttack(
        dice=plan.dice, defense=defense, die_modifier=plan.modifier - penalty, attacker_penalty=penalty != 0,
        target_penalty=target_penalty, target=VEHICLE if tc.is_vehicle else SOLDIER,
        target_damaged=tc.is_vehicle and target.damaged, cover=cover, cover_modifier=cover_modifier,
        same_hex=same_hex, defensive_fire=defensive, shrapnel=shrapnel, superior_armor=superior,
        armor_piercing=ap, cover_automatic=automatic, flamethrower=flame, highly_flammable=flammable,
        prior_counters=prior, heavy_armor=heavy, overheat=overheat, attacks=2 if double else 1)
    lab = state.map.label
    extra = replace(attack, attacks=2) if guns else None
    return LiveAttack(
        attack=attack, attacker=attacker.id, target=target.id, attacker_name=ac.name, target_name=tc.name,
        attacker_hex=lab(attacker.hex), target_hex=lab(target.hex), kind=plan.kind, distance=plan.distance,
        band=BAND_NAMES[plan.band], modifier_parts=tuple(modifier_parts), defense_front=tc.defense_front,
        defense_rear=tc.defense_rear, front=plan.front, defense_parts=tuple(defense_parts), terrain=terrain,
        cover=cover_text, special=tuple(dict.fromkeys(special)), notes=tuple(notes), where=where,
        extra_attack=extra)
