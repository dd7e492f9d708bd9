"""M-15 Transport (with Exposed Transport, Gun Transport and Fighting Platform)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.minis.events import Attacked, Boarded, Casualties, Dismounted, DefensiveFireEvent
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Phase

from .helpers import GARAND, JEEP, KAR98, PAK38, PANZER, battle, hx, make_card, of_type, open_map, play

# JEEP (tests/minis/helpers.py, shared with test_casualty_victory): these tests' transport.
T34 = make_card("t-34-76", side=ALLIES, vehicle=True, subtype="Tank", cost=28, speed=4, defense=(5, 5),
                vs_s=(7, 7, 6), vs_v=(13, 11, 10), abilities=["Exposed Transport", ("Superior Armor", 2)], nation="USSR")
SDKFZ251 = make_card("sd-kfz-251", vehicle=True, subtype="Half-Track", cost=7, speed=4, defense=(2, 2),
                     vs_s=(8, 7, 6), vs_v=(2, 2, 2), abilities=["Gun Transport", ("High Gear", 2), "Fighting Platform"])
BIKE = make_card("bike-scouts", side=ALLIES, subtype="Motorcycle", cost=3, speed=2)
SPEED0 = make_card("sniper-nest", side=ALLIES, cost=3, speed=0)


def test_m15_2_a_soldier_boards_with_its_movement_phase_move_and_rides_along() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("ax1", KAR98, "J9")], active=ALLIES)
    s, events = play(s, ALLIES, "board al2 al1")
    assert events == (Boarded("al2", "al1", hx("C5")),)
    assert s.unit("al2").carried_by == "al1"
    with pytest.raises(IllegalOrder, match="boarded this phase"):
        play(s, ALLIES, "dismount al2")
    s, _ = play(s, ALLIES, "move al1 C1 via C4 C3 C2")
    assert s.unit("al2").hex == hx("C1")  # M-15.3: it moves with its transport
    with pytest.raises(IllegalOrder, match="aboard"):
        play(s, ALLIES, "move al2 C2")


def test_m15_2_dismounting_takes_the_next_movement_phase_move_into_the_transports_hex() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("ax1", KAR98, "J9")], active=ALLIES,
               al2={"carried_by": "al1"})
    s, _ = play(s, ALLIES, "move al1 C2")
    s, events = play(s, ALLIES, "dismount al2")
    assert events == (Dismounted("al2", "al1", hx("C2")),)
    assert s.unit("al2").carried_by is None and s.unit("al2").hex == hx("C2")
    assault = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("ax1", KAR98, "J9")],
                     active=ALLIES, phase=Phase.ASSAULT, al2={"carried_by": "al1"})
    with pytest.raises(IllegalOrder, match="movement-phase"):
        play(assault, ALLIES, "dismount al2")


def test_m15_1_one_soldier_never_artillery_motorcycle_or_a_vehicle() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("al3", BIKE, "C5"),
                            ("ax1", KAR98, "J9")], active=ALLIES, stacking=3)
    with pytest.raises(IllegalOrder, match="Motorcycle"):
        play(s, ALLIES, "board al3 al1")
    s, _ = play(s, ALLIES, "board al2 al1")
    s = battle(open_map(), [("ax1", SDKFZ251, "C5", "N"), ("ax2", PAK38, "C5"), ("al1", GARAND, "J9")])
    s, _ = play(s, AXIS, "board ax2 ax1")  # Gun Transport carries Artillery
    assert s.unit("ax2").carried_by == "ax1"
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", make_card("mortar", side=ALLIES, subtype="Artillery",
                                                                        speed=0), "C5"), ("ax1", KAR98, "J9")],
               active=ALLIES)
    with pytest.raises(IllegalOrder, match="Gun Transport"):
        play(s, ALLIES, "board al2 al1")


def test_m15_2_a_speed_0_soldier_may_still_board() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", SPEED0, "C5"), ("ax1", KAR98, "J9")], active=ALLIES)
    s, _ = play(s, ALLIES, "board al2 al1")
    assert s.unit("al2").carried_by == "al1"


def test_m15_3_aboard_it_cannot_attack_or_be_attacked_and_does_not_count_for_stacking() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("al4", GARAND, "C4"),
                            ("ax1", KAR98, "C6")], active=ALLIES, phase=Phase.ASSAULT, al2={"carried_by": "al1"})
    with pytest.raises(IllegalOrder, match="aboard a transport"):
        play(s, ALLIES, "attack al2 ax1")
    s2, _ = play(s, ALLIES, "move al4 C5")  # the jeep and al4: the passenger does not count
    assert [u.id for u in s2.units_at(hx("C5"))] == ["al1", "al4"]
    enemy = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("ax1", KAR98, "C6")],
                   phase=Phase.ASSAULT, al2={"carried_by": "al1"})
    with pytest.raises(IllegalOrder, match="cannot be attacked on its own"):
        play(enemy, AXIS, "attack ax1 al2")


def test_exposed_transport_lets_the_passenger_be_attacked() -> None:
    s = battle(open_map(), [("al1", T34, "C5", "N"), ("al2", GARAND, "C5"), ("ax1", KAR98, "C6")],
               phase=Phase.ASSAULT, al2={"carried_by": "al1"})
    s, events = play(s, AXIS, "attack ax1 al2", [6] * 4 + [1] * 4)
    assert of_type(events, Attacked)[0].counters == ("disrupted",)


def test_m15_3_a_destroyed_transport_takes_its_passenger_with_it() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("al3", GARAND, "L9"),
                            ("ax1", PANZER, "C6", "N"), ("ax2", KAR98, "A1")],
               phase=Phase.ASSAULT, first=ALLIES, al2={"carried_by": "al1"})
    s, _ = play(s, AXIS, "attack ax1 al1", [6] * 4 + [1] * 11)  # 4 ≥ 2 × 2: destroyed
    s, events = play(s, AXIS, "done", [1, 1, 2, 2])
    (cas,) = of_type(events, Casualties)
    assert cas.destroyed == ("al1", "al2")
    assert s.unit("al2").destroyed and not s.unit("al2").on_map


def test_m15_3_disruption_or_damage_of_the_transport_leaves_the_passenger_alone() -> None:
    s = battle(open_map(), [("al1", T34, "C5", "N"), ("al2", GARAND, "C5"), ("al3", GARAND, "L9"),
                            ("ax1", PANZER, "C6", "N"), ("ax2", KAR98, "A1")],
               phase=Phase.ASSAULT, first=ALLIES, al2={"carried_by": "al1"})
    s, _ = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 9)  # 6 vs 5 → 1 hit (Superior Armor 2)
    s, _ = play(s, AXIS, "done", [1, 1, 2, 2])
    assert s.unit("al1").disrupted and not s.unit("al2").disrupted and s.unit("al2").carried_by == "al1"


def test_m15_4_a_soldier_that_cannot_dismount_into_a_full_hex_goes_to_the_nearest_legal_hex() -> None:
    s = battle(open_map(), [("al1", JEEP, "C5", "N"), ("al2", GARAND, "C5"), ("al3", GARAND, "C5"),
                            ("al4", GARAND, "C5"), ("ax1", KAR98, "J9")], active=ALLIES, stacking=3,
               al2={"carried_by": "al1"})
    s, events = play(s, ALLIES, "dismount al2")
    (d,) = of_type(events, Dismounted)
    assert d.displaced and d.hex.distance(hx("C5")) == 1 and d.hex == sorted(hx("C5").ring(1))[0]


def test_fighting_platform_passenger_attacks_while_the_carrier_stays_put() -> None:
    s = battle(open_map(), [("ax1", SDKFZ251, "C5", "N"), ("ax2", KAR98, "C5"), ("al1", GARAND, "C4")],
               phase=Phase.ASSAULT, ax2={"carried_by": "ax1"})
    s2, events = play(s, AXIS, "attack ax2 al1", [1] * 8)
    assert of_type(events, Attacked)[0].attacker == "ax2"
    with pytest.raises(IllegalOrder, match="Fighting Platform"):
        play(s2, AXIS, "move ax1 C6")
    s3, _ = play(s, AXIS, "move ax1 D6")
    with pytest.raises(IllegalOrder, match="carrier moved"):
        play(s3, AXIS, "attack ax2 al1")


def test_fighting_platform_passenger_may_fire_defensively() -> None:
    s = battle(open_map(), [("ax1", SDKFZ251, "E5", "N"), ("ax2", KAR98, "E5"), ("al1", GARAND, "E4")],
               active=ALLIES, ax2={"carried_by": "ax1"})
    s, _ = play(s, ALLIES, "move al1 F4")
    s, events = play(s, AXIS, "fire ax2 leaving", [6, 6, 6, 6, 1, 1, 1, 1])
    assert of_type(events, DefensiveFireEvent)[0].stopped
