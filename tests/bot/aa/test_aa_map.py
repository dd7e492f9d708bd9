"""The A&A world map: every region legible at 550 px, names never covered, the state
drawn (owners, units, factories), the battles and moves of a phase, and /aa map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.aa.board import board
from engine.aa.game import new_game
from engine.aa.state import AAState
from engine.core.dice import seeded_dice
from render.aa.world import MAX_REGION_CELLS, REGIONS, colour, draw_map, overlay_from, positions, tint
from render.core.canvas import boxes_overlap
from render.core.legibility import problems, smallest
from tests.bot.aa.scripts import OPEN, TO_CASUALTIES, run
from tests.bot.local_scripts import public


def fresh(setup: str) -> AAState:
    state, _ = new_game({"setup": setup}, seeded_dice(0))
    return state


def test_every_space_has_a_place() -> None:
    assert set(positions()) == set(board().names)


@pytest.mark.parametrize("setup", ["1941", "1942"])
@pytest.mark.parametrize("region", [r for r in REGIONS if r != "world"])
def test_regional_zooms_read_at_550_px(setup: str, region: str) -> None:
    x0, _, x1, _ = REGIONS[region]
    assert x1 - x0 <= MAX_REGION_CELLS
    canvas = draw_map(fresh(setup), region=region)
    width = canvas.image.width
    # Everything on a close-up: cap height >= 7 px once shown 550 px wide.
    assert problems(canvas.items, width, close=True) == []
    assert smallest(canvas.items, width, kinds=("name",)) >= 7.0
    assert smallest(canvas.items, width, kinds=("badge",)) >= 7.0


@pytest.mark.parametrize("setup", ["1941", "1942"])
def test_no_territory_name_is_covered(setup: str) -> None:
    for region in REGIONS:
        canvas = draw_map(fresh(setup), region=region)
        names = [i for i in canvas.items if i.kind == "name"]
        others = [i for i in canvas.items if i.face is not None and i.owner]
        clashes = [(a.owner, b.owner) for a in names for b in others
                   if a.owner != b.owner and boxes_overlap(a.box, b.box)]
        assert clashes == [], (region, clashes)


def test_the_state_is_drawn() -> None:
    state = fresh("1942")
    canvas = draw_map(state, region="europe")
    texts = {(i.owner, i.text) for i in canvas.items if i.face is not None}
    assert ("Germany", "Germany") in texts
    assert ("Germany", "4 inf") in texts and ("Germany", "2 tank") in texts  # A-4 set-up 1942
    assert ("Germany", "10 IPC · IC") in texts  # its factory
    stars = [i for i in canvas.items if i.kind == "victory-city"]
    assert len(stars) >= 6
    # Germany's box is filled with the (lightened) German colour.
    x0, y0, x1, y1 = canvas.items[[i.text for i in canvas.items].index("Germany")].box
    pixel = canvas.image.getpixel((int(x0) - 3, int((y0 + y1) / 2)))
    assert pixel == tint(colour("Germany"))


def test_a_phase_report_marks_battles_and_moves() -> None:
    events: list[dict[str, Any]] = [{"type": "Moved", "power": "Japan", "units": "2 inf", "path": ["Manchuria", "Suiyuan"]},
              {"type": "BattleStarted", "where": "Suiyuan", "kind": "land", "attacker": "Japan",
               "attackers": "2 inf", "defenders": "2 inf"}]
    overlay = overlay_from(events)
    assert overlay.battles == ("Suiyuan",)
    canvas = draw_map(fresh("1942"), region="asia", overlay=overlay)
    assert [i.text for i in canvas.items if i.kind == "battle"] == ["Suiyuan"]
    assert [i.text for i in canvas.items if i.kind == "arrow"] == ["Japan"]


async def test_map_command_and_the_map_after_each_phase(tmp_path: Path) -> None:
    code, out = await run(OPEN + "carol: /aa map region:pacific\n"
                          + TO_CASUALTIES.removeprefix(OPEN), tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "🗺️ Round 1, Japan: research — pacific." in pub
    images = sorted((tmp_path / "img").glob("*.png"))
    assert [p.name.split("-", 1)[1] for p in images] == ["aa-pacific.png", "aa-map.png", "aa-map.png",
                                                         "aa-map.png"]
    assert Image.open(images[0]).width == 1100
    # research, purchase and combat move ended: one report with the map each.
    assert pub.count("[image]") == 4
    assert "📜 **Round 1** — 🇯🇵 Japan: combat move ended." in pub


def test_a_report_zooms_on_the_region_of_the_action() -> None:
    from render.aa.world import report_region

    def moved(*path: str) -> dict[str, Any]:
        return {"type": "Moved", "power": "Japan", "units": "1 inf", "path": list(path)}

    assert report_region([]) == "world"
    assert report_region([{"type": "Purchased", "power": "Japan"}]) == "world"
    assert report_region([moved("Manchuria", "Suiyuan")]) == "asia"
    assert report_region([moved("Japan", "62 Sea Zone", "61 Sea Zone"),
                          {"type": "Captured", "territory": "Philippine Islands"}]) == "pacific"
    assert report_region([{"type": "BattleStarted", "where": "Ukraine"}, moved("Germany", "Poland")]) == "europe"
    # Action on both sides of the world: the whole map.
    assert report_region([moved("Germany", "Poland"), moved("Japan", "62 Sea Zone")]) == "world"


async def test_the_map_command_shows_this_turns_moves_and_battles(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from render.aa import world

    seen: list[world.Overlay] = []
    original = world.map_png

    def spy(state: AAState, **kw: Any) -> bytes:
        seen.append(kw["overlay"])
        return original(state, **kw)

    monkeypatch.setattr(world, "map_png", spy)
    code, out = await run(TO_CASUALTIES + "bob: /aa map region:asia\n", tmp_path)
    assert code == 0, out
    assert seen[-1].battles == ("Suiyuan",)
    assert seen[-1].moves == (("Japan", ("Manchuria", "Suiyuan")),)
