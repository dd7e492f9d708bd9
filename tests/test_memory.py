"""bot.memory.give_back: freed heap memory goes back to the system (glibc's
malloc_trim), as the bot does after a long odds computation and its render workers do
now and then."""

from __future__ import annotations

import os

from bot.memory import give_back


def _resident_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_give_back_returns_the_heap_a_big_computation_freed() -> None:
    # ~40 MB in blocks small enough for the heap, all freed but the last, which keeps
    # the heap's top in place: glibc keeps those pages (its automatic trim only gives
    # back the top) until they are given back.
    blocks = [bytearray(100_000) for _ in range(400)]
    last = blocks.pop()
    before = _resident_mb()
    del blocks
    kept = _resident_mb()
    give_back()
    after = _resident_mb()
    del last  # alive until now: it kept the freed blocks below the heap's top
    assert kept > before - 10  # freeing alone gave little back
    assert after < kept - 20
