"""The strike pass's big tables and the sea solve's mass table
(engine.odds.compiled.sparse_zeros): zeros as numpy's, mappings of their own backed by
small pages only.  The passes touch few of their pages (at 100 a side ~5/6 of
the pairs are never processed), and a huge page (2 MB) is cleared whole the first time
any of it is touched: numpy asks for huge pages for every big array, which cost the
defender-strike retreat by win chance ~0.7-1 s of clearing on 2026-12-05's machine."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.odds.compiled import sparse_zeros


def mapping_field(address: int, field: str) -> list[str]:
    """A field of /proc/self/smaps (``VmFlags``, ``Rss``…) for the mapping of this
    process holding ``address``, split into words."""
    words: list[str] = []
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(x, 16) for x in head.split("-"))
            inside = lo <= address < hi
        elif inside and line.startswith(field + ":"):
            words = line.split()[1:]
    return words


def _vm_flags(address: int) -> list[str]:
    """The VmFlags of the mapping of this process holding ``address``."""
    return mapping_field(address, "VmFlags")


def test_sparse_tables_are_zeros_backed_by_small_pages() -> None:
    for shape, dtype in (((1024, 1536), np.float64), ((3000, 700), np.int32), ((2100, 999), np.float32)):
        table = sparse_zeros(shape, dtype)
        assert table.shape == shape and table.dtype == dtype and not table.any()
        table[::97, ::13] = 1  # writable, as numpy's
        assert int(table.sum()) == len(range(0, shape[0], 97)) * len(range(0, shape[1], 13))
        assert "nh" in _vm_flags(table.ctypes.data + table.nbytes // 2)  # MADV_NOHUGEPAGE
    small = sparse_zeros((10, 10))  # below 4 MB: left as numpy makes it
    assert small.shape == (10, 10) and not small.any()


_KEPT_SCRIPT = """
import json
from bot.memory import keep_freed
from engine.odds.compiled import sparse_zeros
from tests.odds.test_sparse_tables import mapping_field
import numpy as np

def resident_kb(address):  # the resident size of the mapping holding address
    return int(mapping_field(address, "Rss")[0])

assert keep_freed()
block = np.ones((4096, 8192))  # 256 MB, every page touched, then freed: kept in the heap
del block
table = sparse_zeros((4096, 8192))  # first: were it from the heap, it would take that block
table[::512, ::1024] = 1.0  # a few cells, a page each
plain = np.zeros((3840, 8192))  # numpy's zeros: that block again (a little less: what ran since may
# have taken a bite of it), cleared whole; each read at its middle (a heap may be split around an
# array numpy advised)
print(json.dumps({"sparse": resident_kb(table.ctypes.data + table.nbytes // 2),
                  "plain": resident_kb(plain.ctypes.data + plain.nbytes // 2),
                  "cells": float(table.sum()), "zeros": bool(plain.any())}))
"""


def test_sparse_tables_stay_untouched_where_the_bot_keeps_its_freed_memory() -> None:
    # The bot's process takes big blocks from its heap and keeps what it frees
    # (bot.memory.keep_freed): numpy's zeros there reuse a freed block, cleared whole
    # and resident; a sparse table is a mapping of its own, whose pages are cleared and
    # held only as the pass first touches them.
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _KEPT_SCRIPT], capture_output=True, text=True, check=True, cwd=root)
    got = json.loads(out.stdout)
    assert got["cells"] == 64.0 and got["zeros"] is False
    assert got["sparse"] < 4096  # KB: 64 pages touched of 65,536
    assert got["plain"] > 200 * 1024  # KB: numpy's zeros there, every page of the reused block
