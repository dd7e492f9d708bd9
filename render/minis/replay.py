"""A battle replay: one animated image with a frame per phase report.

A frame is either ``(name, state, events)`` — drawn here as the map after the events
with their paths and attacks, under a title bar saying ``name`` — or ``(name, image)``,
a picture already made (it gets ``name`` in a caption band).  Replay frames leave out
the legend and the roster (they would change every frame and make the file grow); their
map is drawn a little smaller than a phase image (``REPLAY_RADIUS``), which a phone
shows at the same size anyway (it scales any image wider than 550 px down to 550).

The result is a GIF (:func:`render.core.anim.animate`): on the example battle
(``examples/minis-standard.txt``, 38 phase reports) it is far below Discord's 8 MB limit
for servers without boosts (measured by a test and by ``make bench``).
"""

from __future__ import annotations

from typing import Sequence, Union

from PIL import Image

from engine.minis.state import MinisState
from render.core.anim import animate, with_caption
from render.minis.board import BoardImage, render_board
from render.minis.from_events import EventLike, story
from render.minis.theme import theme

REPLAY_RADIUS = 26
MAX_BYTES = 8 * 1024 * 1024  # Discord's attachment limit on a server without boosts

ReplayFrame = Union[tuple[str, Image.Image], tuple[str, MinisState, Sequence[EventLike]]]


def replay_board(state: MinisState, events: Sequence[EventLike], name: str | None = None, *,
                 hex_radius: float = REPLAY_RADIUS) -> BoardImage:
    """One frame: the map after ``events`` with their overlays and ghosts, the title
    bar saying ``name`` (default: the phases the events report)."""
    st = story(state, events)
    return render_board(state, overlays=st.overlays, heading=name or st.title, removed=st.removed,
                        hex_radius=hex_radius, legend=False, roster=False)


def replay(frames: Sequence[ReplayFrame], *, seconds: float = 1.6, last_seconds: float = 5.0,
           fmt: str = "gif", hex_radius: float = REPLAY_RADIUS) -> bytes:
    """The animated replay of ``frames`` (see the module docstring) as GIF bytes
    (``fmt="webp"``: lossless animated WebP)."""
    th = theme()
    images: list[tuple[str, Image.Image]] = []
    for frame in frames:
        if len(frame) == 3:
            name, state, events = frame
            images.append((name, replay_board(state, events, name, hex_radius=hex_radius).image))
        else:
            name, image = frame
            images.append((name, with_caption(image, name, th)[0]))
    return animate(images, caption=False, seconds=seconds, last_seconds=last_seconds, fmt=fmt, th=th,
                   keep=th.flat_colours())
