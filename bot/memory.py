"""Giving freed memory back to the system, for the bot's long-lived process and its
render workers: glibc keeps what big computations free (the odds of a big battle,
the image buffers of a report) as fragmented heap, so a process that once needed
hundreds of megabytes would keep them until it ends."""

from __future__ import annotations


def give_back() -> None:
    """Return the heap's free pages to the system (``malloc_trim``: ~2 ms after a
    100-a-side sea battle, ~12 ms after the 100-a-side strike battle, which it takes
    from ~480 to ~57 MB); nothing where the C library has none."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
