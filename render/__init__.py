"""Images from engine states.

``render`` reads engine values and never changes them.  It may import ``engine`` and
Pillow, never Discord; only ``bot`` turns an image into a Discord file.

- :mod:`render.core` — generic pieces for every game: hex layouts (flat and pointy),
  windows, the static-layer cache, frame and coordinate labels, title bar, legend and
  roster, themes, legibility measures, palette PNG, animations.
- :mod:`render.minis` — A&A Miniatures: phase maps, close-ups, zooms, replays, stat cards.
- :mod:`render.dice` — a picture of a roll (`/roll image:true`).
- :mod:`render.chart` — the small bar chart of the odds commands.

``render.canvas``, ``render.fonts`` and ``render.layout`` are the old names of
:mod:`render.core.canvas`, :mod:`render.core.fonts` and :mod:`render.core.layout`;
``render.overlays`` that of :mod:`render.minis.overlays`; ``render.theme`` re-exports the
colour helpers and the Minis theme.
"""
