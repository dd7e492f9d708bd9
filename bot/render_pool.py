"""Phase reports drawn off the event loop, in threads or in a process pool.

Drawing and PNG-encoding a map costs tens of milliseconds of CPU and holds Python's GIL
most of the time, so threads alone keep one core busy and starve the event loop.  With
:func:`configure` (``processes > 0``; ``warroom run`` uses one per core, or
``WARROOM_RENDER_PROCESSES``) reports are drawn in worker processes instead: a worker
gets the game's kind, its stored snapshot (plain JSON data, cheap to send) and the
events to report, rebuilds the spectators' view itself and returns the finished
:class:`~bot.front.Report`.  Without it (the local channel, tests) a thread draws it.
Either way the result is the same report (tests/test_pipeline_speed.py).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Mapping, Sequence

from bot.front import EventDict, Report
from bot.memory import give_back

log = logging.getLogger("warroom.render")

_pool: ProcessPoolExecutor | None = None
_processes = 0


def default_processes() -> int:
    """``WARROOM_RENDER_PROCESSES`` if set, else one worker per core."""
    text = os.environ.get("WARROOM_RENDER_PROCESSES", "").strip()
    if text.isdigit():
        return int(text)
    return os.cpu_count() or 1


def configure(processes: int) -> None:
    """Draw reports in ``processes`` worker processes (0: in a thread of this process)."""
    global _processes
    shutdown()
    _processes = max(0, processes)


def shutdown() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


atexit.register(shutdown)


def _worker_start() -> None:
    from bot.commands import load_all
    from bot.games import load_games

    load_all()
    load_games()


def _get_pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # "spawn": a clean interpreter, never a fork of a process holding database
        # threads and an event loop.
        _pool = ProcessPoolExecutor(max_workers=_processes, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_worker_start)
    return _pool


def _ready() -> int:
    return os.getpid()


async def warm() -> None:
    """Start every worker now (a few seconds each) rather than on the first report."""
    if _processes > 0:
        loop = asyncio.get_running_loop()
        pool = _get_pool()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(_processes * 2)))


TRIM_EVERY = 32  # reports drawn by a worker between two returns of freed memory
_drawn = 0


def _trim() -> None:
    """Give freed memory back to the system (glibc keeps the many-megabyte image buffers
    a report frees as fragmented heap: ~40 MB a worker).  ~6 ms, so only now and then."""
    give_back()


def draw_report(kind: str, snapshot: Mapping[str, Any], events: Sequence[EventDict], over: bool) -> Report:
    """The public report of ``events`` on the game whose stored state is ``snapshot``."""
    global _drawn
    from bot.games import front_for
    from engine.core.game import PUBLIC, rules_for

    rules = rules_for(kind)
    state = rules.view(rules.load_state(snapshot), PUBLIC)
    drawn: Report = front_for(kind).report(state, events, over=over)
    _drawn += 1
    if _drawn % TRIM_EVERY == 0:
        _trim()
    return drawn


async def report(kind: str, public_view: Callable[[], Any], snapshot: Mapping[str, Any],
                 events: Sequence[EventDict], *, over: bool) -> Report:
    """The phase report, drawn in the pool when there is one (the worker rebuilds the
    view from ``snapshot``), else in a thread from ``public_view()`` — the spectators'
    view of the state at hand, asked for only when drawn here."""
    if _processes > 0:
        loop = asyncio.get_running_loop()
        try:
            drawn: Report = await loop.run_in_executor(_get_pool(), draw_report, kind, dict(snapshot),
                                                       list(events), over)
            return drawn
        except BrokenProcessPool:  # a worker was killed: draw it here this time
            log.exception("the render pool failed; drawing in a thread")
            shutdown()
    from bot.games import front_for

    front = front_for(kind)
    return await asyncio.to_thread(lambda: front.report(public_view(), events, over=over))
