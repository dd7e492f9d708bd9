"""Worked examples for spec rules no other test cited by number (E-1.1 – E-1.6, E-3.1,
E-3.6, E-3.8, E-4.5, E-4.6, E-4.7, E-5.2, E-6.1, E-6.9, E-6.10, E-7.1, E-7.2, E-8.3,
E-8.5, E-9.2, E-9.4, E-10.1, E-10.3, E-13.4, E-15.4, E-17.5, E-18.1, E-19.2, E-19.5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.dice import RecordingDice, stream_dice
from engine.core.errors import DataError, IllegalOrder, NotationError, UnknownName
from engine.core.game import PUBLIC, Viewer
from engine.memoir import lookups
from engine.memoir.board import SEATS, all_hexes, label, neighbours, parse_hex, within
from engine.memoir.events import Rolled
from engine.memoir.game import RULES, event_view, new_game
from engine.memoir.legal import pending
from engine.memoir.scenario import (
    OBJECTIVE_KINDS, SHIPPED, find_shipped, scenario_from_dict, scenario_to_dict, shipped_scenarios,
)
from engine.memoir.tables import OBSTACLE_NAMES, UNIT_TYPES, badges, card_kinds, die_faces, full_deck
from engine.memoir.turn import start_state

from .helpers import at, do, figures, game, ordered, ready, rolls, run, scenario, types


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
    with pytest.raises(IllegalOrder, match="too many units for the card's sections"):
        do(st, "allies", "order A7 B7 C7")  # three on the Left flank
    with pytest.raises(IllegalOrder, match="G7 cannot be ordered by this card"):
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
    with pytest.raises(IllegalOrder, match="too many units for the card's sections"):
        do(st, "allies", "order G7 F7 I8 K7 L7")  # Centre full and Right full: I8 has no room


def test_e6_1_infantry_assault_fallback_only_with_no_infantry_on_the_whole_board() -> None:
    # infantry only on the Left, the card names the Right: no fallback, it orders nobody
    units = "allies infantry B7, allies armor K7, axis infantry G1"
    st, ev = do(allies_with(units, "infantry-assault"), "allies", "play infantry-assault right")
    assert not ev[0].to_dict().get("fallback")
    with pytest.raises(IllegalOrder, match="K7 cannot be ordered by this card"):
        do(st, "allies", "order K7")
    # no infantry anywhere: the fallback orders 1 unit of any type
    st, ev = do(allies_with("allies armor K7, axis infantry G1", "infantry-assault"), "allies",
                "play infantry-assault right")
    assert ev[0].to_dict().get("fallback")
    st, ev = do(st, "allies", "order K7")
    assert st.step == "move"


def test_e6_9_medics_with_no_damaged_unit_does_nothing() -> None:
    units = "allies infantry G6, axis infantry G2"
    st, _ = do(allies_with(units, "medics-and-mechanics"), "allies", "play medics-and-mechanics")
    with pytest.raises(IllegalOrder, match="G6 cannot be ordered by this card"):
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
    with pytest.raises(IllegalOrder, match="this is the move step"):
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
    # sandbags alone never stop a move ...
    st = ordered("allies infantry G7, axis infantry A1", "G7", obstacles={"G6": "sandbags"})
    st2, _ = do(st, "allies", "move G7 G5 via G6")
    assert at(st2, "G5") is not None
    # ... but a forest under the sandbags still ends the move there (the terrain's rule)
    st = ordered("allies infantry G7, axis infantry A1", "G7", terrain={"G6": "forest"}, obstacles={"G6": "sandbags"})
    with pytest.raises(IllegalOrder, match="ends the move"):
        do(st, "allies", "move G7 G5 via G6")
    # and the obstacle's rule holds on any terrain: a hedgehog on a hill is closed to armor
    st = ordered("allies armor G7, axis infantry A1", "G7", terrain={"G6": "hill"}, obstacles={"G6": "hedgehog"})
    with pytest.raises(IllegalOrder, match="hedgehog"):
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


# --------------------------------------------------------------------------- E-1 words


def test_e1_1_two_sides_one_player_each_and_the_scenario_says_who_sits_on_top() -> None:
    """E-1.1: the seats are the Axis and the Allies; every shipped scenario puts the Axis
    at the top.  Which side is on top decides where "back" is: with the Allies on top, an
    Axis unit driven back by a flag goes down the board, toward row 9."""
    assert RULES.seats == SEATS == ("axis", "allies")
    assert [sc.top for sc in shipped_scenarios()] == ["axis", "axis", "axis"]
    down = ready("allies infantry G4, axis infantry G5, axis infantry M9", "G4", top="allies")
    down, _ = do(down, "allies", "battle G4 G5", rolls("FSS"))
    assert [p.choices for p in pending(down)] == [("retreat F6", "retreat G6")]
    up = ready("allies infantry G6, axis infantry G5, axis infantry M1", "G6")
    up, _ = do(up, "allies", "battle G6 G5", rolls("FSS"))
    assert [p.choices for p in pending(up)] == [("retreat F4", "retreat G4")]


def test_e1_2_a_unit_is_one_hex_of_figures_of_one_type_badges_fit_their_type() -> None:
    assert UNIT_TYPES == ("infantry", "armor", "artillery")
    assert badges() == {"special-forces": "infantry", "elite": "armor", "resistance": "infantry"}
    with pytest.raises(DataError, match="two units on G5"):
        scenario("allies infantry G5, allies armor G5, axis infantry G1")
    with pytest.raises(DataError, match="not a unit type of the base game"):
        scenario("allies cavalry G5, axis infantry G1")
    with pytest.raises(DataError, match="no badge 'special-forces' for armor. Legal: elite"):
        scenario("allies armor:special-forces G5, axis infantry G1")
    # ordered and moved as one: all four figures go together
    st = ordered("allies infantry:special-forces G6, axis infantry G1", "G6")
    st, _ = do(st, "allies", "move G6 G4 via G5")
    assert figures(st)["G4"] == ("allies", "infantry", 4) and at(st, "G6") is None


def test_e1_3_each_hit_removes_one_figure() -> None:
    st = ready("allies infantry G6, axis infantry G5, axis infantry M1", "G6")
    st, ev = do(st, "allies", "battle G6 G5", rolls("IGS"))  # infantry symbol + grenade: 2 hits
    assert [(e.to_dict()["lost"], e.to_dict()["left"]) for e in ev if type(e).__name__ == "FiguresLost"] == [(2, 2)]
    assert figures(st)["G5"] == ("axis", "infantry", 2)


def test_e1_4_adjacent_hexes_share_an_edge_and_never_include_the_own_hex() -> None:
    assert sorted(label(n) for n in neighbours(parse_hex("G5"))) == ["F4", "F5", "F6", "G4", "G6", "H5"]
    assert sorted(label(n) for n in neighbours(parse_hex("A1"))) == ["A2", "B1"]
    for h in all_hexes():
        assert h not in neighbours(h)
        assert set(neighbours(h)) == {x for x in all_hexes() if x.distance(h) == 1}
    # next to each other = a close assault at range 1 (3 dice); one hex between = firing (2)
    near = lookups.battles(start_state(scenario("allies infantry G5, axis infantry G4")), "allies")
    far = lookups.battles(start_state(scenario("allies infantry G5, axis infantry G3")), "allies")
    assert (near, far) == ([{"attacker": "G5", "target": "G4", "dice": 3}],
                           [{"attacker": "G5", "target": "G3", "dice": 2}])


def test_e1_5_the_components_the_engine_plays_with() -> None:
    """E-1.5: two board faces, the obstacles, three unit types and their badges, 60
    command cards (40 section, 20 tactic of 15 kinds) and a six-faced battle die."""
    st = start_state(scenario("allies infantry G5, axis infantry G1", face="beach"))
    assert st.terrain_name(parse_hex("G9")) == "ocean"
    with pytest.raises(DataError, match="not a board face of the base game"):
        scenario("allies infantry G5, axis infantry G1", face="winter")
    assert OBSTACLE_NAMES == ("bunker", "sandbags", "wire", "hedgehog")
    assert len(full_deck()) == 60 and len(set(full_deck())) == 60
    kinds_ = card_kinds().values()
    assert (sum(k.count for k in kinds_ if k.type == "section"), sum(k.count for k in kinds_ if k.type == "tactic"),
            sum(1 for k in kinds_ if k.type == "tactic")) == (40, 20, 15)
    assert die_faces() == ("infantry", "infantry", "armor", "grenade", "star", "flag")


def test_e1_6_a_medal_is_a_victory_point() -> None:
    """E-1.6: one medal per unit eliminated; a side reaching its medal target wins."""
    st = ready("allies infantry G6, axis infantry/1 G5, axis infantry M1", "G6", medals=(4, 1))
    st, ev = do(st, "allies", "battle G6 G5", rolls("ISS"))
    assert [e.to_dict()["allies"] for e in ev if type(e).__name__ == "MedalsChanged"] == [1]
    assert [(e.to_dict()["winner"], tuple(e.to_dict()["medals"])) for e in ev if type(e).__name__ == "Victory"] == [
        ("allies", (0, 1))]
    outcome = RULES.outcome(st)
    assert outcome is not None and outcome.winner == "allies"


# --------------------------------------------------------------------------- E-3 scenarios


def test_e3_1_every_field_of_a_scenario_record_is_read() -> None:
    doc = {"name": "Crossroads", "face": "beach", "top": "allies", "first": "axis",
           "cards": {"axis": 5, "allies": 3}, "medals": {"axis": 6, "allies": 5},
           "terrain": {"C3": "forest", "H2": "town"},
           "obstacles": {"E4": {"type": "bunker", "owner": "axis"}, "F4": "wire"},
           "units": [{"hex": "C2", "side": "allies", "type": "armor", "badge": "elite"},
                     {"hex": "G3", "side": "allies", "type": "infantry", "figures": 2},
                     {"hex": "E4", "side": "axis", "type": "infantry"}],
           "objectives": [{"hex": "H2", "for": "axis", "kind": "permanent", "medals": 2}],
           "rules": {"extra_draws": [{"side": "allies", "turns": 2, "cards": 1}]}}
    sc = scenario_from_dict(doc)
    assert (sc.face, sc.top, sc.first, sc.cards, sc.medals) == ("beach", "allies", "axis", (5, 3), (6, 5))
    assert {label(h): t for h, t in sc.terrain} == {"C3": "forest", "H2": "town"}
    assert sorted((label(h), k, o) for h, k, o in sc.obstacles) == [("E4", "bunker", "axis"), ("F4", "wire", None)]
    assert [(label(u.hex), u.side, u.type, u.badge, u.figures) for u in sc.units] == [
        ("C2", "allies", "armor", "elite", None), ("G3", "allies", "infantry", None, 2),
        ("E4", "axis", "infantry", None, None)]
    assert [(label(o.hex), o.side, o.kind, o.medals) for o in sc.objectives] == [("H2", "axis", "permanent", 2)]
    assert [(e.side, e.turns, e.cards) for e in sc.extra_draws] == [("allies", 2, 1)]
    assert figures(start_state(sc)) == {"C2": ("allies", "armor", 4), "G3": ("allies", "infantry", 2),
                                        "E4": ("axis", "infantry", 4)}  # full strength unless stated
    assert scenario_from_dict(scenario_to_dict(sc)) == sc


def test_e3_8_three_base_scenarios_ship_the_others_come_as_files() -> None:
    """E-3.8: of the 16 base scenarios we ship the three test ones; the other 13 are played
    by giving their file (ours or a .m44) as the scenario."""
    assert SHIPPED == ("pegasus-bridge", "sainte-mere-eglise", "sword-beach")
    with pytest.raises(UnknownName) as refusal:
        find_shipped("Pointe du Hoc")
    assert refusal.value.legal == SHIPPED + ("the text of a scenario (our JSON format or a .m44 file)",)


# --------------------------------------------------------------------------- E-17 / E-18 / E-19


def test_e17_5_objectives_are_temporary_permanent_or_sudden_death_only() -> None:
    assert OBJECTIVE_KINDS == ("temporary", "permanent", "sudden-death")
    base = scenario_to_dict(scenario("allies infantry G5, axis infantry G1"))
    for kind in OBJECTIVE_KINDS:
        sc = scenario_from_dict({**base, "objectives": [{"hex": "D3", "for": "allies", "kind": kind}]})
        assert sc.objectives[0].kind == kind
    with pytest.raises(DataError, match="'majority' is not an objective kind we support. Legal: temporary, "
                                        "permanent, sudden-death"):
        scenario_from_dict({**base, "objectives": [{"hex": "D3", "for": "allies", "kind": "majority"}]})


def test_e18_1_no_stop_on_leaving_a_beach_only_the_two_hex_cap() -> None:
    """E-18.1: we add no stop for a unit leaving a beach; the beach cap alone applies.  On
    the beach face (rows 5-7 beach) armor may step onto the beach and off it again (2
    hexes), not 3; from a beach it moves its full 3 when it enters no other beach hex; and
    a unit whose move ended on a beach has moved — it cannot leave in a second move."""
    units = "axis infantry A1, axis infantry M1, allies armor F4, allies armor J5"
    st = ordered(units, "F4 J5", face="beach")
    off, _ = do(st, "allies", "move F4 G4 via G5")
    assert figures(off)["G4"] == ("allies", "armor", 3)
    with pytest.raises(IllegalOrder, match=r"a move that enters a beach hex is at most 2 hexes long \(E-18\)"):
        do(st, "allies", "move F4 G3 via G5 G4")
    inland, _ = do(st, "allies", "move J5 J2 via J4 J3")
    assert figures(inland)["J2"] == ("allies", "armor", 3)
    with pytest.raises(IllegalOrder, match="at most 2 hexes long"):
        do(st, "allies", "move J5 J8 via J6 J7")
    stopped, _ = do(st, "allies", "move F4 G5")
    with pytest.raises(IllegalOrder, match="may not move now"):
        do(stopped, "allies", "move G5 G4")


def test_e19_2_dice_and_shuffles_come_from_the_seeded_server_source_and_are_recorded() -> None:
    """E-19.2: the shuffle (one die of 60, 59, …, 2 sides) and the airdrop's hexes are dice
    from the game's keyed stream; the same key gives the same game, the recorded dice
    replay it exactly, battle dice are public to everyone, and no order rerolls."""
    key = b"the game's secret seed"
    first = stream_dice(key, "setup")
    st, ev = new_game({"scenario": "sainte-mere-eglise"}, first)
    zone = len(within(parse_hex("G5"), 4))
    assert [d.sides for d in first.rolled] == [*range(60, 1, -1), zone, zone, zone, zone]
    again = stream_dice(key, "setup")
    assert new_game({"scenario": "sainte-mere-eglise"}, again)[0] == st and again.rolled == first.rolled
    replay = RecordingDice(None, first.rolled)
    assert new_game({"scenario": "sainte-mere-eglise"}, replay) == (st, ev) and replay.remaining == ()
    other = stream_dice(b"another seed", "setup")
    assert new_game({"scenario": "sainte-mere-eglise"}, other)[0].hands != st.hands
    # battle dice: posted to everyone as rolled
    fight = ready("allies infantry G6, axis infantry G5, axis infantry M1", "G6")
    fight, ev = do(fight, "allies", "battle G6 G5", rolls("IGS"))
    (roll,) = [e.to_dict() for e in ev if isinstance(e, Rolled)]
    assert tuple(roll["faces"]) == ("infantry", "grenade", "star")
    assert event_view(roll, PUBLIC) == roll and event_view(roll, Viewer.of(["axis"])) == roll
    with pytest.raises(NotationError):
        do(fight, "allies", "reroll")


def test_docs_rules_memoir_explains_the_rules_cited_here() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "memoir.md").read_text(encoding="utf-8")
    cited = ("E-1.1", "E-1.2", "E-1.3", "E-1.4", "E-1.5", "E-1.6", "E-3.1", "E-3.8", "E-5.1", "E-17.5", "E-18.1",
             "E-19.2")
    assert [n for n in cited if not re.search(re.escape(n) + r"(?!\d)", text)] == []


def test_e5_1_a_unit_is_in_a_section_when_its_hex_is() -> None:
    """E-5.1 (with E-2.4, E-2.5): a Probe Left orders units on left-section hexes, a unit
    on a hex straddling left and centre counts as in the left, a centre unit does not."""
    from engine.memoir.turn import in_sections

    units = "allies infantry D1, allies infantry D2, allies infantry E1, axis infantry E9"
    state = game(scenario(units), allies=["probe-left", "probe-right", "attack-left", "direct-from-hq"],
                 axis=["probe-centre"] * 4)
    left, straddling, centre = (at(state, h) for h in ("D1", "D2", "E1"))
    assert left is not None and straddling is not None and centre is not None
    assert in_sections(state, left, ("left",)) == {"left"}
    assert in_sections(state, straddling, ("left",)) == {"left"}
    assert in_sections(state, straddling, ("left", "centre")) == {"left", "centre"}
    assert in_sections(state, centre, ("left",)) == frozenset()
    played = run(state, "allies", "play probe-left", "order D1 D2")
    assert played.step == "move"
    with pytest.raises(IllegalOrder, match="E1 cannot be ordered by this card"):
        run(state, "allies", "play probe-left", "order E1")
