"""A-2 board, A-3 victory cities, A-4 set-ups: the data files and their validation."""

from __future__ import annotations

import copy
import json

import pytest

from engine.aa.board import Board, board, read_data
from engine.aa.setup import load_setup, load_setup_data, starting_income
from engine.aa.state import CHINA
from engine.aa.units import INFANTRY, TRANSPORT
from engine.core.errors import DataError, UnknownName

from .helpers import fresh


def test_a2_1_the_board_has_97_territories_65_zones_and_407_links() -> None:
    b = board()
    lands = [n for n in b.names if b.is_land(n)]
    seas = [n for n in b.names if b.is_sea(n)]
    assert (len(lands), len(seas), len(b.connections)) == (97, 65, 407)
    assert sum(1 for n in lands if b.space(n).neutral) == 15
    assert [b.space(z).number for z in seas] == list(range(1, 66))


def test_a2_1_adjacency_is_symmetric_and_data_ordered() -> None:
    b = board()
    for a, near in b.adj.items():
        for c in near:
            assert a in b.adj[c]
    assert set(b.adj["Germany"]) == {"Balkans", "Czechoslovakia Hungary", "France", "Northwestern Europe", "Poland",
                                     "Switzerland", "5 Sea Zone"}
    assert list(b.adj["Germany"]) == sorted(b.adj["Germany"], key=b.order.__getitem__)


def test_a2_2_income_values_and_the_playable_territories_worth_nothing() -> None:
    b = board()
    zero = sorted(n for n in b.names if b.is_land(n) and not b.space(n).neutral and b.space(n).ipc == 0)
    assert zero == ["Caroline Islands", "Gibraltar", "Greenland", "Iceland", "Iwo Jima", "Midway",
                    "Solomon Islands", "Wake Island"]
    assert (b.space("Germany").ipc, b.space("Eastern United States").ipc, b.space("Russia").ipc) == (10, 12, 6)


def test_a2_4_neutrals_include_the_data_quirks_saudi_arabia_and_mongolia() -> None:
    b = board()
    assert b.space("Saudi Arabia").neutral and b.space("Mongolia").neutral
    assert b.space("Mongolia").capital_of is None and b.space("Saudi Arabia").original is None


def test_a2_7_wraparound_links_are_ordinary_connections() -> None:
    b = board()
    for a, c in (("20 Sea Zone", "55 Sea Zone"), ("21 Sea Zone", "44 Sea Zone"), ("25 Sea Zone", "43 Sea Zone"),
                 ("Central United States", "Eastern United States"), ("Western Canada", "Eastern Canada"),
                 ("Mexico", "Panama")):
        assert c in b.adj[a]


def test_a2_8_islands_and_a2_9_canals() -> None:
    b = board()
    assert b.space("Japan").island and b.space("United Kingdom").island and not b.space("Germany").island
    suez = b.canal("15 Sea Zone", "34 Sea Zone")
    panama = b.canal("20 Sea Zone", "19 Sea Zone")
    assert suez is not None and suez.requires == ("Egypt", "Trans-Jordan")
    assert panama is not None and panama.requires == ("Panama",)
    assert b.canal("15 Sea Zone", "16 Sea Zone") is None  # no strait rule at the Bosporus
    assert b.straits == () and b.convoy_zones == ()


def test_a2_12_original_controllers() -> None:
    b = board()
    assert b.space("Manchuria").original == CHINA and b.space("Kiangsu").original == CHINA
    assert b.space("Ukraine").original == "Soviet Union" and b.space("Borneo").original == "United Kingdom"
    assert b.space("Philippine Islands").original == "United States"


def test_names_resolve_every_accepted_way() -> None:
    b = board()
    assert b.resolve("sz5") == b.resolve("5") == b.resolve("Sea Zone 5") == b.resolve("5 sea zone") == "5 Sea Zone"
    assert b.resolve("berlin") == "Germany" and b.resolve("Leningrad") == "Karelia S.S.R."
    assert b.resolve("karelia ssr") == "Karelia S.S.R."
    with pytest.raises(UnknownName):
        b.resolve("Atlantis")


