"""Memoir '44 pictures: the 13 × 9 board after each turn and on request, and the command
cards.  Built on render/core (pointy-top layout, static-layer cache, frame, title,
legend, theme); reads engine states only, never Discord."""

from render.memoir.board import board, board_png
from render.memoir.cards import card_png

__all__ = ["board", "board_png", "card_png"]
