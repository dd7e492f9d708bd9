"""M-12 Defensive fire: provocation, the choice of hex, one per phase, immediate
disruption, resolution order, and the play-by-post handling (pending decision,
standing orders, timeouts)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder, NotYourTurn, PlayerError
from engine.minis.events import (
    Attacked, DefensiveFireEvent, DefensiveFireHeld, MovementRoll, Moved, StandingOrderSet, TimedOut, Victory,
)
from engine.minis.game import legal_orders, pending
from engine.minis.model import ALLIES, AXIS
from engine.minis.orders import Fire, Hold
from engine.minis.state import Phase

from .helpers import (
    GARAND, HAUPTSTURM, KAR98, PAK38, PANZER, SHERMAN, ascii_map, battle, hx, of_type, open_map, play,
)

MISS8 = [1] * 8
HIT8 = [6, 6, 6, 6, 1, 1, 1, 1]  # 4 successes: reaches a Soldier's defense 4


def allied_move(placements: list, **kw: object) -> object:
    kw.setdefault("active", ALLIES)
    return battle(kw.pop("m", open_map()), placements, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- M-12.1


@pytest.mark.parametrize("start, end, provoked", [
    ("E4", "F4", True),   # adjacent to the Kar 98k in E5 before and after
    ("E4", "E5", True),   # into its hex: the same hex counts as adjacent
    ("E4", "E3", False),  # moving away
    ("E3", "E4", False),  # moving closer
])
def test_m12_1_moving_from_adjacent_to_adjacent_provokes(start: str, end: str, provoked: bool) -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, start)])
    s, events = play(s, ALLIES, f"move al1 {end}")
    assert (s.move is not None) is provoked
    if provoked:
        (p,) = pending(s)
        assert p.player == AXIS and p.reaction and "fire ax1 leaving" in p.choices


def test_m12_1_soldiers_never_provoke_vehicles_but_vehicles_provoke_soldiers() -> None:
    s = allied_move([("ax1", PANZER, "E5", "N"), ("al1", GARAND, "E4")])
    s, events = play(s, ALLIES, "move al1 F4")
    assert s.move is None and s.unit("al1").hex == hx("F4")
    s = allied_move([("ax1", KAR98, "E5"), ("al1", SHERMAN, "E4", "N")])
    s, _ = play(s, ALLIES, "move al1 F4")
    assert pending(s)[0].player == AXIS


# --------------------------------------------------------------------------- M-12.2


def test_m12_2_hold_fire_lets_the_unit_pass() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, events = play(s, AXIS, "hold")
    assert of_type(events, DefensiveFireHeld) == [DefensiveFireHeld(AXIS, "al1", hx("E4"))]
    (p,) = pending(s)
    assert p.choices == ("fire ax1 entering", "hold")
    s, events = play(s, AXIS, "hold")
    assert s.move is None and s.unit("al1").hex == hx("F4") and "ax1" not in s.flags.df_fired


def test_m12_2_one_defensive_fire_per_phase_and_a_new_one_next_phase() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4"), ("al2", GARAND, "D5")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, _ = play(s, AXIS, "fire ax1 leaving", MISS8)
    assert s.move is None and "ax1" in s.flags.df_fired
    s, events = play(s, ALLIES, "move al2 D4")  # adjacent to E5 before and after: no fire left
    assert s.move is None and s.unit("al2").hex == hx("D4")
    s, _ = play(s, ALLIES, "done")
    s, _ = play(s, AXIS, "done")
    s, _ = play(s, ALLIES, "move al2 E4")  # the Allied assault phase: a new allowance
    assert pending(s)[0].player == AXIS and s.flags.df_fired == frozenset()


def test_m12_2_disrupted_units_cannot_fire_defensively() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")], ax1={"disrupted": True})
    s, _ = play(s, ALLIES, "move al1 F4")
    assert s.move is None


# --------------------------------------------------------------------------- M-12.4, M-12.5


def test_m7_8_m12_4_a_hit_stops_the_mover_where_it_was_attacked_and_disrupts_it_at_once() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, events = play(s, AXIS, "fire ax1 leaving", HIT8)
    (mv,) = of_type(events, Moved)
    assert mv.stopped == "defensive fire" and mv.path == (hx("E4"),) and mv.defensive_fire_at == (hx("E4"),)
    assert s.unit("al1").hex == hx("E4") and s.unit("al1").disrupted and s.unit("al1").hits == ()


def test_m12_4_a_fanatic_keeps_one_disrupted_counter_however_often_it_is_stopped() -> None:
    s = allied_move([("al1", KAR98, "E5"), ("ax1", HAUPTSTURM, "E4")], active=AXIS,
                    ax1={"disrupted": True})  # Fanatic: it may move despite the counter
    s, _ = play(s, AXIS, "move ax1 F4")
    s, events = play(s, ALLIES, "fire al1 entering", HIT8)
    assert of_type(events, DefensiveFireEvent)[0].stopped
    assert s.unit("ax1").disrupted and s.unit("ax1").hex == hx("F4")


def test_m12_5_first_hex_fire_resolves_first_one_at_a_time_and_a_stop_ends_it() -> None:
    # Two Kar 98k next to both E4 and F4 (E5 and F3); the defender sees each result first.
    s = allied_move([("ax1", KAR98, "E5"), ("ax2", KAR98, "F3"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    (p,) = pending(s)
    assert set(p.choices) == {"fire ax1 leaving", "fire ax1 entering", "fire ax2 leaving",
                              "fire ax2 entering", "hold"}
    s, events = play(s, AXIS, "fire ax1 leaving", MISS8)
    (p,) = pending(s)
    assert set(p.choices) == {"fire ax2 leaving", "fire ax2 entering", "hold"}
    s, events = play(s, AXIS, "fire ax2 leaving", HIT8)
    assert s.move is None and s.unit("al1").hex == hx("E4")  # never reaches F4


def test_m12_5_a_unit_stopped_in_the_first_hex_is_never_attacked_in_the_second() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("ax2", KAR98, "F3"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, _ = play(s, AXIS, "fire ax2 entering")  # only marks ax2 for the second hex
    s, events = play(s, AXIS, "fire ax1 leaving", HIT8)
    assert s.move is None and [e.defender for e in of_type(events, DefensiveFireEvent)] == ["ax1"]


def test_m12_5_fire_chosen_for_the_entering_hex_comes_after_the_leaving_hex() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("ax2", KAR98, "F3"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, _ = play(s, AXIS, "fire ax2 entering")
    # Nobody else to ask at E4: the Garand enters F4 and ax2 fires there, in the same answer.
    s, events = play(s, AXIS, "fire ax1 leaving", MISS8 + HIT8)
    first, second = of_type(events, DefensiveFireEvent)
    assert (first.defender, first.at, first.stopped) == ("ax1", hx("E4"), False)
    assert (second.defender, second.at, second.where, second.stopped) == ("ax2", hx("F4"), "entering", True)
    assert s.unit("al1").hex == hx("F4")


def test_m12_6_a_failed_movement_roll_provokes_nothing() -> None:
    m = ascii_map("""
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . F .
    . . . . . . .
    """)
    s = allied_move([("ax1", KAR98, "E5"), ("al1", SHERMAN, "E4", "N")], m=m)
    s, events = play(s, ALLIES, "move al1 F4", [3])
    assert of_type(events, MovementRoll)[0].success is False and s.move is None
    assert s.unit("al1").hex == hx("E4")


def test_the_mover_waits_while_the_defender_decides() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4"), ("al2", GARAND, "A1")])
    s, _ = play(s, ALLIES, "move al1 F4")
    with pytest.raises(NotYourTurn, match="defensive fire"):
        play(s, ALLIES, "move al2 A2")
    with pytest.raises(NotYourTurn):
        play(s, ALLIES, "hold")
    with pytest.raises(PlayerError):
        play(s, AXIS, "fire ax1 sideways")
    assert set(legal_orders(s, AXIS)) >= {Fire(AXIS, "ax1", "leaving"), Fire(AXIS, "ax1", "entering"), Hold(AXIS)}


# --------------------------------------------------------------------------- M-12.8 standing orders


def test_m12_8_standing_hold_never_fires_and_the_order_is_private() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")])
    s, events = play(s, AXIS, "standing ax1 hold")
    assert events == (StandingOrderSet("ax1", "hold", private_to=AXIS),)
    s, _ = play(s, ALLIES, "move al1 F4")
    assert s.move is None and s.unit("al1").hex == hx("F4")


def test_m12_8_standing_first_fires_at_once_where_the_mover_has_no_cover() -> None:
    m = ascii_map("""
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . F
    . . . . . .
    """)
    # Leaving the clear E4 for the forest F4: fired at in E4 (no cover there).
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")], m=m, standing="first")
    s, events = play(s, ALLIES, "move al1 F4", HIT8)
    (d,) = of_type(events, DefensiveFireEvent)
    assert (d.where, d.standing, d.stopped) == ("leaving", "first", True)
    # Leaving the forest F4 for the clear E4: fired at in E4, the hex it enters.
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "F4")], m=m, standing="first")
    s, events = play(s, ALLIES, "move al1 E4", MISS8)
    assert of_type(events, DefensiveFireEvent)[0].where == "entering"


def test_m12_8_standing_first_prefers_the_weaker_armour_of_a_vehicle() -> None:
    # The Sherman drives from E4 into the PAK's hex E5: front 5 in E4, rear 4 in E5.
    s = allied_move([("ax1", PAK38, "E5"), ("al1", SHERMAN, "E4", "N")], standing="first")
    s, events = play(s, ALLIES, "move al1 E6 via E5", [1] * 11)
    (a,) = of_type(events, Attacked)
    assert (a.defense, a.front) == (4, False) and of_type(events, DefensiveFireEvent)[0].where == "entering"


def test_m12_8_standing_vehicles_ignores_soldiers() -> None:
    s = allied_move([("ax1", PAK38, "E5"), ("al1", GARAND, "E4"), ("al2", SHERMAN, "D5", "N")], standing="vehicles")
    s, events = play(s, ALLIES, "move al1 F4")
    assert not of_type(events, DefensiveFireEvent) and s.move is None
    s, events = play(s, ALLIES, "move al2 D4", [1] * 11)
    assert of_type(events, DefensiveFireEvent)[0].defender == "ax1"


def test_m12_8_timeout_hold_answers_for_the_whole_step() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    with pytest.raises(IllegalOrder):
        play(s, AXIS, "timeout hold")
    s, events = play(s, "system", "timeout hold")
    assert of_type(events, TimedOut) == [TimedOut(AXIS, "hold")]
    assert s.move is None and s.unit("al1").hex == hx("F4")


def test_m12_8_timeout_forfeit_ends_the_game_for_the_silent_defender() -> None:
    s = allied_move([("ax1", KAR98, "E5"), ("al1", GARAND, "E4")])
    s, _ = play(s, ALLIES, "move al1 F4")
    s, events = play(s, "system", "timeout forfeit")
    assert of_type(events, Victory)[0].winner == ALLIES and s.phase is Phase.OVER
    assert pending(s) == []


def test_m5_5_standing_orders_that_fire_together_resolve_by_unit_id() -> None:
    """M-5.5 (ruling, docs/rules/minis.md): what the bot resolves on its own follows a
    fixed order — two standing orders provoked by one move fire by unit id, whatever the
    order the units were placed in."""
    s = allied_move([("ax2", KAR98, "E5"), ("ax1", KAR98, "E5"), ("al1", GARAND, "E4")], standing="first")
    s, events = play(s, ALLIES, "move al1 F4", MISS8 * 2)
    assert [(d.defender, d.where) for d in of_type(events, DefensiveFireEvent)] == [
        ("ax1", "leaving"), ("ax2", "leaving")]
