"""Retreating when the chance to win falls below X % in battles with submarines.

The table engine (:mod:`engine.odds.aa_table`) has its own backward pass for battles
without submarines.  Here the general engine's rounds (:meth:`GeneralEngine.round`,
surprise strikes and hit restrictions included, A-10.6) are walked once forward to find
every pair of states a round can leave, nothing pruned, then backward, from the fewest
hit points up, to get the chance that fighting on from each pair wins
(:func:`win_chances`).  The pairs where that chance is below the threshold are where the
attacker retreats (:func:`retreat_pairs`); the battle is then solved again with that
rule in :meth:`BattleSetup.settle`.  Every decision is thus the one the exact chances
give; the cost is the whole state space in pure Python (about 0.1 s at 20 units a
side, half a minute at 40 with every kind of ship), and every pair counts against
``max_states``.

**Ruling** (as in the table engine): the chance is the one of fighting on to the end;
the retreat rule itself is not folded into it.
"""

from __future__ import annotations

from engine.odds.aa_battle import ATTACKER, BattleSetup, too_many_states
from engine.odds.aa_general import GeneralEngine, Pair
from engine.odds.dist import N

# Where a round from a pair leads: (chance, next live pair or None if it ended, attacker won).
Moves = list[tuple[N, "Pair | None", bool]]


def win_chances(setup: BattleSetup[N], max_states: int | None = None) -> dict[Pair, N]:
    """The chance that the attacker wins by fighting on from each live pair of states a
    round can leave (exact in fractions; float arithmetic otherwise, nothing pruned)."""
    engine: GeneralEngine[N] = GeneralEngine(setup, vectorised=False)
    att, dfn = setup.attacker, setup.defender
    zero = setup.unit - setup.unit
    settle = setup.settle

    def after(nxt: Pair) -> tuple[Pair | None, bool]:
        outcome, a3, d3 = settle(nxt[0], nxt[1])
        return (None, outcome == ATTACKER) if outcome is not None else ((a3, d3), False)

    moves: dict[Pair, Moves[N]] = {}
    todo: list[Pair] = []
    for start in setup.starts:
        fires_as = start.defender_fires_as if start.defender_fires_as != start.defender else None
        outcome, a, d = settle(start.attacker, start.defender, after_round=False)
        if outcome is not None or not att.alive(a):
            continue
        for nxt in engine.round(a, d, fires_as):
            pair, _ = after(nxt)
            if pair is not None and pair not in moves:
                moves[pair] = []
                todo.append(pair)
    while todo:
        pair = todo.pop()
        if max_states is not None and len(moves) > max_states:
            raise too_many_states(max_states)
        out = moves[pair]
        for nxt, p in engine.round(*pair).items():
            live, won = after(nxt)
            out.append((p, live, won))
            if live is not None and live not in moves:
                moves[live] = []
                todo.append(live)
    # Backward: every result but "nobody is hit" lowers the hit points left (the pair
    # itself is its only successor of the same level), so from the fewest hit points up.
    chance: dict[Pair, N] = {}
    for pair in sorted(moves, key=lambda s: att.hp(s[0]) + dfn.hp(s[1])):
        loop = wins = zero
        for p, live, win in moves[pair]:
            if live == pair:
                loop += p
            elif live is None:
                if win:
                    wins += p
            else:
                wins += p * chance[live]
        chance[pair] = wins / (1 - loop) if loop != 1 else zero  # a stalemate never wins
    return chance


def retreat_pairs(setup: BattleSetup[N], threshold: N, max_states: int | None = None) -> frozenset[Pair]:
    """The live pairs from which fighting on wins less than ``threshold``."""
    return frozenset(p for p, w in win_chances(setup, max_states).items() if w < threshold)
