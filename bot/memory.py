"""Memory for the bot's long-lived process and its render workers.  Giving freed memory
back to the system: glibc keeps what big computations free (the odds of a big battle,
the image buffers of a report) as fragmented heap, so a process that once needed
hundreds of megabytes would keep them until it ends.  Keeping it a while first
(:func:`keep_freed`, :class:`FreedMemory`): on a virtual machine that hands freed
memory back to its host (free page reporting, as on the machines the bot is measured
on), a page the process touches for the first time after that costs ~3 ms a megabyte
(a big odds battle asked after a few seconds of quiet: ~0.2-0.5 s more), one it kept
costs nothing.  And keeping the cycle collector off what start-up built
(:func:`settle_heap`)."""

from __future__ import annotations

import gc
import threading

# glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_MAX = -4
TRIM_NEVER = 2**31 - 1  # the largest threshold mallopt takes: ~2 GB free at the heap's top


def give_back() -> None:
    """Return the heap's free pages to the system (``malloc_trim``: ~2 ms after a
    100-a-side sea battle, ~12 ms after the 100-a-side strike battle, which it takes
    from ~480 to ~57 MB); nothing where the C library has none."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def keep_freed() -> bool:
    """Keep what the process frees for its next allocations until :func:`give_back`:
    glibc then takes every block from its heap, big arrays too (no block of its own
    mapped, which it would unmap as it is freed: ``M_MMAP_MAX`` 0), and never gives the
    heap's free top back by itself (``M_TRIM_THRESHOLD`` at its largest).  The bot's
    process only (``warroom run``, ``warroom local``), as it starts; False where the
    C library has no ``mallopt`` (nothing changed then)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_MMAP_MAX, 0) == 1 and libc.mallopt(M_TRIM_THRESHOLD, TRIM_NEVER) == 1)
    except (OSError, AttributeError):
        return False


class FreedMemory:
    """What a big computation freed, kept ``seconds`` for the next one (which then reuses
    it, already the process's), then given back (:func:`give_back`), unless another big
    computation came meanwhile (the time counts again from its end); 0: given back at
    once."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def after_big(self) -> None:
        """A big computation has ended: its freed memory kept ``seconds``, then given back."""
        if self.seconds <= 0:
            give_back()
            return
        timer = threading.Timer(self.seconds, give_back)
        timer.daemon = True  # never holds the process up at its end
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = timer
            timer.start()

    def pending(self) -> bool:
        """Whether memory is kept, to be given back later."""
        with self._lock:
            return self._timer is not None and self._timer.is_alive()


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
