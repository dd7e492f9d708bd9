"""numba's compilation as the odds kernels use it (:mod:`engine.odds.aa_strike_kernel`,
:mod:`engine.odds.aa_merged_kernel`): compiled on first use, cached on disk once per
machine (beside the module, or in ``NUMBA_CACHE_DIR``), the GIL released while it runs
(the bot runs battles in worker threads)."""

from __future__ import annotations

from typing import Any, Callable, TypeVar, cast

import numba

Fn = TypeVar("Fn", bound=Callable[..., Any])


def compiled(fn: Fn) -> Fn:
    return cast(Fn, numba.njit(cache=True, nogil=True)(fn))
