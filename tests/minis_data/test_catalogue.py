"""The unit catalogue (engine/minis/data/units.json) against the unit table of
../shared/data/minis/unit-facts.md, the 2005 cost set, look-ups and custom cards."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from engine.core.errors import DataError, UnknownName
from engine.minis.catalogue import (
    ATTACK_ABILITIES,
    KNOWN_ABILITIES,
    NUMBERED_ABILITIES,
    Catalogue,
    card_from_dict,
    card_to_dict,
    load_catalogue,
    load_custom_cards,
)
from engine.minis.model import ALLIES, AXIS, UnitType

# One line per unit of the table, typed from unit-facts.md §1 (revised values):
# name | nation | type/subtype | cost | cost 2005 | year | speed | defense | vs S | vs V |
# abilities | initiative
TABLE = """
M4A1 Sherman|USA|Vehicle/Tank|21|21|1942|4|5/4|9/9/7|13/11/9||0
6-Pounder Antitank Gun|UK|Soldier/Artillery|7|9|1942|0|3/3|3/3/3|11/9/8|Relocate 2|0
Panzer IV Ausf. G|Germany|Vehicle/Tank|23|30|1942|3|5/3|7/7/6|15/13/11|Extended Range 10, Sideskirts|0
PAK 38 Antitank Gun|Germany|Soldier/Artillery|8|10|1941|0|3/3|3/3/3|11/9/7|Relocate 2, Seasoned Crew|0
"Red Devil" Captain|USA|Soldier/Commander|7|7|1942|1|4/4|8/6/-|2/-/-|Close Assault 7, Pinpointer|2
SS-Hauptsturmführer|Germany|Soldier/Commander|7|7|1939|1|4/4|6/-/-|2/-/-|Fanatic, Exert Will|3
M1 Garand Rifle|USA|Soldier/|4|4|1942|1|4/4|8/7/-|2/-/-|Close Assault 7, Coordinated Fire|0
Bazooka|USA|Soldier/|4|4|1942|1|4/4|4/-/-|9/4/-|Close Assault 10|0
Vickers Machine-Gun Team|UK|Soldier/|8|8|1940|1|4/4|9/8/6|3/3/2|Double Shot|0
Mauser Kar 98k|Germany|Soldier/|3|3|1939|1|4/4|8/6/-|2/-/-|Close Assault 6|0
MG 42 Machine-Gun Team|Germany|Soldier/|10|10|1942|1|4/4|10/8/7|3/3/2|Double Shot, Suppressive Fire|0
KV-1|USSR|Vehicle/Tank|32|-|1941|3|6/6|9/9/7|13/11/10|Exposed Transport, Heavy Armor|0
M3 Stuart|UK|Vehicle/Tank|15|-|1941|5|4/3|8/8/6|9/7/5|All Guns Blazing|0
sIG 33|Germany|Vehicle/Assault Gun|15|-|1940|3|2/2|9/9/7|8/6/4|Fixed Howitzer, Enhanced Range 16, Blast, Bombardment, Open Back|0
Type 95 Ha-Go|Japan|Vehicle/Tank|8|-|1939|4|2/2|7/7/6|8/7/5|Weak Suspension, Forest Camouflage|0
T-34/76|USSR|Vehicle/Tank|28|-|1941|4|5/5|7/7/6|13/11/10|Exposed Transport, Superior Armor 2|0
Sd Kfz 251|Germany|Vehicle/Half-Track|7|14|1939|4|2/2|8/7/6|2/2/2|Gun Transport, High Gear 2, Fighting Platform|0
Sd Kfz 222|Germany|Vehicle/Armored Car|6|8|1939|5|2/2|7/6/4|4/3/2|High Gear 2, Strike and Fade 2|0
Inspiring Lieutenant|UK|Soldier/Commander|10|10|1940|1|4/4|8/6/-|2/-/-|Close Assault 7, Tally-Ho!|2
Commissar|USSR|Soldier/Commander|5|-|1939|1|4/4|5/-/-|2/-/-|Close Assault 6, Bravery Enforcement|1
Royal Engineers|UK|Soldier/|8|10|1940|1|4/4|6/4/-|2/-/-|Close Assault 16, Bridge Demolition|0
Churchill Crocodile|UK|Vehicle/Tank|35|35|1944|2|7/6|10/5/4|13/11/9|Superior Armor 2, Hull-Mounted Flamethrower|0
Renault R-35|France|Vehicle/Tank|9|9|1940|2|4/4|6/6/4|8/7/5|Trench Crossing|0
MAS 7.5mm Rifle|France|Soldier/|3|3|1940|1|4/4|8/6/-|2/-/-|Close Assault 6|0
SS-Panzergrenadier|Germany|Soldier/|7|5|1940|1|5/5|10/8/-|2/-/-|Close Assault 7, Ruthless|0
Fucile Modello 1891|Italy|Soldier/|3|3|1940|1|4/4|8/6/-|2/-/-|Close Assault 6|0
Type 89 Mortar|Japan|Soldier/|9|9|1939|1|3/3|3/7/7|-/4/4|Inaccurate 1, Shrapnel 2, Seasoned Crew|0
Mosin-Nagant 1891/30|USSR|Soldier/|3|-|1939|1|4/4|8/6/-|2/-/-|Close Assault 8, Command Dependent|0
M3 Lee|USA|Vehicle/Tank|32|-|1942|3|5/4|9/9/7|9/7/5|Strike and Fade 1, Tall Silhouette, Additional Hull-Mounted Cannon|0
M4A3E8 Sherman "Easy Eight"|USA|Vehicle/Tank|34|54|1944|4|5/4|7/7/6|14/12/10|Exposed Transport, Excellent Suspension, Armor-Piercing Rounds, Superior Armor 2|0
Tiger I|Germany|Vehicle/Tank|56|-|1942|3|7/6|7/7/6|17/15/12|Overrun, Extended Range 10, Heavy Armor|0
Carro Armato M13/40|Italy|Vehicle/Tank|12|-|1940|3|4/3|8/8/6|10/8/6|Overlapping Fire, Highly Flammable|0
Imperial Sergeant|Japan|Soldier/Commander|9|-|1939|1|4/4|6/-/-|2/-/-|Hand to Hand 10, Banzai Charge|2
Thompson Gunner|USA|Soldier/|4|-|1941|1|4/4|10/8/-|2/-/-|Limited Range 2, Gung Ho, Close Assault 7|0
Hummel|Germany|Vehicle/Artillery|30|-|1943|3|3/3|10/10/9|12/10/9|Fixed Howitzer, Enhanced Range 16, Bombardment, Blast, Indirect Fire|0
3-Inch Mortar|UK|Soldier/Artillery|11|-|1940|0|3/3|3/8/8|-/6/5|Enhanced Range 16, Inaccurate 1, Shrapnel 2, Relocate 2, Indirect Fire|0
Kuomintang MG Team|China|Soldier/|6|-|1939|1|4/4|8/7/6|2/2/2|Double Shot, Overheat|0
"""
ROWS = [line.split("|") for line in TABLE.strip().splitlines()]


def _attack_text(a: tuple[int | None, int | None, int | None]) -> str:
    return "/".join("-" if x is None else str(x) for x in a)


def test_catalogue_holds_exactly_the_37_units_of_the_table() -> None:
    cat = load_catalogue()
    assert len(ROWS) == 37
    assert len(cat) == 37
    assert sorted(c.name for c in cat.values()) == sorted(r[0] for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_card_stats_match_the_table(row: list[str]) -> None:
    name, nation, typ, cost, cost05, year, speed, dfn, vs_s, vs_v, abilities, init = row
    card = next(c for c in load_catalogue().values() if c.name == name)
    t, sub = typ.split("/")
    assert card.nation == nation
    assert (card.type.value, card.subtype or "") == (t, sub)
    assert card.cost == int(cost)
    assert card.cost_2005 == (None if cost05 == "-" else int(cost05))
    assert card.year == int(year)
    assert card.speed == int(speed)
    assert f"{card.defense_front}/{card.defense_rear}" == dfn
    assert _attack_text(card.vs_soldier) == vs_s
    assert _attack_text(card.vs_vehicle) == vs_v
    assert [str(a) for a in card.abilities] == [a for a in abilities.split(", ") if a]
    assert card.initiative == int(init)
    assert card.is_commander == (int(init) > 0)


def test_sides_follow_nations_m1_4() -> None:
    cat = load_catalogue()
    axis = {c.nation for c in cat.side(AXIS)}
    allies = {c.nation for c in cat.side(ALLIES)}
    assert axis == {"Germany", "Italy", "Japan"}
    assert allies == {"USA", "UK", "USSR", "France", "China"}
    assert len(cat.side(AXIS)) + len(cat.side(ALLIES)) == 37


def test_every_ability_is_canonical_numbered_right_and_paraphrased() -> None:
    for card in load_catalogue().values():
        for a in card.abilities:
            assert a.name in KNOWN_ABILITIES, (card.key, a.name)
            assert (a.value is not None) == (a.name in NUMBERED_ABILITIES), (card.key, a.name)
            assert 10 <= len(a.text) <= 200 and "\n" not in a.text, (card.key, a.name)
            if a.value is not None:
                assert str(a.value) in a.text, (card.key, a.name)


def test_known_abilities_are_unique_and_cover_the_commander_effects() -> None:
    assert len(set(KNOWN_ABILITIES)) == len(KNOWN_ABILITIES) == 50
    used = {a.name for c in load_catalogue().values() for a in c.abilities}
    # Transport (2005 KV-1/T-34) and Urban Combat (2005 MAS) are on no revised card.
    assert set(KNOWN_ABILITIES) - used == {"Transport", "Urban Combat"}


def test_additional_hull_mounted_cannon_carries_its_own_12_10_8() -> None:
    lee = load_catalogue()["m3-lee"]
    cannon = lee.ability("Additional Hull-Mounted Cannon")
    assert cannon is not None
    assert cannon.vs_vehicle == (12, 10, 8) and cannon.vs_soldier is None
    others = [a for c in load_catalogue().values() for a in c.abilities
              if a.name not in ATTACK_ABILITIES]
    assert all(a.vs_soldier is None and a.vs_vehicle is None for a in others)


def test_short_names_fit_a_token_and_keys_are_slugs() -> None:
    cat = load_catalogue()
    shorts = [c.short_name for c in cat.values()]
    assert all(1 <= len(s) <= 12 for s in shorts)
    assert len(set(shorts)) == 37
    assert cat["ss-hauptsturmfuhrer"].name == "SS-Hauptsturmführer"
    assert cat["m4a3e8-sherman-easy-eight"].short_name == "Easy Eight"


def test_transports_and_commanders() -> None:
    cat = load_catalogue()
    transports = {c.key for c in cat.values()
                  if c.has("Exposed Transport") or c.has("Gun Transport") or c.has("Transport")}
    assert transports == {"kv-1", "t-34-76", "sd-kfz-251", "m4a3e8-sherman-easy-eight"}
    commanders = {c.key: c.initiative for c in cat.values() if c.is_commander}
    assert commanders == {"red-devil-captain": 2, "ss-hauptsturmfuhrer": 3,
                          "inspiring-lieutenant": 2, "commissar": 1, "imperial-sergeant": 2}


def test_notes_keep_the_provenance_and_unconfirmed_remarks() -> None:
    cat = load_catalogue()
    assert all(c.notes.startswith("aamcardbase ") for c in cat.values())
    assert "UNCONFIRMED" in cat["tiger-i"].notes
    assert "swapped" in cat["m3-stuart"].notes
    assert "Urban Combat" in cat["mas-7-5mm-rifle"].notes


# ------------------------------------------------------------------ cost sets


def test_2005_cost_set_uses_printed_costs_and_says_where_it_falls_back() -> None:
    revised, old = load_catalogue(), load_catalogue("2005")
    assert old.cost_set == "2005" and revised.cost_set == "revised"
    assert old["panzer-iv-ausf-g"].cost == 30 and revised["panzer-iv-ausf-g"].cost == 23
    assert old["m4a3e8-sherman-easy-eight"].cost == 54
    assert old["sd-kfz-251"].cost == 14
    assert old["ss-panzergrenadier"].cost == 5
    known = [c for c in revised.values() if c.cost_2005 is not None]
    assert len(known) == 22
    assert set(old.cost_fallbacks) == {c.key for c in revised.values() if c.cost_2005 is None}
    assert len(old.cost_fallbacks) == 15
    assert old["tiger-i"].cost == 56
    assert "2005 cost unknown: the revised cost is used." in old["tiger-i"].notes
    assert "2005 cost unknown" not in old["panzer-iv-ausf-g"].notes
    assert revised.cost_fallbacks == ()


def test_load_catalogue_is_cached_and_rejects_unknown_cost_sets() -> None:
    assert load_catalogue() is load_catalogue("revised")
    with pytest.raises(UnknownName) as e:
        load_catalogue("2010")
    assert e.value.legal == ("revised", "2005")


def test_catalogue_is_an_immutable_mapping() -> None:
    cat = load_catalogue()
    assert "kv-1" in cat and cat.get("nope") is None
    assert list(cat)[0] == "m4a1-sherman"
    with pytest.raises(TypeError):
        cat["kv-1"] = cat["kv-1"]  # type: ignore[index]


# ------------------------------------------------------------------ find


@pytest.mark.parametrize(
    "query, key",
    [
        ("kv-1", "kv-1"),
        ("KV1", "kv-1"),
        ("M4A1 Sherman", "m4a1-sherman"),
        ("m4a1 sherman", "m4a1-sherman"),
        ("easy eight", "m4a3e8-sherman-easy-eight"),
        ("garand", "m1-garand-rifle"),
        ("Red Devil", "red-devil-captain"),
        ('"red devil" captain', "red-devil-captain"),
        ("ss hauptsturmführer", "ss-hauptsturmfuhrer"),
        ("SS-Hauptsturmfuhrer", "ss-hauptsturmfuhrer"),
        ("t34", "t-34-76"),
        ("tiger", "tiger-i"),
        ("sdkfz 222", "sd-kfz-222"),
        ("pak", "pak-38-antitank-gun"),
        ("3-inch", "3-inch-mortar"),
        ("kuomintang", "kuomintang-mg-team"),
        ("mg team kuomintang", "kuomintang-mg-team"),
    ],
)
def test_find_is_tolerant_of_case_punctuation_and_partial_names(query: str, key: str) -> None:
    assert load_catalogue().find(query).key == key


def test_find_ambiguous_names_list_the_candidates() -> None:
    with pytest.raises(UnknownName) as e:
        load_catalogue().find("sherman")
    assert set(e.value.legal) == {"M4A1 Sherman", 'M4A3E8 Sherman "Easy Eight"'}
    assert "several" in e.value.message


def test_find_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(UnknownName) as e:
        load_catalogue().find("Comisar")
    assert e.value.legal[0] == "Commissar"
    with pytest.raises(UnknownName) as e2:
        load_catalogue().find("   ")
    assert len(e2.value.legal) == 37


# ------------------------------------------------------------------ file format


def _raw_cards() -> list[dict[str, Any]]:
    from importlib import resources

    text = resources.files("engine.minis").joinpath("data/units.json").read_text("utf-8")
    cards: list[dict[str, Any]] = json.loads(text)["cards"]
    return cards


def test_units_json_is_in_canonical_form() -> None:
    """card_to_dict reproduces every object of the file exactly (field order too)."""
    cat = load_catalogue()
    for raw in _raw_cards():
        assert card_to_dict(cat[raw["key"]]) == raw
        assert list(card_to_dict(cat[raw["key"]])) == list(raw)


def test_card_round_trip_through_dict() -> None:
    for card in load_catalogue().values():
        assert card_from_dict(card_to_dict(card)) == card


attack = st.lists(st.one_of(st.none(), st.integers(1, 40)), min_size=3, max_size=3)


@st.composite
def card_dicts(draw: st.DrawFn) -> dict[str, Any]:
    vehicle = draw(st.booleans())
    commander = not vehicle and draw(st.booleans())
    names = st.sampled_from(
        [n for n in KNOWN_ABILITIES if n not in ATTACK_ABILITIES
         and (commander or n not in {"Bravery Enforcement", "Tally-Ho!", "Pinpointer",
                                     "Exert Will", "Banzai Charge"})]
    )
    abilities = []
    for name in draw(st.lists(names, max_size=4, unique=True)):
        a: dict[str, Any] = {"name": name}
        if name in NUMBERED_ABILITIES:
            a["value"] = draw(st.integers(1, 40))
        a["text"] = draw(st.text(max_size=40))
        abilities.append(a)
    d: dict[str, Any] = {
        "key": draw(st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True)),
        "name": draw(st.text(min_size=1, max_size=30).filter(lambda s: bool(s.strip()))),
        "short_name": draw(st.text(min_size=1, max_size=12).filter(lambda s: bool(s.strip()))),
        "nation": "Germany",
        "side": AXIS,
        "type": "Vehicle" if vehicle else "Soldier",
        "subtype": "Tank" if vehicle else ("Commander" if commander else None),
        "year": draw(st.integers(1930, 1950)),
        "cost": draw(st.integers(0, 999)),
        "cost_2005": draw(st.one_of(st.none(), st.integers(0, 999))),
        "speed": draw(st.integers(0, 12)),
        "defense": draw(st.lists(st.integers(1, 20), min_size=2, max_size=2)),
        "vs_soldier": draw(attack),
        "vs_vehicle": draw(attack),
        "abilities": abilities,
    }
    if commander:
        d["initiative"] = draw(st.integers(1, 6))
    d["notes"] = draw(st.text(max_size=30))
    return d


@given(card_dicts())
@settings(max_examples=150)
def test_any_valid_card_dict_round_trips_exactly(d: dict[str, Any]) -> None:
    card = card_from_dict(d)
    assert card_to_dict(card) == d
    assert card.type is (UnitType.VEHICLE if d["type"] == "Vehicle" else UnitType.SOLDIER)


# ------------------------------------------------------------------ custom cards

GOOD_CARD: dict[str, Any] = {
    "key": "panzer-38t",
    "name": "Panzer 38(t)",
    "nation": "Germany",
    "side": "axis",
    "type": "Vehicle",
    "subtype": "Tank",
    "year": 1939,
    "cost": 10,
    "speed": 4,
    "defense": [3, 3],
    "vs_soldier": [7, 6, 4],
    "vs_vehicle": [9, 7, 5],
    "abilities": [{"name": "Close Assault", "value": 5}, {"name": "Relocate", "value": 3,
                                                          "text": "Our own words."}],
}


def _doc(*cards: dict[str, Any]) -> str:
    return json.dumps({"format": "warroom-minis-units", "version": 1, "cards": list(cards)})


def test_custom_cards_load_on_top_of_the_catalogue() -> None:
    base = load_catalogue()
    cat = load_custom_cards(_doc(GOOD_CARD), base=base)
    assert len(cat) == 38 and isinstance(cat, Catalogue)
    card = cat.find("38(t)")
    assert card.key == "panzer-38t" and card.short_name == "Panzer 38(t)"
    assert card.cost_2005 is None and card.initiative == 0 and card.notes == ""
    # a missing ability text takes the catalogue's wording with this card's number
    assert card.abilities[0].text.startswith("Against a Vehicle in its own hex it may roll 5 dice")
    assert card.abilities[1].text == "Our own words."
    assert cat["kv-1"] is base["kv-1"]
    alone = load_custom_cards(_doc(GOOD_CARD))
    assert list(alone) == ["panzer-38t"] and alone.cost_set == "custom"


def _bad(path: str, value: Any) -> dict[str, Any]:
    card = copy.deepcopy(GOOD_CARD)
    target: Any = card
    parts = path.split(".")
    for p in parts[:-1]:
        target = target[int(p)] if p.isdigit() else target[p]
    last = parts[-1]
    if value is KeyError:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return card


@pytest.mark.parametrize(
    "path, value, message, legal_part",
    [
        ("key", "Panzer 38t", "field 'key'", "lower-case letters"),
        ("name", KeyError, "card 'panzer-38t', field 'name': missing", "name"),
        ("name", "", "field 'name'", "non-empty"),
        ("short_name", "Panzerkampfwagen", "field 'short_name'", "at most 12"),
        ("side", "neutral", "field 'side'", "axis"),
        ("side", "allies", "Germany fights for the axis", "axis"),
        ("type", "Aircraft", "field 'type'", "Soldier"),
        ("subtype", "Commander", "is not a Vehicle subtype", "Tank Destroyer"),
        ("year", 1955, "field 'year'", "from 1930 to 1950"),
        ("year", "1939", "field 'year'", "whole number"),
        ("cost", -1, "field 'cost'", "from 0 to 999"),
        ("speed", 2.5, "field 'speed'", "from 0 to 12"),
        ("defense", [3], "field 'defense'", "[front, rear]"),
        ("vs_soldier", [7, 6], "field 'vs_soldier'", "3 entries"),
        ("vs_vehicle", [9, 0, 5], "write null", "null"),
        ("initiative", 2, "only a Commander", "Commander"),
        ("abilities.0.name", "Close Asault", "not a known ability", "Close Assault"),
        ("abilities.0.value", KeyError, "needs a number", "whole number"),
        ("abilities.1", {"name": "Blast", "value": 2}, "takes no number", "Close Assault"),
        ("abilities.1", {"name": "Pinpointer"}, "needs subtype 'Commander'", ""),
        ("abilities.1", {"name": "Additional Hull-Mounted Cannon"}, "own attack numbers",
         "vs_vehicle"),
        ("abilities.1", {"name": "Blast", "vs_vehicle": [1, 1, 1]},
         "does not attack with dice of its own", "Additional Hull-Mounted Cannon"),
        ("abilities.1", {"name": "Close Assault", "value": 3}, "listed twice", ""),
        ("abilities.1", {"name": "Blast", "txt": "x"}, "unknown field 'txt'", "text"),
        ("defence", [3, 3], "unknown field 'defence' (did you mean 'defense'?)", "defense"),
    ],
)
def test_bad_custom_cards_are_refused_precisely(
    path: str, value: Any, message: str, legal_part: str
) -> None:
    with pytest.raises(DataError) as e:
        load_custom_cards(_doc(_bad(path, value)))
    assert e.value.message.startswith("custom cards, card #1: ")
    assert message in e.value.message
    assert any(legal_part in item for item in e.value.legal) or not legal_part


def test_custom_card_key_clash_and_document_errors() -> None:
    clash = dict(GOOD_CARD, key="kv-1")
    with pytest.raises(DataError, match="key 'kv-1' is already used by 'KV-1'"):
        load_custom_cards(_doc(clash), base=load_catalogue())
    with pytest.raises(DataError, match="defined twice"):
        load_custom_cards(_doc(GOOD_CARD, GOOD_CARD))
    with pytest.raises(DataError, match=r"not valid JSON at line 1, column 2"):
        load_custom_cards("{nope")
    with pytest.raises(DataError, match="'cards' list"):
        load_custom_cards("[]")
    with pytest.raises(DataError, match="non-empty list"):
        load_custom_cards(_doc())
    with pytest.raises(DataError, match="'format' must be"):
        load_custom_cards(json.dumps({"format": "other", "cards": [GOOD_CARD]}))
    with pytest.raises(DataError, match="unsupported version 2"):
        load_custom_cards(json.dumps({"version": 2, "cards": [GOOD_CARD]}))
    with pytest.raises(DataError, match="card #2: .*must be a JSON object"):
        load_custom_cards(_doc(GOOD_CARD, 5))  # type: ignore[arg-type]
