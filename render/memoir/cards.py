"""A command card as a picture: its name, its kind (section or tactic), the sections it
acts in and its text in our own words (bot data: render/memoir/cards.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from PIL import Image

from engine.memoir.tables import card_kinds
from render.core.canvas import Canvas
from render.core.encode import png
from render.core.fonts import Face, wrap_text

WIDTH, HEIGHT = 300, 420


@lru_cache(maxsize=1)
def card_texts() -> dict[str, str]:
    raw = json.loads((resources.files("render.memoir") / "cards.json").read_text(encoding="utf-8"))
    return {k: str(v) for k, v in raw["texts"].items()}


def card_canvas(kind: str) -> Canvas:
    c = card_kinds()[kind]
    section = c.type == "section"
    image = Image.new("RGB", (WIDTH, HEIGHT), (248, 240, 220))
    canvas = Canvas(image)
    d = canvas.draw
    band = (84, 100, 60) if section else (120, 56, 40)
    d.rectangle((0, 0, WIDTH, 70), fill=band)
    d.rectangle((2, 2, WIDTH - 3, HEIGHT - 3), outline=(40, 40, 40), width=3)
    canvas.text((WIDTH / 2, 36), c.name, face=Face.BOLD, size=26 if len(c.name) < 16 else 20, fill=(255, 255, 255),
                anchor="mm", kind="card-title")
    sub = "Section card" if section else "Tactic card"
    if c.sections:
        sub += " · " + " + ".join(c.sections)
    canvas.text((WIDTH / 2, 92), sub, face=Face.CONDENSED_BOLD, size=20, fill=(40, 40, 40), anchor="mm",
                kind="card-kind")
    if c.sections:
        for i, name in enumerate(("left", "centre", "right")):
            x0 = 30 + i * 82
            fill = band if name in c.sections else (220, 212, 192)
            d.rectangle((x0, 112, x0 + 76, 128), fill=fill, outline=(40, 40, 40))
    y = 150
    for line in wrap_text(card_texts().get(kind, ""), Face.CONDENSED, 22, WIDTH - 36):
        canvas.text((18, y), line, face=Face.CONDENSED, size=22, fill=(24, 24, 24), anchor="la", kind="card-text")
        y += 28
    canvas.text((WIDTH / 2, HEIGHT - 22), f"{c.count} in the deck", face=Face.CONDENSED, size=18,
                fill=(90, 90, 90), anchor="mm", kind="card-count")
    return canvas


@lru_cache(maxsize=64)
def card_png(kind: str) -> bytes:
    return png(card_canvas(kind).image, lossless=True)


COLUMNS = 3  # a hand is laid out three cards a row, so it stays legible on a phone


def hand_canvas(kinds: tuple[str, ...]) -> Canvas:
    """Several cards in rows of three (a hand), numbered from 1 in the order given."""
    n = max(1, len(kinds))
    cols = min(COLUMNS, n)
    rows = (n + cols - 1) // cols
    gap, head = 12, 36
    cell_h = HEIGHT + head + gap
    image = Image.new("RGB", (cols * WIDTH + (cols + 1) * gap, rows * cell_h + gap), (36, 40, 44))
    canvas = Canvas(image)
    for i, kind in enumerate(kinds):
        x = gap + (i % cols) * (WIDTH + gap)
        y = gap + (i // cols) * cell_h
        card = card_canvas(kind)
        image.paste(card.image, (x, y + head))
        canvas.items.extend(it.moved(x, y + head) for it in card.items)
        canvas.text((x + WIDTH / 2, y + head / 2), str(i + 1), face=Face.BOLD, size=26, fill=(240, 240, 236),
                    anchor="mm", kind="card-number")
    return canvas


def hand_png(kinds: tuple[str, ...]) -> bytes:
    return png(hand_canvas(kinds).image, lossless=True)
