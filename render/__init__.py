"""Images from engine states.

``render`` reads engine values and never changes them.  It may import ``engine`` and
Pillow, never Discord; only ``bot`` turns an image into a Discord file.

- :mod:`render.layout` — hex ↔ pixel maths (flat-top, axial, odd-q labels).
- :mod:`render.fonts` — the shipped DejaVu fonts, loaded with importlib.resources.
- :mod:`render.theme` — colours and sizes read from ``theme.json``.
- :mod:`render.overlays` — value types the bot builds from events (paths, attacks, …).
- :mod:`render.minis` — A&A Miniatures battle maps and stat cards.
- :mod:`render.dice` — a picture of rolled dice (`/roll image:true`).
- :mod:`render.chart` — the small bar chart of the odds commands.
"""
