"""The machine figure `make bench` reads memory-bound odds rows by
(``odds-machine-memory-latency-ns``, issue 19): its reads must follow one cycle through
the whole table, or it would time a short loop held in the cache instead of memory."""

from __future__ import annotations

import numpy as np
import pytest

from bench.odds import one_cycle


@pytest.mark.parametrize("n", [2, 3, 17, 1000, 65_536])
def test_the_memory_figure_reads_every_cell_of_its_table_once_a_cycle(n: int) -> None:
    after = one_cycle(n, seed=n)
    assert after.shape == (n,) and after.dtype == np.int64
    assert np.array_equal(np.sort(after), np.arange(n))  # each cell is read from exactly one
    at, seen = 0, np.zeros(n, dtype=bool)
    for _ in range(n):
        assert not seen[at]  # no shorter loop inside the table
        seen[at] = True
        at = int(after[at])
    assert at == 0 and seen.all()


def test_the_cycle_is_not_the_tables_order() -> None:
    # Reads one after another along memory would be fetched ahead by the processor.
    after = one_cycle(65_536)
    assert (after == np.arange(1, 65_537) % 65_536).mean() < 0.01
