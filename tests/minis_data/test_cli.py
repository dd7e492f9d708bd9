"""``warroom minis units|maps|los`` through bot.cli.main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["minis", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_units_json_lists_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "units", "--json")
    data = json.loads(out)
    assert code == 0 and data["cost_set"] == "revised" and data["cost_fallbacks"] == []
    assert len(data["units"]) == 37
    lee = next(u for u in data["units"] if u["key"] == "m3-lee")
    assert (lee["name"], lee["nation"], lee["side"], lee["type"], lee["subtype"]) == (
        "M3 Lee", "USA", "allies", "Vehicle", "Tank")
    assert (lee["year"], lee["cost"], lee["speed"], lee["defense"]) == (1942, 32, 3, [5, 4])
    assert (lee["vs_soldier"], lee["vs_vehicle"]) == ([9, 9, 7], [9, 7, 5])
    assert [a["name"] for a in lee["abilities"]] == [
        "Strike and Fade", "Tall Silhouette", "Additional Hull-Mounted Cannon"]
    assert lee["abilities"][2]["vs_vehicle"] == [12, 10, 8]


def test_units_filters_and_2005_costs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "units", "--json", "--cost-set", "2005", "--side", "axis",
                       "--nation", "germany")
    data = json.loads(out)
    assert code == 0 and data["cost_set"] == "2005"
    assert {u["nation"] for u in data["units"]} == {"Germany"} and len(data["units"]) == 11
    costs = {u["key"]: u["cost"] for u in data["units"]}
    assert costs["panzer-iv-ausf-g"] == 30 and costs["tiger-i"] == 56
    assert set(data["cost_fallbacks"]) == {"sig-33", "tiger-i", "hummel"}


def test_units_table_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "units", "--nation", "USSR")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].split() == ["Name", "Nation", "Side", "Type", "Year", "Cost", "Spd", "Def",
                                "vs", "Soldier", "vs", "Vehicle", "Abilities"]
    kv1 = next(line for line in lines if line.startswith("KV-1"))
    assert kv1.split()[:10] == ["KV-1", "USSR", "allies", "Vehicle-Tank", "1941", "32", "3",
                                "6/6", "9/9/7", "13/11/10"]
    assert kv1.endswith("Exposed Transport, Heavy Armor")
    commissar = next(line for line in lines if line.startswith("Commissar"))
    assert "Initiative +1, Close Assault 6, Bravery Enforcement" in commissar
    assert lines[-1] == "4 units, revised costs."


def test_units_2005_table_marks_fallback_costs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "units", "--cost-set", "2005", "--nation", "USSR")
    assert code == 0
    kv1 = next(line for line in out.splitlines() if line.startswith("KV-1"))
    assert kv1.split()[5] == "32*"
    assert "* 2005 cost unknown: the revised cost is shown." in out


def test_units_with_league_cards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    card = {"key": "stug-iii", "name": "StuG III", "nation": "Germany", "side": "axis",
            "type": "Vehicle", "subtype": "Assault Gun", "year": 1940, "cost": 14, "speed": 3,
            "defense": [5, 3], "vs_soldier": [8, 7, 5], "vs_vehicle": [12, 10, 8]}
    path = tmp_path / "league.json"
    path.write_text(json.dumps({"cards": [card]}), encoding="utf-8")
    code, out, _ = run(capsys, "units", "--json", "--cards", str(path), "--nation", "Germany")
    assert code == 0 and [u["key"] for u in json.loads(out)["units"]][-1] == "stug-iii"
    path.write_text(json.dumps({"cards": [dict(card, speed=-1)]}), encoding="utf-8")
    code, out, err = run(capsys, "units", "--cards", str(path))
    assert code == 2 and out == ""
    assert err.startswith("error: custom cards, card #1: card 'stug-iii', field 'speed'")


def test_units_unknown_nation_is_a_player_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "units", "--nation", "Atlantis")
    assert code == 2 and out == ""
    assert err == ("error: No unit of the nation 'Atlantis'. Legal: China, France, Germany, "
                   "Italy, Japan, UK, USA, USSR.\n")


def test_maps_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "maps", "--json")
    data = json.loads(out)
    assert code == 0 and data["size"] == {"cols": 19, "rows": 16}
    assert [f["name"] for f in data["faces"]] == [
        "Able-1", "Able-2", "Baker-1", "Baker-2", "Charlie-1", "Charlie-2", "Dog-1", "Dog-2"]
    assert data["configurations"][4] == {
        "number": 5, "name": "Hill 107", "top_left": "Charlie-2", "top_right": "Dog-2",
        "bottom_left": "Baker-2", "bottom_right": "Able-2", "objective": "I7"}
    assert [c["objective"] for c in data["configurations"]] == ["J8", "K4", "K4", "K5", "I7", "J9"]


def test_maps_table_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "maps")
    assert code == 0
    assert "  6  Tiger Country  Baker-1 Able-1 / Charlie-2 Dog-2   objective J9" in out
    assert "  Charlie-1  Woods with a small town on the west side" in out
    code, out, _ = run(capsys, "maps", "--show", "4")
    assert code == 0 and out.startswith("map Town Fight\ngrid\n")
    code, out, _ = run(capsys, "maps", "--show", "baker 2")
    assert code == 0 and out.startswith("map Baker-2\n")


LOS_MAP = """\
map Test Ridge
grid
. . . . . . . . . . . .
. . . . . . F . . . . .
. . . . . . . . . . . .
end
"""


def test_los_json_on_a_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "los", "--map", "3", "--from", "F7", "--to", "M3", "--json")
    assert code == 0
    assert json.loads(out) == {"clear": False, "distance": 8, "blocked_by": ["K4", "L3"]}
    code, out, _ = run(capsys, "los", "--map", "6", "--from", "a13", "--to", "S13", "--json")
    assert json.loads(out) == {"clear": True, "distance": 18, "blocked_by": []}


def test_los_on_a_map_file_and_as_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ridge.map"
    path.write_text(LOS_MAP, encoding="utf-8")
    code, out, _ = run(capsys, "los", "--map", str(path), "--from", "A2", "--to", "K2")
    assert code == 0
    assert out == "A2 -> K2 on Test Ridge: blocked by G2 (distance 10).\n"
    code, out, _ = run(capsys, "los", "--map", str(path), "--from", "A1", "--to", "K1")
    assert out == "A1 -> K1 on Test Ridge: clear (distance 10).\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--map", "7", "--from", "A1", "--to", "B1"],
         "error: There is no map configuration 7. Legal: 1, 2, 3, 4, 5, 6."),
        (["--map", "3", "--from", "F7", "--to", "Z9"],
         "error: Z9 is not on the map Highland. Legal: A1 … S16."),
        (["--map", "3", "--from", "7F", "--to", "A1"], "error: '7F' is not a hex label"),
        (["--map", "missing.map", "--from", "A1", "--to", "B1"], "error: Cannot read 'missing.map'"),
        (["--map", "Easy", "--from", "A1", "--to", "B1"], "error: There is no map 'Easy'."),
    ],
)
def test_los_player_errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "los", *argv)
    assert code == 2 and out == ""
    assert err.startswith(message)


def test_los_invalid_map_file_names_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.map"
    path.write_text(LOS_MAP.replace(". . . . . . F", ". . . . . . Q"), encoding="utf-8")
    code, out, err = run(capsys, "los", "--map", str(path), "--from", "A1", "--to", "B1")
    assert code == 2
    assert err.startswith("error: bad.map line 4: 'Q' at G2 is not a terrain letter.")


def test_minis_without_a_lookup_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 2 and "units" in out and "maps" in out and "los" in out
