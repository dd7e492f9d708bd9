"""Memory for the bot's long-lived process and its render workers.  Giving freed memory
back to the system: glibc keeps what big computations free (the odds of a big battle,
the image buffers of a report) as fragmented heap, so a process that once needed
hundreds of megabytes would keep them until it ends.  And keeping the cycle collector
off what start-up built (:func:`settle_heap`)."""

from __future__ import annotations

import gc


def give_back() -> None:
    """Return the heap's free pages to the system (``malloc_trim``: ~2 ms after a
    100-a-side sea battle, ~12 ms after the 100-a-side strike battle, which it takes
    from ~480 to ~57 MB); nothing where the C library has none."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def settle_heap() -> None:
    """Once start-up is done (the commands loaded, the odds' compiled loops loaded):
    collect the garbage it left, then move every object still alive into the cycle
    collector's permanent generation (``gc.freeze``).  Those objects (modules, classes,
    numba's loops, the bot's own) live as long as the process, and a full collection
    walked all ~180,000 of them each time it ran (~40-47 ms; one ran in about every
    other 100-ship sea battle of a bench process, 2026-12-07: ~3-4 % of the 100-ship
    fleets' answer on average, a tenth of the asks that met one); after this ~0-7 ms.
    Reference counting still frees them as ever; only cycles among them are no longer
    looked for."""
    gc.collect()
    gc.freeze()
