"""The dice race's board: two score tracks, drawn with Pillow from the state as the
viewer may see it (a hidden secret number shows as '?')."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.fonts import Face, font
from tests.toygame.engine import SEATS, Race

COLOURS = {"red": (200, 40, 40), "blue": (40, 80, 200)}


def board_png(state: Race, title: str) -> bytes:
    width, row = 550, 60
    image = Image.new("RGB", (width, 60 + row * 2), (245, 240, 228))
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), title, fill=(0, 0, 0), font=font(Face.BOLD, 22))
    for i, seat in enumerate(SEATS):
        y = 50 + i * row
        done = min(state.scores[i], state.target) / state.target
        draw.rectangle((10, y, width - 10, y + 40), outline=(0, 0, 0))
        draw.rectangle((10, y, 10 + int((width - 20) * done), y + 40), fill=COLOURS[seat])
        secret = {0: "–", -1: "?"}.get(state.secrets[i], str(state.secrets[i]))
        draw.text((16, y + 8), f"{seat}: {state.scores[i]}/{state.target}  secret {secret}",
                  fill=(0, 0, 0), font=font(Face.SANS, 20))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
