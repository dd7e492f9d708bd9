"""M-16 Casualty phase; M-4 winning (Standard); M-17.4 (Assault); custom victory rules."""

from __future__ import annotations


from engine.minis.casualty import casualty_phase
from engine.minis.events import Casualties, TurnEnded, Victory
from engine.minis.model import ALLIES, AXIS
from engine.minis.scenario import builtin_document, resolve_scenario
from engine.minis.state import Hit, Phase
from engine.minis.victory import controller, points_on_map, sides_near

from .helpers import GARAND, JEEP, KAR98, PANZER, SHERMAN, battle, hx, of_type, open_map, play

OBJ = open_map(objectives=["F5"])


def end_of(turn: int, placements: list, scenario: object = None, **kw: object) -> object:
    """The last assault phase of ``turn`` (Allies second), ready for 'done'."""
    return battle(OBJ, placements, phase=Phase.ASSAULT, first=AXIS, active=ALLIES, turn=turn,
                  scenario=scenario, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- M-16


def test_m16_casualty_phase_steps_and_m8_5_destroyed_units_leave_the_map() -> None:
    s = battle(open_map(), [
        ("ax1", KAR98, "A1"), ("ax2", PANZER, "B1"), ("ax3", KAR98, "C1"), ("ax4", PANZER, "D1"),
        ("al1", GARAND, "A5"), ("al2", SHERMAN, "B5"),
    ], ax1={"disrupted": True},                                   # step 1: recovers
       ax2={"hits": (Hit.DISRUPTED, Hit.DAMAGED)},                # steps 4 and 5
       ax3={"disrupted": True, "hits": (Hit.DISRUPTED,)},         # recovers, then disrupted again
       ax4={"hits": (Hit.DISRUPTED, Hit.DAMAGED, Hit.DESTROYED)},  # step 3
       al2={"damaged": True})                                     # damage stays
    s, cas = casualty_phase(s)
    assert cas == Casualties(1, recovered=("ax1", "ax3"), destroyed=("ax4",), damaged=("ax2",),
                             disrupted=("ax2", "ax3"))
    assert not s.unit("ax1").disrupted
    assert s.unit("ax2").damaged and s.unit("ax2").disrupted and s.unit("ax2").hits == ()
    assert s.unit("ax3").disrupted and s.unit("ax4").destroyed and not s.unit("ax4").on_map
    assert s.unit("al2").damaged


# --------------------------------------------------------------------------- M-4


def test_m4_1_control_means_being_the_only_side_adjacent_to_the_objective() -> None:
    s = battle(OBJ, [("ax1", KAR98, "F4"), ("al1", GARAND, "J9")])
    assert controller(s, hx("F5")) == AXIS
    assert sides_near(s, hx("F5")) == {AXIS}
    s = battle(OBJ, [("ax1", KAR98, "F4"), ("al1", GARAND, "F5")])  # contested: nobody
    assert controller(s, hx("F5")) is None and sides_near(s, hx("F5")) == {AXIS, ALLIES}
    s = battle(OBJ, [("ax1", KAR98, "F3"), ("al1", GARAND, "J9")])  # two hexes away
    assert controller(s, hx("F5")) is None and sides_near(s, hx("F5")) == frozenset()


def test_m4_2_controlling_the_objective_at_the_end_of_turn_7_wins_but_not_earlier() -> None:
    units = [("ax1", KAR98, "F4"), ("al1", GARAND, "J9")]
    s, events = play(end_of(6, units), ALLIES, "done", [1, 1, 2, 2])
    assert s.phase is Phase.INITIATIVE and s.turn == 7
    s, events = play(end_of(7, units), ALLIES, "done")
    assert of_type(events, Victory) == [Victory(AXIS, "the axis control the objective at the end of turn 7 (M-4.2)")]
    assert s.phase is Phase.OVER and s.outcome is not None and s.outcome.winner == AXIS


def test_m4_2_play_on_checks_every_turn_after_7() -> None:
    s, _ = play(end_of(8, [("ax1", KAR98, "F4"), ("al1", GARAND, "F6")]), ALLIES, "done", [1, 1, 2, 2])
    assert s.phase is Phase.INITIATIVE and s.turn == 9
    s, events = play(end_of(9, [("ax1", KAR98, "A1"), ("al1", GARAND, "F6")]), ALLIES, "done")
    assert of_type(events, Victory)[0].winner == ALLIES


def test_m4_3_at_turn_10_without_control_the_higher_cost_on_the_map_wins() -> None:
    units = [("ax1", KAR98, "A1"), ("ax2", KAR98, "A2"), ("al1", GARAND, "J9")]  # 6 vs 4 points
    s, events = play(end_of(10, units), ALLIES, "done")
    assert of_type(events, Victory)[0].reason == "axis ahead on points 6 to 4 at the end of turn 10 (M-4.3)"


def test_m4_3_a_tie_on_points_plays_on() -> None:
    units = [("ax1", KAR98, "A1"), ("al1", make_rifle(), "J9")]
    s, _ = play(end_of(10, units), ALLIES, "done", [1, 1, 2, 2])
    assert s.phase is Phase.INITIATIVE and s.turn == 11


def make_rifle() -> object:
    from .helpers import make_card
    return make_card("rifle-3", side=ALLIES, cost=3)


def test_m4_4_damaged_disrupted_and_aboard_count_destroyed_do_not() -> None:
    s = battle(OBJ, [("al1", SHERMAN, "A1"), ("al2", GARAND, "A1"), ("al3", JEEP, "B1"), ("al4", GARAND, "B1"),
                     ("ax1", KAR98, "J9")],
               al1={"damaged": True, "disrupted": True}, al2={"destroyed": True}, al4={"carried_by": "al3"})
    assert points_on_map(s, ALLIES) == 21 + 3 + 4


# --------------------------------------------------------------------------- M-17.4


def assault_scenario() -> object:
    return resolve_scenario(builtin_document("assault"), {"attacker": AXIS, "map": 1})


def test_m17_4_the_attacker_must_hold_the_objective_at_the_end_of_turn_10() -> None:
    held = [("ax1", KAR98, "F4"), ("al1", GARAND, "J9")]
    s, _ = play(end_of(9, held, assault_scenario()), ALLIES, "done", [1, 1, 2, 2])
    assert s.phase is Phase.INITIATIVE  # turn 7 does not count in an Assault
    s, events = play(end_of(10, held, assault_scenario()), ALLIES, "done")
    assert of_type(events, Victory)[0].winner == AXIS
    s, events = play(end_of(10, [("ax1", KAR98, "F4"), ("al1", GARAND, "F5")], assault_scenario()), ALLIES, "done")
    assert of_type(events, Victory)[0].winner == ALLIES


# --------------------------------------------------------------------------- rulings


def test_ruling_a_side_with_no_units_left_loses_at_the_end_of_the_turn() -> None:
    s = end_of(2, [("ax1", PANZER, "C3", "N"), ("al1", GARAND, "C4")],
               al1={"hits": (Hit.DISRUPTED, Hit.DESTROYED)})
    s, events = play(s, ALLIES, "done")
    assert of_type(events, Victory) == [Victory(AXIS, "the allies have no units left on the map")]


def test_custom_last_turn_ends_in_a_draw() -> None:
    doc = dict(builtin_document("standard"), victory={"rule": "objective", "from_turn": 7, "points_turn": None,
                                                       "last_turn": 8})
    sc = resolve_scenario(doc, {"map": 1})
    s, events = play(end_of(8, [("ax1", KAR98, "A1"), ("al1", GARAND, "J9")], sc), ALLIES, "done")
    assert of_type(events, Victory)[0].winner is None and s.outcome is not None
    assert of_type(events, TurnEnded) == [TurnEnded(8)]