def test_a3_1_eighteen_victory_cities_and_the_start_counts() -> None:
    assert len(board().victory_cities()) == 18
    assert fresh("1941").victory_count() == {"axis": 6, "allies": 12}
    assert fresh("1942").victory_count() == {"axis": 8, "allies": 10}


def test_a4_2_starting_ipcs_equal_starting_income() -> None:
    s41, s42 = load_setup("1941"), load_setup("1942")
    assert s41.ipcs == {"Germany": 31, "Soviet Union": 30, "Japan": 17, "United Kingdom": 43, "Italy": 10,
                        "United States": 40, "China": 0}
    assert s42.ipcs["Germany"] == 37 and s42.ipcs["Japan"] == 31
    for s in (s41, s42):
        income = starting_income(s)
        assert all(income[p] == s.ipcs[p] for p in s.ipcs), income


def test_a4_4_1942_control_and_a4_5_factories() -> None:
    s = load_setup("1942")
    for t in ("Baltic States", "Belorussia", "East Poland", "Ukraine", "Eastern Ukraine"):
        assert s.control[t] == "Germany"
    for t in ("Borneo", "Burma", "East Indies", "Kwangtung", "New Guinea", "Philippine Islands",
              "Solomon Islands", "Wake Island"):
        assert s.control[t] == "Japan"
    for sc in ("1941", "1942"):
        assert sorted(load_setup(sc).factories) == sorted(
            ["Germany", "Italy", "Japan", "United Kingdom", "Eastern United States", "Western United States",
             "Russia", "Karelia S.S.R.", "Caucasus"])


def test_a4_6_setup_cargo_is_loaded_onto_transports_and_carriers() -> None:
    s = load_setup("1941")
    boats = [u for u in s.units if u.where == "61 Sea Zone" and u.kind == TRANSPORT]
    cargo = [u for u in s.units if u.where == "61 Sea Zone" and u.is_land]
    assert len(boats) == 2 and sorted(u.kind for u in cargo) == ["artillery", INFANTRY, INFANTRY, INFANTRY]
    assert all(u.aboard in {b.id for b in boats} for u in cargo)
    fighters = [u for u in s.units if u.where == "57 Sea Zone" and u.kind == "fighter"]
    assert len(fighters) == 4 and len({u.aboard for u in fighters}) == 2


def _raw(name: str) -> dict:  # type: ignore[type-arg]
    return copy.deepcopy(read_data(name))


def test_map_validation_refuses_a_duplicate_or_unknown_connection() -> None:
    raw = _raw("map.json")
    raw["connections"].append(["Poland", "Germany"])
    with pytest.raises(DataError, match="listed twice"):
        Board(raw)
    raw = _raw("map.json")
    raw["connections"].append(["Germany", "Atlantis"])
    with pytest.raises(DataError, match="unknown space"):
        Board(raw)


@pytest.mark.parametrize(("where", "unit", "count", "error"), [
    ("5 Sea Zone", "tank", 2, "no room aboard"),
    ("Germany", "battleship", 1, "ship"),
    ("Russia", "infantry", 1, "enemy-held"),
    ("Spain", "infantry", 1, "neutral"),
    ("1 Sea Zone", "bomber", 1, "only fighters"),
])
def test_setup_validation_refuses_units_that_cannot_stand_there(where: str, unit: str, count: int,
                                                                error: str) -> None:
    raw = _raw("setup_1941.json")
    raw["units"].append({"where": where, "power": "Germany", "unit": unit, "count": count})
    with pytest.raises(DataError, match=error):
        load_setup_data(raw)


def test_data_files_are_valid_json_written_by_us() -> None:
    for name in ("map.json", "setup_1941.json", "setup_1942.json", "objectives.json", "units.json"):
        data = read_data(name)
        assert "about" in data and json.dumps(data)
