"""`warroom memoir scenarios|los|battles|moves|retreat` (the look-ups, E-11, E-10, E-9, E-14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

FIXTURE = Path(__file__).parent / "data" / "orchard-crossroads.m44"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["memoir", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def as_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0 and err == ""
    return json.loads(out)


def test_scenarios_lists_the_three_we_ship(capsys: pytest.CaptureFixture[str]) -> None:
    rows = as_json(capsys, "scenarios")
    assert rows == [
        {"name": "Pegasus Bridge", "slug": "pegasus-bridge", "face": "countryside", "medals": {"axis": 4, "allies": 4},
         "cards": {"axis": 2, "allies": 6}, "first": "allies", "top": "axis"},
        {"name": "Sainte-Mère-Église", "slug": "sainte-mere-eglise", "face": "countryside",
         "medals": {"axis": 4, "allies": 4}, "cards": {"axis": 4, "allies": 5}, "first": "allies", "top": "axis"},
        {"name": "Sword Beach", "slug": "sword-beach", "face": "beach", "medals": {"axis": 5, "allies": 5},
         "cards": {"axis": 4, "allies": 5}, "first": "allies", "top": "axis"},
    ]
    code, out, _ = run(capsys, "scenarios")
    assert code == 0 and out.count("\n") == 3 and "Sword Beach (sword-beach): beach face" in out


def test_los_on_pegasus_bridge(capsys: pytest.CaptureFixture[str]) -> None:
    assert as_json(capsys, "los", "--from", "C6", "--to", "E3") == {"clear": False, "blocked_by": ["D4"]}
    assert as_json(capsys, "los", "--from", "C6", "--to", "D4") == {"clear": True, "blocked_by": []}
    code, out, _ = run(capsys, "los", "--from", "g9", "--to", "i9")
    assert code == 0 and out.strip() == "G9 -> I9 (Pegasus Bridge): blocked by H9."


def test_battles_apply_terrain_and_the_close_assault_obligation(capsys: pytest.CaptureFixture[str]) -> None:
    assert as_json(capsys, "battles", "--side", "allies") == [{"attacker": "C6", "target": "D4", "dice": 1}]
    assert as_json(capsys, "battles", "--side", "axis") == [
        {"attacker": "C3", "target": "C6", "dice": 1}, {"attacker": "D4", "target": "C6", "dice": 2},
        {"attacker": "D4", "target": "D7", "dice": 1}]
    assert as_json(capsys, "battles", "--side", "allies", "--scenario", "sword-beach") == []


def test_moves_and_must_stop(capsys: pytest.CaptureFixture[str]) -> None:
    assert as_json(capsys, "moves", "--unit", "D4") == {"reachable": ["C2", "D3", "D5", "E4", "E5"],
                                                        "must_stop": ["D5", "E4", "E5"]}
    out = as_json(capsys, "moves", "--unit", "E8", "--scenario", "sword-beach")
    assert out == {"reachable": ["D7", "D8", "E6", "E7"], "must_stop": ["D8"]}


def test_retreat_steps_and_figures_lost(capsys: pytest.CaptureFixture[str]) -> None:
    assert as_json(capsys, "retreat", "--unit", "E3", "--hexes", "2") == {
        "steps": {"1": ["E2"], "2": ["F1"]}, "figures_lost": 0}
    assert as_json(capsys, "retreat", "--unit", "C6", "--hexes", "2") == {
        "steps": {"1": [], "2": []}, "figures_lost": 2}
    assert as_json(capsys, "retreat", "--unit", "F8", "--hexes", "1") == {
        "steps": {"1": ["G9"]}, "figures_lost": 0}  # F9 is held


def test_a_m44_file_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert as_json(capsys, "scenarios", "--scenario", str(FIXTURE)) == [
        {"name": "Orchard Crossroads", "slug": "orchard-crossroads", "face": "countryside",
         "medals": {"axis": 3, "allies": 3}, "cards": {"axis": 4, "allies": 4}, "first": "allies", "top": "axis"}]
    assert as_json(capsys, "battles", "--side", "axis", "--scenario", str(FIXTURE)) == [
        {"attacker": "J3", "target": "G8", "dice": 1}, {"attacker": "J3", "target": "G9", "dice": 1},
        {"attacker": "J3", "target": "I9", "dice": 1}]  # artillery at range 5-6, in its bunker


@pytest.mark.parametrize("argv, message", [
    (("moves", "--unit", "Z9"), "Z9 is not on the board"),
    (("moves", "--unit", "A5"), "There is no unit on A5"),
    (("los", "--from", "A1", "--to", "B1", "--scenario", "omaha"), "no shipped scenario 'omaha'"),
    (("retreat", "--unit", "E3", "--hexes", "0"), "at least 1 hex"),
    (("scenarios", "--scenario", "missing.m44"), "Cannot read 'missing.m44'"),
])
def test_player_errors_print_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                                  message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err
