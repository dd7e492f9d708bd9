"""E-14 retreat, the flag-ignoring decision and the E-19.4 defaults."""

from __future__ import annotations

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder, NotYourTurn
from engine.memoir import lookups
from engine.memoir.board import parse_hex
from engine.memoir.game import RULES
from engine.memoir.legal import pending
from engine.memoir.turn import medals, start_state

from .helpers import at, do, figures, game, ordered, ready, rolls, run, scenario, types


def test_e14_1_a_single_way_back_is_taken_at_once() -> None:
    st = ready("allies infantry A5, axis infantry A3, axis infantry M1", "A5")
    st, ev = do(st, "allies", "battle A5 A3", rolls("FS"))
    assert at(st, "A3") is None and figures(st)["A2"] == ("axis", "infantry", 4)
    assert [e.to_dict()["path"] for e in ev if type(e).__name__ == "Retreated"] == [["A3", "A2"]]


def test_e14_2_e19_4_the_owner_chooses_and_the_default_loses_fewest_figures() -> None:
    units = "allies infantry G5, axis infantry G3, axis infantry F1, axis infantry G1, axis infantry M1"
    st = ready(units, "G5")
    st, _ = do(st, "allies", "battle G5 G3", rolls("FF"))
    (p,) = pending(st)
    assert p.player == "axis" and p.choices == ("retreat F2", "retreat H1") and p.reaction
    with pytest.raises(NotYourTurn):
        do(st, "allies", "retreat H1")
    with pytest.raises(IllegalOrder, match="retreat F2, retreat H1"):
        do(st, "axis", "retreat G2")
    # F2 is a dead end (F1 and G1 are held): it would cost a figure; H1 costs none
    chosen, _ = do(st, "axis", "retreat F2")
    assert figures(chosen)["F2"] == ("axis", "infantry", 3)
    timed, ev = RULES.timeout(st, "done", scripted_dice([]))
    assert figures(timed)["H1"] == ("axis", "infantry", 4)
    assert types(ev)[0] == "TimedOut"


def test_e14_4_e14_5_blocked_steps_cost_figures_and_a_medal() -> None:
    units = "allies infantry G5, axis infantry/2 G3, axis infantry F2, axis infantry G2, axis infantry M1"
    st = ready(units, "G5")
    st, ev = do(st, "allies", "battle G5 G3", rolls("FF"))
    assert at(st, "G3") is None
    assert medals(st, "allies") == 1
    assert "Eliminated" in types(ev)


def test_e14_3_terrain_does_not_stop_a_retreat_but_impassable_hexes_block_it() -> None:
    units = "allies infantry G5, axis infantry G3, axis infantry M1"
    st = ready(units, "G5", terrain={"F2": "forest", "G2": "forest"})
    st, _ = do(st, "allies", "battle G5 G3", rolls("FF"))
    assert [c for p in pending(st) for c in p.choices] == ["retreat F1", "retreat G1", "retreat H1"]
    st = ready(units, "G5", terrain={"F2": "river", "G2": "pond"})
    st, _ = do(st, "allies", "battle G5 G3", rolls("FF"))
    assert figures(st)["G3"] == ("axis", "infantry", 2)
    # allies on the beach cannot retreat into the ocean
    assert lookups.retreat(start_state(scenario("allies infantry G7, axis infantry G5", face="beach")),
                           parse_hex("G7"), 1) == {"steps": {"1": []}, "figures_lost": 1}


def test_e14_6_sandbags_let_the_owner_ignore_a_flag() -> None:
    units = "allies infantry G5, axis infantry G3, axis infantry M1"
    st = ready(units, "G5", obstacles={"G3": "sandbags"})
    st, _ = do(st, "allies", "battle G5 G3", rolls("F"))
    (p,) = pending(st)
    assert (p.player, p.choices, p.reaction) == ("axis", ("ignore 1", "ignore 0"), True)
    kept, ev = do(st, "axis", "ignore 1")
    assert figures(kept)["G3"] == ("axis", "infantry", 4) and kept.obstacle_name(parse_hex("G3")) == "sandbags"
    assert "FlagsIgnored" in types(ev)
    left, _ = do(st, "axis", "ignore 0")
    left, _ = do(left, "axis", "retreat G2")
    assert left.obstacle_name(parse_hex("G3")) is None  # E-14.8: the sandbag goes with its unit


