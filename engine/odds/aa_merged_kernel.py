"""The compiled loop of the merged table engine (:mod:`engine.odds.aa_merged`, numba):
adding a round's spread rows into the rows of their attacker states.

A big level's products leave tens of millions of numbers, each to be added to the row
of the state it reached, many rows to one state (runs of equal states, and "attacker
destroyed" once per score).  numpy needs those sums apart before one fancy-indexed
addition (:func:`engine.odds.aa_merged._scatter`); one loop adds every row where it
goes as it reads it, without copies (~2x faster on the bench's joined wave of 100).
Compiled once per machine (numba's cache, beside this file or in ``NUMBA_CACHE_DIR``);
the loop releases the GIL while it runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.odds.compiled import compiled as _compiled


@_compiled
def scatter_add(into: Any, target: Any, rows: Any, c0: int) -> None:
    """``into[target[n], c0 + c] += rows[n, c]`` for every ``n`` and ``c``, in order
    (targets repeated or not)."""
    L = rows.shape[1]
    for n in range(target.shape[0]):
        t = target[n]
        for c in range(L):
            into[t, c0 + c] += rows[n, c]


def warm() -> None:
    """Compile (or load from numba's cache) :func:`scatter_add` for the arrays the
    engine passes it: rows contiguous, or every other row of a bigger array."""
    into = np.zeros((2, 3))
    target = np.zeros(2, dtype=np.int64)
    scatter_add(into, target, np.zeros((2, 2)), 1)
    scatter_add(into, target, np.zeros((2, 2, 2))[:, 0], 1)
