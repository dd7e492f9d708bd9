"""Odds of a battle of a live A&A game: the battle as the odds engine's
:class:`~engine.odds.aa.AABattle`, read off the game state.

:func:`odds_battle` turns a battle of the game — the one being fought, or one still to
fight this conduct-combat phase (or, in the combat move, a hostile space the mover has
units in) — into the battle the calculator answers, read from the state it is given
(the bot gives it the state as the asker may see it): the units on both sides (a land
battle's AA gun fires at the aircraft, A-10.5, but only before round 1; cargo landing
from transports makes it amphibious, with the bombarding warships and the attacking
land units that came over land, which retreat with the aircraft, A-10.3; paratroopers
aboard bombers, A-7.6; a battleship already hit is a damaged battleship, A-10.8), the
orders of loss the game's default casualties follow (A-10.14: the power's own list,
then cheapest first; the attacker of a land battle keeps its last land unit, A-10.10)
and the technologies of the powers whose units they change.  Nothing here re-implements
a rule: the forces, orders of loss and the casualty chooser come from
:mod:`engine.aa.combat`; tests/aa/test_odds_agreement.py checks the odds against the
game's own battle, every dice outcome.  Positions the calculator cannot follow are
refused with :class:`IllegalOrder` (mid-round, paratroopers under AA fire, allies
differing on a technology that changes their dice).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from engine.aa import combat
from engine.aa.state import AAState, Battle, Unit
from engine.aa.units import AA_GUN, BATTLESHIP, CALC_TECHS, kind_counts
from engine.core.errors import IllegalOrder
from engine.odds.aa import AABattle
from engine.odds.aa_units import catalogue


def _text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "nothing"


# The calculator's unit for a battleship already hit (data: damaged_of in aa50_units.json).
DAMAGED = next(u.name for u in catalogue().units if u.damaged_of == BATTLESHIP)


def _odds_kinds(units: Iterable[Unit]) -> dict[str, int]:
    """Units by the odds' names: a battleship already hit once is a damaged battleship
    (A-10.8: one more hit sinks it)."""
    out: dict[str, int] = {}
    for u in units:
        kind = DAMAGED if u.kind == BATTLESHIP and u.damage else u.kind
        out[kind] = out.get(kind, 0) + 1
    return out


def _order(state: AAState, power: str, role: str, units: Sequence[Unit]) -> str:
    """The whole order of loss the game's default casualties follow (A-10.14), with the
    damaged battleships where the battleships are (intact ones absorb first, then each
    is sunk at the battleships' place in the order)."""
    order: list[str] = []
    for k in combat.loss_order(state, power, role, (u.kind for u in units)):
        if k == BATTLESHIP and any(u.kind == BATTLESHIP and u.damage for u in units):
            order.append(DAMAGED)
        order.append(k)
    return ", ".join(order)


# The profile fields a side's dice and losses read in each role: a technology that
# changes none of them for a side (jets for a defender, shipyards' costs) cannot move its
# odds, only its IPC figures.
_ROLE_FIELDS = {
    "attack": {"attack", "attack_dice", "supported_attack", "supports", "hits"},
    "defense": {"defense", "defense_dice", "aa_hit", "aa_shots", "hits"},
}


def _techs(state: AAState, units: Sequence[Unit], fallback: str | None, role: str) -> str:
    """The technologies the odds engine knows (the others do not change a battle) of the
    powers whose units fight: one the units it changes all have; ``fallback``'s (the
    side's power) where the side has none of the units a technology changes.  Allies
    defending together who differ on one that changes their dice are refused (the
    calculator gives a side one set); on one that changes costs only, it is left out."""
    known = []
    for tech in catalogue().technologies:
        kinds = set(tech.changes)  # the odds' unit names are the game's kinds
        owners = {u.owner for u in units if u.kind in kinds}
        if not owners and fallback:
            owners = {fallback}
        has = {tech.name in state.tech(p) & CALC_TECHS for p in owners}
        if has == {True}:
            known.append(tech.name)
        elif len(has) > 1 and any(set(fields) & _ROLE_FIELDS[role] for fields in tech.changes.values()):
            mixed = ", ".join(sorted(owners))
            raise IllegalOrder(f"The odds give one side one set of technologies, and here {mixed} fight together, "
                               f"not all with {tech.name}: ask with the units typed out instead.",
                               legal=('/odds aa attacker:"3 inf, 1 tank" defender:"2 inf" defender_tech:radar',))
    return ", ".join(known)


def battle_spaces(state: AAState) -> list[str]:
    """Spaces with a battle the odds can be asked for, the one being fought first."""
    out: list[str] = []
    if state.battle is not None:
        out.append(state.battle.where)
    out += [s.where for s in state.sites if s.kind != "raid" and s.where not in out]
    if state.phase == "combat move" and not out:
        out += [s.where for s in combat.plan_battles(state) if s.kind != "raid"]
    return out


def odds_battle(state: AAState, where: str | None = None) -> AABattle:
    """The odds engine's view of a battle of the game (see the module's doc)."""
    spaces = battle_spaces(state)
    if not spaces:
        raise IllegalOrder("There is no battle in this game now (battles are planned in the combat move"
                           " and fought in conduct combat).",
                           legal=('/odds aa attacker:"3 inf, 1 tank" defender:"2 inf"',))
    if where is None or where.strip().lower() in ("", "current", "next"):
        where = spaces[0]
    else:
        where = state.board.resolve(where)
    if where not in spaces:
        raise IllegalOrder(f"There is no battle in {where} now.", legal=[f"/odds aa battle:{s}" for s in spaces])
    b = state.battle
    if b is None or b.where != where:  # planned: the battle as it would start now
        kind = "sea" if state.board.is_sea(where) else "land"
        b = Battle(where, kind, state.actor)
    elif b.hits:
        raise IllegalOrder(f"The battle in {where} is in the middle of a round: casualties are still to be "
                           "chosen. Its odds are given between rounds (at the retreat decision) and before "
                           "it starts.", legal=('/odds aa attacker:"3 inf, 1 tank" defender:"2 inf"',))
    attacker_power, kind = b.attacker, b.kind
    att, dfn, ships, amphibious = combat.forces(state, b)
    bombard = kind_counts(ships)
    if any(u.kind == AA_GUN for u in dfn) and combat.paratroopers(state, where, attacker_power):
        raise IllegalOrder(
            "Paratroopers fall with their bomber when AA fire hits it (A-7.6), which the odds cannot follow: "
            "ask with the units typed out (the infantry with the attacker, or left out).",
            legal=('/odds aa attacker:"1 inf, 1 bom" defender:"1 inf, 1 aa"', '/odds aa attacker:"1 bom" defender:"1 inf, 1 aa"'),
        )  # fmt: skip
    # The orders of loss the game's default casualties follow: each power's own
    # list, then cheapest first, transports last; and in a land battle the attacker keeps
    # its last unit that can take the territory.  The calculator fills an order
    # it is not given otherwise (lowest combat value first), so the whole order is given.
    chooser = combat.decider(state, b, combat.DEF)
    # in an amphibious assault the land units that came over land retreat with
    # the aircraft; those landed from the sea never do (as combat.retreat_options).
    overland = [u for u in att if u.is_land and combat.came_overland(state, u)] if amphibious else []
    return AABattle.parse(
        _text(_odds_kinds(att)), _text(_odds_kinds(dfn)),
        mode="sea" if kind == "sea" else ("amphibious" if amphibious else "land"),
        bombard=_text(bombard) if bombard else "",
        overland=_text(_odds_kinds(overland)) if overland else "",
        ool_attacker=_order(state, attacker_power, "attack", att),
        ool_defender=_order(state, chooser, "defense", dfn),
        keep_land_unit=int(kind == "land"),
        tech_attacker=_techs(state, att + ships, attacker_power, "attack"),
        tech_defender=_techs(state, dfn, chooser, "defense"),
    )


def check_retreat(state: AAState, battle: AABattle, retreats: bool, where: str = "current") -> None:
    """Refuse a retreat (``retreats``: the asker gave a retreat option) from the live
    ``battle`` (asked as ``battle:where``) where this game offers none: games opened
    before 2026-12-04 let nothing retreat from a landing whose attacking land units all
    came from the sea, not even its aircraft (the rule they were played with; A-10.3,
    ``landing_retreat``)."""
    if retreats and battle.mode == "amphibious" and not battle.overland and not state.options.landing_retreat:
        raise IllegalOrder(
            "In this game (opened before 2026-12-04) nothing retreats from a landing whose land units all came "
            "from the sea, not even the aircraft: leave the retreat out.",
            legal=(f"/odds aa battle:{where}",),
        )
