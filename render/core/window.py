"""Windows of a hex board: a rectangle of offset coordinates (columns × rows) for close-ups
and zooms.

:func:`window_around` chooses the window for a set of points of interest (where units
moved, fired and were hit), with a margin, at least a minimum size (so a lone attack
still shows its surroundings) and at most a maximum size (so the close-up stays readable
on a phone); when the points do not fit, the window that covers the most weight wins.
:func:`window_centred` is the zoom around one hex.  Both stay inside the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from engine.core.hexgrid import Hex, Labels


@dataclass(frozen=True)
class Window:
    """Columns ``c0``…``c1`` and rows ``r0``…``r1`` (offset coordinates, inclusive)."""

    c0: int
    r0: int
    c1: int
    r1: int

    @property
    def cols(self) -> int:
        return self.c1 - self.c0 + 1

    @property
    def rows(self) -> int:
        return self.r1 - self.r0 + 1

    def holds(self, col: int, row: int) -> bool:
        return self.c0 <= col <= self.c1 and self.r0 <= row <= self.r1

    def hexes(self, labels: Labels, board: Iterable[Hex]) -> frozenset[Hex]:
        """The hexes of ``board`` inside the window."""
        return frozenset(h for h in board if self.holds(*labels.to_offset(h)))

    def name(self, labels: Labels) -> str:
        """"F4–L9": the labels of the top-left and bottom-right corners."""
        a = labels.label(labels.from_offset(self.c0, self.r0))
        b = labels.label(labels.from_offset(self.c1, self.r1))
        return f"{a}–{b}"


def _extent(labels: Labels, board: Iterable[Hex]) -> Window:
    offs = [labels.to_offset(h) for h in board]
    return Window(min(c for c, _ in offs), min(r for _, r in offs), max(c for c, _ in offs),
                  max(r for _, r in offs))


def _fit(lo: int, hi: int, size: int, lo_limit: int, hi_limit: int) -> tuple[int, int]:
    """The span [lo, hi] grown (centred) or kept to ``size`` cells, inside the limits."""
    size = min(size, hi_limit - lo_limit + 1)
    extra = size - (hi - lo + 1)
    lo -= extra // 2
    hi = lo + size - 1
    if lo < lo_limit:
        lo, hi = lo_limit, lo_limit + size - 1
    if hi > hi_limit:
        lo, hi = hi_limit - size + 1, hi_limit
    return lo, hi


def window_centred(centre: Hex, labels: Labels, board: Iterable[Hex], *, cols: int, rows: int) -> Window:
    """A ``cols`` × ``rows`` window with ``centre`` in its middle, moved inside the board
    (smaller when the board is)."""
    ext = _extent(labels, board)
    c, r = labels.to_offset(centre)
    c0, c1 = _fit(c, c, cols, ext.c0, ext.c1)
    r0, r1 = _fit(r, r, rows, ext.r0, ext.r1)
    return Window(c0, r0, c1, r1)


def window_around(points: Mapping[Hex, float] | Iterable[Hex], labels: Labels, board: Iterable[Hex], *,
                  margin: int = 1, min_cols: int = 6, min_rows: int = 5, max_cols: int = 10,
                  max_rows: int = 8) -> Window | None:
    """The window showing ``points`` (hexes, or hexes with a weight) with ``margin``
    hexes around them, between the minimum and maximum sizes; None without points.
    When the points do not fit in the maximum size, the placement covering the most
    weight (then the most central one) wins."""
    weights: dict[Hex, float] = dict(points) if isinstance(points, Mapping) else {h: 1.0 for h in points}
    board = list(board)
    ext = _extent(labels, board)
    offs = {labels.to_offset(h): w for h, w in weights.items()}
    offs = {k: w for k, w in offs.items() if ext.holds(*k)}
    if not offs:
        return None
    lo_c = min(c for c, _ in offs) - margin
    hi_c = max(c for c, _ in offs) + margin
    lo_r = min(r for _, r in offs) - margin
    hi_r = max(r for _, r in offs) + margin
    cols = min(max(hi_c - lo_c + 1, min_cols), max_cols)
    rows = min(max(hi_r - lo_r + 1, min_rows), max_rows)
    if hi_c - lo_c + 1 <= max_cols and hi_r - lo_r + 1 <= max_rows:
        c0, c1 = _fit(max(lo_c, ext.c0), min(hi_c, ext.c1), cols, ext.c0, ext.c1)
        r0, r1 = _fit(max(lo_r, ext.r0), min(hi_r, ext.r1), rows, ext.r0, ext.r1)
        return Window(c0, r0, c1, r1)
    # Too spread out: slide a maximum-size window over the board and keep the best.
    cols = min(max_cols, ext.cols)
    rows = min(max_rows, ext.rows)
    mid_c = (min(c for c, _ in offs) + max(c for c, _ in offs)) / 2
    mid_r = (min(r for _, r in offs) + max(r for _, r in offs)) / 2
    best: tuple[float, float] | None = None
    chosen = Window(ext.c0, ext.r0, ext.c0 + cols - 1, ext.r0 + rows - 1)
    for c0 in range(ext.c0, ext.c1 - cols + 2):
        for r0 in range(ext.r0, ext.r1 - rows + 2):
            w = Window(c0, r0, c0 + cols - 1, r0 + rows - 1)
            # points need their margin inside the window to count fully
            inner = Window(c0 + margin, r0 + margin, w.c1 - margin, w.r1 - margin)
            covered = sum(wt for (c, r), wt in offs.items() if inner.holds(c, r))
            covered += 0.5 * sum(wt for (c, r), wt in offs.items() if w.holds(c, r) and not inner.holds(c, r))
            off_centre = abs(c0 + (cols - 1) / 2 - mid_c) + abs(r0 + (rows - 1) / 2 - mid_r)
            score = (covered, -off_centre)
            if best is None or score > best:
                best, chosen = score, w
    return chosen
