"""Regenerate ``positions.json``: where each space sits on our schematic world map.

Land territories are placed by hand (``LAND`` below, in map cells: x grows east from the
mid-Pacific cut, y grows south) by approximate geography, with Europe drawn larger than
it is so its many small territories stay readable.  Sea zones are placed by a small
force layout: pulled towards the spaces they touch, pushed away from everything else,
lands fixed.  Connections across the Pacific cut (x far apart) do not pull.

Run ``python -m render.aa.gen_positions`` after changing ``LAND``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from engine.aa.board import board

LAND_TEXT = Path(__file__).with_name("land.txt")
OUT = Path(__file__).with_name("positions.json")
CUT = 40.0  # connections longer than this (in x) cross the Pacific cut


def land_positions() -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for line in LAND_TEXT.read_text(encoding="utf-8").splitlines():
        if line.strip():
            name, x, y = line.rsplit(" ", 2)
            out[name] = (float(x), float(y))
    return out


def layout(iterations: int = 400) -> dict[str, tuple[float, float]]:
    b = board()
    pos = dict(land_positions())
    seas = [n for n in b.names if b.is_sea(n)]
    # start: mean of the land neighbours (or of everything placed nearby), nudged by number
    for _ in range(3):
        for z in seas:
            near = [pos[n] for n in b.adj[z] if n in pos]
            if near:
                xs = [p[0] for p in near]
                if max(xs) - min(xs) > CUT:  # both sides of the cut: keep to the west edge
                    near = [p for p in near if p[0] > CUT] or near
                pos[z] = (sum(p[0] for p in near) / len(near) + 0.7, sum(p[1] for p in near) / len(near) + 0.9)
    fixed = set(land_positions())
    for step in range(iterations):
        heat = 0.5 * (1 - step / iterations) + 0.05
        moves: dict[str, tuple[float, float]] = {}
        for z in seas:
            x, y = pos[z]
            fx = fy = 0.0
            for n in b.adj[z]:
                nx, ny = pos[n]
                if abs(nx - x) > CUT:
                    continue
                d = math.dist((x, y), (nx, ny)) or 0.01
                want = 2.6
                fx += (nx - x) * (d - want) / d * 0.2
                fy += (ny - y) * (d - want) / d * 0.2
            for m, (mx, my) in pos.items():
                if m == z:
                    continue
                if m in fixed:  # keep clear of the territory's box (2.8 x 2.4 cells, see world.py)
                    cx = min(max(x, mx - 1.4), mx + 1.4)
                    cy = min(max(y, my - 1.0), my + 1.4)
                    d = math.dist((x, y), (cx, cy))
                    if d < 1.0:
                        d = d or 0.01
                        ux, uy = ((x - cx) / d, (y - cy) / d) if (x, y) != (cx, cy) else ((x - mx) or 0.1, (y - my) or 0.1)
                        fx += ux * (1.0 - d) * 1.5
                        fy += uy * (1.0 - d) * 1.5
                    continue
                d = math.dist((x, y), (mx, my))
                if d < 2.0:
                    d = d or 0.01
                    push = (2.0 - d) / d * 0.6
                    fx += (x - mx) * push
                    fy += (y - my) * push
            moves[z] = (max(-heat, min(heat, fx)), max(-heat, min(heat, fy)))
        for z, (dx, dy) in moves.items():
            x, y = pos[z]
            pos[z] = (min(78.0, max(0.0, x + dx)), min(34.0, max(0.0, y + dy)))
    return pos


def main() -> None:
    pos = layout()
    data = {name: [round(x, 2), round(y, 2)] for name, (x, y) in sorted(pos.items())}
    OUT.write_text(json.dumps(data, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(data)} positions to {OUT}")


if __name__ == "__main__":
    main()
