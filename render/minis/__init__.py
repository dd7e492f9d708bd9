"""A&A Miniatures pictures: battle maps (whole, close-ups, zooms), phase reports, replays
and stat cards, built on :mod:`render.core`.

- :func:`phase_images` — ``phase_images(state, events)`` → the whole map titled with the
  phase reported plus a close-up of the action (:class:`PhaseImages`);
- :func:`closeup`, :func:`zoom`, :func:`action_window` — close-ups and zooms;
- :func:`title_for` — the phases some events report ("Turn 3 · Assault (Allies)");
- :func:`replay` — an animated image of a battle, one frame per phase report;
- :func:`board` / :func:`render_board` — a map with the overlays you choose;
- :func:`png` — image bytes (palette PNG keeping every theme colour);
- :func:`card` — ``card(unit_card)`` → a stat card;
- :func:`overlays_from_events` — moves and attacks of a phase as overlays.

See docs/rendering.md for the legend, colours, symbols and the bot's API.
"""

from __future__ import annotations

from render.minis.board import BoardImage, board, render_board
from render.minis.card import card
from render.minis.encode import png
from render.minis.facts import objective_holder
from render.minis.from_events import overlays_from_events, story, title_for
from render.minis.phase import PhaseImages, action_window, closeup, phase_images, zoom
from render.minis.replay import replay, replay_board

__all__ = ["BoardImage", "PhaseImages", "action_window", "board", "card", "closeup", "objective_holder",
           "overlays_from_events", "phase_images", "png", "render_board", "replay", "replay_board", "story",
           "title_for", "zoom"]
