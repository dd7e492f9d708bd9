"""The Memoir '44 board picture: legible on a phone (550 px wide), drawn from the public
view only, with a static layer cached per board, and a custom scenario drawn as well as
ours."""

from __future__ import annotations

import json

from engine.core.game import PUBLIC, Viewer
from engine.memoir.game import RULES
from engine.memoir.lookups import position
from engine.memoir.scenario import find_shipped, load_scenario_text, shipped_scenarios
from render.core.legibility import problems, smallest
from render.memoir import board, board_png, card_png
from render.memoir.board import _STATIC, dice_rows
from render.memoir.cards import card_canvas, hand_canvas
from engine.memoir.tables import card_kinds
from engine.core.dice import scripted_dice

EVENTS = [
    {"type": "CardPlayed", "seat": "allies", "card": "attack-left", "effect": "attack-left",
     "sections": ["left"], "fallback": False},
    {"type": "Moved", "unit": "al1", "path": ["C6", "D5"]},
    {"type": "BattleDeclared", "attacker": "D5", "target": "D4", "dice": 1, "close": True},
    {"type": "Rolled", "side": "allies", "why": "battle", "attacker": "D5", "target": "D4",
     "faces": ["star", "grenade", "flag", "infantry", "armor"], "hits": 1, "flags": 1},
    {"type": "Retreated", "unit": "ax5", "path": ["D4", "D3"], "lost": 0},
    {"type": "Eliminated", "unit": "ax2", "hex": "K2", "medal_to": "allies"},
]


def test_every_scenario_board_is_legible_at_550_px() -> None:
    for sc in shipped_scenarios():
        canvas = board(position(sc), events=EVENTS, title=sc.name)
        width = canvas.image.width
        assert problems(canvas.items, width) == [], sc.slug
        # hex labels and unit texts are drawn and measured, not skipped
        assert smallest(canvas.items, width, kinds=("hex-label",)) >= 5.0
        assert smallest(canvas.items, width, kinds=("unit",)) >= 5.0
        assert smallest(canvas.items, width, kinds=("die", "dice-label", "info", "legend")) >= 7.0
        units = [it for it in canvas.items if it.kind == "unit"]
        assert len(units) == len(position(sc).units)
        assert any(it.kind == "arrow" for it in canvas.items)


def test_the_picture_shows_the_turn() -> None:
    sc = find_shipped("pegasus-bridge")
    canvas = board(position(sc), events=EVENTS)
    texts = [it.text for it in canvas.items]
    assert "Card played  Allies: Attack Left" in texts
    assert "Medals  Axis 0/4  ·  Allies 0/4" in texts
    assert ["★", "Gren", "Flag", "Inf", "Tank"] == [it.text for it in canvas.items if it.kind == "die"]
    assert dice_rows(EVENTS)[0].label == "D5→D4:"
    assert {"D3", "K6"} <= {it.hex and _label(it.hex) for it in canvas.items if it.kind == "medal"}


def _label(h: object) -> str:
    from engine.memoir.board import label

    return label(h)  # type: ignore[arg-type]


def test_the_static_layer_is_drawn_once_per_board() -> None:
    _STATIC.clear()
    sc = find_shipped("sword-beach")
    board(position(sc))
    board(position(load_scenario_text(json.dumps(_same_board_doc()))))
    assert _STATIC.stats == {"hits": 0, "misses": 2}
    board(position(sc), events=EVENTS)
    assert _STATIC.stats["hits"] == 1


def _same_board_doc() -> dict[str, object]:
    return {"name": "Tiny", "cards": {"axis": 1, "allies": 1}, "medals": {"axis": 1, "allies": 1},
            "terrain": {"C3": "town", "H5": "hill", "E7": "forest", "J2": "river"},
            "obstacles": {"C3": "sandbags", "H6": "wire", "E3": {"type": "bunker", "owner": "axis"}},
            "objectives": [{"hex": "H5", "for": "both", "kind": "temporary", "medals": 2}],
            "units": [{"hex": "C3", "side": "axis", "type": "infantry", "badge": "special-forces"},
                      {"hex": "H4", "side": "axis", "type": "armor", "badge": "elite", "figures": 2},
                      {"hex": "E8", "side": "allies", "type": "artillery"},
                      {"hex": "F8", "side": "allies", "type": "infantry", "badge": "resistance"}]}


def test_a_custom_scenario_draws_as_well_as_ours() -> None:
    sc = load_scenario_text(json.dumps(_same_board_doc()))
    canvas = board(position(sc), events=EVENTS)
    assert problems(canvas.items, canvas.image.width) == []
    assert {it.text for it in canvas.items if it.kind == "badge"} == {"SF", "E", "R"}
    assert sorted(it.text for it in canvas.items if it.kind == "unit") == ["A2", "G2", "I3", "I4"]  # resistance: 3 figures
    assert [it.text for it in canvas.items if it.kind == "legend"][:4] == ["clear", "forest", "hill", "town"]


def test_the_board_is_drawn_from_the_public_view_so_hands_cannot_show() -> None:
    state, _ = RULES.new_game({"scenario": "pegasus-bridge"}, scripted_dice(list(range(60, 1, -1))))
    public = RULES.view(state, PUBLIC)
    assert set(public.hands[0]) == {"?"}
    own = RULES.view(state, Viewer.of(["allies"]))
    assert board_png(public) == board_png(own)  # only the sizes of hands are drawn


def test_cards_are_legible() -> None:
    for kind in card_kinds():
        canvas = card_canvas(kind)
        assert problems(canvas.items, canvas.image.width) == [], kind
        assert any(it.kind == "card-text" for it in canvas.items), kind
    assert card_png("air-power")[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_hand_of_six_is_legible_on_a_phone() -> None:
    kinds = ("attack-left", "probe-right", "assault-centre", "direct-from-hq", "recon-left", "counter-attack")
    canvas = hand_canvas(kinds)
    assert problems(canvas.items, canvas.image.width) == []
    assert [it.text for it in canvas.items if it.kind == "card-number"] == ["1", "2", "3", "4", "5", "6"]
    assert [it.text for it in canvas.items if it.kind == "card-title"] == [
        "Attack Left", "Probe Right", "Assault Centre", "Direct from HQ", "Recon Left", "Counter-Attack"]


def test_the_title_bar_says_what_is_shown() -> None:
    sc = find_shipped("pegasus-bridge")
    texts = [it.text for it in board(position(sc), title="Pegasus Bridge · Allies turn", right="after turn 3").items
             if it.kind == "title"]
    assert texts == ["Pegasus Bridge · Allies turn", "after turn 3"]
    assert [it.text for it in board(position(sc)).items if it.kind == "title"] == ["Pegasus Bridge", "turn 1"]
