"""bot.memory.give_back: freed heap memory goes back to the system (glibc's
malloc_trim), as the bot does after a long odds computation (at once, or once its
keeping time has passed: FreedMemory) and its render workers do now and then; and
keep_freed, which keeps what the bot's process frees for its next allocations."""

from __future__ import annotations

import os

import pytest

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


# A process of its own (the allocator's settings are the whole process's): a 64 MB
# block, far past the size glibc maps on its own, freed, then 48 MB asked for.
_KEEP_SCRIPT = """
import json, os, resource, sys
from bot.memory import give_back, keep_freed

def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

kept = keep_freed() if sys.argv[1] == "keep" else False
block = bytearray(64 * 2**20)  # zeroed: every page touched
small = bytearray(1000)  # above it, as a battle's answer outlives its work
before = resident()
del block
freed = resident()
at = faults()
again = bytearray(48 * 2**20)  # smaller: what ran since (reading statm) may have taken a bite of the freed block
reused = faults() - at
del again
give_back()
print(json.dumps({"kept": kept, "before": before, "freed": freed, "faults": reused, "after": resident()}))
"""


def _blocks(how: str) -> dict[str, float]:
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _KEEP_SCRIPT, how], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return dict(json.loads(out.stdout))


def test_keep_freed_keeps_a_big_blocks_pages_for_the_next_until_given_back() -> None:
    # bot.memory.keep_freed (the bot's process, as it starts): a big block freed stays
    # the process's, the next one reuses its pages (no page touched anew: on a virtual
    # machine that hands freed memory back to its host, ~3 ms a megabyte), until
    # give_back returns it.  Without it glibc unmaps such a block as it is freed.
    kept = _blocks("keep")
    assert kept["kept"] is True
    assert kept["freed"] > kept["before"] - 8  # freeing gave nothing back
    assert kept["faults"] < 1000  # 48 MB of pages reused (12,288 pages of 4 KB touched anew otherwise)
    assert kept["after"] < kept["freed"] - 48  # and give_back returns them
    plain = _blocks("plain")
    assert plain["kept"] is False
    assert plain["freed"] < plain["before"] - 48  # unmapped as it was freed
    assert plain["faults"] > 4000  # the next block's pages touched anew


def test_freed_memory_is_given_back_once_no_big_computation_came_for_its_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # bot.memory.FreedMemory: after a big computation, give_back runs once the keeping
    # time has passed with no other big computation; each one starts the time again; a
    # time of 0 gives back at once (the bot without WARROOM_ODDS_KEEP_S's keeping).
    import time

    from bot import memory

    given: list[float] = []
    monkeypatch.setattr(memory, "give_back", lambda: given.append(time.monotonic()))
    at_once = memory.FreedMemory(0.0)
    at_once.after_big()
    assert len(given) == 1 and not at_once.pending()
    # (A keeping time well past the sleeps: a loaded machine's late wake-ups stay inside it.)
    freed = memory.FreedMemory(2.0)
    freed.after_big()
    time.sleep(0.3)
    assert len(given) == 1 and freed.pending()  # kept for now
    second = time.monotonic()
    freed.after_big()  # another big computation: the time starts again
    time.sleep(0.3)
    assert len(given) == 1 and freed.pending()
    deadline = time.monotonic() + 10.0
    while len(given) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(given) == 2 and given[1] - second >= 2.0  # from the second computation's end
    time.sleep(0.3)
    assert len(given) == 2 and not freed.pending()  # once: the first time was called off
