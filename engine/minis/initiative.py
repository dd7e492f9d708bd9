"""M-5.1, M-5.2 Initiative.

Each side rolls two dice (Axis first, then Allies, each die in turn) and adds the best
initiative bonus among its Commanders on the map that are not disrupted (Commander
bonuses never add up, M-14.4).  Higher total wins; on a tie the higher bonus wins;
if still tied both roll again.  The winner then chooses who is first player.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.dice import Dice
from engine.core.events import Event
from engine.minis import abilities as ab
from engine.minis.events import InitiativeRolled
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import MinisState, Phase

MAX_ROUNDS = 1000  # a full tie repeats; this bound only guards against broken dice


def initiative_bonus(state: MinisState, side: str) -> int:
    best = 0
    for u in state.units:
        if u.side != side or not u.on_map:
            continue
        c = state.cards[u.card]
        if c.initiative and not ab.is_disrupted(state, u):
            best = max(best, c.initiative)
    return best


def roll_initiative(state: MinisState, dice: Dice) -> tuple[MinisState, list[Event]]:
    events: list[Event] = []
    bx, bl = initiative_bonus(state, AXIS), initiative_bonus(state, ALLIES)
    for _ in range(MAX_ROUNDS):
        ax = (dice.roll(6), dice.roll(6))
        al = (dice.roll(6), dice.roll(6))
        tx, tl = sum(ax) + bx, sum(al) + bl
        winner: str | None
        if tx != tl:
            winner = AXIS if tx > tl else ALLIES
        elif bx != bl:
            winner = AXIS if bx > bl else ALLIES
        else:
            winner = None
        events.append(InitiativeRolled(state.turn, ax, al, bx, bl, winner))
        if winner is not None:
            state = replace(state, phase=Phase.INITIATIVE, chooser=winner, active=winner,
                            first_player=None)
            return state, events
    raise RuntimeError("initiative tied a thousand times: the dice are broken")
