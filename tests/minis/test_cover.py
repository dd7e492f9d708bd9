"""M-11 Cover: the defender's roll in forest, hill, town and (Soldiers) marsh."""

from __future__ import annotations

from engine.minis.events import Attacked, CoverRoll, DefensiveFireEvent
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, Phase

from .helpers import GARAND, KAR98, PANZER, SHERMAN, ascii_map, battle, hx, of_type, play

COVER = ascii_map("""
. . . . . . . .
. . . . . . . .
. . . . F T H M
. . . . . . . .
. . . . . . . .
""", roads=[("E2", "E3"), ("E3", "E4")])


def assault(placements: list, **kw: object) -> object:
    return battle(COVER, placements, phase=Phase.ASSAULT, **kw)  # type: ignore[arg-type]


FIVE_OF_EIGHT = [6, 6, 6, 6, 6, 1, 1, 1]  # 5 successes against defense 4: two hits


def test_m11_1_m11_2_a_successful_cover_roll_limits_the_attack_to_one_disrupted_counter() -> None:
    s = assault([("ax1", KAR98, "E4"), ("al1", GARAND, "E3")])
    s, events = play(s, AXIS, "attack ax1 al1", FIVE_OF_EIGHT + [4])  # attack dice, then the cover die
    (a,) = of_type(events, Attacked)
    assert a.hits == 2 and a.covered and a.counters == ("disrupted",)
    assert of_type(events, CoverRoll) == [CoverRoll("al1", 4, 0, 4, True)]
    assert s.unit("al1").hits == (Hit.DISRUPTED,)


def test_m11_1_a_failed_cover_roll_changes_nothing() -> None:
    s = assault([("ax1", KAR98, "E4"), ("al1", GARAND, "E3")])
    s, events = play(s, AXIS, "attack ax1 al1", FIVE_OF_EIGHT + [3])
    assert of_type(events, Attacked)[0].counters == ("disrupted", "destroyed")


def test_m11_1_vehicles_need_5_or_more() -> None:
    s = assault([("ax1", PANZER, "F4", "N"), ("al1", SHERMAN, "F3", "S")])  # the Sherman in town
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 9 + [4])
    assert of_type(events, CoverRoll)[0].success is False
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 9 + [5])
    assert of_type(events, CoverRoll)[0].success is True
    assert of_type(events, Attacked)[0].counters == ("disrupted",)


def test_m11_1_minus_1_when_the_attacker_is_in_the_targets_hex() -> None:
    s = assault([("ax1", KAR98, "E3"), ("al1", GARAND, "E3")])
    _, events = play(s, AXIS, "attack ax1 al1", FIVE_OF_EIGHT + [4])
    assert of_type(events, CoverRoll) == [CoverRoll("al1", 4, -1, 4, False)]


def test_m11_5_no_cover_roll_when_the_attack_scores_no_hit() -> None:
    s = assault([("ax1", KAR98, "E4"), ("al1", GARAND, "E3")])
    _, events = play(s, AXIS, "attack ax1 al1", [6, 6, 6, 1, 1, 1, 1, 1])  # 3 < 4: no die for cover
    assert not of_type(events, CoverRoll)


def test_m11_2_no_new_counter_if_it_already_has_a_face_down_disrupted() -> None:
    s = assault([("ax1", KAR98, "E4"), ("ax2", KAR98, "D3"), ("al1", GARAND, "E3")])
    s, _ = play(s, AXIS, "attack ax1 al1", [6, 6, 6, 6, 1, 1, 1, 1] + [1])  # one hit, cover fails
    s, events = play(s, AXIS, "attack ax2 al1", FIVE_OF_EIGHT + [6])  # cover succeeds
    assert of_type(events, Attacked)[0].counters == ()
    assert s.unit("al1").hits == (Hit.DISRUPTED,)


def test_m11_1_marsh_and_hill_give_cover_to_soldiers() -> None:
    for hex_, attacker in (("H3", "H4"), ("G3", "G4")):
        s = assault([("ax1", KAR98, attacker), ("al1", GARAND, hex_)])
        _, events = play(s, AXIS, "attack ax1 al1", FIVE_OF_EIGHT + [5])
        assert of_type(events, CoverRoll)[0].success


def test_m11_4_roads_do_not_change_cover_and_every_attack_rolls_its_own() -> None:
    s = assault([("ax1", KAR98, "E4"), ("ax2", KAR98, "E2"), ("al1", GARAND, "E3")])  # road through forest
    s, e1 = play(s, AXIS, "attack ax1 al1", FIVE_OF_EIGHT + [2])
    s, e2 = play(s, AXIS, "attack ax2 al1", FIVE_OF_EIGHT + [5])
    assert [c.die for c in of_type(e1 + e2, CoverRoll)] == [2, 5]


def test_m11_3_against_defensive_fire_a_successful_cover_roll_negates_the_attack() -> None:
    # The Garand leaves the forest E3 for D3, both next to the Kar 98k in E4; fired at in the forest.
    s = battle(COVER, [("al1", GARAND, "E3"), ("ax1", KAR98, "E4")], active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 D3")
    s, events = play(s, AXIS, "fire ax1 leaving", FIVE_OF_EIGHT + [4])
    (d,) = of_type(events, DefensiveFireEvent)
    assert not d.stopped and of_type(events, Attacked)[0].covered
    assert s.unit("al1").hex == hx("D3") and not s.unit("al1").disrupted
