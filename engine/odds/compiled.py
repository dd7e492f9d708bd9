"""numba's compilation as the odds kernels use it (:mod:`engine.odds.aa_strike_kernel`,
:mod:`engine.odds.aa_merged_kernel`, :mod:`engine.odds.aa_naval_kernel`): compiled on
first use, cached on disk once per machine (beside the module, or in
``NUMBA_CACHE_DIR``), the GIL released while it runs (the bot runs battles in worker
threads).  Importing this module does not import numba: only a kernel module does.
Also the big sparse tables those loops fill (:func:`sparse_zeros`)."""

from __future__ import annotations

import math
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
    atomic operation each, at every call.

    The helper is also put into its callers' code (``forceinline``: LLVM's
    ``alwaysinline``; the same instructions, the same numbers).  Left to LLVM, the big
    ones stayed calls: numba passes an array as its seven or more fields, so a call of
    the chances backward's step 4 (:func:`engine.odds.aa_strike_kernel._aircraft_pulls`,
    ten arrays) passed ~80 values, ~800,000 times a battle, and its dot products
    (``_mix``) ~8 million times.  Inlined: the strike pass's retreats by win chance
    ~9-14 % faster, its other battles and the numpy sea solve's 2-8 %, the land
    tables within noise, the answers bit for bit the same (2026-12-07; numba's inlining
    at its own IR level, ``inline="always"``, was slower when tried on 2026-12-03, the
    helpers' references then still counted).  numba keys its cache of a kernel by the
    kernel's own file: a change to these options reaches a cache made before only where
    the kernel files change too."""
    import numba

    # A dict: numba's typing stubs do not list ``_nrt``.
    options: dict[str, Any] = {"_nrt": False, "forceinline": True}
    return cast(Fn, numba.njit(cache=True, nogil=True, **options)(fn))


def prefetcher() -> Any:
    """``prefetch(arr, at)`` for compiled functions: ask the processor to fetch the cache
    line of ``arr.reshape(-1)[at]`` (a 1-D contiguous array) for a coming write or read,
    without waiting for it (LLVM's prefetch, which changes no number and never faults;
    numba has no call of its own for it).  Used by :func:`engine.odds.aa_merged_kernel.
    scatter_rows` and the numpy sea solve's spreads (:func:`engine.odds.aa_naval_kernel.
    _ask_ahead`); made here, where numba (and its llvmlite) are imported, only when a
    kernel module asks."""
    from llvmlite import ir
    from numba.core import types
    from numba.core.extending import intrinsic

    def prefetch(typingctx: Any, arr: Any, at: Any) -> Any:
        sig = types.void(arr, types.intp)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
            fn = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            )
            # (address, 1: for a write, 3: keep it in every cache level, 1: data)
            builder.call(fn, [builder.bitcast(builder.gep(data, [args[1]]), i8p), i32(1), i32(3), i32(1)])
            return context.get_dummy_value()

        return sig, codegen

    return intrinsic(prefetch)


def numba_loaded() -> bool:
    """Whether numba is imported already (the bot and ``make bench`` load it as they
    start, ``bot.commands.odds.warm``): the engines then take their compiled loops even
    where a one-shot ``warroom odds`` would lose more to numba's import than it saves."""
    return "numba" in sys.modules


def sparse_zeros(shape: tuple[int, ...], dtype: Any = float) -> Any:
    """``np.zeros(shape, dtype)`` for a big table the passes touch sparsely: its own
    anonymous mapping of zero pages (the system clears a page only when it is first
    touched, and unmaps them all when the table is freed), whatever the C library does
    with big blocks (a process that keeps what it frees, as the bot's, takes them from
    its heap, a reused one cleared whole), backed with small pages only (``madvise``:
    numpy asks for huge ones, 2 MB each cleared whole on first touch).  A small table, or a
    system without such mappings or advice: numpy's zeros, the same table."""
    import numpy as np

    kind = np.dtype(dtype)
    size = kind.itemsize * math.prod(shape)
    if size < 4 << 20 or not sys.platform.startswith("linux"):
        return np.zeros(shape, dtype)
    import mmap

    try:
        pages = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, AttributeError):
        return np.zeros(shape, dtype)
    try:
        pages.madvise(mmap.MADV_NOHUGEPAGE)
    except (OSError, AttributeError):
        pass
    return np.frombuffer(pages, dtype=kind).reshape(shape)  # (the mapping lives as long as the table)
