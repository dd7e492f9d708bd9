"""Render speed: a full A&A Miniatures phase image against PNG encoding alone.

Definitions (both measured in the same run, interleaved, medians of ``RUNS``):

- ``render-phase-ms``: wall time of ``png(board(state))`` for the demo battle
  (20 × 16 hexes, 30 units, 20 counters, overlays off) with a warm cache, i.e. the
  map's static layer already drawn — what the bot pays after every phase.
- ``render-phase-over-png-encode``: R = that time / the time of ``png(image)`` on the
  same finished image with the same encoder settings.  Goal R ≤ 1.5: drawing a phase
  costs at most half of what encoding it costs.
- ``render-phase-png-kb``: size of that PNG (goal ≤ 1 MB).
- ``render-cold-ms``: the first image of a map (static layer drawn too).
"""

from __future__ import annotations

import statistics
import time
from typing import Iterable

from render.minis import board, png
from render.minis.base import clear_cache
from render.minis.sample import demo_state

RUNS = 25


def figures() -> Iterable[tuple[str, object]]:
    state = demo_state()
    clear_cache()
    t0 = time.perf_counter()
    png(board(state))
    cold = time.perf_counter() - t0
    full: list[float] = []
    enc: list[float] = []
    size = 0
    for _ in range(RUNS):
        t0 = time.perf_counter()
        image = board(state)
        data = png(image)
        t1 = time.perf_counter()
        png(image)
        t2 = time.perf_counter()
        full.append(t1 - t0)
        enc.append(t2 - t1)
        size = len(data)
    f, e = statistics.median(full), statistics.median(enc)
    yield "render-phase-ms", round(f * 1000, 1)
    yield "render-phase-over-png-encode", round(f / e, 2)
    yield "render-phase-png-kb", round(size / 1024)
    yield "render-cold-ms", round(cold * 1000, 1)
