"""A&A Miniatures pictures: the battle map of a state and a unit's stat card.

- :func:`board` — ``board(state, *, overlays=(), title=None, show_deployment=None, ...)``
  → ``PIL.Image.Image``; :func:`render_board` also returns what was drawn where.
- :func:`png` — the image as PNG bytes (the encoding ``make bench`` measures).
- :func:`card` — ``card(unit_card)`` → ``PIL.Image.Image``.
- :func:`overlays_from_events` — moves and attacks of a phase as overlays.

See docs/rendering.md for the legend, colours and symbols.
"""

from __future__ import annotations

from render.minis.board import BoardImage, board, render_board
from render.minis.card import card
from render.minis.encode import png
from render.minis.facts import objective_holder
from render.minis.from_events import overlays_from_events

__all__ = ["BoardImage", "board", "card", "objective_holder", "overlays_from_events", "png", "render_board"]
