"""Render speed and image sizes.

Phase image of the demo battle (20 × 16 hexes, 30 units, 20 counters, overlays off, warm
cache — the map's static layer already drawn, as after every phase in a running game);
medians of ``RUNS`` interleaved runs:

- ``render-phase-ms``: wall time of ``png(board(state))`` — drawing and encoding;
- ``render-phase-over-png-encode``: that time / the time of ``png(image)`` alone on the
  same finished image (goal ≤ 1.5: drawing costs at most half of what encoding costs);
- ``render-phase-png-kb``: the size of that PNG (goal ≤ 1 MB);
- ``render-png-encode-ms`` / ``render-png-encode-ms-before``: encoding that image as the
  palette PNG the bot now posts / as the RGB PNG (zlib level 1) it posted before;
- ``render-phase-png-kb-before``: the size of the RGB PNG;
- ``render-cold-ms``: the first image of a map (static layer drawn too).

The example battle (``examples/minis-standard.txt``, 38 phase reports):

- ``render-report-ms``: median time of one report's images (map + close-up), encoded;
- ``render-closeup-png-kb``: median size of a close-up;
- ``render-report-png-kb``: median bytes of one report's images together (map + close-up,
  what the bot posts after a phase);
- ``render-zoom-ms``: one ``/minis map zoom:`` picture drawn and encoded;
- ``render-replay-mb`` / ``render-replay-s``: the animated replay of the whole battle
  (goal < 8 MB, Discord's limit without boosts) and the time to make it.
"""

from __future__ import annotations

import statistics
import time
from typing import Iterable

from render.core.encode import png as core_png
from render.minis import board, phase_images, png, replay, title_for, zoom
from render.minis.base import clear_cache
from render.minis.sample import demo_state, example_battle

RUNS = 25


def figures() -> Iterable[tuple[str, object]]:
    state = demo_state()
    clear_cache()
    t0 = time.perf_counter()
    png(board(state))
    cold = time.perf_counter() - t0
    full: list[float] = []
    enc: list[float] = []
    before: list[float] = []
    size = size_before = 0
    for _ in range(RUNS):
        t0 = time.perf_counter()
        image = board(state)
        data = png(image)
        t1 = time.perf_counter()
        png(image)
        t2 = time.perf_counter()
        old = core_png(image, lossless=True)
        t3 = time.perf_counter()
        full.append(t1 - t0)
        enc.append(t2 - t1)
        before.append(t3 - t2)
        size, size_before = len(data), len(old)
    f, e = statistics.median(full), statistics.median(enc)
    yield "render-phase-ms", round(f * 1000, 1)
    yield "render-phase-over-png-encode", round(f / e, 2)
    yield "render-phase-png-kb", round(size / 1024)
    yield "render-phase-png-kb-before", round(size_before / 1024)
    yield "render-png-encode-ms", round(e * 1000, 1)
    yield "render-png-encode-ms-before", round(statistics.median(before) * 1000, 1)
    yield "render-cold-ms", round(cold * 1000, 1)

    reports = example_battle()
    times: list[float] = []
    close_sizes: list[int] = []
    report_sizes: list[int] = []
    for r in reports:
        t0 = time.perf_counter()
        imgs = phase_images(r.state, r.events)
        size = len(png(imgs.board.image))
        if imgs.closeup is not None:
            close_sizes.append(len(png(imgs.closeup.image)))
            size += close_sizes[-1]
        times.append(time.perf_counter() - t0)
        report_sizes.append(size)
    yield "render-report-ms", round(statistics.median(times) * 1000, 1)
    yield "render-closeup-png-kb", round(statistics.median(close_sizes) / 1024)
    yield "render-report-png-kb", round(statistics.median(report_sizes) / 1024)
    last = reports[-1].state
    zooms: list[float] = []
    for _ in range(5):
        t0 = time.perf_counter()
        png(zoom(last, "K5").image)
        zooms.append(time.perf_counter() - t0)
    yield "render-zoom-ms", round(statistics.median(zooms) * 1000, 1)
    frames = [(title_for(r.events) or "Set-up", r.state, r.events) for r in reports]
    t0 = time.perf_counter()
    data = replay(frames)
    yield "render-replay-s", round(time.perf_counter() - t0, 2)
    yield "render-replay-mb", round(len(data) / 1024 / 1024, 2)
