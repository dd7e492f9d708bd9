"""The pictures of a phase report, and the zoom.

- :func:`phase_images` — what the bot posts when phases end: the whole map (title naming
  the phase reported, paths and attack arrows, ghosts of removed units) and a close-up
  of where the action was, drawn large enough to read on a phone;
- :func:`closeup` — that close-up alone, for any events (or a window you choose);
- :func:`zoom` — any area, around a hex (``/minis map zoom:F7``);
- :func:`action_window` — the window a close-up of some events shows.

Everything takes the state *after* the events and the events themselves (engine objects
or their ``to_dict()`` form from the order log).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.core.errors import NotationError
from engine.core.hexgrid import Hex
from engine.minis.state import MinisState
from render.core.window import Window, window_around, window_centred
from render.minis.board import BoardImage, render_board
from render.minis.from_events import EventLike, story
from render.minis.overlays import Overlay

CLOSE_RADIUS = 48  # px: the hex radius of close-ups and zooms
CLOSE_MIN = (6, 5)  # columns, rows: a close-up shows at least this much around the action
CLOSE_MAX = (10, 8)  # at most this much, so that it reads on a phone (see docs/rendering.md)
ZOOM_SIZE = (9, 7)
MARGIN = 1  # hexes around the action


@dataclass(frozen=True)
class PhaseImages:
    """The pictures of one phase report."""

    title: str | None  # the phases reported ("Turn 3 · Assault (Allies) · Casualties"), None for the set-up
    board: BoardImage  # the whole map, with the legend and the roster
    closeup: BoardImage | None  # where the action was; None when nothing moved or fired


def action_window(state: MinisState, events: Iterable[EventLike]) -> Window | None:
    """The window around what the events did on the map (moves, attacks, defensive
    fire, removed units) with a margin of one hex; None when they did nothing there."""
    return window_around(story(state, events).focus, state.map.labels, state.map.hexes, margin=MARGIN,
                         min_cols=CLOSE_MIN[0], min_rows=CLOSE_MIN[1], max_cols=CLOSE_MAX[0],
                         max_rows=CLOSE_MAX[1])


def phase_images(state: MinisState, events: Sequence[EventLike], *, with_closeup: bool = True,
                 hex_radius: float | None = None) -> PhaseImages:
    """The whole map after the events and (``with_closeup``) the close-up of the action."""
    st = story(state, events)
    full = render_board(state, overlays=st.overlays, heading=st.title, removed=st.removed, hex_radius=hex_radius)
    close = closeup(state, events) if with_closeup else None
    return PhaseImages(st.title, full, close)


def closeup(state: MinisState, events: Sequence[EventLike] = (), *, window: Window | None = None,
            overlays: Sequence[Overlay] | None = None, heading: str | None = None,
            legend: bool = True) -> BoardImage | None:
    """The close-up of the events' action (or of ``window``), at :data:`CLOSE_RADIUS`,
    with the phase's overlays and a legend of what it shows; None when there is no
    window (nothing happened on the map)."""
    st = story(state, events)
    chosen = window or action_window(state, events)
    if chosen is None:
        return None
    return render_board(state, overlays=st.overlays if overlays is None else overlays,
                        heading=heading or st.title, removed=st.removed, window=chosen, close=True,
                        hex_radius=CLOSE_RADIUS, legend=legend, roster=False)


def zoom(state: MinisState, centre: Hex | str, *, overlays: Sequence[Overlay] = (),
         events: Sequence[EventLike] = (), cols: int = ZOOM_SIZE[0], rows: int = ZOOM_SIZE[1],
         heading: str | None = None) -> BoardImage:
    """The area around ``centre`` (a hex or a label such as "F7"), ``cols`` × ``rows``
    hexes (at most the close-up maximum), kept inside the map.  A label that cannot be
    read or lies off the map is a :class:`~engine.core.errors.PlayerError`."""
    if isinstance(centre, str):
        h = state.map.parse_hex(centre)
    else:
        h = centre
        if not state.map.on_map(h):
            raise NotationError(f"{state.map.label(h)} is not on the map {state.map.name}.")
    cols = max(1, min(cols, CLOSE_MAX[0]))
    rows = max(1, min(rows, CLOSE_MAX[1]))
    window = window_centred(h, state.map.labels, state.map.hexes, cols=cols, rows=rows)
    found = closeup(state, events, window=window, overlays=overlays if overlays or not events else None,
                    heading=heading)
    assert found is not None
    return found
