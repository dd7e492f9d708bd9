"""A&A battles small enough to solve by hand: the exact engine must give these fractions.

Each case states its derivation.  Every case runs through both exact engines (the fast
sequence engine where it applies, and the general one) and through float mode."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine.odds.aa import AABattle, aa_odds


def exact(battle: AABattle, engine: str = "auto") -> dict[str, F]:
    odds = aa_odds(battle, exact=True, engine=engine)
    assert odds.exact is not None
    return dict(odds.exact)


def both(battle: AABattle) -> dict[str, F]:
    """The general engine's exact answer, after checking the auto engine and float
    mode agree with it."""
    general = exact(battle, "general")
    assert exact(battle) == general
    floats = aa_odds(battle)
    for key, value in general.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)
    return general


def test_one_infantry_each_issue_example() -> None:
    # Per round: attacker hits 1/6, defender 1/3.  Conditioned on anything happening
    # (1 - 5/6*2/3 = 4/9): attacker only 1/6*2/3 = 1/9 -> 1/4; defender only
    # 5/6*1/3 = 5/18 -> 5/8; both 1/18 -> 1/8.
    r = both(AABattle.parse("1 inf", "1 inf"))
    assert (r["attacker_win"], r["defender_win"], r["draw"]) == (F(1, 4), F(5, 8), F(1, 8))
    assert r["attacker_takes"] == F(1, 4)


def test_artillery_support_a_14_2() -> None:
    # 1 inf + 1 art attack at 2 and 2 (support 1:1) vs 1 inf defending at 2.
    # Attacker hits per round: 1 - (2/3)^2 = 5/9; defender 1/3.  The defender's hit
    # takes the infantry first (lowest attack, cheapest), leaving 1 art (2) vs 1 inf.
    # From 1 art vs 1 inf: a = 1/3 attacker hits, d = 1/3: win (1/3*2/3)/(5/9) = 2/5.
    # From the start: p(no event) = 4/9 * 2/3 = 8/27; attacker hits, defender misses:
    # 5/9*2/3 = 10/27 (win); both: 5/9*1/3 = 5/27 (win, art survives); defender only:
    # 4/9*1/3 = 4/27 -> art vs inf.  Normalise by 19/27:
    # win = (15 + 4*2/5)/19 = 83/95.
    r = both(AABattle.parse("1 inf, 1 art", "1 inf"))
    assert r["attacker_win"] == F(83, 95)


def test_no_artillery_support_on_defence() -> None:
    # Defending infantry and artillery both roll at 2 whatever the pairing.
    supported = both(AABattle.parse("1 tank", "1 inf, 1 art"))
    plain = both(AABattle.parse("1 tank", "2 inf"))
    assert supported == plain


def test_aa_gun_fires_once_at_each_aircraft_a_10_5() -> None:
    # The AA gun shoots the fighter down with 1/6 (defender holds).  Otherwise 1 fighter
    # (3) vs 1 inf (2): attacker 1/2, defender 1/4, both 1/4.  The fighter alone never
    # takes the territory.
    r = both(AABattle.parse("1 fig", "1 inf, 1 aa"))
    assert r["attacker_win"] == F(5, 6) * F(1, 2)
    assert r["defender_win"] == F(1, 6) + F(5, 6) * F(1, 4)
    assert r["draw"] == F(5, 6) * F(1, 4)
    assert r["attacker_takes"] == 0


def test_only_one_aa_gun_fires() -> None:
    assert both(AABattle.parse("1 fig", "1 inf, 3 aa")) == both(AABattle.parse("1 fig", "1 inf, 1 aa"))


def test_aa_gun_is_never_a_casualty_and_never_rolls() -> None:
    # A territory held by an AA gun alone: the infantry walks in.
    r = both(AABattle.parse("1 inf", "1 aa"))
    assert r["attacker_win"] == 1 and r["attacker_takes"] == 1
    odds = aa_odds(AABattle.parse("1 inf", "1 aa"))
    assert odds.expected_survivors["defender"]["aa gun"] == pytest.approx(1.0)


def test_battleship_takes_two_hits_a_10_8() -> None:
    # 1 bat (4) vs 1 des (2) at sea.  From intact: p(no event) = 1/3*2/3 = 2/9; the
    # battleship hitting wins (2/3 -> 6/7); a miss and a destroyer hit damages it
    # (1/9 -> 1/7).  Damaged: win 4/9, lose 1/9, both 2/9 over 7/9: 4/7, 1/7, 2/7.
    r = both(AABattle.parse("1 bat", "1 des", mode="sea"))
    assert r["attacker_win"] == F(6, 7) + F(1, 7) * F(4, 7)
    assert r["defender_win"] == F(1, 7) * F(1, 7)
    assert r["draw"] == F(1, 7) * F(2, 7)


def test_submarine_surprise_strike_a_10_6() -> None:
    # 1 sub strikes first (2): a hit sinks the cruiser before it fires (1/3).  Otherwise
    # the cruiser fires (3): 1/2.  Win 1/3, lose 1/3 per round: 1/2 each, no draw.
    r = both(AABattle.parse("1 sub", "1 cru", mode="sea"))
    assert (r["attacker_win"], r["defender_win"], r["draw"]) == (F(1, 2), F(1, 2), 0)


def test_destroyer_cancels_the_surprise_strike() -> None:
    # Simultaneous fire, 1/3 each: attacker 2/9, defender 2/9, both 1/9 over 5/9.
    r = both(AABattle.parse("1 sub", "1 des", mode="sea"))
    assert (r["attacker_win"], r["defender_win"], r["draw"]) == (F(2, 5), F(2, 5), F(1, 5))


def test_aircraft_cannot_hit_a_submarine_without_a_destroyer() -> None:
    odds = aa_odds(AABattle.parse("2 fig", "1 sub", mode="sea"), exact=True)
    assert odds.stalemate == 1 and odds.defender_win == 1
    assert odds.expected_survivors["defender"]["submarine"] == 1
    assert odds.expected_survivors["attacker"]["fighter"] == 2


def test_aircraft_hit_submarines_with_a_friendly_destroyer() -> None:
    # With the destroyer the fighter (3) may hit the sub; the sub (1) can only hit the
    # destroyer.  Per round: attacker hits 1 - (1/2)(2/3) = 2/3, the sub 1/6.
    # attacker only: 2/3*5/6 = 5/9; both: 2/3*1/6 = 1/9 (attacker still wins);
    # sub only: 1/3*1/6 = 1/18 -> destroyer gone: fighter vs sub, a stalemate.
    # p(no event) = 1/3*5/6 = 5/18; so win = (6/9)/(13/18) = 12/13.
    r = both(AABattle.parse("1 fig, 1 des", "1 sub", mode="sea"))
    assert r["attacker_win"] == F(12, 13)
    assert r["defender_win"] == F(1, 13)


def test_submarine_hits_never_land_on_aircraft() -> None:
    # Attacking sub (2) with a destroyer present on its side vs a carrier with 2
    # fighters and a defending destroyer: the sub's hits must go on ships.  With only
    # subs attacking and no defending destroyer, the fighters stay out altogether.
    odds = aa_odds(AABattle.parse("1 sub", "1 car, 2 fig", mode="sea"), exact=True)
    # Sub strike sinks the carrier (1/3) before it fires; else the carrier (2) fires 1/3.
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == F(3, 5)
    assert odds.expected_survivors["defender"]["fighter"] == 2  # never in the battle


def test_transports_are_taken_last_and_die_when_defenceless_a_10_7() -> None:
    # des vs des + tra, 1/3 each: the destroyer is lost first; the transport alone is
    # then sunk without dice if the attacker is still there.  attacker only 2/9 (win);
    # both 1/9: the attacker is gone, the transport holds; defender only 2/9.
    r = both(AABattle.parse("1 des", "1 des, 1 tra", mode="sea"))
    assert (r["attacker_win"], r["defender_win"], r["draw"]) == (F(2, 5), F(3, 5), 0)


def test_lone_transports_and_subs_against_aircraft_lose_the_transports() -> None:
    odds = aa_odds(AABattle.parse("1 fig", "1 sub, 2 tra", mode="sea"), exact=True)
    assert odds.expected_survivors["defender"]["transport"] == 0
    assert odds.expected_survivors["defender"]["submarine"] == 1
    assert odds.stalemate == 1


def test_attacking_transports_are_never_defenceless() -> None:
    # A transport alone attacks a destroyer: it is shot at (1/3 a round) until sunk.
    r = both(AABattle.parse("1 tra", "1 des", mode="sea"))
    assert r["defender_win"] == 1


def test_shore_bombardment_casualties_fire_back_a_10_3() -> None:
    # Battleship bombards (4): hit 2/3 -> the defending infantry still fires in round 1:
    # 1/3 the landing infantry dies too (draw), else the attacker wins.  Miss (1/3): a
    # plain 1 inf vs 1 inf (1/4, 5/8, 1/8).
    r = both(AABattle.parse("1 inf", "1 inf", mode="amphibious", bombard="1 bat"))
    assert r["attacker_win"] == F(2, 3) * F(2, 3) + F(1, 3) * F(1, 4)
    assert r["draw"] == F(2, 3) * F(1, 3) + F(1, 3) * F(1, 8)
    assert r["defender_win"] == F(1, 3) * F(5, 8)


def test_at_most_one_bombarding_ship_per_landing_unit() -> None:
    one = both(AABattle.parse("1 inf", "2 inf", mode="amphibious", bombard="1 bat"))
    two = both(AABattle.parse("1 inf", "2 inf", mode="amphibious", bombard="2 bat"))
    assert one == two
    # With two landing units both ships fire, and the result is better than with one.
    a1 = both(AABattle.parse("2 inf", "2 inf", mode="amphibious", bombard="1 bat"))
    a2 = both(AABattle.parse("2 inf", "2 inf", mode="amphibious", bombard="2 bat"))
    assert a2["attacker_win"] > a1["attacker_win"]


def test_best_ships_bombard_first() -> None:
    # 1 landing unit, a battleship and a cruiser offered: the battleship fires (4, not 3).
    mixed = both(AABattle.parse("1 inf", "1 inf", mode="amphibious", bombard="1 cru, 1 bat"))
    bat = both(AABattle.parse("1 inf", "1 inf", mode="amphibious", bombard="1 bat"))
    assert mixed == bat


def test_global_1940_battleship_bombards_with_two_dice_g_10() -> None:
    # G-7/G-10: the battleship rolls two dice at 4 when it backs a landing.  One defender:
    # at least one hit 1 - (1/3)^2 = 8/9 -> it still fires in round 1 (1/3 a draw, else
    # the attacker wins); both miss (1/9): a plain 1 inf vs 1 inf (1/4, 5/8, 1/8).
    r = both(AABattle.parse("1 inf", "1 inf", mode="amphibious", bombard="1 bat", rules="global1940"))
    assert r["attacker_win"] == F(8, 9) * F(2, 3) + F(1, 9) * F(1, 4)
    assert r["draw"] == F(8, 9) * F(1, 3) + F(1, 9) * F(1, 8)
    assert r["defender_win"] == F(1, 9) * F(5, 8)
    # Two dice at 4 are two Anniversary battleships' bombardment (the land units' profiles
    # are the same under both rules sets).
    g = both(AABattle.parse("2 inf", "3 inf", mode="amphibious", bombard="1 bat", rules="global1940"))
    assert g == both(AABattle.parse("2 inf", "3 inf", mode="amphibious", bombard="2 bat"))


def test_global_1940_one_battleship_and_one_cruiser_back_each_landing_g_10() -> None:
    # G-10: each landing transport may be backed by one battleship and one cruiser; the
    # odds see no transports, so one of each kind per landing land unit fires.
    def g(ships: str) -> dict[str, F]:
        return both(AABattle.parse("1 inf", "2 inf", mode="amphibious", bombard=ships, rules="global1940"))

    both_kinds = g("1 bat, 1 cru")
    assert both_kinds == g("2 bat, 2 cru")  # one of each per land unit
    assert both_kinds == g("1 bat, 1 dbat, 1 cru")  # a damaged battleship is a battleship
    assert both_kinds["attacker_win"] > g("1 bat")["attacker_win"]  # the cruiser fires too
    assert g("2 bat") == g("1 bat")


def test_a_damaged_battleship_sinks_at_the_next_hit_a_10_8() -> None:
    # Global-1940 (two dice at 4) against a cruiser (3): a round with at least one hit of
    # the battleship's 8/9 and the cruiser's 1/2; either side's single hit ends it.  Win
    # 8/9 * 1/2, draw 8/9 * 1/2, loss 1/9 * 1/2, over the 17/18 a round decides.
    r = both(AABattle.parse("1 damaged battleship", "1 cru", mode="sea", rules="global1940"))
    assert (r["attacker_win"], r["draw"], r["defender_win"]) == (F(8, 17), F(8, 17), F(1, 17))
    # A second wave meets it repaired, as one damaged in the first wave (docs/odds.md,
    # Second wave): the destroyers' battle is against an intact battleship.
    odds = aa_odds(AABattle.parse("1 des", "1 dbat", mode="sea", wave2="2 des"), exact=True)
    first = exact(AABattle.parse("1 des", "1 dbat", mode="sea"))
    second = exact(AABattle.parse("2 des", "1 bat", mode="sea"))
    assert odds.second_wave is not None
    assert odds.second_wave["attacker_win"] == pytest.approx(
        float(first["attacker_win"] + first["draw"] + first["defender_win"] * second["attacker_win"]), abs=1e-12)
    # An intact one takes the first hit: better than the damaged one.
    assert both(AABattle.parse("1 bat", "1 cru", mode="sea"))["attacker_win"] > both(
        AABattle.parse("1 dbat", "1 cru", mode="sea"))["attacker_win"]


def test_fight_n_rounds_only() -> None:
    # One round of 1 inf vs 1 inf: attacker 1/9, draw 1/18, defender 5/18; the rest
    # (10/18) is unfinished and counts as the defender holding.
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", rounds=1), exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == F(1, 9)
    assert odds.exact["draw"] == F(1, 18)
    assert odds.exact["defender_win"] == F(5, 18) + F(10, 18)
    assert odds.unfinished == pytest.approx(10 / 18)
    assert odds.expected_rounds == 1


def test_retreat_when_fewer_than_k_units_remain() -> None:
    """A-10.15 standing order "retreat when my units are fewer than K" (A-10.9)."""
    # 2 inf vs 1 inf, retreat below 2: the attacker leaves as soon as it loses one.
    # Per round: attacker hits 1 - (5/6)^2 = 11/36, defender 1/3.
    # Any defender hit with the defender alive -> retreat; attacker hit -> win (even if
    # the defender also hits: the defender is gone first).  Win = (11/36)/(11/36 +
    # 25/36*1/3) = 33/58.
    odds = aa_odds(AABattle.parse("2 inf", "1 inf", retreat_below=2), exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == F(33, 58)
    assert odds.retreat == pytest.approx(25 / 58)
    # Survivors: win with 2 inf 22/58, win with 1 inf 11/58 (both sides hit the same
    # round), retreat with 1 inf 25/58: 80/58 infantry expected.
    assert odds.expected_survivors["attacker"]["infantry"] == pytest.approx(80 / 58, abs=1e-12)


def test_keep_one_land_unit_to_take_the_territory() -> None:
    # 1 inf + 1 fig vs 1 inf.  By default the infantry (attack 1) is lost first and the
    # fighter can never take the territory; keeping the land unit loses the fighter first.
    plain = aa_odds(AABattle.parse("1 inf, 1 fig", "1 inf"), exact=True)
    kept = aa_odds(AABattle.parse("1 inf, 1 fig", "1 inf", keep_land_unit=True), exact=True)
    assert plain.exact is not None and kept.exact is not None
    assert kept.exact["attacker_takes"] > plain.exact["attacker_takes"]
    assert kept.exact["attacker_takes"] == kept.exact["attacker_win"]
    # By hand for the kept case: per round attacker hits 1 - (5/6)(1/2) = 7/12, defender
    # 1/3.  Attacker hit (7/12) wins, the fighter dying if the defender also hits;
    # defender only (5/12*1/3 = 5/36) -> 1 inf vs 1 inf (1/4).  Quiet: 5/12*2/3 = 10/36.
    assert kept.exact["attacker_win"] == (F(21, 36) + F(5, 36) * F(1, 4)) / F(26, 36)


def test_players_order_of_loss() -> None:
    # Attacker 1 inf + 1 tank vs 1 inf: losing the tank first (own order) is worse.
    default = both(AABattle.parse("1 inf, 1 tank", "1 inf"))
    tank_first = both(AABattle.parse("1 inf, 1 tank", "1 inf", ool_attacker="tank,inf"))
    assert tank_first["attacker_win"] < default["attacker_win"]
    # 1 tank (3) vs 1 inf after losing the inf: win 3/6*... checked by symmetry with the
    # simple battles: after one defender hit the rest is a one-on-one fight.
    one_tank = both(AABattle.parse("1 tank", "1 inf"))
    one_inf = both(AABattle.parse("1 inf", "1 inf"))
    # Per round: attacker hits 1 - (5/6)(1/2) = 7/12, defender 1/3; quiet 5/12*2/3.
    q = 1 - F(5, 12) * F(2, 3)
    assert default["attacker_win"] == (F(7, 12) + F(5, 12) * F(1, 3) * one_tank["attacker_win"]) / q
    assert tank_first["attacker_win"] == (F(7, 12) + F(5, 12) * F(1, 3) * one_inf["attacker_win"]) / q


def test_default_order_loses_lowest_value_first_bomber_on_defence() -> None:
    # A defending bomber (defence 1) is lost before infantry (defence 2).
    odds = aa_odds(AABattle.parse("1 inf", "1 bom, 1 inf"), exact=True)
    surv = odds.expected_survivors["defender"]
    assert surv["bomber"] < surv["infantry"]


def test_battleship_absorbs_first_even_with_a_custom_order() -> None:
    # One round, one attacking destroyer: at most one hit.  The player lists the
    # destroyer first, yet the battleship absorbs that hit, so no destroyer is lost.
    battle = AABattle.parse("1 des", "1 bat, 1 des", mode="sea", ool_defender="des,bat", rounds=1)
    odds = aa_odds(battle, exact=True)
    assert odds.expected_survivors["defender"]["destroyer"] == 1
    assert odds.expected_survivors["defender"]["battleship"] == 1
    # Two rounds: the second hit goes to the destroyer (listed first), not the battleship.
    two = aa_odds(AABattle.parse("2 des", "1 bat, 1 des", mode="sea", ool_defender="des,bat",
                                 rounds=1), exact=True)  # fmt: skip
    assert two.expected_survivors["defender"]["battleship"] == 1
    assert two.expected_survivors["defender"]["destroyer"] == pytest.approx(1 - 1 / 9)
