"""The report of a side's final states by arrays (numpy), for answers with many of
them: :func:`engine.odds.aa._result` otherwise sums them state by state in Python
(:func:`engine.odds.aa._state_sums`, with :meth:`engine.odds.aa_side.Side.final` per
state) and ranks every survivor army by its key, ~3-5 µs a state (the mixed-air
retreat by win chance at 100 a side ends in ~22,000 attacker states: ~70-110 ms of its
answer).

The same report bit for bit: every sum is added in the order of the states given, from
zero, as the loop adds it (:func:`numpy.bincount` adds its weights one by one in their
order), each term the same product; the survivors ranked the same way, most likely
first, ties by their key (the types present with their counts, in the side's order).
Imported only for such answers (numpy is loaded by then), from
:data:`engine.odds.aa.SUMS_BY_ARRAYS` final states on."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from engine.odds.aa_battle import chance
from engine.odds.aa_side import Side, State

Report = tuple[dict[str, float], float, float, tuple[tuple[dict[str, int], float], ...], dict[int, float]]


def side_report(side: Side, end: Mapping[State, float], names: tuple[str, ...]) -> Report:
    """For ``side`` ending in the states ``end`` (float masses, no units kept aside):
    expected units by type (``names``), expected cost left, total mass, the survivors
    most likely first (ties by key) and the mass by number of units left (AA guns not
    counted), as :func:`engine.odds.aa._result` reports them from
    :func:`engine.odds.aa._state_sums` (``names``: the side's army, so every unit type
    of its slots)."""
    slot_units = [s.unit for s in side.slots]
    units = tuple(dict.fromkeys(slot_units))  # in the slots' order, as Side.counts
    n = len(end)
    states = np.array(list(end), dtype=np.int64).reshape(n, len(side.slots))
    mass = np.fromiter(end.values(), dtype=np.float64, count=n)
    of_unit = np.array([[s == u for u in units] for s in slot_units], dtype=np.int64)
    counts = states @ of_unit.reshape(len(side.slots), len(units))  # damaged, submerged: as Side.counts
    cost = counts @ np.array([side.profiles[u].cost for u in units], dtype=np.int64)
    fighting = counts @ np.array([not side.profiles[u].is_aa for u in units], dtype=np.int64)
    at = np.zeros(n, dtype=np.int64)
    exp = dict.fromkeys(names, 0.0)
    for x, u in enumerate(units):
        if counts[:, x].any():
            exp[u] = _sums(at, mass * counts[:, x], 1)[0]
    armies, group = _armies(counts)
    p = _sums(group, mass, len(armies))
    present = np.bincount(fighting)
    by_k = _sums(fighting, mass, len(present))
    by_count = {k: by_k[k] for k in np.flatnonzero(present).tolist()}
    rows = armies.tolist()
    ranked = _ranked(p, rows, units)
    made = _dicts(armies, units)
    survivors = tuple(zip(map(made.__getitem__, ranked), map(p.__getitem__, ranked)))
    if max(by_count.values(), default=0.0) > 1.0:  # all the mass, drifted past 1
        survivors = tuple((a, chance(q)) for a, q in survivors)
        by_count = {k: chance(q) for k, q in by_count.items()}
    return exp, _sums(at, mass * cost, 1)[0], _sums(at, mass, 1)[0], survivors, by_count


def _armies(counts: Any) -> tuple[Any, Any]:
    """The distinct rows of ``counts`` (armies) and each state's: one number per row
    where they fit in 62 bits (its counts' digits, each unit's in a base above its
    most), as :func:`numpy.unique` sorts those ~10x faster than rows."""
    base = counts.max(axis=0, initial=0) + 1
    if float(np.prod(base.astype(np.float64))) >= 2.0**62:
        armies, group = np.unique(counts, axis=0, return_inverse=True)
        return armies, group.reshape(-1)
    scale = np.cumprod(np.concatenate([base[1:], [1]])[::-1])[::-1]  # the first unit's digit the highest
    _, first, group = np.unique(counts @ scale, return_index=True, return_inverse=True)
    return counts[first], group.reshape(-1)


def _dicts(armies: Any, units: tuple[str, ...]) -> list[dict[str, int]]:
    """Each army as units by type, the types present only, in the side's order: made
    for all the armies of one set of types at once (~2x quicker than row by row)."""
    out: list[dict[str, int]] = [{}] * len(armies)
    present = armies > 0
    kinds, of = np.unique(present @ (1 << np.arange(len(units), dtype=np.int64)), return_inverse=True)
    of = of.reshape(-1)
    for x in range(len(kinds)):
        at = np.flatnonzero(of == x)
        cols = np.flatnonzero(present[at[0]])
        types = tuple(units[c] for c in cols.tolist())
        for g, row in zip(at.tolist(), armies[np.ix_(at, cols)].tolist()):
            out[g] = dict(zip(types, row))
    return out


def _sums(at: Any, weights: Any, size: int) -> list[float]:
    """``weights`` summed by ``at`` one by one in their order, from zero."""
    return list(np.bincount(at, weights=weights, minlength=size).tolist())


def _ranked(p: list[float], rows: list[list[int]], units: tuple[str, ...]) -> list[int]:
    """The armies' positions most likely first, ties by key (the loop's
    ``(-mass, key)``: the types present with their counts, in the side's order)."""
    mass = np.array(p)
    order = np.argsort(-mass, kind="stable")
    out: list[int] = order.tolist()
    ties = np.flatnonzero(mass[order[1:]] == mass[order[:-1]]).tolist()  # out[t] ties out[t + 1]
    x = 0
    while x < len(ties):  # each run of ties, ranked by key
        first = last = ties[x]
        while x + 1 < len(ties) and ties[x + 1] == last + 1:
            x += 1
            last = ties[x]
        out[first : last + 2] = sorted(out[first : last + 2],
                                       key=lambda g: tuple((u, c) for u, c in zip(units, rows[g]) if c))
        x += 1
    return out
