"""The example image of docs/rendering.md and the README (``docs/example-board.png``):
the demo battle in the Axis assault phase with the Axis move and attacks of the phase.

    python -m render.minis.example docs/example-board.png
"""

from __future__ import annotations

import sys

from PIL import Image

from render.minis.board import board
from render.minis.sample import demo_state
from render.minis.overlays import AttackLine, MovedPath


def example_board() -> Image.Image:
    s = demo_state()
    h = s.map.parse_hex
    return board(s, overlays=[
        MovedPath("ax1", (h("O8"), h("N8"), h("M9"), h("L9")), fire_points=(h("M9"),), stopped=True),
        AttackLine(h("O9"), h("M9"), "disrupted", defensive=True),
        AttackLine(h("I7"), h("M8"), "3 hits"),
        AttackLine(h("M10"), h("L10"), "1 hit"),
    ])


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m render.minis.example OUT.png", file=sys.stderr)
        return 2
    example_board().save(argv[0], format="PNG", optimize=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
