"""E-3 set-up: the shipped scenarios, our scenario format, the .m44 import, new_game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core.dice import scripted_dice, seeded_dice
from engine.core.errors import DataError, UnknownName
from engine.memoir.board import label, parse_hex, within
from engine.memoir.game import RULES, apply, new_game
from engine.memoir.randomplay import random_order
from engine.memoir.scenario import load_scenario_text, scenario_from_dict, scenario_to_dict, shipped
from engine.memoir.turn import start_state

from .helpers import game, kinds, run, types

DATA = Path(__file__).parent / "data"
FIXTURE = DATA / "orchard-crossroads.m44"


def test_e3_3_the_three_test_scenarios() -> None:
    rows = []
    for slug in ("pegasus-bridge", "sainte-mere-eglise", "sword-beach"):
        sc = shipped(slug)
        rows.append((sc.name, sc.face, sc.cards, sc.medals, sc.first, sc.top,
                     [(label(o.hex), o.side, o.kind) for o in sc.objectives]))
    assert rows == [
        ("Pegasus Bridge", "countryside", (2, 6), (4, 4), "allies", "axis",
         [("D3", "allies", "temporary"), ("K6", "allies", "temporary")]),
        ("Sainte-Mère-Église", "countryside", (4, 5), (4, 4), "allies", "axis", []),
        ("Sword Beach", "beach", (4, 5), (5, 5), "allies", "axis",
         [("B1", "allies", "temporary"), ("F1", "allies", "temporary"), ("M1", "allies", "temporary")]),
    ]


def test_e3_3_unit_counts_of_the_scenarios() -> None:
    def count(slug: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for u in shipped(slug).units:
            key = f"{u.side} {u.type}{'+' + u.badge if u.badge else ''}"
            out[key] = out.get(key, 0) + 1
        return out

    assert count("pegasus-bridge") == {"axis infantry": 6, "allies infantry": 9}
    assert count("sainte-mere-eglise") == {"axis infantry": 9, "axis armor": 1, "allies infantry": 6}
    assert count("sword-beach") == {"axis armor": 1, "axis infantry": 6, "axis artillery": 1, "allies armor": 3,
                                    "allies infantry": 6, "allies infantry+special-forces": 3}


def test_e3_7_sword_beach_bunkers_belong_to_the_axis_and_the_allies_start_at_sea() -> None:
    sc = shipped("sword-beach")
    assert sorted(label(h) for h, k, o in sc.obstacles if k == "bunker" and o == "axis") == ["C4", "G3", "I4"]
    assert {sc.terrain_map[u.hex] for u in sc.units if u.side == "allies"} == {"ocean"}
    assert sc.terrain_map[parse_hex("E5")] == "beach" and sc.terrain_map[parse_hex("E4")] == "clear"


def test_e3_2_new_game_shuffles_deals_and_records_every_die() -> None:
    d = seeded_dice(7)
    st, ev = new_game({"scenario": "pegasus-bridge"}, d)
    assert [len(h) for h in st.hands] == [2, 6] and len(st.deck) == 52
    assert [die.sides for die in d.rolled] == list(range(60, 1, -1))
    assert types(ev) == ["GameStarted", "CardsDealt", "CardsDealt"]
    assert st.active == "allies" and st.turn == 1


def test_e3_4_pegasus_axis_hand_grows_to_four_and_the_pond_is_impassable() -> None:
    sc = shipped("pegasus-bridge")
    assert {sc.terrain_map[parse_hex(h)] for h in ("F6", "G6", "F7", "G7")} == {"pond"}
    st = game(sc, axis=["probe-left", "probe-right"], allies=["probe-centre"] * 5 + ["attack-centre"],
              deck=["attack-left", "attack-right", "attack-centre"] * 2)
    sizes = []
    for _ in range(3):
        st = run(st, "allies", "play probe-centre", "order none")
        st = run(st, "axis", f"play {kinds(st.hand('axis'))[0]}", "order none")
        sizes.append(len(st.hand("axis")))
    assert sizes == [3, 4, 4]


def test_e3_5_airdrop_lands_on_free_hexes_and_loses_the_others() -> None:
    zone = within(parse_hex("G5"), 4)
    picks = [zone.index(parse_hex(h)) + 1 for h in ("F6", "G5", "F6", "D5")]  # G5 is held; F6 twice
    d = scripted_dice([1] * 59 + picks)
    st, ev = new_game({"scenario": "sainte-mere-eglise"}, d)
    drops = [(e.hex, e.unit) for e in ev if type(e).__name__ == "Airdropped"]
    assert drops == [("F6", "al7"), ("G5", None), ("F6", None), ("D5", "al8")]
    assert [d.sides for d in d.rolled[59:]] == [len(zone)] * 4
    assert sum(1 for u in st.units if u.side == "allies") == 8


def test_our_format_round_trips_and_refuses_mistakes_by_name() -> None:
    for slug in ("pegasus-bridge", "sainte-mere-eglise", "sword-beach"):
        sc = shipped(slug)
        again = scenario_from_dict(scenario_to_dict(sc), source="shipped")
        assert again == sc
    base = scenario_to_dict(shipped("pegasus-bridge"))
    bad = [
        ({"terrain": {"A1": "marsh"}}, "not a base-game terrain"),
        ({"units": [{"hex": "A8", "side": "axis", "type": "infantry"}]}, "stands on river"),
        ({"units": [{"hex": "A1", "side": "axis", "type": "infantry"}] * 2}, "two units on A1"),
        ({"units": [{"hex": "A1", "side": "germany", "type": "infantry"}]}, "not a side"),
        ({"units": [{"hex": "A1", "side": "axis", "type": "tiger"}]}, "not a unit type"),
        ({"flavour": 1}, "Unknown scenario field"),
        ({"rules": {"night": True}}, "Special rule"),
        ({"face": "winter"}, "not a board face"),
        ({"cards": {"axis": 0, "allies": 4}}, "cards.axis"),
    ]
    for change, message in bad:
        with pytest.raises(DataError, match=message):
            scenario_from_dict({**base, **change})


def test_new_game_options_scenario_text_and_standing() -> None:
    text = json.dumps(scenario_to_dict(shipped("pegasus-bridge")))
    st, _ = new_game({"scenario": text, "ambush": {"axis": "pass", "allies": "ambush"}}, seeded_dice(1))
    assert st.scenario.name == "Pegasus Bridge" and st.standing == ("pass", "ambush")
    with pytest.raises(UnknownName):
        new_game({"scenario": "omaha"}, seeded_dice(1))
    with pytest.raises(DataError):
        new_game({"scenario": "pegasus", "ambush": "sometimes"}, seeded_dice(1))
    st, _ = new_game({"scenario": "Sword Beach", "ambush_axis": "ambush"}, seeded_dice(1))
    assert st.standing == ("ambush", "ask")


# --------------------------------------------------------------------------- .m44


def test_m44_base_scenario_imports_player_one_on_top() -> None:
    sc = load_scenario_text(FIXTURE.read_text(encoding="utf-8"))
    assert (sc.name, sc.top, sc.first, sc.cards, sc.medals, sc.source) == (
        "Orchard Crossroads", "axis", "allies", (4, 4), (3, 3), "m44")
    assert {label(h): t for h, t in sc.terrain} == {"B5": "river", "C5": "bridge", "C4": "forest", "D5": "river",
                                                    "E2": "hill", "G3": "town", "J6": "hedgerow"}
    assert {label(h): (k, o) for h, k, o in sc.obstacles} == {
        "E2": ("sandbags", None), "I5": ("wire", None), "J3": ("bunker", "axis"), "G7": ("hedgehog", None)}
    assert [(label(u.hex), u.side, u.type, u.badge, u.figures) for u in sc.units] == [
        ("G1", "axis", "infantry", None, None), ("E2", "axis", "infantry", None, 3),
        ("H2", "axis", "armor", None, None), ("J3", "axis", "artillery", None, None),
        ("E8", "allies", "infantry", "special-forces", None), ("G8", "allies", "armor", None, None),
        ("G9", "allies", "artillery", None, None), ("I9", "allies", "infantry", None, None)]
    assert [(label(o.hex), o.side, o.kind, o.medals) for o in sc.objectives] == [("G3", "allies", "temporary", 1)]


def test_m44_ally_on_top_flips_the_sides() -> None:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    doc["game_info"].update(side_player1="ALLIES", side_player2="AXIS", starting="PLAYER1")
    for h in doc["board"]["hexagons"]:
        if "unit" in h:
            name = h["unit"]["name"]
            h["unit"]["name"] = name.replace("ger", "XX").replace("us", "ger").replace("brit", "ger") \
                .replace("XX", "us")
    sc = load_scenario_text(json.dumps(doc))
    assert (sc.top, sc.first) == ("allies", "allies")
    st = start_state(sc)
    g1 = st.unit_at(parse_hex("G1"))
    assert g1 is not None and g1.side == "allies"


def test_m44_expansion_content_is_refused_naming_each_item() -> None:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    doc["board"]["hexagons"] += [
        {"row": 5, "col": 1, "terrain": {"name": "marshes"}},
        {"row": 5, "col": 3, "unit": {"name": "vehger"}},
        {"row": 6, "col": 4, "tags": [{"name": "tag3"}]},
        {"row": 6, "col": 6, "rect_terrain": {"name": "roadblock"}},
    ]
    doc["board"]["face"] = "WINTER"
    with pytest.raises(DataError) as err:
        load_scenario_text(json.dumps(doc))
    text = str(err.value)
    for item in ("terrain 'marshes'", "unit 'vehger'", "tag 'tag3'", "'roadblock'", "board face WINTER"):
        assert item in text, item
    with pytest.raises(DataError, match="board type OVERLORD"):
        doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
        doc["board"]["type"] = "OVERLORD"
        load_scenario_text(json.dumps(doc))


def test_m44_file_plays_to_a_victory() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    for seed in range(5):
        rng = random.Random(seed)
        st, _ = RULES.new_game({"scenario": text}, seeded_dice(seed))
        n = 0
        while not st.over:
            _, order = random_order(st, rng)
            st, _ = apply(st, order, seeded_dice(f"m44/{seed}/{n}"))
            n += 1
            assert n < 3000
        assert st.outcome is not None and st.outcome.winner in ("axis", "allies")
        assert st.outcome.reason.endswith("medals (E-17.4)"), st.outcome.reason  # random_order never concedes


def test_the_example_in_docs_memoir_scenarios_loads() -> None:
    import re

    doc = Path(__file__).resolve().parents[2] / "docs" / "memoir-scenarios.md"
    block = re.search(r"```json\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert block is not None
    sc = scenario_from_dict(json.loads(block.group(1)))
    assert (sc.name, sc.top, sc.first, len(sc.units), sc.units[1].badge) == ("Hill 112", "axis", "allies", 4, "elite")
    assert [(label(o.hex), o.kind) for o in sc.objectives] == [("G4", "temporary")]
