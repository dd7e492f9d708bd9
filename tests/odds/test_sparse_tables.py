"""The strike pass's big tables (engine.odds.compiled.sparse_zeros): zeros as numpy's,
backed by small pages only.  The passes touch few of their pages (at 100 a side ~5/6 of
the pairs are never processed), and a huge page (2 MB) is cleared whole the first time
any of it is touched: numpy asks for huge pages for every big array, which cost the
defender-strike retreat by win chance ~0.7-1 s of clearing on 2026-12-05's machine."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.odds.compiled import sparse_zeros


def _vm_flags(address: int) -> list[str]:
    """The VmFlags of the mapping of this process holding ``address``."""
    flags: list[str] = []
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(x, 16) for x in head.split("-"))
            inside = lo <= address < hi
        elif inside and line.startswith("VmFlags:"):
            flags = line.split()[1:]
    return flags


def test_sparse_tables_are_zeros_backed_by_small_pages() -> None:
    for shape, dtype in (((1024, 1536), np.float64), ((3000, 700), np.int32), ((2100, 999), np.float32)):
        table = sparse_zeros(shape, dtype)
        assert table.shape == shape and table.dtype == dtype and not table.any()
        table[::97, ::13] = 1  # writable, as numpy's
        assert int(table.sum()) == len(range(0, shape[0], 97)) * len(range(0, shape[1], 13))
        assert "nh" in _vm_flags(table.ctypes.data + table.nbytes // 2)  # MADV_NOHUGEPAGE
    small = sparse_zeros((10, 10))  # below 4 MB: left as numpy makes it
    assert small.shape == (10, 10) and not small.any()
