"""Army notation, unit names and the packaged unit data (A-14, A-7)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engine.core.errors import DataError, NotationError, UnknownName
from engine.odds.aa import AABattle
from engine.odds.aa_units import (
    catalogue, format_army, load_catalogue, parse_army, parse_techs, parse_unit_list,
)  # fmt: skip


def test_issue_aliases_all_resolve() -> None:
    pairs = {
        "inf": "infantry", "infantry": "infantry", "art": "artillery", "artillery": "artillery",
        "tank": "tank", "arm": "tank", "armor": "tank", "aa": "aa gun", "aagun": "aa gun",
        "fig": "fighter", "fighter": "fighter", "bom": "bomber", "bomber": "bomber",
        "sub": "submarine", "submarine": "submarine", "tra": "transport", "transport": "transport",
        "des": "destroyer", "destroyer": "destroyer", "cru": "cruiser", "cruiser": "cruiser",
        "car": "carrier", "carrier": "carrier", "bat": "battleship", "battleship": "battleship",
    }  # fmt: skip
    cat = catalogue()
    for word, name in pairs.items():
        assert cat.resolve(word) == name
        assert cat.resolve(word.upper()) == name


def test_abbreviations_players_write_resolve() -> None:
    assert parse_army("3 ftr, 2 bmr, 1 bomb, 3 ss, 1 trans, 1 aaa, 2 dd, 1 cv, 1 bb, 1 arty") == {
        "artillery": 1, "aa gun": 1, "fighter": 3, "bomber": 3, "submarine": 3, "transport": 1, "destroyer": 2,
        "carrier": 1, "battleship": 1}  # fmt: skip


def test_an_unknown_unit_lists_the_units_of_every_rules_set_first() -> None:
    with pytest.raises(UnknownName) as err:
        parse_army("2 mech")
    legal = list(err.value.legal)
    assert legal[:13] == ["inf", "art", "tank", "aa", "fig", "bom", "sub", "tra", "des", "cru", "car", "bat", "dbat"]
    assert legal[13:] == ["sherman", "t-34", "tiger"]  # the Global-1940 house rules' own (G-7)


def test_profiles_match_a_14() -> None:
    cat = catalogue()
    table = {  # cost, attack, defence
        "infantry": (3, 1, 2), "artillery": (4, 2, 2), "tank": (5, 3, 3), "aa gun": (6, 0, 0),
        "fighter": (10, 3, 4), "bomber": (12, 4, 1), "battleship": (20, 4, 4),
        "carrier": (14, 1, 2), "cruiser": (12, 3, 3), "destroyer": (8, 2, 2),
        "submarine": (6, 2, 1), "transport": (7, 0, 0),
    }  # fmt: skip
    for name, (cost, att, dfn) in table.items():
        p = cat.profile(name)
        assert (p.cost, p.attack, p.defense) == (cost, att, dfn)
    assert cat.profile("battleship").hits == 2
    assert cat.profile("infantry").supported_attack == 2 and cat.profile("artillery").supports == 1


def test_parse_army_forms() -> None:
    assert parse_army("3 inf, 1 art, 2 tank, 1 fighter") == {
        "infantry": 3, "artillery": 1, "tank": 2, "fighter": 1}  # fmt: skip
    assert parse_army("3x inf + tanks 2; bb, 2 AA guns, aa gun:1, inf") == {
        "infantry": 4, "tank": 2, "aa gun": 3, "battleship": 1}  # fmt: skip
    assert parse_army("") == {}
    assert parse_army("0 inf, 1 tank") == {"tank": 1}


def test_parse_army_errors_say_what_is_legal() -> None:
    with pytest.raises(UnknownName) as err:
        parse_army("3 foo")
    assert "foo" in err.value.message and "inf" in err.value.legal
    # A multiplier "x" belongs to a number before it: "xyz" is one unknown name, not "yz".
    with pytest.raises(UnknownName) as err:
        parse_army("xyz 2")
    assert "'xyz'" in err.value.message
    with pytest.raises(NotationError):
        parse_army("3 inf 2")


armies = st.dictionaries(st.sampled_from(catalogue().order), st.integers(1, 30), max_size=6)


@given(armies)
def test_format_parse_round_trip(army: dict[str, int]) -> None:
    text = format_army(army)
    assert parse_army(text) == {n: army[n] for n in catalogue().order if n in army}


def test_order_of_loss_list() -> None:
    assert parse_unit_list("inf,art,tank,fighter") == ("infantry", "artillery", "tank", "fighter")
    assert parse_unit_list("aa gun, bat") == ("aa gun", "battleship")
    assert parse_unit_list("inf art") == ("infantry", "artillery")
    assert parse_unit_list("") == ()
    with pytest.raises(NotationError) as err:
        parse_unit_list("inf, tank, infantry, fighter")
    assert err.value.message == "'infantry' appears twice in the order of loss: list each unit type once."
    assert err.value.legal == ('/odds aa … ool_attacker:"inf,tank,fig"',)  # the list without the repeat
    with pytest.raises(NotationError) as err:
        AABattle.parse("3 inf", "3 inf, 1 art", ool_defender="art, art")
    assert err.value.legal == ('/odds aa … ool_defender:"art"',)


def test_technologies_change_profiles_a_7() -> None:
    cat = catalogue()
    profiles = cat.with_techs(parse_techs("jets, heavy bombers, super subs, radar, adv art"))
    assert profiles["fighter"].attack == 4
    assert profiles["bomber"].attack_dice == 2
    assert profiles["submarine"].attack == 3 and profiles["submarine"].defense == 1
    assert profiles["aa gun"].aa_hit == 2
    assert profiles["artillery"].supports == 2
    assert cat.with_techs(parse_techs("shipyards"))["battleship"].cost == 17
    with pytest.raises(UnknownName):
        parse_techs("death ray")


def test_bad_unit_files_are_refused() -> None:
    with pytest.raises(DataError):
        load_catalogue("{not json")
    with pytest.raises(DataError):
        load_catalogue('{"units": [{"name": "x", "short": "x", "cost": 1, "attack": 1, '
                       '"defense": 1, "domain": "space"}]}')  # fmt: skip
    with pytest.raises(DataError):
        load_catalogue('{"units": [], "technologies": [{"name": "t", "changes": {"ghost": {"attack": 1}}}]}')
