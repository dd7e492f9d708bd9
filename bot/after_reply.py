"""Work to do once the current command (or scheduled action) has told its own story.

A game-end listener runs inside the change that ended the game, before the command has
replied; what it posts (the dice seed, bot/fair_dice.py) should come after the command's
account of the end.  :func:`collecting` wraps a command or a scheduled action and runs
the queued jobs when it is done; :func:`later` queues a job, or says there is nowhere to
queue it (the caller then runs it at once).
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import AsyncIterator, Awaitable, Callable

Job = Callable[[], Awaitable[None]]
_JOBS: ContextVar[list[Job] | None] = ContextVar("after_reply", default=None)
log = logging.getLogger("warroom")


def later(job: Job) -> bool:
    """Queue ``job`` for the end of the current command; False when none is running."""
    jobs = _JOBS.get()
    if jobs is None:
        return False
    jobs.append(job)
    return True


@asynccontextmanager
async def collecting() -> AsyncIterator[None]:
    """Run the jobs queued inside the block once it is done (even if it failed)."""
    jobs: list[Job] = []
    token = _JOBS.set(jobs)
    try:
        yield
    finally:
        _JOBS.reset(token)
        for job in jobs:
            try:
                await job()
            except Exception:
                log.exception("a job queued for after the reply failed")
