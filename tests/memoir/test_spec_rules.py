"""Worked examples for spec rules no other test cited by number (E-3.6, E-4.5, E-4.6,
E-4.7, E-5.2, E-6.1, E-6.9, E-6.10, E-7.1, E-7.2, E-8.3, E-8.5, E-9.2, E-9.4, E-10.1,
E-10.3, E-13.4, E-15.4, E-19.5)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.memoir import lookups
from engine.memoir.board import parse_hex
from engine.memoir.legal import pending
from engine.memoir.turn import start_state

from .helpers import at, do, figures, game, rolls, run, scenario, types
from .test_battle import ready
from .test_movement import ordered


def allies_with(units: str, card: str, **kw: object):  # type: ignore[no-untyped-def]
    return game(scenario(units, **kw), allies=[card, "probe-left", "probe-right", "attack-left"],  # type: ignore[arg-type]
                axis=["probe-centre"] * 4)


# --------------------------------------------------------------------------- E-4 the turn


def test_e4_6_no_move_once_the_movement_step_is_closed() -> None:
    st = ordered("allies infantry G6, allies infantry C6, axis infantry G4", "G6 C6")
    st, _ = do(st, "allies", "done")
    assert st.step == "battle"
    with pytest.raises(IllegalOrder, match=r"movement step is over \(E-4.6\)"):
        do(st, "allies", "move C6 C5")


def test_e4_7_a_unit_battles_at_most_once() -> None:
    st = ready("allies infantry G5, allies infantry C6, axis infantry G3, axis infantry C4", "G5 C6")
    st, ev = do(st, "allies", "battle G5 G3", rolls("SS"))  # range 2: 2 dice, no hit
    assert figures(st)["G3"] == ("axis", "infantry", 4) and st.step == "battle"
    with pytest.raises(IllegalOrder, match="cannot battle now"):
        do(st, "allies", "battle G5 G3")


# --------------------------------------------------------------------------- E-5 / E-6 cards


def test_e5_2_pincer_move_counts_each_unit_against_one_flank_up_to_two_each() -> None:
    # Allies at the bottom: Left is A-D, Right is J-M (I-L on 12-hex rows).
    units = ("allies infantry A7, allies infantry B7, allies infantry C7, allies infantry K7, allies infantry L7,"
             " allies infantry G7, axis infantry G1")
    st = run(allies_with(units, "pincer-move"), "allies", "play pincer-move")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order A7 B7 C7")  # three on the Left flank
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G7")  # the centre is not part of the card
    st, ev = do(st, "allies", "order A7 B7 K7 L7")
    assert ev[0].to_dict()["units"] == ["A7", "B7", "K7", "L7"]


def test_e5_2_a_straddling_unit_counts_for_whichever_flank_has_room() -> None:
    # I8 lies on the Centre/Right line: with two units already on the Left of a General
    # Advance it may still be ordered, counted for the Centre or the Right.
    units = "allies infantry A7, allies infantry B7, allies infantry I8, allies infantry K7, allies infantry L7," \
            " allies infantry G7, allies infantry F7, axis infantry G1"
    st = run(allies_with(units, "general-advance"), "allies", "play general-advance")
    st, ev = do(st, "allies", "order A7 B7 G7 F7 I8 K7")
    assert ev[0].to_dict()["units"] == ["A7", "B7", "G7", "F7", "I8", "K7"]
    st = run(allies_with(units, "general-advance"), "allies", "play general-advance")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G7 F7 I8 K7 L7")  # Centre full and Right full: I8 has no room


def test_e6_1_infantry_assault_fallback_only_with_no_infantry_on_the_whole_board() -> None:
    # infantry only on the Left, the card names the Right: no fallback, it orders nobody
    units = "allies infantry B7, allies armor K7, axis infantry G1"
    st, ev = do(allies_with(units, "infantry-assault"), "allies", "play infantry-assault right")
    assert not ev[0].to_dict().get("fallback")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order K7")
    # no infantry anywhere: the fallback orders 1 unit of any type
    st, ev = do(allies_with("allies armor K7, axis infantry G1", "infantry-assault"), "allies",
                "play infantry-assault right")
    assert ev[0].to_dict().get("fallback")
    st, ev = do(st, "allies", "order K7")
    assert st.step == "move"


def test_e6_9_medics_with_no_damaged_unit_does_nothing_and_eliminated_units_stay_gone() -> None:
    units = "allies infantry G6, axis infantry G2"
    st, _ = do(allies_with(units, "medics-and-mechanics"), "allies", "play medics-and-mechanics")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G6")  # at full strength: nothing to heal
    st, ev = do(st, "allies", "order none")  # no dice rolled (do() checks none are left over)
    assert "Healed" not in types(ev) and st.active == "axis"
    assert figures(st)["G6"] == ("allies", "infantry", 4)


def test_e6_10_dig_in_puts_no_sandbag_on_the_ocean_or_on_an_obstacle() -> None:
    units = "allies infantry G8, allies infantry C6, allies infantry E6, axis infantry G1"
    st = run(allies_with(units, "dig-in", face="beach", obstacles={"C6": "wire"}), "allies", "play dig-in")
    st, ev = do(st, "allies", "order G8 C6 E6")
    placed = [e.to_dict()["hex"] for e in ev if type(e).__name__ == "ObstacleChanged"]
    assert placed == ["E6"]  # G8 is ocean on the beach face (E-2.7, E-18.3); C6 holds wire
    assert st.obstacle_name(parse_hex("G8")) is None and st.obstacle_name(parse_hex("C6")) == "wire"


# --------------------------------------------------------------------------- E-8 units


def test_e8_3_elite_armor_starts_with_four_figures() -> None:
    st = start_state(scenario("allies armor:elite G7, allies armor C7, axis infantry G1"))
    assert figures(st)["G7"] == ("allies", "armor", 4)
    assert figures(st)["C7"] == ("allies", "armor", 3)


def test_e8_5_lost_figures_never_reduce_dice() -> None:
    out = lookups.battles(start_state(scenario("allies infantry/1 G5, axis infantry G4")), "allies")
    assert out == [{"attacker": "G5", "target": "G4", "dice": 3}]


# --------------------------------------------------------------------------- E-13 / E-15


def test_e13_4_an_eliminated_unit_takes_no_flags() -> None:
    st = ready("allies infantry G6, axis infantry/1 G4, axis infantry M1", "G6")
    st, ev = do(st, "allies", "battle G6 G4", rolls("IF"))  # 1 hit kills it; the flag is void
    assert at(st, "G4") is None
    assert "Retreated" not in types(ev) and "FlagsIgnored" not in types(ev) and st.fight is None


def test_e15_4_armor_taking_ground_into_wire_removes_it() -> None:
    st = ready("allies armor G5, axis infantry/1 G4, axis infantry M1", "G5", obstacles={"G4": "wire"})
    st, _ = do(st, "allies", "battle G5 G4", rolls("GSS"))
    st, ev = do(st, "allies", "take-ground")
    assert at(st, "G4") is not None and st.obstacle_name(parse_hex("G4")) is None
    assert "ObstacleChanged" in types(ev)


# --------------------------------------------------------------------------- E-19


def test_e19_5_while_a_decision_is_pending_the_active_player_can_do_nothing_else() -> None:
    st = ready("allies infantry G5, allies infantry C6, axis infantry G4, axis infantry M1", "G5 C6")
    st, _ = do(st, "allies", "battle G5 G4", rolls("FFS"))  # two flags: the Axis choose the path
    (p,) = pending(st)
    assert p.player == "axis"
    for text in ("battle C6 C5", "done", "move C6 C5"):
        with pytest.raises(IllegalOrder, match=r"the axis must answer first \(where to retreat\) \(E-19.5\)"):
            do(st, "allies", text)
    assert pending(st) == [p]


# --------------------------------------------------------------------------- more uncited rules


def test_e3_6_sainte_mere_eglise_g5_is_a_plain_town() -> None:
    from engine.memoir.scenario import shipped

    assert shipped("sainte-mere-eglise").terrain_map[parse_hex("G5")] == "town"


def test_e4_5_the_order_is_named_once_and_cannot_be_changed() -> None:
    st = ordered("allies infantry G6, allies infantry C6, axis infantry G1", "G6")
    assert st.step == "move"
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order C6")
    with pytest.raises(IllegalOrder, match="not ordered"):
        do(st, "allies", "move C6 C5")


def test_e7_1_e7_2_play_one_draw_one_keeps_the_hand_size() -> None:
    st = allies_with("allies infantry G6, axis infantry G1", "probe-left")
    assert len(st.hand("allies")) == 4
    top = st.deck[0]
    st = run(st, "allies", "play probe-left", "order none")
    assert st.active == "axis" and len(st.hand("allies")) == 4 and top in st.hand("allies")
    assert len(st.hand("axis")) == 4  # the other side draws nothing


def test_e9_2_moving_next_to_an_enemy_does_not_stop_a_unit() -> None:
    st = ordered("allies armor G7, axis infantry H4", "G7")
    st, _ = do(st, "allies", "move G7 G4 via G6 G5")  # G5 touches H4, the move goes on
    assert at(st, "G4") is not None


def test_e9_4_terrain_and_obstacle_movement_rules_both_apply() -> None:
    # a hill alone never stops a move; wire on the hill ends it there
    st = ordered("allies infantry G7, axis infantry A1", "G7", terrain={"G6": "hill"}, obstacles={"G6": "wire"})
    with pytest.raises(IllegalOrder, match="ends the move"):
        do(st, "allies", "move G7 G5 via G6")
    # a hedgehog (infantry only) on open ground closes the hex to armor
    st = ordered("allies armor G7, axis infantry A1", "G7", terrain={"G6": "hill"}, obstacles={"G6": "hedgehog"})
    with pytest.raises(IllegalOrder):
        do(st, "allies", "move G7 G6")


def test_e10_1_e10_3_out_of_range_and_out_of_sight_targets_are_not_legal() -> None:
    def battles(units: str, **kw: object) -> list[dict[str, object]]:
        return lookups.battles(start_state(scenario(units, **kw)), "allies")  # type: ignore[arg-type]

    assert battles("allies infantry G7, axis infantry G3") == []  # range 4: infantry fires 3 at most
    assert battles("allies infantry C7, axis infantry A7", terrain={"B7": "forest"}) == []  # no sight
    assert battles("allies infantry C7, axis infantry A7") == [{"attacker": "C7", "target": "A7", "dice": 2}]
    # with no legal target the battle step closes by itself and the turn passes (E-4.8)
    st = ready("allies infantry G7, axis infantry G3", "G7")
    assert st.active == "axis" and st.step == "play"
