"""bot.memory.give_back: freed heap memory goes back to the system (glibc's
malloc_trim), as the bot does after a long odds computation and its render workers do
now and then."""

from __future__ import annotations

import os

from bot.memory import give_back, settle_heap


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


def test_settle_heap_collects_start_up_garbage_and_freezes_what_lives() -> None:
    # bot.memory.settle_heap, once start-up is done: garbage cycles start-up left are
    # freed first (not kept for ever in the permanent generation), and what still lives
    # is moved there, so a full collection no longer walks it.
    import gc
    import weakref

    class Node:
        def __init__(self) -> None:
            self.me = self

    gc.disable()  # no automatic collection before settle_heap's own
    try:
        gone = Node()  # a cycle nothing refers to any more: garbage
        dead = weakref.ref(gone)
        del gone
        kept = Node()
        assert dead() is not None  # only the cycle collector frees it
        settle_heap()
        gc.enable()
        assert dead() is None
        assert gc.get_freeze_count() > 0
        assert not any(obj is kept for obj in gc.get_objects())  # in the permanent generation
        assert kept.me is kept
    finally:
        gc.enable()
        gc.unfreeze()
    assert any(obj is kept for obj in gc.get_objects())
