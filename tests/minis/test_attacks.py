"""M-7 Attacks, M-8 Effects, M-9 Hit counters, M-10 line of sight inside an attack."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from engine.core.errors import IllegalOrder
from engine.core.hexgrid import Hex, in_front_arc
from engine.minis.attacks import band_for, hits_for
from engine.minis.events import Attacked, Casualties
from engine.minis.game import pending
from engine.minis.model import ALLIES, AXIS, LONG, MEDIUM, SHORT, BattleMap, Terrain
from engine.minis.state import Hit, Phase

from .helpers import (
    L, GARAND, KAR98, MG42, PANZER, SHERMAN, ascii_map, battle, hx, of_type, open_map, play,
)


def assault(placements: list, **kw: object) -> object:
    return battle(kw.pop("m", open_map(14, 12)), placements, phase=Phase.ASSAULT, **kw)  # type: ignore[arg-type]


def attack_event(events: tuple) -> Attacked:
    (a,) = of_type(events, Attacked)
    return a


# --------------------------------------------------------------------------- M-7.1, M-7.2


@pytest.mark.parametrize("distance, band", [(0, SHORT), (1, SHORT), (2, MEDIUM), (4, MEDIUM), (5, LONG),
                                            (8, LONG), (9, None)])
def test_m7_1_range_bands(distance: int, band: int | None) -> None:
    assert band_for(GARAND, distance, False) == band


@pytest.mark.parametrize("target_row, dice", [(4, 8), (6, 6)])  # Kar 98k: 8 short, 6 medium vs Soldiers
def test_m7_2_dice_for_the_target_type_and_band(target_row: int, dice: int) -> None:
    s = assault([("ax1", KAR98, "E3"), ("al1", GARAND, f"E{target_row}")])
    s, events = play(s, AXIS, "attack ax1 al1", [1] * dice)
    assert len(attack_event(events).dice) == dice


def test_m7_2_no_dice_means_no_attack_and_the_error_lists_what_it_can_attack() -> None:
    s = assault([("ax1", KAR98, "E3"), ("al1", SHERMAN, "E6"), ("al2", GARAND, "E5")])
    with pytest.raises(IllegalOrder) as err:
        play(s, AXIS, "attack ax1 al1")  # vs Vehicles only at short range
    assert "no attack against Vehicles at medium range" in err.value.message
    assert err.value.legal == ("attack ax1 al2",)
    far = assault([("ax1", MG42, "A1"), ("al1", GARAND, "J1")])
    with pytest.raises(IllegalOrder, match="beyond its range 8"):
        play(far, AXIS, "attack ax1 al1")


# --------------------------------------------------------------------------- M-7.3 … M-7.5


def test_m7_3_successes_on_4_or_more_and_minus_1_when_disrupted_or_damaged_once() -> None:
    s = assault([("ax1", PANZER, "E3", "S"), ("al1", SHERMAN, "E4", "N")])
    s2, events = play(s, AXIS, "attack ax1 al1", [4, 4, 3, 1] + [1] * 11)
    a = attack_event(events)
    assert (a.modifier, a.successes) == (0, 2)
    both = assault([("ax1", PANZER, "E3", "S"), ("al1", SHERMAN, "E4", "N")], ax1={"disrupted": True, "damaged": True})
    s3, events = play(both, AXIS, "attack ax1 al1", [5, 4, 6, 1] + [1] * 11)
    a = attack_event(events)
    assert (a.modifier, a.successes) == (-1, 2)  # disrupted and damaged: still −1 (M-8.3)


def test_m7_4_front_and_rear_defense_and_minus_1_for_a_face_up_counter_only() -> None:
    # The Panzer in E6 faces north: from E2 it is attacked in front (5), from E8 in the rear (3).
    s = assault([("ax1", PANZER, "E6", "N"), ("al1", SHERMAN, "E2", "S"), ("al2", SHERMAN, "E8", "N")],
                active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [1] * 11)
    assert (attack_event(events).defense, attack_event(events).front) == (5, True)
    s, events = play(s, ALLIES, "attack al2 ax1", [1] * 11)
    assert (attack_event(events).defense, attack_event(events).front) == (3, False)
    dis = assault([("ax1", PANZER, "E6", "N"), ("al1", SHERMAN, "E2", "S")], active=ALLIES,
                  ax1={"disrupted": True, "damaged": True})
    _, events = play(dis, ALLIES, "attack al1 ax1", [1] * 11)
    assert attack_event(events).defense == 4  # −1 once (M-8.3)


def test_m7_4_m7_8_m9_4_face_down_counters_do_not_lower_defense_and_hits_accumulate() -> None:
    # Two riflemen each score one hit on a Soldier: Disrupted, then Destroyed (M-9.4 example).
    s = assault([("al1", GARAND, "E4"), ("al2", GARAND, "F5"), ("ax1", KAR98, "E5")], active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [6, 6, 6, 6, 1, 1, 1, 1])
    assert attack_event(events).hits == 1 and s.unit("ax1").hits == (Hit.DISRUPTED,)
    assert not s.unit("ax1").disrupted  # M-7.8, M-9.3: face down until the casualty phase
    s, events = play(s, ALLIES, "attack al2 ax1", [6, 6, 6, 6, 1, 1, 1, 1])
    assert attack_event(events).defense == 4 and attack_event(events).counters == ("destroyed",)
    assert s.unit("ax1").hits == (Hit.DISRUPTED, Hit.DESTROYED)


@pytest.mark.parametrize("successes, defense, hits", [(3, 4, 0), (4, 4, 1), (5, 4, 2), (7, 4, 2), (8, 4, 3),
                                                      (10, 5, 3), (0, 1, 0), (1, 1, 1), (2, 1, 3)])
def test_m7_5_hit_table(successes: int, defense: int, hits: int) -> None:
    assert hits_for(successes, defense) == hits


@given(st.integers(0, 30), st.integers(1, 12))
def test_m7_5_hits_never_decrease_with_more_successes(successes: int, defense: int) -> None:
    assert hits_for(successes, defense) <= hits_for(successes + 1, defense) <= 3


# --------------------------------------------------------------------------- M-7.6, M-10


LOS_MAP = ascii_map("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . H . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")


def test_m10_an_attack_needs_line_of_sight_and_says_which_hexes_block_it() -> None:
    s = assault([("ax1", KAR98, "C2"), ("al1", GARAND, "C6"), ("al2", GARAND, "E5")], m=LOS_MAP)
    with pytest.raises(IllegalOrder) as err:
        play(s, AXIS, "attack ax1 al1")
    assert "no line of sight (blocked by C4)" in err.value.message
    assert err.value.legal == ("attack ax1 al2",)  # the hill does not hide E5


def test_m10_2_a_line_along_the_edge_between_two_forests_is_clear_for_an_attack() -> None:
    a = hx("C4")
    b = a.neighbour(0).neighbour(5)  # two hexes away, straight along the side of a.neighbour(0)
    m = BattleMap("edge", 8, 8, {a.neighbour(0): Terrain.FOREST, a.neighbour(5): Terrain.FOREST})
    s = assault([("ax1", KAR98, L.label(a)), ("al1", GARAND, L.label(b))], m=m)
    s, events = play(s, AXIS, "attack ax1 al1", [1] * 6)
    assert attack_event(events).range == 2


def test_m7_6_fire_past_units_and_choose_between_two_enemies_in_a_hex() -> None:
    s = assault([("ax1", KAR98, "C2"), ("al1", GARAND, "C3"), ("al2", GARAND, "C4"), ("al3", GARAND, "C4")])
    s, events = play(s, AXIS, "attack ax1 al3", [1] * 6)  # past al1 (M-10.3), al3 not al2
    assert attack_event(events).target == "al3"


# --------------------------------------------------------------------------- M-7.9


def test_m7_9_front_arc_widths_1_3_3_5_and_same_hex_is_rear() -> None:
    o = Hex(0, 0)
    for facing in range(6):
        widths = [sum(1 for h in o.ring(k) if in_front_arc(o, facing, h)) for k in range(1, 6)]
        assert widths == [1, 3, 3, 5, 5]
        assert not in_front_arc(o, facing, o)
    s = assault([("ax1", PANZER, "E5", "N"), ("al1", GARAND, "E5")], active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [1] * 7)  # Close Assault 7 in the same hex
    a = attack_event(events)
    assert a.front is False and a.defense == 3 + 1  # rear 3; Sideskirts +1 against Close Assault
    assert a.special == ("Close Assault", "Sideskirts")


# --------------------------------------------------------------------------- M-8, M-9


def test_m8_4_m9_1_soldiers_disrupted_then_destroyed_vehicles_disrupted_damaged_destroyed() -> None:
    s = assault([("al1", SHERMAN, "E3", "S"), ("ax1", KAR98, "E4"), ("ax2", PANZER, "G4", "N")], active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [6] * 9)  # 9 ≥ 2 × 4: three hits on a Soldier
    assert attack_event(events).hits == 3 and s.unit("ax1").hits == (Hit.DISRUPTED, Hit.DESTROYED)
    v = assault([("al1", SHERMAN, "G2", "S"), ("ax2", PANZER, "G3", "N")], active=ALLIES)
    v, events = play(v, ALLIES, "attack al1 ax2", [6] * 10 + [1] * 3)  # 10 ≥ 2 × 5
    assert attack_event(events).counters == ("disrupted", "damaged", "destroyed")


def test_m9_1_an_already_damaged_vehicle_goes_disrupted_then_destroyed() -> None:
    s = assault([("al1", SHERMAN, "G2", "S"), ("ax2", PANZER, "G3", "N")], active=ALLIES, ax2={"damaged": True})
    s, events = play(s, ALLIES, "attack al1 ax2", [6] * 6 + [1] * 7)  # 6 vs 4: two hits
    assert attack_event(events).counters == ("disrupted", "destroyed")


def test_m9_2_no_counters_after_destroyed() -> None:
    s = assault([("al1", GARAND, "E3"), ("al2", GARAND, "E5"), ("ax1", KAR98, "E4")], active=ALLIES)
    s, _ = play(s, ALLIES, "attack al1 ax1", [6] * 8)
    s, events = play(s, ALLIES, "attack al2 ax1", [6] * 8)
    assert attack_event(events).counters == () and s.unit("ax1").hits == (Hit.DISRUPTED, Hit.DESTROYED)


def test_m8_1_m8_2_effects_take_hold_in_the_casualty_phase() -> None:
    s = assault([("al1", SHERMAN, "G2", "S"), ("ax1", PANZER, "G3", "N"), ("ax2", KAR98, "A9"),
                 ("al2", GARAND, "L9")], active=ALLIES, first=AXIS)
    s, _ = play(s, ALLIES, "attack al1 ax1", [6] * 6 + [1] * 7)
    s, events = play(s, ALLIES, "done", [6, 6, 1, 1])
    (cas,) = of_type(events, Casualties)
    assert cas.damaged == ("ax1",) and cas.disrupted == ("ax1",)
    panzer = s.unit("ax1")
    assert panzer.damaged and panzer.disrupted and panzer.hits == ()
    # Damaged: speed 3 − 1; disrupted: cannot move this turn.
    s, _ = play(s, AXIS, "first")
    with pytest.raises(IllegalOrder, match="disrupted"):
        play(s, AXIS, "move ax1 G4")
    assert pending(s)[0].player == AXIS
