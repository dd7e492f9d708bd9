"""The live form of ``/odds memoir``: the odds of a battle in this channel's game, from
the position — the ``unit:`` and ``enemy:`` hexes give the dice (range, terrain, line of
sight, battle-out, and the card in play when the attacker is ordered), the target's type
and figures, the flags it may ignore and how far it can retreat.

Computed on the public view (nothing secret goes in) and meant to be answered privately
to the asker: odds tell what they plan.  ``bot/commands/odds.py`` (not this package's
file) wires it in as ``/odds memoir unit:… enemy:…``; :func:`live_odds` is all it
needs.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.memoir import combat, turn
from engine.memoir.board import label, parse_hex
from engine.memoir.movement import retreat_steps
from engine.memoir.state import MemoirState
from engine.odds.memoir import MemoirOdds, MemoirRoll, memoir_odds


def live_roll(state: MemoirState, attacker: str, target: str) -> MemoirRoll:
    """The roll a battle from ``attacker`` on ``target`` would make now."""
    a_hex, t_hex = parse_hex(attacker), parse_hex(target)
    a, t = state.unit_at(a_hex), state.unit_at(t_hex)

    def asks(unit: str, enemies: list[str]) -> tuple[str, ...]:
        """The commands that ask these battles (the slash options ``unit`` and ``enemy``)."""
        return tuple(f"/odds memoir unit:{unit} enemy:{e}" for e in enemies)

    if a is None:
        units = sorted(u.where for u in state.units)
        raise IllegalOrder(f"There is no unit on {label(a_hex)}.",
                           legal=tuple(f"/odds memoir unit:{w} enemy:{label(t_hex)}" for w in units))
    if t is None or t.side == a.side:
        enemies = sorted(u.where for u in state.units if u.side != a.side)
        raise IllegalOrder(f"There is no enemy of {label(a_hex)} on {label(t_hex)}.", legal=asks(label(a_hex), enemies))
    ordered = turn.battle_targets(state, a) if a.id in state.acting_map else None
    pool = ordered if ordered is not None else combat.targets(state, a)
    dice = next((n for u, n in pool if u.id == t.id), 0)
    if dice < 1:
        reach = [u.where for u, _ in pool]
        raise IllegalOrder(f"{label(a_hex)} cannot battle {label(t_hex)} from where it stands (E-10: range,"
                           " line of sight, terrain, or an adjacent enemy first)"
                           + ("." if reach else "; it has no enemy in reach now."), legal=asks(label(a_hex), reach))
    dice = min(dice, 12)
    steps = retreat_steps(state, t, dice)  # a retreat is at most one hex per flag rolled
    room = next((i for i, hexes in enumerate(steps) if not hexes), None)
    return MemoirRoll(dice=dice, target=t.type, figures=t.figures, blocked=room == 0,
                      retreat_room=room, ignore_flags=combat.ignorable_flags(state, t))


def live_odds(state: MemoirState, attacker: str, target: str) -> tuple[MemoirRoll, MemoirOdds]:
    roll = live_roll(state, attacker, target)
    return roll, memoir_odds(roll)
