"""``warroom aa map|setup`` through bot.cli.main (the look-ups of issue 15)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["aa", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_map_json_lists_every_space_and_each_connection_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["territories"]) == 162 and len(data["connections"]) == 407
    pairs = {frozenset(c) for c in data["connections"]}
    assert len(pairs) == 407
    germany = next(t for t in data["territories"] if t["name"] == "Germany")
    assert {k: germany[k] for k in ("name", "kind", "ipc", "victory_city", "capital_of")} == {
        "name": "Germany", "kind": "land", "ipc": 10, "victory_city": True, "capital_of": "Germany"}
    zone = next(t for t in data["territories"] if t["name"] == "15 Sea Zone")
    assert zone["kind"] == "sea" and zone["canal"] == "Suez" and zone["victory_city"] is False
    assert sum(1 for t in data["territories"] if t["victory_city"]) == 18


def test_setup_json_gives_ipcs_income_and_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "setup", "1941", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["powers"]["Germany"] == {"ipcs": 31, "income": 31}
    assert data["powers"]["China"] == {"ipcs": 0, "income": 0}
    assert {"where": "Germany", "power": "Germany", "unit": "factory", "count": 1} in data["units"]
    assert {"where": "61 Sea Zone", "power": "Japan", "unit": "infantry", "count": 3} in data["units"]
    code, out, _ = run(capsys, "setup", "1942", "--json")
    assert json.loads(out)["powers"]["Germany"] == {"ipcs": 37, "income": 37}


def test_text_forms_and_player_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map")
    assert code == 0 and out.splitlines()[-1] == "97 territories, 65 sea zones, 407 connections."
    code, out, _ = run(capsys, "setup", "1942")
    assert code == 0 and out.startswith("Set-up 1942; turn order: Japan, Soviet Union, Germany")
    code, out, err = run(capsys, "setup", "1943")
    assert code == 2 and out == "" and err == "error: There is no set-up '1943'. Legal: 1941, 1942.\n"
