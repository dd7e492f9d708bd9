"""Data-driven regression files (tests/memoir/regressions/*.json): a position (a shipped
scenario or one in our format, with stacked cards), orders with their dice, and the
expected position afterwards.  The format:

    {"about": "...", "rules": ["E-15.1", ...],
     "scenario": "sword-beach" | {our scenario format},
     "cards": {"axis": [kinds], "allies": [kinds], "deck": [kinds on top of the deck]},
     "standing": ["pass", "ask"],                     (axis, allies; default pass/pass)
     "orders": [["allies", "battle G6 G5", [4, 4, 4]], ...],
     "expect": {"units": {"G5": "allies armor 3", ...}, "medals": [axis, allies],
                "active": "axis", "step": "play", "winner": null,
                "hands": {"axis": [kinds], "allies": [kinds]}, "discard": [kinds]}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.memoir.scenario import scenario_from_dict, shipped
from engine.memoir.turn import shown_medals

from .helpers import do, game, kinds

FILES = sorted((Path(__file__).parent / "regressions").glob("*.json"))


def test_there_are_regression_files() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_regression(path: Path) -> None:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    raw = case["scenario"]
    sc = shipped(raw) if isinstance(raw, str) else scenario_from_dict({"name": path.stem, **raw})
    cards = case.get("cards", {})
    standing = tuple(case.get("standing", ("pass", "pass")))
    state = game(sc, axis=cards.get("axis", ()), allies=cards.get("allies", ()), deck=cards.get("deck", ()),
                 standing=standing)  # type: ignore[arg-type]
    for seat, text, dice in case["orders"]:
        state, _ = do(state, seat, text, dice)
    want = case["expect"]
    got_units = {u.where: f"{u.side} {u.type} {u.figures}" for u in state.units}
    assert got_units == want["units"]
    if "medals" in want:
        assert list(shown_medals(state)) == want["medals"]
    if "active" in want:
        assert state.active == want["active"]
    if "step" in want:
        assert state.step == want["step"]
    if "winner" in want:
        assert (state.outcome.winner if state.outcome else None) == want["winner"]
    for seat, hand in want.get("hands", {}).items():
        assert sorted(kinds(state.hand(seat))) == sorted(hand), seat
    if "discard" in want:
        assert kinds(state.discard) == want["discard"]
    if "obstacles" in want:
        from engine.memoir.board import label

        assert {label(h): k for h, k, _ in state.obstacles} == want["obstacles"]
