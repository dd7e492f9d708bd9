"""Generic picture pieces, shared by every game's renderer (nothing here knows a game).

- :mod:`render.core.layout` — hex ↔ pixel maths, flat-top and pointy-top, whole boards
  (``offset_hexes``: rectangles, or Memoir '44's 13/12-hex rows) and any set of hexes.
- :mod:`render.core.window` — a window of a board for close-ups and zooms.
- :mod:`render.core.cache` — the static-layer cache keyed by a board's content.
- :mod:`render.core.frame` — the frame: column letters, row numbers, hex labels.
- :mod:`render.core.title`, :mod:`render.core.legend`, :mod:`render.core.roster` — the
  title bar, the legend and the roster panels.
- :mod:`render.core.theme` — a theme per game (JSON in the game's package, merged over
  ``render/core/theme.json``); :mod:`render.core.colour` — colour helpers.
- :mod:`render.core.canvas` — a Pillow image that records what was drawn where;
  :mod:`render.core.fonts` — the shipped fonts.
- :mod:`render.core.legibility` — the 550-px phone readability measures.
- :mod:`render.core.encode` — palette PNG bytes; :mod:`render.core.anim` — replays.

See docs/rendering.md ("Building a renderer for another game").
"""