def test_e14_6_hedgehog_for_infantry_and_the_bunker_for_its_owner_only() -> None:
    st = ready("allies infantry G5, axis infantry G3, axis infantry M1", "G5", obstacles={"G3": "hedgehog"})
    st, _ = do(st, "allies", "battle G5 G3", rolls("FS"))
    assert pending(st)[0].choices == ("ignore 1", "ignore 0")
    bunker = {"G3": {"type": "bunker", "owner": "allies"}}
    st = ready("allies infantry G5, axis infantry G3, axis infantry M1", "G5", obstacles=bunker)
    st, _ = do(st, "allies", "battle G5 G3", rolls("FS"))
    assert pending(st)[0].choices == ("retreat F2", "retreat G2")


def test_e14_7_artillery_in_a_bunker_ignores_one_flag_and_loses_a_figure_per_other() -> None:
    units = "allies infantry G4, axis artillery G3, axis infantry M1"
    st = ready(units, "G4", obstacles={"G3": {"type": "bunker", "owner": "axis"}})
    st, _ = do(st, "allies", "battle G4 G3", rolls("FF"))  # 3 dice less 1 for the owner's bunker
    st, ev = do(st, "axis", "ignore 1")
    assert figures(st)["G3"] == ("axis", "artillery", 1)
    # and no Take Ground: the hex was not emptied
    assert st.fight is None


def test_ignoring_more_flags_than_allowed_is_refused() -> None:
    st = ready("allies infantry G4, axis infantry G3, axis infantry M1", "G4", obstacles={"G3": "sandbags"})
    st, _ = do(st, "allies", "battle G4 G3", rolls("FF"))
    with pytest.raises(IllegalOrder, match="ignore 1, ignore 0"):
        do(st, "axis", "ignore 2")
    st, _ = do(st, "axis", "ignore 1")
    assert pending(st)[0].choices == ("retreat F2", "retreat G2")


def test_ruling_a_retreat_does_not_trigger_the_hex_it_ends_on() -> None:
    sc = scenario("axis infantry G2, allies armor G4, allies infantry A9", obstacles={"G5": "wire", "H5": "wire"})
    st = game(sc, axis=["direct-from-hq", "probe-left"], allies=["probe-left"], active="axis")
    st = run(st, "axis", "play direct-from-hq", "order G2", "done")
    st, _ = do(st, "axis", "battle G2 G4", rolls("FS"))
    st, _ = do(st, "allies", "retreat G5")
    assert figures(st)["G5"] == ("allies", "armor", 3)
    assert st.obstacle_name(parse_hex("G5")) == "wire"  # armor entering by a retreat leaves the wire


def test_e8_4_french_resistance_retreats_one_to_three_hexes_per_flag() -> None:
    units = "allies infantry G6, axis infantry:resistance G4, axis infantry M1"
    st = ready(units, "G6")
    assert figures(st)["G4"] == ("axis", "infantry", 3)
    st, _ = do(st, "allies", "battle G6 G4", rolls("FS"))  # range 2: 2 dice, one flag
    (p,) = pending(st)
    # G4 -> G3/H3 -> F2/G2/H2 -> F1/G1/H1/I1: any hex 1 to 3 rows back
    assert p.choices == ("retreat F1", "retreat F2", "retreat G1", "retreat G2", "retreat G3", "retreat H1",
                         "retreat H2", "retreat H3", "retreat I1")
    st, ev = do(st, "axis", "retreat F1")
    assert figures(st)["F1"] == ("axis", "infantry", 3)
    assert [e.to_dict()["path"] for e in ev if type(e).__name__ == "Retreated"] == [["G4", "G3", "F2", "F1"]]


def test_e8_4_french_resistance_battles_after_entering_a_forest() -> None:
    from engine.memoir.turn import battle_targets

    st = ordered("allies infantry:resistance G6, axis infantry G4, axis infantry M1", "G6",
                 terrain={"G5": "forest"})
    st, _ = do(st, "allies", "move G6 G5")
    assert [(t.where, n) for t, n in battle_targets(st, at(st, "G5"))] == [("G4", 3)]  # type: ignore[arg-type]
