"""The example images of docs/rendering.md and the README:

- ``docs/example-board.png`` — the demo battle in the Axis assault phase with the Axis
  move and attacks of the phase;
- ``docs/example-closeup.png`` — the close-up the bot posts with the phase map of turn 3's
  Axis movement in the example battle (``examples/minis-standard.txt``): the Panzer's
  dash stopped by the bazooka's defensive fire (M-12).

    python -m render.minis.example docs
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from render.minis.board import board
from render.minis.overlays import AttackLine, MovedPath
from render.minis.phase import closeup
from render.minis.sample import demo_state, example_battle

CLOSEUP_REPORT = "turn3-movement-axis"


def example_board() -> Image.Image:
    s = demo_state()
    h = s.map.parse_hex
    return board(s, overlays=[
        MovedPath("ax1", (h("O8"), h("N8"), h("M9"), h("L9")), fire_points=(h("M9"),), stopped=True),
        AttackLine(h("O9"), h("M9"), "disrupted", defensive=True),
        AttackLine(h("I7"), h("M8"), "3 hits"),
        AttackLine(h("M10"), h("L10"), "1 hit"),
    ])


def example_closeup() -> Image.Image:
    report = next(r for r in example_battle() if r.name == CLOSEUP_REPORT)
    out = closeup(report.state, report.events)
    assert out is not None
    return out.image


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m render.minis.example DOCS_DIR", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    example_board().save(folder / "example-board.png", format="PNG", optimize=True)
    example_closeup().save(folder / "example-closeup.png", format="PNG", optimize=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
