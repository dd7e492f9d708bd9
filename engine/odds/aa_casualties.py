"""Which steps of an order of loss hits of three classes take (A-10.6, A-10.14): the rule
shared by the calculator (:meth:`engine.odds.aa_side.Side.take_hits`) and the game's
default casualties (:func:`engine.aa.combat.default_choice`).

A submarine's hit never lands on an aircraft; an aircraft's hit without a friendly
destroyer never on a submarine; the other hits anywhere.  The owner takes as many hits
as can be assigned and, among those choices, loses the earliest units of the order.

A set of steps can all be hit exactly when (Hall's condition for these three classes)
its submarine steps are at most the submarine and unrestricted hits, its aircraft steps
at most the aircraft and unrestricted hits, and all of them at most all the hits.  The
sets that can be hit form a matroid (a transversal one), so walking down the order and
taking every step that keeps the set assignable gives a biggest set, and of the biggest
sets the one with the earliest steps.
"""

from __future__ import annotations

from typing import Iterable

CAT_SUB, CAT_AIR, CAT_OTHER = 0, 1, 2  # a step's category: submarine, aircraft, other


def earliest(categories: Iterable[int], sub_hits: int, air_hits: int, any_hits: int) -> list[int]:
    """Indices of the steps lost, in order, of steps of ``categories`` (in loss order)."""
    room = (sub_hits + any_hits, air_hits + any_hits)
    left = sub_hits + air_hits + any_hits
    taken = [0, 0]  # submarine steps, aircraft steps
    out: list[int] = []
    for k, cat in enumerate(categories):
        if not left:
            break
        if cat != CAT_OTHER:
            if taken[cat] == room[cat]:
                continue
            taken[cat] += 1
        left -= 1
        out.append(k)
    return out
