"""M-3 setting up (map, toss, ends, deployment), M-17.2/17.3 Assault setup, M-18 custom
scenarios."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import DataError, IllegalOrder, NotYourTurn
from engine.minis.events import Deployed, DeploymentDone, EndChosen, FirstPlayerChosen, InitiativeRolled, MapChosen
from engine.minis.game import new_game, pending, start_state
from engine.minis.model import ALLIES, AXIS
from engine.minis.scenario import builtin_document, resolve_scenario
from engine.minis.state import Phase
from engine.minis.visibility import public_units

from .helpers import TEST_CARDS, ascii_map, hx, of_type, play


def to_deployment(options: dict, axis: str, allies: str, toss: int = 1) -> object:
    """Both armies entered and readied; ``toss`` is the coin-toss die (standard)."""
    s, _ = new_game({"map": 1, **options}, scripted_dice([]))
    s, _ = play(s, AXIS, f"army {axis}")
    s, _ = play(s, AXIS, "ready")
    s, _ = play(s, ALLIES, f"army {allies}")
    dice = [toss] if s.scenario_def.first == "coin" else []
    s, _ = play(s, ALLIES, "ready", dice)
    return s


@pytest.mark.parametrize("die, name", [(1, "Half and Half"), (2, "Knife Fight"), (3, "Highland"),
                                       (4, "Town Fight"), (5, "Hill 107"), (6, "Tiger Country")])
def test_m3_2_m3_8_the_map_configuration_is_a_die_roll(die: int, name: str) -> None:
    s, events = new_game({"scenario": "standard", "map": "random"}, scripted_dice([die]))
    assert s.map.name == name
    assert events == [MapChosen(None, die, name, die=die)]
    assert s.objectives == s.map.objectives and len(s.objectives) == 1  # M-3.2 objective marker


def test_m3_3_the_toss_winner_chooses_who_deploys_first() -> None:
    s = to_deployment({}, "tiger", "sherman", toss=5)  # 4–6: the Allies win the toss
    assert s.phase is Phase.DEPLOYMENT and s.chooser == ALLIES
    (p,) = pending(s)
    assert (p.player, p.choices) == (ALLIES, ("first", "second"))
    with pytest.raises(NotYourTurn):
        play(s, AXIS, "first")
    with pytest.raises(NotYourTurn):
        play(s, ALLIES, "deploy al1 R8")
    s, events = play(s, ALLIES, "second")
    assert of_type(events, FirstPlayerChosen) == [FirstPlayerChosen(ALLIES, AXIS, True, 1)]
    assert s.first_player == AXIS and s.active == AXIS and pending(s)[0].player == AXIS


def test_m3_4_m3_5_the_first_player_picks_an_end_by_deploying_and_stays_within_5_hexes() -> None:
    s = to_deployment({}, "tiger, 2 mauser", "sherman, garand")
    s, _ = play(s, AXIS, "first")
    with pytest.raises(IllegalOrder) as err:
        play(s, AXIS, "deploy ax2 J8")  # the middle of the map
    assert "outside your deployment zone" in err.value.message
    s, events = play(s, AXIS, "deploy ax1 C8 face SE")
    assert of_type(events, EndChosen) == [EndChosen(AXIS, "west")]
    assert s.ends == {AXIS: "west", ALLIES: "east"}
    assert of_type(events, Deployed) == [Deployed("ax1", "tiger-i", AXIS, hx("C8"), 0)]
    with pytest.raises(IllegalOrder) as err:
        play(s, AXIS, "deploy ax2 F8")  # column F is the 6th from the west end
    assert "E8" in err.value.legal and {label[0] for label in err.value.legal} == set("ABCDE")
    s, _ = play(s, AXIS, "deploy ax2 E8")
    # Rough terrain is fine (B10 is forest) — M-3.4.
    s, _ = play(s, AXIS, "deploy ax3 B10")
    with pytest.raises(IllegalOrder):
        play(s, AXIS, "end east")  # the end is fixed now
    s, events = play(s, AXIS, "done")
    assert of_type(events, DeploymentDone) == [DeploymentDone(AXIS)]
    assert s.active == ALLIES
    # M-3.5: the second player deploys at the opposite end.
    with pytest.raises(IllegalOrder):
        play(s, ALLIES, "deploy al1 C9")
    s, events = play(s, ALLIES, "deploy al1 R8")
    assert s.unit("al1").facing == 4  # Ruling: facing the enemy end (SW) when not given
    with pytest.raises(IllegalOrder, match="Deploy every unit"):
        play(s, ALLIES, "done")
    s, _ = play(s, ALLIES, "deploy al2 S9")
    # Both done: turn 1 starts with the initiative roll (M-5.1).
    s, events = play(s, ALLIES, "done", [3, 3, 4, 4])
    assert s.phase is Phase.INITIATIVE and s.chooser == ALLIES
    assert of_type(events, InitiativeRolled)[0].winner == ALLIES


def test_m3_4_end_can_be_named_before_deploying_and_units_can_be_placed_again() -> None:
    s = to_deployment({}, "mauser", "garand")
    s, _ = play(s, AXIS, "first")
    s, events = play(s, AXIS, "end east")
    assert s.ends == {AXIS: "east", ALLIES: "west"}
    s, _ = play(s, AXIS, "deploy ax1 P3")
    s, _ = play(s, AXIS, "deploy ax1 Q4")  # placed again before "done"
    assert s.unit("ax1").hex == hx("Q4")


def test_m3_4_no_deployment_where_the_unit_could_not_enter_and_stacking_holds() -> None:
    m = ascii_map("""
    . . . . . . . . . . . .
    . M . . . . . . . . . .
    . L . . . . . . . . . .
    . . . . . . . . . . . .
    """)
    s = start_state(m, TEST_CARDS, resolve_scenario(builtin_document("standard"), {"map": 1}))
    s, _ = play(s, AXIS, "army panzer iv, 3 kar 98k")
    s, _ = play(s, AXIS, "ready")
    s, _ = play(s, ALLIES, "army bazooka")
    s, _ = play(s, ALLIES, "ready", [1])
    s, _ = play(s, AXIS, "first")
    with pytest.raises(IllegalOrder, match="cannot be in marsh"):
        play(s, AXIS, "deploy ax1 B2")  # a Vehicle in marsh
    with pytest.raises(IllegalOrder, match="cannot be in lake"):
        play(s, AXIS, "deploy ax2 B3")
    s, _ = play(s, AXIS, "deploy ax2 B2")  # a Soldier may deploy in marsh
    s, _ = play(s, AXIS, "deploy ax3 A1")
    s, _ = play(s, AXIS, "deploy ax4 A1")
    with pytest.raises(IllegalOrder, match="full"):
        play(s, AXIS, "deploy ax1 A1")  # 2 friendly units already (M-6.2)


def test_m3_6_hexes_off_the_map_are_refused_with_its_extent() -> None:
    s = to_deployment({}, "mauser", "garand")
    s, _ = play(s, AXIS, "first")
    with pytest.raises(IllegalOrder) as err:
        play(s, AXIS, "deploy ax1 A17")
    assert err.value.legal == ("A1 … S16",)


def test_m3_7_a_soldier_may_start_aboard_a_transport() -> None:
    s = to_deployment({}, "sd kfz 251, mauser, pak 38, tiger", "garand")
    s, _ = play(s, AXIS, "first")
    with pytest.raises(IllegalOrder, match="Deploy the transport"):
        play(s, AXIS, "deploy ax2 aboard ax1")
    s, _ = play(s, AXIS, "deploy ax1 C3")
    s, events = play(s, AXIS, "deploy ax2 aboard ax1")
    assert of_type(events, Deployed)[0].aboard == "ax1"
    assert s.unit("ax2").carried_by == "ax1" and s.unit("ax2").hex == hx("C3")
    with pytest.raises(IllegalOrder, match="full"):
        play(s, AXIS, "deploy ax3 aboard ax1")
    s, _ = play(s, AXIS, "deploy ax1 D4")  # the passenger goes with its transport
    assert s.unit("ax2").hex == hx("D4")
    with pytest.raises(IllegalOrder, match="not a transport"):
        s2, _ = play(s, AXIS, "deploy ax4 C8")
        play(s2, AXIS, "deploy ax3 aboard ax4")


def test_deployed_units_become_public_one_by_one() -> None:
    s = to_deployment({}, "tiger, mauser", "garand")
    s, _ = play(s, AXIS, "first")
    s, _ = play(s, AXIS, "deploy ax1 C8")
    assert [u.id for u in public_units(s)] == ["ax1"]


# --------------------------------------------------------------------------- Assault (M-17)


def test_m17_2_the_defender_chooses_map_and_objective_and_m17_3_deploys_first_on_its_half() -> None:
    s = to_deployment({"scenario": "assault", "attacker": ALLIES, "map": "defender"}, "tiger", "sherman, 2 garand")
    assert s.scenario_def.defender == AXIS
    assert s.active == AXIS and s.chooser is None  # no coin toss: the defender deploys first
    with pytest.raises(IllegalOrder, match="defender"):
        play(s, ALLIES, "map 3")
    s, events = play(s, AXIS, "map 4")
    assert s.map.name == "Town Fight" and of_type(events, MapChosen)[0].configuration == 4
    with pytest.raises(IllegalOrder, match="next to the map edge"):
        play(s, AXIS, "objective A5")
    s, _ = play(s, AXIS, "objective H8")
    assert s.objectives == (hx("H8"),)
    s, _ = play(s, AXIS, "deploy ax1 I8")  # 9th column: inside the defender's half (M-17.3)
    assert s.ends[AXIS] == "west"
    with pytest.raises(IllegalOrder, match="fixed"):
        play(s, AXIS, "map 2")
    s, _ = play(s, AXIS, "done")
    with pytest.raises(IllegalOrder, match="outside"):
        play(s, ALLIES, "deploy al1 N8")  # the attacker keeps to 5 hexes of its end
    s, _ = play(s, ALLIES, "deploy al1 O8")
    assert s.phase is Phase.DEPLOYMENT


# --------------------------------------------------------------------------- custom scenarios (M-18)


def test_m18_custom_scenario_sets_armies_zones_objectives_and_victory() -> None:
    doc = {
        "name": "bridgehead", "title": "Hold the bridgehead",
        "armies": {"axis": {"points": 60, "units": 5}, "allies": {"points": 90, "units": 8}},
        "year": 1944, "historical": True, "map": 2,
        "deployment": {"first": "axis", "zones": {"axis": ["E4", "E5", "F5"], "allies": "end"}, "depth": 3},
        "objectives": ["E5", "K9"],
        "victory": {"rule": "objective", "from_turn": 3, "points_turn": None, "last_turn": 6},
    }
    s, events = new_game({"scenario": json.dumps(doc)}, scripted_dice([]))
    sc = s.scenario_def
    assert (sc.armies[AXIS].points, sc.armies[ALLIES].units, sc.year, sc.historical) == (60, 8, 1944, True)
    assert s.map.name == "Knife Fight" and s.objectives == (hx("E5"), hx("K9"))
    assert (sc.victory.from_turn, sc.victory.points_turn, sc.victory.last_turn) == (3, None, 6)
    s, _ = play(s, AXIS, "army mauser")
    s, _ = play(s, AXIS, "ready")
    s, _ = play(s, ALLIES, "army garand")
    s, events = play(s, ALLIES, "ready")  # no toss: the Axis deploy first
    assert s.active == AXIS
    with pytest.raises(IllegalOrder, match="outside"):
        play(s, AXIS, "deploy ax1 D4")
    s, _ = play(s, AXIS, "deploy ax1 F5")
    s, _ = play(s, AXIS, "done")
    # The Allies' "end" zone is 3 columns deep at the other end (east).
    with pytest.raises(IllegalOrder, match="outside"):
        play(s, ALLIES, "deploy al1 P5")
    s, _ = play(s, ALLIES, "deploy al1 Q5")
    assert resolve_scenario(sc.to_doc()) == sc  # a saved scenario reloads to the same value


@pytest.mark.parametrize("change, message", [
    ({"armies": {"axis": {"points": 100}}}, "both sides need limits"),
    ({"armies": {"axis": {"points": -5}, "allies": {"points": 100}}}, "from 0 to 10000"),
    ({"map": 9}, "from 1 to 6"),
    ({"victory": {"rule": "sudden death"}}, "unknown rule"),
    ({"objectives": "defender"}, "needs roles"),
    ({"deployment": {"zones": {"axis": "middle", "allies": "end"}}}, "expected \"end\""),
    ({"weather": "rain"}, "unknown keys"),
])
def test_m18_bad_scenario_documents_are_refused_with_a_reason(change: dict, message: str) -> None:
    doc = dict(builtin_document("standard"))
    doc.update(change)
    with pytest.raises(DataError) as err:
        resolve_scenario(doc)
    assert message in err.value.message


def test_m18_a_custom_objective_off_the_map_is_a_data_error() -> None:
    doc = dict(builtin_document("standard"), map=1, objectives=["Z40"])
    with pytest.raises(DataError, match="Z40"):
        new_game({"scenario": doc}, scripted_dice([]))


def test_m18_not_json_is_a_data_error() -> None:
    with pytest.raises(DataError, match="not valid JSON"):
        new_game({"scenario": "{oops"}, scripted_dice([]))


def test_m18_a_custom_map_text_is_a_map_option() -> None:
    from engine.minis.maps import format_map_text

    m = ascii_map("""
    . . . . . . . . . . . .
    . . F F . . . . T . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    """, roads=[("A3", "B3")], objectives=["F2"])
    text = format_map_text(m)
    s, events = new_game({"scenario": "standard", "map": text}, scripted_dice([]))
    assert s.map.name == "test" and (s.map.cols, s.map.rows) == (12, 4)
    assert s.objectives == (hx("F2"),) and s.map.terrain_at(hx("C2")).value == "forest"
    from engine.core.errors import DataError
    with pytest.raises(DataError):
        new_game({"scenario": "standard", "map": text.replace("grid", "grod")}, scripted_dice([]))
