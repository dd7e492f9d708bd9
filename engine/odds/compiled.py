"""numba's compilation as the odds kernels use it (:mod:`engine.odds.aa_strike_kernel`,
:mod:`engine.odds.aa_merged_kernel`, :mod:`engine.odds.aa_naval_kernel`): compiled on
first use, cached on disk once per machine (beside the module, or in
``NUMBA_CACHE_DIR``), the GIL released while it runs (the bot runs battles in worker
threads).  Importing this module does not import numba: only a kernel module does."""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar, cast

Fn = TypeVar("Fn", bound=Callable[..., Any])


def compiled(fn: Fn) -> Fn:
    import numba

    return cast(Fn, numba.njit(cache=True, nogil=True)(fn))


def borrowing(fn: Fn) -> Fn:
    """:func:`compiled`, without numba's reference counting in its body (``_nrt=False``):
    for a helper that allocates nothing and keeps no array past its return, called in a
    hot loop by a compiled function that holds every array it passes.  numba otherwise
    takes and gives back a reference to each array passed (a tuple of six counts six), an
    atomic operation each, at every call."""
    import numba

    options: dict[str, Any] = {"_nrt": False}  # an option numba's typing stubs do not list
    return cast(Fn, numba.njit(cache=True, nogil=True, **options)(fn))


def numba_loaded() -> bool:
    """Whether numba is imported already (the bot and ``make bench`` load it as they
    start, ``bot.commands.odds.warm``): the engines then take their compiled loops even
    where a one-shot ``warroom odds`` would lose more to numba's import than it saves."""
    return "numba" in sys.modules
