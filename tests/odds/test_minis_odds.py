"""A&A Miniatures attack odds (M-7.3 to M-7.5, M-9.1, M-11, M-12.4) against hand counts."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine.core.errors import IllegalOrder
from engine.odds.minis import MinisAttack, counters_after, hits_from_successes, minis_odds


def hits(**kw: object) -> dict[int, F]:
    return dict(minis_odds(MinisAttack(**kw)).hits)  # type: ignore[arg-type]


def test_m_7_10_worked_example_six_successes_against_defense_five() -> None:
    a = MinisAttack(dice=11, defense=5)
    assert [hits_from_successes(a, s) for s in (4, 5, 6, 9, 10, 11)] == [0, 1, 2, 2, 3, 3]
    assert counters_after(a, 2, covered=False) == {"damaged": 1}  # Disrupted and Damaged counters


def test_m_7_5_thresholds_two_dice_defense_one() -> None:
    # each die 1/2: successes 0 (1/4), 1 (1/2), 2 (1/4); 1 = defense -> 1 hit;
    # 2 > defense and >= twice the defense -> 3 hits
    assert hits(dice=2, defense=1) == {0: F(1, 4), 1: F(1, 2), 2: 0, 3: F(1, 4)}


def test_m_7_3_attacker_penalty_and_die_modifier() -> None:
    assert minis_odds(MinisAttack(dice=1, defense=1, attacker_penalty=True)).die_chance == F(1, 3)
    assert minis_odds(MinisAttack(dice=1, defense=1, die_modifier=1)).die_chance == F(2, 3)
    # disrupted and damaged is still -1 (the flag is one penalty)
    assert minis_odds(MinisAttack(dice=1, defense=1, die_modifier=-1)).die_chance == F(1, 3)


def test_m_7_4_target_penalty_lowers_defense_once() -> None:
    assert hits(dice=1, defense=2, target_penalty=True) == hits(dice=1, defense=1)
    assert MinisAttack(dice=1, defense=4, target_penalty=True, target_damaged=True).effective_defense == 3


def test_m_11_cover_limits_a_normal_attack_to_one_hit() -> None:
    # 2 dice, defense 1; cover 5+ succeeds 1/3 when the attack would hit.
    assert hits(dice=2, defense=1, cover=5) == {
        0: F(1, 4), 1: F(1, 2) + F(1, 4) * F(1, 3), 2: 0, 3: F(1, 4) * F(2, 3)}  # fmt: skip


def test_m_11_1_same_hex_makes_cover_harder() -> None:
    odds = minis_odds(MinisAttack(dice=2, defense=1, cover=5, same_hex=True))
    assert odds.cover_chance == F(1, 6)
    assert minis_odds(MinisAttack(dice=2, defense=1, cover=4, cover_modifier=-1)).cover_chance == F(1, 3)


def test_m_12_4_defensive_fire_disrupts_on_reaching_defense_and_cover_negates() -> None:
    assert hits(dice=2, defense=1, defensive_fire=True) == {0: F(1, 4), 1: F(3, 4), 2: 0, 3: 0}
    assert hits(dice=2, defense=1, cover=5, defensive_fire=True) == {
        0: F(1, 4) + F(3, 4) * F(1, 3), 1: F(3, 4) * F(2, 3), 2: 0, 3: 0}  # fmt: skip
    odds = minis_odds(MinisAttack(dice=2, defense=1, defensive_fire=True))
    assert odds.counters == {"none": F(1, 4), "disrupted": F(3, 4), "damaged": 0, "destroyed": 0}


def test_m_9_1_counters_by_target() -> None:
    """M-9.1 (M-12.4 for defensive fire): the counters 0..3 hits give a target with none yet."""
    table = {
        "soldier": (dict(target="soldier"), ["none", "disrupted", "destroyed", "destroyed"]),
        "vehicle": (dict(target="vehicle"), ["none", "disrupted", "damaged", "destroyed"]),
        "damaged vehicle": (dict(target_damaged=True), ["none", "disrupted", "destroyed", "destroyed"]),
        "defensive fire": (dict(defensive_fire=True), ["none", "disrupted", "disrupted", "disrupted"]),
    }
    for name, (kw, want) in table.items():
        a = MinisAttack(dice=1, defense=1, **kw)  # type: ignore[arg-type]
        got = [counters_after(a, h, covered=False) for h in range(4)]
        assert got == [{c: 1} for c in want], name


def test_counters_add_up_to_the_hits() -> None:
    odds = minis_odds(MinisAttack(dice=9, defense=4, target="soldier", cover=4))
    assert odds.counters["destroyed"] == odds.hits[2] + odds.hits[3]
    assert sum(odds.counters.values()) == 1 and sum(odds.hits.values()) == 1


def test_shrapnel_doubles_successes_against_soldiers_only() -> None:
    assert hits(dice=1, defense=2, target="soldier", shrapnel=2)[1] == F(1, 2)
    # Against a Vehicle the successes count once (the hit table) and the option, which
    # would change nothing, is refused rather than dropped in silence.
    assert hits_from_successes(MinisAttack(dice=1, defense=2, target="vehicle", shrapnel=2), 1) == 0
    with pytest.raises(IllegalOrder, match="Soldiers only"):
        hits(dice=1, defense=2, target="vehicle", shrapnel=2)


def test_superior_armor_needs_more_for_the_second_hit() -> None:
    plain = MinisAttack(dice=3, defense=1)
    armored = MinisAttack(dice=3, defense=1, superior_armor=2)
    assert [hits_from_successes(plain, s) for s in range(4)] == [0, 1, 3, 3]
    assert [hits_from_successes(armored, s) for s in range(4)] == [0, 1, 1, 3]


def test_armor_piercing_turns_two_hits_into_three_on_vehicles() -> None:
    ap = MinisAttack(dice=6, defense=3, armor_piercing=True)
    assert hits_from_successes(ap, 4) == 3
    assert hits_from_successes(MinisAttack(dice=6, defense=3, armor_piercing=True, target="soldier"), 4) == 2


def test_json_shape() -> None:
    d = minis_odds(MinisAttack(dice=11, defense=5, cover=5)).to_dict()
    assert set(d["hits"]) == {"0", "1", "2", "3"}
    assert sum(d["hits"].values()) == pytest.approx(1.0)
    assert d["exact"]["hits"]["3"] == "1/256"


def counters(**kw: object) -> dict[str, F]:
    return {k: v for k, v in minis_odds(MinisAttack(**kw)).counters.items() if v}  # type: ignore[arg-type]


def test_hull_mounted_flamethrower_three_natural_sixes_destroy_whatever_the_hits() -> None:
    # 3 dice can never reach defense 4: only 6, 6, 6 (1/216) does anything.
    odds = minis_odds(MinisAttack(dice=3, defense=4, flamethrower=True))
    assert odds.flame_chance == F(1, 216)
    assert odds.hits == {0: 1, 1: 0, 2: 0, 3: 0}
    assert counters(dice=3, defense=4, flamethrower=True) == {"none": F(215, 216), "destroyed": F(1, 216)}
    # a natural 6 counts even when the modifier makes it fail (6 - 3 = 3)
    assert counters(dice=3, defense=1, die_modifier=-3, flamethrower=True)["destroyed"] == F(1, 216)
    # defensive fire: destroyed at once instead of stopped and disrupted
    assert counters(dice=3, defense=4, flamethrower=True, defensive_fire=True)["destroyed"] == F(1, 216)


def test_the_flamethrower_allows_no_cover_roll() -> None:
    # Its short-range attacks allow no cover (the game's cover.cover_ignored_by): a cover
    # number with it is refused, not computed as a roll the game never makes.
    with pytest.raises(IllegalOrder, match="allow no cover roll"):
        minis_odds(MinisAttack(dice=3, defense=4, flamethrower=True, cover=4, target="soldier"))


def test_flamethrower_joint_law_against_a_brute_force_count() -> None:
    from itertools import product

    a = MinisAttack(dice=4, defense=2, die_modifier=-1, flamethrower=True)
    want = {c: F(0) for c in ("none", "disrupted", "damaged", "destroyed")}
    for faces in product(range(1, 7), repeat=4):
        s = sum(1 for f in faces if f - 1 >= 4)
        flame = sum(1 for f in faces if f == 6) >= 3
        for c, p in counters_after(a, hits_from_successes(a, s), covered=False, flame=flame).items():
            want[c] += p / 6**4
    assert minis_odds(a).counters == want


def test_highly_flammable_damaged_counter_is_destroyed_on_3_or_more() -> None:
    # 3 dice vs defense 2: 3 successes (1/8) is 2 hits, Disrupted then Damaged.
    got = counters(dice=3, defense=2, highly_flammable=True)
    assert got["damaged"] == F(1, 8) * F(2, 6)
    assert got["destroyed"] == F(1, 8) * F(4, 6)


def test_m9_1_counters_placed_earlier_this_phase_continue_the_sequence() -> None:
    a = MinisAttack(dice=1, defense=1, prior_counters=("disrupted",))
    assert counters_after(a, 1, covered=False) == {"damaged": 1}
    soldier = MinisAttack(dice=1, defense=1, target="soldier", prior_counters=("disrupted",))
    assert counters_after(soldier, 1, covered=False) == {"destroyed": 1}
    # M-11.2: a successful cover roll adds nothing to a unit that has a counter already
    assert counters_after(a, 3, covered=True) == {"disrupted": 1}
    # 2 dice vs defense 1, cover 5+ (1/3), target already has a Disrupted counter
    assert counters(dice=2, defense=1, cover=5, prior_counters=("disrupted",)) == {
        "disrupted": F(1, 4) + F(3, 4) * F(1, 3), "damaged": F(1, 2) * F(2, 3), "destroyed": F(1, 4) * F(2, 3)}
    # M-9.2: once destroyed, nothing changes
    assert counters(dice=2, defense=1, prior_counters=("disrupted", "destroyed")) == {"destroyed": 1}


def test_forest_camouflage_cover_succeeds_without_a_die() -> None:
    odds = minis_odds(MinisAttack(dice=2, defense=1, cover=5, cover_automatic=True))
    assert odds.cover_chance == 1
    assert odds.hits == {0: F(1, 4), 1: F(3, 4), 2: 0, 3: 0}


@pytest.mark.parametrize(
    "kw",
    [dict(dice=0, defense=3), dict(dice=3, defense=0), dict(dice=3, defense=3, target="tank"),
     dict(dice=3, defense=3, target="soldier", target_damaged=True), dict(dice=3, defense=3, cover=9),
     dict(dice=3, defense=3, cover_automatic=True), dict(dice=3, defense=3, prior_counters=("scratched",)),
     dict(dice=3, defense=3, target="soldier", prior_counters=("disrupted", "damaged")),
     dict(dice=3, defense=3, same_hex=True)],
)  # fmt: skip
def test_bad_inputs_are_player_errors(kw: dict[str, object]) -> None:
    with pytest.raises(IllegalOrder):
        minis_odds(MinisAttack(**kw))  # type: ignore[arg-type]


def test_the_chart_shows_double_shot_heavy_armor_and_overheat() -> None:
    from engine.odds.report import minis_sections, minis_subtitle

    odds = minis_odds(MinisAttack(dice=5, defense=2, heavy_armor=True, overheat=True, attacks=2))
    assert odds.second_hits is not None and odds.heavy_armor_chance is not None and odds.overheat_chance is not None
    sections = dict(minis_sections(odds))
    assert list(sections) == ["Hits, first attack", "Hits, second attack", "Result after both", "Abilities"]
    assert sections["Hits, second attack"] == [(f"{h} hit" + ("" if h == 1 else "s"), float(p))
                                               for h, p in odds.second_hits.items()]  # fmt: skip
    assert sections["Abilities"] == [("Heavy Armor used up", float(odds.heavy_armor_chance)),
                                     ("Overheat: attacker disrupted", float(odds.overheat_chance))]  # fmt: skip
    assert minis_subtitle(odds) == "5 dice vs defense 2 vehicle, Double Shot, Heavy Armor, Overheat"
    plain = minis_odds(MinisAttack(dice=5, defense=2))
    assert [name for name, _ in minis_sections(plain)] == ["Hits", "Result"]
