"""Issue 19 options of the A&A calculator: low luck, strafe (retreat after a round),
rules sets, a second wave, expected losses and TUV swing; in the engine (exact
fractions worked out by hand), the CLI and ``/odds aa``."""

from __future__ import annotations

import inspect
import json
import random
import warnings
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from bot.cli import main
from engine.core.errors import IllegalOrder, PlayerError
from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_fast import FastEngine
from engine.odds.aa_retreat import retreat_pairs
from engine.odds.aa_table import TableEngine
from engine.odds.report import aa_lines
from tests.odds.helpers import invoke, random_army

F = Fraction

# Every chance an answer reports, for comparing two ways of computing one battle.
CHANCES = ("attacker_win", "defender_win", "draw", "retreat", "stalemate", "unfinished", "attacker_takes")


def test_low_luck_two_tanks_against_one_infantry() -> None:
    # 2 tanks: 6 points = one sure hit; the infantry (2) hits with 1/3.
    odds = aa_odds(AABattle.parse("2 tank", "1 inf", low_luck=True), exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == 1
    assert odds.expected_survivors["attacker"]["tank"] == pytest.approx(5 / 3)


def test_chances_reported_never_pass_one(capsys: pytest.CaptureFixture[str]) -> None:
    """A sure outcome summed in decimals may drift past 1 by its rounding (this low-luck
    fleet battle's attacker win summed to 1.0000000000000002): every chance reported,
    in the JSON too, is within [0, 1], the drift being within the error bound."""
    battle = AABattle.parse("14 sub, 4 cru, 2 bat, 4 bom", "6 cru, 3 car, 2 bat, 5 fig", mode="sea", low_luck=True)
    odds = aa_odds(battle)
    assert odds.attacker_win == odds.attacker_takes == 1.0 and odds.error_bound < 1e-14
    chances = [odds.attacker_win, odds.defender_win, odds.draw, odds.attacker_takes, odds.retreat, odds.stalemate]
    for side in ("attacker", "defender"):
        chances += [p for _, p in odds.survivors[side]] + list(odds.survivor_count[side].values())
    assert all(0.0 <= p <= 1.0 for p in chances)
    assert main(["odds", "aa", "--attacker", "14 sub, 4 cru, 2 bat, 4 bom", "--defender", "6 cru, 3 car, 2 bat, 5 fig",
                 "--sea", "--low-luck", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["attacker_win"] == 1.0 and data["attacker_takes"] == 1.0


def test_low_luck_remainder_die() -> None:
    # 1 inf + 1 tank attack: 1 + 3 = 4 points, no sure hit, one die hitting on 4 or less
    # (2/3); 1 inf defends at 2 (1/3).  Hit first: win (even if the infantry is lost).
    # Only the infantry lost: the tank alone (3: 1/2) wins 1/3 / (1 - 1/3) = 1/2.
    # Both miss (2/9): again.  So (4/9 + 2/9 + 1/9 * 1/2) / (1 - 2/9) = 13/14.
    odds = aa_odds(AABattle.parse("1 inf, 1 tank", "1 inf", low_luck=True), exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == F(13, 14)
    dice = aa_odds(AABattle.parse("1 inf, 1 tank", "1 inf"), exact=True)
    assert dice.exact is not None and dice.exact["attacker_win"] != F(13, 14)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("10 inf, 4 art, 4 tank, 2 fig", "12 inf, 4 art, 2 tank, 2 fig", {}),
        ("6 inf, 2 fig, 1 bom", "8 inf, 1 aa", {}),
        ("4 inf, 2 tank", "5 inf", {"mode": "amphibious", "bombard": "1 bat, 2 cru"}),
        ("3 sub, 2 des, 1 car, 2 fig", "2 sub, 2 des, 1 bat", {"mode": "sea"}),
    ],
)
def test_low_luck_float_engines_match_fractions(attacker: str, defender: str, options: dict[str, object]) -> None:
    battle = AABattle.parse(attacker, defender, low_luck=True, **options)  # type: ignore[arg-type]
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert exact.exact is not None
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=floats.error_bound + 1e-13)
    if options.get("mode") != "sea":
        setup, _ = setup_battle(battle, 1.0)
        table = TableEngine(setup).run(None)
        exact_setup, _ = setup_battle(battle, Fraction(1))
        ref = FastEngine(exact_setup).run(None)
        assert table.outcome["attacker"] == pytest.approx(float(ref.outcome["attacker"]), abs=1e-13)


def test_strafe_retreats_after_the_round() -> None:
    """A-10.15 standing order "retreat after round N" (A-10.9: the attacker only)."""
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", retreat_after=1), exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] == F(1, 6) * F(2, 3)
    assert odds.exact["draw"] == F(1, 6) * F(1, 3)
    assert odds.retreat == pytest.approx(float(F(5, 6) * F(2, 3)))
    assert odds.unfinished == 0
    # Retreat counts as "the defender holds".
    assert odds.exact["defender_win"] == F(5, 6) * F(1, 3) + F(5, 6) * F(2, 3)


def test_strafe_is_refused_in_a_landing_with_nothing_that_may_retreat_in_slash_syntax() -> None:
    """A-10.3: land units from the sea never retreat; with no aircraft and no unit that
    came over land, nothing could."""
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("2 inf", "1 inf", mode="amphibious", retreat_after=1))
    text = err.value.text()
    assert "never retreat (A-10.3)" in text
    assert '/odds aa … kind:amphibious overland:"1 inf"' in text and "/odds aa … kind:land" in text


def test_a_landings_aircraft_strafe_and_the_landed_infantry_fights_on() -> None:
    """A-10.3 and its ruling: 1 inf landed from the sea and 1 fighter attack 1 inf; the
    fighter retreats after round 1, the infantry fights on alone until one side is gone.
    Round 1: attacker hits with 1/6 + 5/6 * 1/2 = 7/12 (the infantry's 1 or the
    fighter's 1-3), the defender with 1/3 (and it takes the infantry last, keeping a
    land unit: the fighter goes first, A-10.10 here as the game does it)."""
    battle = AABattle.parse("1 inf, 1 fig", "1 inf", mode="amphibious", retreat_after=1, keep_land_unit=1)
    odds = aa_odds(battle, exact=True)
    hit, shot = F(7, 12), F(1, 3)
    # 1 inf against 1 inf to the end: attacker 1/4, defender 5/8, draw 1/8 (A-10.4).
    one = {"attacker_win": F(1, 4), "defender_win": F(5, 8), "draw": F(1, 8)}
    # After round 1 with both alive (no hit on either side, or only the fighter lost),
    # the infantry alone fights on.
    on = (1 - hit) * (1 - shot) + (1 - hit) * shot
    assert odds.fight_on is not None
    assert odds.fight_on["attacker_win"] == pytest.approx(float(hit + on * one["attacker_win"]), abs=1e-15)
    assert odds.fight_on["draw"] == pytest.approx(float(on * one["draw"]), abs=1e-15)
    assert odds.fight_on["attacker_takes"] == odds.fight_on["attacker_win"]
    # The first part ends at the retreat: "retreat" is where the fighter left.
    assert odds.retreat == pytest.approx(float(on), abs=1e-15)
    # The whole assault's survivors: the fighter unless hit in round 1 (2/3); the
    # infantry if round 1 wins (7/12) or it wins alone after (1/4 of the rest); the
    # defender's infantry only where the attacker's alone lost (5/8 of the rest).
    whole = odds.fight_on_losses
    assert whole is not None
    assert whole["expected_survivors"]["attacker"] == pytest.approx(
        {"infantry": float(hit + on * F(1, 4)), "fighter": float(F(2, 3))}, abs=1e-15)
    assert whole["expected_survivors"]["defender"] == pytest.approx({"infantry": float(on * F(5, 8))}, abs=1e-15)
    assert whole["expected_ipc_loss"]["attacker"] == pytest.approx(
        float(3 * (1 - hit - on * F(1, 4)) + 10 * F(1, 3)), abs=1e-13)
    assert whole["tuv_swing"] == pytest.approx(
        whole["expected_ipc_loss"]["defender"] - whole["expected_ipc_loss"]["attacker"], abs=1e-15)
    assert odds.to_dict()["fight_on"] == {**odds.fight_on, **whole}


def test_a_landings_retreat_by_win_chance_at_100_percent_is_the_strafe_after_round_1() -> None:
    """A-10.3 with a retreat by win chance (the chance of the whole force fighting on to
    the end, as in any battle): at 100 % the aircraft and the overland tank leave after
    round 1 from every pair still fighting (none is a sure win here), as a strafe after
    round 1 does; at 1 % hardly ever, so the whole assault wins more often."""
    common = dict(mode="amphibious", overland="1 tank", keep_land_unit=1)
    always = aa_odds(AABattle.parse("2 inf, 1 tank, 1 fig", "3 inf", retreat_chance=100, **common))
    strafe = aa_odds(AABattle.parse("2 inf, 1 tank, 1 fig", "3 inf", retreat_after=1, **common))
    rarely = aa_odds(AABattle.parse("2 inf, 1 tank, 1 fig", "3 inf", retreat_chance=1, **common))
    assert always.fight_on is not None and strafe.fight_on is not None and rarely.fight_on is not None
    assert always.fight_on == pytest.approx(strafe.fight_on, abs=1e-15)
    assert always.retreat == pytest.approx(strafe.retreat, abs=1e-15)
    assert rarely.retreat < always.retreat and rarely.fight_on["attacker_win"] > always.fight_on["attacker_win"]


@pytest.mark.parametrize("attacker, defender, options", [
    ("1 bom", "1 tank", dict(retreat_after=1)),
    ("4 fig, 1 bom", "5 art, 6 tank", dict(retreat_below=2)),
    ("5 bom", "2 tank, 1 fig", dict(retreat_chance=50)),
    ("2 inf, 2 fig", "3 inf", dict(retreat_after=1, overland="2 inf")),
])  # fmt: skip
def test_a_landing_with_nothing_from_the_sea_retreats_as_a_land_battle(
    attacker: str, defender: str, options: dict[str, Any]
) -> None:
    """A-10.3: only land units from the sea stay when the others retreat.  Where none
    came from the sea (aircraft alone, or every land unit over land) everything may
    retreat, as in a land battle, and nothing fights on (these crashed the calculator
    until 2026-12-04)."""
    exact = "retreat_chance" not in options  # that one is computed in decimals
    amphibious = aa_odds(AABattle.parse(attacker, defender, mode="amphibious", **options), exact=exact)
    land_options = {k: v for k, v in options.items() if k != "overland"}
    land = aa_odds(AABattle.parse(attacker, defender, mode="land", **land_options), exact=exact)
    assert amphibious.fight_on is None and "fight_on" not in amphibious.to_dict()
    assert amphibious.exact == land.exact and amphibious.retreat > 0
    assert [getattr(amphibious, k) for k in CHANCES] == [getattr(land, k) for k in CHANCES]


def test_overland_units_retreat_with_the_aircraft_and_cut_the_bombardment() -> None:
    """A-10.3: at most one bombarding ship per unit landed from the sea; units that
    came over land neither land nor stay when the others retreat."""
    two_ships = AABattle.parse("1 inf, 1 tank", "2 inf", mode="amphibious", bombard="2 bat", keep_land_unit=1)
    one_ship = replace(two_ships, overland={"tank": 1})
    assert aa_odds(two_ships, exact=True).attacker_win > aa_odds(one_ship, exact=True).attacker_win
    with pytest.raises(PlayerError) as err:  # nothing lands: nothing bombards
        aa_odds(replace(two_ships, overland={"tank": 1, "infantry": 1}))
    assert 'overland:"1 inf"' in err.value.text()  # one unit fewer came over land: it lands
    with pytest.raises(PlayerError) as err:  # more than the attacker has
        aa_odds(replace(one_ship, overland={"tank": 2}))
    assert "overland lists 2 tank but the attacker has 1 tank" in err.value.text()
    for unit in ("fighter", "aa gun", "battleship"):  # not an attacking land unit: said so
        with pytest.raises(PlayerError) as err:
            aa_odds(replace(one_ship, attacker={**one_ship.attacker, "fighter": 1}, overland={unit: 1}))
        assert "which is not an attacking land unit" in err.value.text() and 'overland:""' in err.value.text()
    with pytest.raises(PlayerError) as err:  # only in an amphibious assault
        aa_odds(replace(one_ship, mode="land", bombard={}))
    assert "kind:amphibious" in err.value.text()


@pytest.mark.parametrize("options", [dict(rounds=2, retreat_after=1), dict(rounds=3, retreat_chance=40)])
def test_a_landings_retreat_refuses_what_it_cannot_follow(options: dict[str, object]) -> None:
    """The landed units fight on to the end (A-10.3): no round limit there; each
    refusal offers the land battle."""
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("2 inf, 1 fig", "2 inf", mode="amphibious", bombard="1 cru", **options))
    assert '/odds aa … kind:land bombard:""' in err.value.text()


def _hits(values: tuple[int, ...]) -> list[Fraction]:
    """The chance of each number of hits of units rolling at ``values`` (one die each)."""
    dist = [F(1)]
    for v in values:
        p = F(v, 6)
        dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0) for k in range(len(dist) + 1)]
    return dist


def _to_the_end(att: tuple[int, ...], dfn: tuple[int, ...]) -> dict[tuple[int, int], Fraction]:
    """A land battle by hand, for the tests below: units as their combat values, first
    lost first; the chance of each end (attacker units left, defender units left)."""
    memo: dict[tuple[int, int], dict[tuple[int, int], Fraction]] = {}

    def from_(a: int, d: int) -> dict[tuple[int, int], Fraction]:  # a, d: units lost so far
        if a == len(att) or d == len(dfn):
            return {(len(att) - a, len(dfn) - d): F(1)}
        if (a, d) not in memo:
            ha, hd = _hits(att[a:]), _hits(dfn[d:])
            stay = ha[0] * hd[0]
            out: dict[tuple[int, int], Fraction] = {}
            for i, pi in enumerate(ha):
                for j, pj in enumerate(hd):
                    if i or j:
                        for end, q in from_(min(a + j, len(att)), min(d + i, len(dfn))).items():
                            out[end] = out.get(end, F(0)) + pi * pj * q / (1 - stay)
            memo[(a, d)] = out
        return memo[(a, d)]

    return from_(0, 0)


def test_a_second_wave_attacks_what_a_landing_with_a_retreat_leaves() -> None:
    """A-10.3 then a second wave: 1 inf landed from the sea and 1 fighter against 2 inf,
    the fighter strafing after round 1 and the infantry fighting on to the end; then 1
    inf and 1 tank attack whatever is left, worked out by hand (fractions).  A first
    assault that took the territory leaves it to the second wave, and one that left no
    defender walks the second wave in (A-10.10's ruling)."""
    att, dfn, wave = (1, 3), (2, 2), (1, 3)  # inf, fig / inf, inf / inf, tank: first lost first
    ha, hd = _hits(att), _hits(dfn)
    ends: dict[tuple[int, int, bool], Fraction] = {}  # (landed inf left, defenders left, took) after the assault
    for i, pi in enumerate(ha):  # round 1 (once: where nobody is hit the fighter leaves all the same)
        for j, pj in enumerate(hd):
            p = pi * pj
            inf, left = int(j == 0), max(len(dfn) - i, 0)  # the infantry goes first; the fighter then leaves
            if left == 0 or inf == 0:  # over: won (took with the infantry), or nobody landed is left
                ends[(inf, left, inf > 0 and left == 0)] = ends.get((inf, left, inf > 0 and left == 0), F(0)) + p
                continue
            for (a, d), q in _to_the_end((1,), dfn[len(dfn) - left :]).items():
                ends[(a, d, a > 0 and d == 0)] = ends.get((a, d, a > 0 and d == 0), F(0)) + p * q
    win = draw = F(0)
    for (_, left, took), p in ends.items():
        if left == 0:  # taken, or walked in by the second wave
            win += p
            continue
        for (a, d), q in _to_the_end(wave, dfn[len(dfn) - left :]).items():
            win += p * q * (a > 0 and d == 0)
            draw += p * q * (a == 0 and d == 0)
    battle = AABattle.parse("1 inf, 1 fig", "2 inf", mode="amphibious", retreat_after=1, wave2="1 inf, 1 tank",
                            ool_attacker="inf,fig", ool_defender="inf")  # fmt: skip
    odds = aa_odds(battle, exact=True)
    assert odds.second_wave is not None and odds.fight_on is not None
    assert odds.second_wave["attacker_win"] == pytest.approx(float(win), abs=1e-15)
    assert odds.second_wave["attacker_takes"] == pytest.approx(float(win), abs=1e-15)  # every win has a land unit
    assert odds.second_wave["draw"] == pytest.approx(float(draw), abs=1e-15)
    assert odds.second_wave["defender_win"] == pytest.approx(float(1 - win - draw), abs=1e-15)
    floats = aa_odds(battle)
    assert floats.second_wave == pytest.approx(odds.second_wave, abs=1e-14)


@pytest.mark.parametrize("retreat", [dict(retreat_after=2), dict(retreat_left=8)])
def test_a_landings_second_wave_agrees_between_the_engines(retreat: dict[str, Any]) -> None:
    """The same second wave after a landing with a retreat, from the merged table engine
    (a big landing against an AA gun) and the general engine, within the error bounds."""
    battle = AABattle.parse("8 inf, 4 tank, 4 fig, 2 bom", "10 inf, 3 art, 2 tank, 1 aa", mode="amphibious",
                            overland="2 tank", bombard="1 bat", wave2="4 inf, 2 tank, 2 fig", **retreat)  # fmt: skip
    merged, general = aa_odds(battle), aa_odds(battle, engine="general")
    assert merged.second_wave is not None and general.second_wave is not None
    bound = merged.error_bound + general.error_bound + 1e-12
    for k, v in general.second_wave.items():
        assert merged.second_wave[k] == pytest.approx(v, abs=bound)
    # A second wave only adds: it wins wherever the assault alone took the territory.
    assert merged.fight_on is not None and merged.second_wave["attacker_takes"] >= merged.fight_on["attacker_takes"]


def test_a_strafe_after_the_round_limit_is_refused_in_slash_syntax() -> None:
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("2 inf", "1 inf", rounds=1, retreat_after=2))
    text = err.value.text()
    assert "stops after round 1" in text and "/odds aa … rounds:1 retreat_after:1" in text
    # At the round limit itself the strafe still comes (A-10.15): after round 1, a retreat.
    odds = aa_odds(AABattle.parse("2 inf", "1 inf", rounds=1, retreat_after=1), exact=True)
    assert odds.exact is not None and odds.retreat > 0 and odds.unfinished == 0


def test_rules_set_1942_second_edition_carrier_takes_two_hits() -> None:
    anniversary = aa_odds(AABattle.parse("1 fig", "1 car", mode="sea"), exact=True)
    second = aa_odds(AABattle.parse("1 fig", "1 car", mode="sea", rules="1942se"), exact=True)
    assert anniversary.exact is not None and second.exact is not None
    assert anniversary.exact["attacker_win"] == F(1, 2)
    assert second.exact["attacker_win"] == F(1, 4)


def _aa_starts(attacker: str, defender: str, **options: object) -> dict[tuple[int, int], Fraction]:
    """Chance of each (fighters, bombers) left after AA fire, from the battle's starts."""
    setup, _ = setup_battle(AABattle.parse(attacker, defender, **options), Fraction(1))  # type: ignore[arg-type]
    att = setup.attacker
    out: dict[tuple[int, int], Fraction] = {}
    for s in setup.starts:
        key = (att.count(s.attacker, "fighter"), att.count(s.attacker, "bomber"))
        out[key] = out.get(key, F(0)) + s.weight
    return out


def test_rules_set_1942_second_edition_three_aa_shots_per_gun() -> None:
    # Anniversary (A-10.5): one gun, one die per aircraft, per type: 4 fighters and a bomber.
    ann = _aa_starts("4 fig, 1 bom", "1 inf, 1 aa")
    assert len(ann) == 10
    assert ann[(4, 1)] == F(5, 6) ** 5
    assert ann[(4, 0)] == F(5, 6) ** 4 * F(1, 6)
    # 1942 Second Edition: 3 dice per gun, the attacker loses the aircraft it chooses
    # (its order of loss: fighters first by default).
    se = _aa_starts("4 fig, 1 bom", "1 inf, 1 aa", rules="1942se")
    assert se == {(4, 1): F(125, 216), (3, 1): F(75, 216), (2, 1): F(15, 216), (1, 1): F(1, 216)}
    # Two guns: six dice, but never more than the five aircraft.
    two = _aa_starts("4 fig, 1 bom", "1 inf, 2 aa", rules="1942se")
    assert two[(0, 0)] == F(1, 6) ** 5 and two[(0, 1)] == 5 * F(1, 6) ** 4 * F(5, 6)
    assert sum(two.values()) == 1 and len(two) == 6
    # The player's order of loss picks which aircraft AA hits cost.
    bombers_first = _aa_starts("4 fig, 1 bom", "1 inf, 1 aa", rules="1942se", ool_attacker="bom, fig")
    assert bombers_first[(4, 0)] == F(75, 216) and bombers_first[(3, 0)] == F(15, 216)
    # Low luck: three shots at 1 make 3 points, no sure hit, one die hitting on 3 or less.
    low = _aa_starts("4 fig, 1 bom", "1 inf, 1 aa", rules="1942se", low_luck=True)
    assert low == {(4, 1): F(1, 2), (3, 1): F(1, 2)}
    # The whole battle: the fighters AA cannot reach survive more often.
    more = aa_odds(AABattle.parse("2 inf, 5 fig", "2 inf, 1 aa", rules="1942se"), exact=True)
    fewer = aa_odds(AABattle.parse("2 inf, 5 fig", "2 inf, 1 aa"), exact=True)
    assert more.expected_survivors["attacker"]["fighter"] > fewer.expected_survivors["attacker"]["fighter"]


def test_rules_set_global_1940_costs_and_values() -> None:
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", rules="global1940"), exact=True)
    assert odds.exact is not None
    dies = float(odds.exact["attacker_win"] + odds.exact["draw"])
    assert odds.expected_ipc_loss["defender"] == pytest.approx(2 * dies)  # infantry 2 PP (G-7)
    subs = aa_odds(AABattle.parse("1 sub", "1 tra", mode="sea", rules="global1940"), exact=True)
    assert subs.exact is not None
    # G-7: submarine attacks at 3, transport defends at 1 and fights like any ship; the
    # sub strikes first (A-10.6), a transport it hits never fires back.
    assert subs.exact["attacker_win"] == F(1, 2) / (1 - F(1, 2) * F(5, 6))


def test_rules_set_global_1940_tanks_of_g7() -> None:
    # G-7: Tiger and T-34 attack at 5 and defend at 4 (8 PP), Sherman 4/3 (7 PP).
    tiger = aa_odds(AABattle.parse("1 tiger", "1 inf", rules="global1940"), exact=True)
    assert tiger.exact is not None
    # Tiger hits on 5 or less, infantry defends on 2 or less: each round that decides
    # anything is won, traded or lost in the ratio 5/6 * 2/3 : 5/6 * 1/3 : 1/6 * 1/3.
    assert (tiger.exact["attacker_win"], tiger.exact["draw"], tiger.exact["defender_win"]) == (
        F(5, 8), F(5, 16), F(1, 16))
    assert tiger.expected_ipc_loss["attacker"] == pytest.approx(8 * (F(5, 16) + F(1, 16)))
    t34 = aa_odds(AABattle.parse("2 t-34", "2 inf", rules="global1940"), exact=True)
    same = aa_odds(AABattle.parse("2 tiger", "2 inf", rules="global1940"), exact=True)
    assert t34.exact == same.exact
    sherman = aa_odds(AABattle.parse("1 inf", "1 sherman", rules="global1940"), exact=True)
    assert sherman.exact is not None
    assert sherman.exact["attacker_win"] == F(1, 6) * F(1, 2) / (1 - F(5, 6) * F(1, 2))
    assert AABattle.parse("1 t34, 2 shermans", "1 inf").attacker == {"sherman": 2, "t-34": 1}


def test_g7_tanks_only_under_the_global_1940_house_rules() -> None:
    for rules in ("anniversary", "1942se"):
        with pytest.raises(IllegalOrder) as err:
            aa_odds(AABattle.parse("3 inf", "1 tiger", rules=rules))
        assert "The tiger fights only under the Global-1940 house rules" in err.value.message
        assert err.value.legal == ("/odds aa … rules:global1940",)
    with pytest.raises(IllegalOrder):
        aa_odds(AABattle.parse("3 inf", "1 inf", wave2="1 sherman"))


@pytest.mark.parametrize(("option", "slash"), [("rounds", "rounds"), ("retreat_after", "retreat_after"),
                                               ("retreat_below", "retreat_below"),
                                               ("keep_land_unit", "keep_land_units")])
def test_counts_given_as_fractions_are_refused_with_the_option_players_type(option: str, slash: str) -> None:
    # Found by fuzzing the engine's callers: 2.5 rounds failed deep in an engine.
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse("3 inf, 1 tank", "4 inf", **{option: 2.5}))  # type: ignore[arg-type]
    assert err.value.message == f"{slash} is a whole number, not 2.5."
    assert err.value.legal == (f"/odds aa … {slash}:2",)
    with pytest.raises(IllegalOrder, match="retreat_left is a whole number, not 2.5"):
        AABattle.parse("3 inf, 1 tank", "4 inf", retreat_left=2.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("option", "value", "message"), [
    ("rounds", True, "rounds is a whole number, not True."),
    ("retreat_after", True, "retreat_after is a whole number, not True."),
    ("retreat_below", False, "retreat_below is a whole number, not False."),
    ("retreat_chance", True, "retreat_chance is a percentage, not True."),
    ("retreat_chance", "30", "retreat_chance is a percentage, not '30'."),
])  # fmt: skip
def test_yes_no_and_text_are_not_counts(option: str, value: object, message: str) -> None:
    # Found by fuzzing the engine's callers: True read as one round, or as 1 %.
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse("3 inf, 1 tank", "4 inf", **{option: value}))  # type: ignore[arg-type]
    assert err.value.message == message
    # keep_land_unit=True is the documented "keep one" (keep_land:true).
    kept = aa_odds(AABattle.parse("1 inf, 1 fig", "1 inf", keep_land_unit=True))
    assert kept.attacker_takes == kept.attacker_win


def test_bombardment_needs_land_units_landing_a_10_3() -> None:
    # Found by fuzzing: aircraft alone "landing" with a battleship listed were answered,
    # the battleship silently firing no die.
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse("1 fig", "1 inf", mode="amphibious", bombard="1 bat"))
    assert "lands none" in err.value.message
    assert err.value.legal == ('/odds aa … kind:amphibious attacker:"1 inf, 1 fig" bombard:"1 bat"',
                               '/odds aa … kind:land attacker:"1 fig" bombard:""')
    # Both examples are answered (the land battle without the ships: with them it is
    # refused, as tests/odds/test_refusal_examples.py checks by applying each example).
    assert aa_odds(AABattle.parse("1 inf, 1 fig", "1 inf", mode="amphibious", bombard="1 bat")).attacker_win > 0.5
    assert aa_odds(AABattle.parse("1 fig", "1 inf")).attacker_win > 0


def test_unknown_rules_set_names_the_legal_ones_in_slash_syntax() -> None:
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("1 inf", "1 inf", rules="revised"))
    assert "/odds aa … rules:1942se" in err.value.text()


@pytest.mark.parametrize("exact", [False, True])
def test_second_wave_attacks_the_survivors(exact: bool) -> None:
    odds = aa_odds(AABattle.parse("1 inf", "1 inf", wave2="1 inf"), exact=exact)
    assert odds.second_wave is not None
    w = odds.second_wave
    assert w["attacker_win"] == pytest.approx(17 / 32)
    assert w["attacker_takes"] == pytest.approx(17 / 32)
    assert w["defender_win"] == pytest.approx(25 / 64)
    assert w["draw"] == pytest.approx(5 / 64)


def test_second_wave_walks_in_where_the_first_won_without_taking() -> None:
    # 1 fighter (3) against 1 inf (2): the fighter wins 1/2 without taking the territory
    # (aircraft alone, A-10.10), dies with the infantry 1/4, loses 1/4.  The infantry of
    # the second wave walks in after a win or a trade (A-10.10's ruling: no defending
    # unit) and takes it; after a loss it attacks the infantry: wins 1/4, loses 5/8,
    # trades 1/8 (1 against 2).  Before, the walk-in after the fighter's win was a win
    # that took nothing (takes 5/16).
    w = aa_odds(AABattle.parse("1 fig", "1 inf", wave2="1 inf"), exact=True).second_wave
    assert w is not None
    assert w["attacker_win"] == pytest.approx(13 / 16, abs=1e-15)
    assert w["attacker_takes"] == pytest.approx(13 / 16, abs=1e-15)
    assert w["defender_win"] == pytest.approx(5 / 32, abs=1e-15)
    assert w["draw"] == pytest.approx(1 / 32, abs=1e-15)


@pytest.mark.parametrize(("wave2", "win", "takes"), [
    ("1 inf", 1.0, 1.0),  # walks in: the gun fires at aircraft only (A-10.5)
    ("1 fig", 5 / 6, 0.0),  # the gun fires at it: shot down 1/6, the gun holds
    ("1 inf, 1 fig", 1.0, 1.0),  # the infantry walks in whatever the gun hits
])  # fmt: skip
def test_second_wave_after_aa_fire_shot_the_whole_first_wave_down(wave2: str, win: float, takes: float) -> None:
    # 1 fighter against a lone AA gun: shot down 1/6 (the gun holds: a defender win), else
    # it wins alone (no defending unit, no land unit to take it).  Either way the second
    # wave meets the gun alone.  Before, the 1/6 where the gun shot the first wave down
    # went nowhere (the second wave's chances summed to 5/6).
    w = aa_odds(AABattle.parse("1 fig", "1 aa", wave2=wave2), exact=True).second_wave
    assert w is not None
    assert w["attacker_win"] == pytest.approx(win, abs=1e-15)
    assert w["attacker_takes"] == pytest.approx(takes, abs=1e-15)
    assert w["attacker_win"] + w["defender_win"] + w["draw"] == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("exact", [False, True])
def test_second_wave_shot_down_by_a_lone_gun_is_the_defender_holding(exact: bool) -> None:
    # 1 fighter against 1 inf and an AA gun, then 1 more fighter.  The first leaves the
    # infantry (shot down 1/6, or lost to it 5/6 * 1/4: 3/8 in all) or the gun alone (won or
    # traded: 5/8).  Against the infantry the second fighter wins 5/6 * 1/2, loses 1/6 +
    # 5/6 * 1/4, trades 5/6 * 1/4; against the gun alone it wins 5/6 and, shot down, the
    # defender holds (1/6: the gun never fought, as in one battle), not a trade.  The
    # battle of every start counted that 1/6 as a trade (the defender's army had fought).
    w = aa_odds(AABattle.parse("1 fig", "1 inf, 1 aa", wave2="1 fig"), exact=exact).second_wave
    assert w is not None
    inf, gun = 3 / 8, 5 / 8
    assert w["attacker_win"] == pytest.approx(inf * 5 / 12 + gun * 5 / 6, abs=1e-14)
    assert w["defender_win"] == pytest.approx(inf * 9 / 24 + gun / 6, abs=1e-14)
    assert w["draw"] == pytest.approx(inf * 5 / 24, abs=1e-14)


def test_second_wave_walks_into_a_territory_the_first_took() -> None:
    # 2 infantry take a territory held by an AA gun alone (A-10.10's ruling: no dice), the
    # gun captured with it: the second wave's fighter walks in, nothing fires at it.
    w = aa_odds(AABattle.parse("2 inf", "1 aa", wave2="1 fig"), exact=True).second_wave
    assert w is not None
    assert w["attacker_win"] == w["attacker_takes"] == 1.0


def test_second_wave_at_sea_takes_what_it_wins() -> None:
    # At sea a win is the sea zone's: attacker_takes is attacker_win (as for one battle).
    # 1 destroyer against 1: wins 2/5, trades 1/5, loses 2/5; the second destroyer then
    # wins 2/5 of its battle: 2/5 + 1/5 + 2/5 * 2/5 = 19/25.  Before, the walk-in after a
    # trade was a win but not taken (takes 14/25).
    w = aa_odds(AABattle.parse("1 des", "1 des", mode="sea", wave2="1 des"), exact=True).second_wave
    assert w is not None
    assert w["attacker_win"] == pytest.approx(19 / 25, abs=1e-15)
    assert w["attacker_takes"] == pytest.approx(19 / 25, abs=1e-15)


@pytest.mark.parametrize("exact", [False, True])
def test_second_wave_fights_the_aircraft_kept_out_of_a_submarine_attack(exact: bool) -> None:
    # Submarines alone attack a carrier and its fighters with no destroyer there: the
    # fighters stay out of that battle (A-10.6).  Where the submarines sink the carrier,
    # the fighters are still there and fight the second wave (before, it walked in).
    battle = AABattle.parse("3 sub", "1 car, 2 fig", mode="sea", wave2="2 fig")
    w = aa_odds(battle, exact=exact).second_wave
    assert w is not None
    first = aa_odds(AABattle.parse("3 sub", "1 car, 2 fig", mode="sea"))
    want = 0.0
    met = False
    for survivors, p in first.survivors["defender"]:
        held = {n: c for n, c in survivors.items() if c}
        if not held:
            want += p
            continue
        army = ", ".join(f"{c} {n}" for n, c in held.items())
        mode = "sea" if held.get("carrier") else "land"  # fighters alone: no ship rules
        met = met or not held.get("carrier")
        want += p * aa_odds(AABattle.parse("2 fig", army, mode=mode)).attacker_win
    assert met  # the submarines sank the carrier in some ends
    assert w["attacker_win"] == pytest.approx(want, abs=1e-12)
    assert w["attacker_takes"] == pytest.approx(want, abs=1e-12)
    assert w["attacker_win"] + w["defender_win"] + w["draw"] == pytest.approx(1.0, abs=1e-12)


def test_the_second_wave_is_held_to_the_same_work_limits() -> None:
    """A second wave counts against the units cap like either side, and its battle
    against the state cap (a huge wave could otherwise run unbounded)."""
    from engine.core.errors import PlayerError

    with pytest.raises(PlayerError, match="the second wave has 130"):
        aa_odds(AABattle.parse("1 inf", "1 inf", wave2="100 inf, 30 tank"), max_units=120)
    fleet = AABattle.parse("1 sub", "1 des", mode="sea", wave2="4 sub, 2 des, 2 cru")
    assert aa_odds(fleet, max_states=10_000).second_wave is not None
    with pytest.raises(PlayerError, match="states"):  # the first battle is small; its second wave is not
        aa_odds(AABattle.parse("1 fig", "1 des", mode="sea", wave2="4 sub, 2 des, 2 cru"), max_states=3)


def test_the_error_bound_covers_the_second_wave(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the second wave's battles leave out (much here: masses below 1e-7 at sea) is in
    # the error bound of the whole answer, which bounds every chance reported.
    from engine.odds import aa_naval

    monkeypatch.setattr(aa_naval, "TINY", 1e-7)
    fleet = "4 sub, 2 des, 2 cru, 1 car, 2 fig, 1 bat"
    alone = aa_odds(AABattle.parse("2 des", fleet, mode="sea"))
    odds = aa_odds(AABattle.parse("2 des", fleet, mode="sea", wave2="5 sub, 3 des, 2 cru, 1 bat, 2 bom"))
    assert odds.second_wave is not None
    short = 1 - sum(odds.second_wave[k] for k in ("attacker_win", "defender_win", "draw"))
    assert alone.error_bound < short <= odds.error_bound
    assert odds.error_bound < 100 * short


def _second_wave_each(monkeypatch: pytest.MonkeyPatch, battle: AABattle) -> dict[str, float] | None:
    """The second wave as a battle per final state of the first (the older way, kept as
    ``_second_wave(one_solve=False)``); None where one of those battles is refused."""
    from engine.odds import aa

    whole = aa._second_wave
    with monkeypatch.context() as patch:
        patch.setattr(aa, "_second_wave", lambda *args: whole(*args, one_solve=False))
        try:
            return aa_odds(battle).second_wave
        except PlayerError:
            return None


def _random_second_wave(rng: random.Random, joined: bool) -> AABattle:
    """A small battle with a second wave, at sea or on land (drawn by ``rng``).
    ``joined``: 1 or 2 rounds and no retreat, so the first wave's units still fighting
    join the second wave, and fighters may attack with the first wave (AA fire at each
    force, A-10.5)."""
    if rng.random() < 0.45:
        u = {"sub": rng.randint(0, 3), "des": rng.randint(0, 1), "cru": rng.randint(0, 2), "bat": rng.randint(0, 1)}
        first = ", ".join(f"{c} {k}" for k, c in u.items() if c) or "1 cru"
        # Fighters whose carrier sinks make a battle per state refuse (see below): most
        # fleets here have none, so both ways can be compared.
        defender = rng.choice(["2 des, 1 car, 2 fig, 1 tra", "1 bat, 1 car, 1 fig", "1 cru, 1 sub, 1 bat",
                               "2 des, 1 cru, 1 tra", "1 bat, 2 cru, 1 sub", "2 sub, 1 des, 1 bat, 1 tra"])
        wave2 = rng.choice(["3 sub", "2 sub, 1 des", "2 cru, 1 bat", "1 sub, 1 cru, 2 fig"])
        options: dict[str, object] = {"mode": "sea"}
    else:
        fighters = f", {rng.randint(0, 2)} fig" if joined else ""
        first = f"{rng.randint(1, 4 - joined)} inf, {rng.randint(0, 2 - joined)} tank{fighters}"
        defender = rng.choice(["4 inf, 1 art, 1 aa", "3 inf, 1 tank, 1 fig", "5 inf, 1 aa, 1 fig"])
        wave2 = rng.choice(["3 inf, 2 fig", "2 inf, 1 tank, 1 bom", "4 inf"])
        options = {"keep_land_unit": rng.random() < 0.3, "low_luck": rng.random() < 0.2,
                   "rules": rng.choice(["anniversary", "1942se"])}  # fmt: skip
        if rng.random() < 0.3:  # an amphibious first wave: bombarded defenders (A-10.3)
            options |= {"mode": "amphibious", "bombard": "1 bat, 1 cru"}
    if joined:
        options["rounds"] = rng.randint(1, 2)
    return AABattle.parse(first, defender, wave2=wave2, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("joined", [False, True], ids=["alone", "joined"])
def test_second_wave_as_one_battle_equals_a_battle_per_state(monkeypatch: pytest.MonkeyPatch, joined: bool) -> None:
    # The second wave fights every state the first left in one battle with a start per
    # state (engine.odds.aa._second_wave_once): the same odds as one battle per state,
    # at sea (A-10.6 strikes, aircraft set aside against submarines alone, transports,
    # battleships repaired, A-10.8) and on land (AA fire before round 1, A-10.5; 1942
    # Second Edition guns; keeping a land unit; low luck; after an amphibious assault).
    # Joined: after a round limit, every pair of states left is a start, after AA fire
    # at that force's aircraft, and forces of submarines alone fight apart at sea
    # (A-10.6); the pairs the numpy walk keeps (decimals) are those of the exact round
    # walk (fractions).
    rng = random.Random(1945 + joined)
    compared = at_sea = air_met_aa = 0
    for _ in range(28):
        battle = _random_second_wave(rng, joined)
        assert battle.wave2_joins == joined
        each = _second_wave_each(monkeypatch, battle)
        if each is None:
            continue
        once = aa_odds(battle).second_wave
        exact = aa_odds(battle, exact=True).second_wave
        assert once is not None and exact is not None
        for key in each:
            assert once[key] == pytest.approx(each[key], abs=1e-12), (battle, key)
            assert exact[key] == pytest.approx(each[key], abs=1e-12), (battle, key)
        assert sum(once[k] for k in ("attacker_win", "defender_win", "draw")) == pytest.approx(1.0, abs=1e-12)
        compared += 1
        at_sea += battle.mode == "sea"
        air_met_aa += battle.attacker.get("fighter", 0) > 0 and "aa gun" in battle.defender
    assert compared >= 18 and at_sea >= 6 and air_met_aa >= 3 * joined, (compared, at_sea, air_met_aa)


def test_second_wave_fights_fighters_whose_carrier_sank(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first wave sinks the carrier first (the defender's order of loss) and leaves
    # fighters: they are in the air (A-14.4) and still fight the second wave where they
    # are.  A battle per state refused that ("fighters need carriers"); as one battle it
    # is the fighters' battle.
    battle = AABattle.parse("2 des", "1 car, 2 fig", mode="sea", ool_defender="car, fig", wave2="3 fig")
    assert _second_wave_each(monkeypatch, battle) is None
    odds = aa_odds(battle)
    w = odds.second_wave
    assert w is not None
    # The same by hand: the first battle's final states, each against 3 attacking
    # fighters (fighters alone: 3 against 4 on defense, the same dice on land).
    first = aa_odds(AABattle.parse("2 des", "1 car, 2 fig", mode="sea", ool_defender="car, fig"))
    want = first.attacker_win + first.draw
    for survivors, p in first.survivors["defender"]:
        if any(survivors.values()):
            army = ", ".join(f"{c} {n}" for n, c in survivors.items() if c)
            mode = "sea" if survivors.get("carrier") else "land"  # fighters alone: no ship rules
            want += p * aa_odds(AABattle.parse("3 fig", army, mode=mode)).attacker_win
    assert w["attacker_win"] == pytest.approx(want, abs=1e-12)
    assert w["attacker_win"] + w["defender_win"] + w["draw"] == pytest.approx(1.0, abs=1e-12)
    exact = aa_odds(battle, exact=True).second_wave  # exact fractions: one battle too
    assert exact is not None and exact["attacker_win"] == pytest.approx(want, abs=1e-12)


def test_a_big_second_wave_is_one_battle_not_one_per_state() -> None:
    # 100 ships a side as the second wave, after a first wave that leaves ~100 final
    # states: one solve (~1 s) where a battle per state took ~22 s, so Discord's work
    # limit holds it once (bot.commands.odds.MAX_WORK), not once per state.
    fleet = "35 sub, 20 des, 20 cru, 7 car, 5 bat, 13 fig"
    battle = AABattle.parse("20 des", fleet, mode="sea", wave2=fleet)
    odds = aa_odds(battle, max_units=120, max_work=400_000_000)
    assert odds.second_wave is not None and 0.5 < odds.second_wave["attacker_win"] < 0.65


@pytest.mark.parametrize(("attacker", "defender", "options"), [
    ("12 inf, 4 art, 3 fig, 3 bom", "20 inf, 5 art, 4 fig, 1 aa", {}),
    ("6 sub, 3 des, 2 fig", "4 sub, 2 cru, 1 car, 2 fig", {"mode": "sea"}),
])  # fmt: skip
def test_a_second_waves_battles_skip_the_report_but_not_the_chances(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, options: dict[str, Any]
) -> None:
    # The second wave's battles are run with report=False: their chances and error bound
    # are the full run's, their survivors and losses (which nobody reads) not summed.
    from engine.odds import aa

    battle = AABattle.parse(attacker, defender, **options)
    full = aa._run(battle, 1.0, "auto", (None, None, aa.Work(None)), 1e-18)
    bare = aa._run(battle, 1.0, "auto", (None, None, aa.Work(None)), 1e-18, report=False)
    for key in ("attacker_win", "defender_win", "draw", "attacker_takes", "error_bound"):
        assert getattr(bare, key) == getattr(full, key), key
    assert full.expected_survivors["attacker"] and full.survivors["defender"]
    assert not bare.expected_survivors and not bare.survivors and not bare.survivor_count
    reports: list[bool] = []
    result = aa._result
    signature = inspect.signature(result)

    def spy(*args: Any, **kwargs: Any) -> Any:
        # ``report`` by name, whether it was passed by position, by keyword or left out.
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        reports.append(bound.arguments["report"])
        return result(*args, **kwargs)

    monkeypatch.setattr(aa, "_result", spy)
    aa_odds(AABattle.parse(attacker, defender, wave2=attacker, **options))
    # The first battle with its report; the second wave's (on land also its battle
    # against the AA gun alone) without.
    assert reports[0] is True and len(reports) >= 2 and not any(reports[1:]), reports


def test_expected_losses_and_tuv_swing() -> None:
    odds = aa_odds(AABattle.parse("1 inf", "1 inf"), exact=True)
    # Attacker infantry dies when the defender wins or draws: 5/8 + 1/8; the defender's
    # when the attacker wins or draws: 1/4 + 1/8.  Infantry costs 3.
    assert odds.expected_units_lost("attacker") == pytest.approx(3 / 4)
    assert odds.expected_units_lost("defender") == pytest.approx(3 / 8)
    assert odds.tuv_swing == pytest.approx(3 * (3 / 8 - 3 / 4))


def test_cli_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "aa", "--attacker", "1 inf", "--defender", "1 inf", "--wave2", "1 inf",
                 "--low-luck", "--rules", "global1940", "--json"])  # fmt: skip
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["options"] == {"rules": "global1940", "low_luck": True, "retreat_after": None,
                               "retreat_below": 0, "retreat_chance": None, "wave2": "1 inf"}  # fmt: skip
    assert data["second_wave"]["attacker_win"] == pytest.approx(17 / 32)
    assert data["tuv_swing"] == pytest.approx(2 * (3 / 8 - 3 / 4))
    code = main(["odds", "aa", "--attacker", "1 inf", "--defender", "1 inf", "--retreat-after", "1"])
    out, _ = capsys.readouterr()
    assert "attacker retreats after round 1" in out and "attacker retreats 55.6%" in out


async def test_discord_options() -> None:
    msg = await invoke("odds aa", attacker="1 inf", defender="1 inf", wave2="1 inf", low_luck=True,
                       rules="1942se", retreat_after="2")  # fmt: skip
    assert "1942 Second Edition profiles, low luck, attacker retreats after round 2" in msg.text
    assert "With the second wave (1 inf) attacking the survivors" in msg.text
    assert "TUV swing" in msg.text


def _losses(battle: AABattle) -> list[str]:
    """The attacker's units in the order it loses them."""
    setup, _ = setup_battle(battle, Fraction(1))
    att = setup.attacker
    seq = att.sequence(att.start)
    return [next(n for n in att.army if att.count(a, n) > att.count(b, n)) for a, b in zip(seq, seq[1:])]


def test_keep_n_land_units_lost_last() -> None:
    # A-10.10 "must take the territory": the last N land units move to the end of the
    # order of loss (default order: infantry, then the fighter).
    plain = AABattle.parse("3 inf, 1 fig", "2 inf")
    assert _losses(plain) == ["infantry"] * 3 + ["fighter"]
    assert _losses(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=True)) == [
        "infantry", "infantry", "fighter", "infantry"]
    assert _losses(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=2)) == [
        "infantry", "fighter", "infantry", "infantry"]
    assert _losses(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=5)) == ["fighter"] + ["infantry"] * 3
    kept = aa_odds(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=2), exact=True)
    assert "attacker loses its last 2 land units last" in aa_lines(kept)[0]
    with pytest.raises(PlayerError):
        aa_odds(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=-1))


async def test_keep_land_units_in_the_cli_and_discord(capsys: pytest.CaptureFixture[str]) -> None:
    for args, n in ((["--keep-land"], 1), (["--keep-land", "2"], 2)):
        assert main(["odds", "aa", "--attacker", "3 inf, 1 fig", "--defender", "2 inf", *args]) == 0
        out, _ = capsys.readouterr()
        assert ("its last land unit last" if n == 1 else "its last 2 land units last") in out
    msg = await invoke("odds aa", attacker="3 inf, 1 fig", defender="2 inf", keep_land_units="2")
    expected = aa_odds(AABattle.parse("3 inf, 1 fig", "2 inf", keep_land_unit=2))
    assert "attacker loses its last 2 land units last" in msg.text
    assert f"takes the territory {expected.attacker_takes:.1%}" in msg.text
    with pytest.raises(PlayerError):
        await invoke("odds aa", attacker="3 inf", defender="2 inf", keep_land=True, keep_land_units="2")


def test_retreat_left_is_k_units_or_fewer() -> None:
    # Issue 19: "when the attacker has <= K units left"; retreat_below counts "fewer than K".
    left = aa_odds(AABattle.parse("3 inf", "2 inf", retreat_left=1), exact=True)
    below = aa_odds(AABattle.parse("3 inf", "2 inf", retreat_below=2), exact=True)
    never = aa_odds(AABattle.parse("3 inf", "2 inf"), exact=True)
    assert left.exact == below.exact and left.exact != never.exact
    assert left.retreat > 0 and never.retreat == 0
    # With 2 infantry attacking 1: after round 1 the attacker retreats exactly when the
    # defender missed and one attacker fell (defender hits 1/3, attacker misses 2 of 2).
    one = aa_odds(AABattle.parse("2 inf", "1 inf", retreat_left=1, rounds=1), exact=True)
    assert one.retreat == pytest.approx(float(F(1, 3) * F(5, 6) ** 2))
    assert "attacker retreats with 1 unit or fewer left" in aa_lines(one)[0]
    with pytest.raises(PlayerError) as err:
        AABattle.parse("3 inf", "2 inf", retreat_left=1, retreat_below=3)
    assert "/odds aa … retreat_left:1" in err.value.text() and "retreat_below:2" in err.value.text()
    with pytest.raises(PlayerError) as err:  # refused with the battle's other faults (validate)
        aa_odds(AABattle.parse("3 inf", "2 inf", retreat_left=0))
    assert err.value.legal == ("/odds aa … retreat_left:2",)


async def test_retreat_left_in_the_cli_and_discord(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "aa", "--attacker", "3 inf", "--defender", "2 inf", "--retreat-left", "1", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["options"]["retreat_below"] == 2
    msg = await invoke("odds aa", attacker="3 inf", defender="2 inf", retreat_left="2")
    assert "attacker retreats with 2 units or fewer left" in msg.text
    expected = aa_odds(AABattle.parse("3 inf", "2 inf", retreat_below=3))
    assert f"attacker retreats {expected.retreat:.1%}" in msg.text


def _infantry_reference(n: int, m: int, threshold: F) -> dict[str, F]:
    """Attacking infantry (1) against defending infantry (2), retreating after any round
    from which fighting on wins less than ``threshold``: a plain recursion in fractions."""
    from functools import lru_cache
    from math import comb

    def dist(k: int, p: F) -> list[F]:
        return [comb(k, h) * p**h * (1 - p) ** (k - h) for h in range(k + 1)]

    @lru_cache(maxsize=None)
    def win(a: int, d: int) -> F:
        if a == 0:
            return F(0)
        if d == 0:
            return F(1)
        da, dd = dist(a, F(1, 6)), dist(d, F(2, 6))
        total = sum((da[ha] * dd[hd] * win(max(a - hd, 0), max(d - ha, 0))
                     for ha in range(a + 1) for hd in range(d + 1) if ha or hd), F(0))  # fmt: skip
        return total / (1 - da[0] * dd[0])

    @lru_cache(maxsize=None)
    def after(a: int, d: int) -> tuple[F, F, F, F]:  # win, hold, draw, retreat
        if a == 0:
            return (F(0), F(0), F(1), F(0)) if d == 0 else (F(0), F(1), F(0), F(0))
        if d == 0:
            return (F(1), F(0), F(0), F(0))
        if win(a, d) < threshold:
            return (F(0), F(0), F(0), F(1))
        return fight(a, d)

    @lru_cache(maxsize=None)
    def fight(a: int, d: int) -> tuple[F, F, F, F]:
        da, dd = dist(a, F(1, 6)), dist(d, F(2, 6))
        out = [F(0)] * 4
        for ha in range(a + 1):
            for hd in range(d + 1):
                if ha or hd:
                    for k, v in enumerate(after(max(a - hd, 0), max(d - ha, 0))):
                        out[k] += da[ha] * dd[hd] * v
        loop = da[0] * dd[0]
        # from (a, d) with no loss the round ends in (a, d) again: retreat there, or loop
        if win(a, d) < threshold:
            out[3] += loop
            return (out[0], out[1], out[2], out[3])
        return (out[0] / (1 - loop), out[1] / (1 - loop), out[2] / (1 - loop), out[3] / (1 - loop))

    w, h, d, r = fight(n, m)
    return {"win": w, "hold": h, "draw": d, "retreat": r}


@pytest.mark.parametrize(("n", "m", "percent"), [(3, 2, 50), (4, 3, 30), (5, 3, 60), (2, 2, 5)])
def test_retreat_when_the_win_chance_falls_below(n: int, m: int, percent: int) -> None:
    ref = _infantry_reference(n, m, F(percent, 100))
    odds = aa_odds(AABattle.parse(f"{n} inf", f"{m} inf", retreat_chance=percent))
    assert odds.attacker_win == pytest.approx(float(ref["win"]), abs=1e-12)
    assert odds.draw == pytest.approx(float(ref["draw"]), abs=1e-12)
    assert odds.retreat == pytest.approx(float(ref["retreat"]), abs=1e-12)
    assert odds.defender_win == pytest.approx(float(ref["hold"] + ref["retreat"]), abs=1e-12)


def test_retreat_by_win_chance_refusals_in_slash_syntax() -> None:
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("2 sub", "1 des", mode="sea", retreat_chance=30), exact=True)
    assert "/odds aa … retreat_chance:30" in err.value.text()
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse("2 inf", "1 inf", retreat_chance=0))
    assert "/odds aa … retreat_chance:30" in err.value.text()


def test_retreat_by_win_chance_with_submarines() -> None:
    # 2 subs attack a lone cruiser (no destroyer: the subs strike first, A-10.6, and do
    # not fire again). From 1 sub: w1 = 1/3 + 2/3 (1/2 w1) = 1/2; from 2 subs:
    # w2 = 5/9 + 4/9 (1/2 w2 + 1/2 w1) = 6/7.
    setup, _ = setup_battle(AABattle.parse("2 sub", "1 cru", mode="sea"), Fraction(1))
    pairs, unsure = retreat_pairs(setup, F(6, 7))  # exact: nothing left open
    assert {(a[0], d[0]) for a, d in pairs} == {(1, 1)} and unsure == 0
    pairs, _ = retreat_pairs(setup, F(6, 7) + F(1, 10**9))
    assert {(a[0], d[0]) for a, d in pairs} == {(1, 1), (2, 1)}
    # At 60 % the attacker retreats when a round leaves it 1 sub: it wins only when the
    # strike sinks the cruiser before that, 5/9 / (1 - 2/9) = 5/7.
    odds = aa_odds(AABattle.parse("2 sub", "1 cru", mode="sea", retreat_chance=60))
    assert odds.attacker_win == pytest.approx(5 / 7, abs=1e-12)
    assert odds.retreat == pytest.approx(2 / 7, abs=1e-12)
    assert aa_odds(AABattle.parse("2 sub", "1 cru", mode="sea")).attacker_win == pytest.approx(6 / 7)


@pytest.mark.parametrize("attacker, defender, percent", [
    ("4 sub, 1 des, 1 cru", "2 des, 2 cru, 1 car, 2 fig", 40),
    ("3 sub, 2 cru", "2 sub, 1 bat, 1 tra", 55),  # strikes every round, transports
    ("2 sub, 1 des", "1 cru, 1 des", 40),
    ("1 sub", "1 sub", 70),  # the start pair itself is a retreat pair (a round may miss)
])  # fmt: skip
def test_retreat_by_win_chance_numpy_solve_equals_the_dict_solve(attacker: str, defender: str, percent: int) -> None:
    from dataclasses import replace

    from engine.odds.aa_general import GeneralEngine

    battle = AABattle.parse(attacker, defender, mode="sea", retreat_chance=percent)
    odds = aa_odds(battle)  # the numpy solve (aa_naval) with the retreat pairs
    setup, _ = setup_battle(battle, 1.0)
    pairs, _ = retreat_pairs(setup, percent / 100)
    tally = GeneralEngine(replace(setup, retreat_at=pairs), vectorised=False).run()
    assert odds.attacker_win == pytest.approx(float(tally.outcome["attacker"]), abs=1e-12)
    assert odds.retreat == pytest.approx(float(tally.outcome["retreat"]), abs=1e-12)
    assert odds.retreat > 0
    if attacker == "1 sub":  # w = (1/3 5/6) / (1 - 2/3 5/6) = 5/8 < 70 %: it retreats after
        assert odds.retreat == pytest.approx(2 / 3 * 5 / 6)  # a round that missed, not before


@pytest.mark.parametrize("vectorised", [True, False])
def test_retreat_decisions_left_open_are_in_the_error_bound(monkeypatch: pytest.MonkeyPatch, vectorised: bool) -> None:
    # With a coarse cut in the decision pass (numpy's or the dict pass), some chances
    # are intervals straddling the threshold: the answer must still be within its error
    # bound of the exact one.
    from dataclasses import replace

    from engine.odds import aa_naval, aa_retreat
    from engine.odds.aa_general import GeneralEngine

    battle = AABattle.parse("4 sub, 1 des, 1 cru", "2 des, 2 cru, 1 car, 2 fig", mode="sea", retreat_chance=40)
    exact_setup, _ = setup_battle(battle, Fraction(1))
    pairs, open_mass = retreat_pairs(exact_setup, F(40, 100))
    assert open_mass == 0
    exact = GeneralEngine(replace(exact_setup, retreat_at=pairs)).run()
    coarse_setup, _ = setup_battle(battle, 1.0)
    with monkeypatch.context() as patch:
        patch.setattr(aa_naval if vectorised else aa_retreat, "TINY", 1e-3)
        coarse_pairs, coarse_open = retreat_pairs(coarse_setup, 0.4, vectorised=vectorised)
    assert coarse_open > 0  # the straddling case happens here
    assert coarse_pairs != pairs  # a decision left open went the other way
    tally = GeneralEngine(replace(coarse_setup, retreat_at=coarse_pairs)).run()
    bound = coarse_open + tally.dropped
    assert abs(float(tally.outcome["attacker"]) - float(exact.outcome["attacker"])) <= bound + 1e-12
    assert abs(float(tally.outcome["retreat"]) - float(exact.outcome["retreat"])) <= bound + 1e-12
    odds = aa_odds(battle)  # the full answer reports what its decisions left open
    assert abs(odds.attacker_win - float(exact.outcome["attacker"])) <= odds.error_bound + 1e-12


def _numpy_chances(setup: Any) -> tuple[dict[tuple[Any, Any], tuple[float, float, float]], float]:
    """The numpy passes' chance to win from each pair (engine.odds.aa_retreat.numpy_pass)
    as ``{pair: (low, high, visits)}``, and the mass their forward pass left out."""
    from engine.odds.aa_retreat import numpy_pass

    solver, (ii, jj, low, high, visits) = numpy_pass(setup)
    A, D = solver.A.states, solver.D.states
    got = {(A[i], D[j]): (lo, hi, v) for i, j, lo, hi, v in
           zip(ii.tolist(), jj.tolist(), low.tolist(), high.tolist(), visits.tolist())}  # fmt: skip
    return got, solver.dropped


def test_retreat_chances_in_numpy_equal_the_dict_pass() -> None:
    """The numpy passes (engine.odds.aa_retreat.numpy_pass) decide as the dict passes
    on random fleets with submarines (strikes, restricted hits, submerging, transports),
    but where the numpy interval holds the threshold: ties, which decimals cannot place,
    and pairs so rarely reached that their interval is wide (their visits are in the
    error bound)."""
    rng = random.Random(1944)
    compared = 0
    for _ in range(40):
        units = []
        for defender in (False, True):
            u = {"sub": rng.randint(1, 3), "des": rng.randint(0, 2), "cru": rng.randint(0, 2),
                 "car": rng.randint(0, 1), "bat": rng.randint(0, 1), "tra": rng.randint(0, 1) * defender}  # fmt: skip
            u["fig"] = rng.randint(0, 2 * u["car"]) if defender else rng.randint(0, 2)
            units.append(", ".join(f"{c} {k}" for k, c in u.items() if c))
        percent = rng.choice([20, 40, 55, 70, 90])
        options = {"submerge_attacker": True} if rng.random() < 0.3 else {}
        battle = AABattle.parse(units[0], units[1], mode="sea", retreat_chance=percent, **options)  # type: ignore[arg-type]
        setup, _ = setup_battle(battle, 1.0)
        fast, _ = retreat_pairs(setup, percent / 100)
        slow, _ = retreat_pairs(setup, percent / 100, vectorised=False)
        chances, _ = _numpy_chances(setup)
        for pair in fast ^ slow:
            low, high, _ = chances[pair]
            assert low - 1e-9 < percent / 100 < high + 1e-9, (battle, pair)
        compared += sum(1 for pair in fast & slow if chances[pair][1] - chances[pair][0] < 1e-9)
    assert compared > 200, compared


def test_numpy_win_chance_intervals_hold_the_chances_nothing_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The backward pass's interval from each pair (NavalSolver.win_chances) holds the
    chance to win computed with nothing left out, even when the forward pass leaves out
    much (masses below 1e-4 here): its high bound adds the chance of ever taking a step
    left out, computed backward too, which is much narrower than the pass's mass left
    out over the pair's visits for most pairs."""
    from engine.odds import aa_naval

    def chances(tiny: float) -> tuple[dict[tuple[Any, Any], tuple[float, float, float]], float]:
        monkeypatch.setattr(aa_naval, "TINY", tiny)
        return _numpy_chances(setup)

    rng = random.Random(1945)
    checked = narrow = 0
    for _ in range(25):
        units = []
        for defender in (False, True):
            u = {"sub": rng.randint(1, 4), "des": rng.randint(0, 2), "cru": rng.randint(0, 2),
                 "car": rng.randint(0, 1), "bat": rng.randint(0, 1)}  # fmt: skip
            u["fig"] = rng.randint(0, 2 * u["car"]) if defender else rng.randint(0, 2)
            units.append(", ".join(f"{c} {k}" for k, c in u.items() if c))
        setup, _ = setup_battle(AABattle.parse(units[0], units[1], mode="sea", retreat_chance=50), 1.0)
        truth, _ = chances(0.0)
        assert all(hi - lo < 1e-12 for lo, hi, _ in truth.values())  # only hit combinations below CUT
        pruned, dropped = chances(1e-4)
        if not dropped:  # too small a battle to leave anything out
            continue
        for pair, (lo, hi, visits) in pruned.items():
            exact = truth[pair][0]
            assert lo - 1e-12 <= exact <= hi + 1e-12, (units, pair, lo, exact, hi)
            checked += 1
            narrow += visits > 0 and hi - lo < 0.5 * dropped / visits
    assert checked > 300 and narrow > checked // 2, (checked, narrow)


@pytest.mark.parametrize("attacker, defender, options", [
    ("4 inf, 2 art, 1 tank", "5 inf, 1 art", {}),
    ("3 inf, 2 tank, 1 fig", "4 inf, 1 fig, 1 aa", {}),
    ("2 des, 1 cru, 1 bat", "2 des, 1 cru, 1 car, 1 fig", {"mode": "sea"}),
    ("4 inf, 2 tank", "5 inf, 1 tank", {"keep_land_unit": True, "retreat_below": 2}),
    # Transports (A-10.7) left alone against transports: a stalemate where the attacker
    # does not retreat first; the table engine's small-battle solve (_dense) takes these.
    ("1 des, 1 tra", "1 tra, 1 cru", {"mode": "sea"}),
    ("2 des, 1 tra", "1 tra, 2 des", {"mode": "sea"}),
    # A round limit: the attacker still decides after the last round (retreat, A-10.15,
    # or the battle is unfinished), as it does with retreat_left.
    ("2 inf, 1 tank", "1 art, 2 tank, 1 bom", {"rounds": 1}),
    ("1 art, 1 inf, 1 bom", "1 bom, 1 tank, 1 fig", {"rounds": 3}),
    ("2 tank, 1 bom", "2 inf, 2 tank, 1 aa", {"rounds": 2}),
])  # fmt: skip
@pytest.mark.parametrize("percent", [20, 45, 70])
def test_retreat_by_win_chance_two_ways_agree(
    attacker: str, defender: str, options: dict[str, object], percent: int
) -> None:
    # Battles without submarines: the table engine's backward pass and the general
    # engine's (engine.odds.aa_retreat) make the same decisions, and every outcome is
    # counted once (they add up to 1).
    battle = AABattle.parse(attacker, defender, retreat_chance=percent, **options)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero where neither side can hit
        table = aa_odds(battle)
        general = aa_odds(battle, engine="general")
    assert table.engine == "fast" and general.engine == "general"
    for key in CHANCES:
        assert getattr(general, key) == pytest.approx(getattr(table, key), abs=1e-12), key
    for odds in (table, general):
        assert odds.attacker_win + odds.defender_win + odds.draw == pytest.approx(1.0, abs=1e-12)
        assert odds.retreat + odds.stalemate <= odds.defender_win + 1e-12
        assert odds.error_bound < 1e-12
    assert table.retreat > 0 or percent == 20


@pytest.mark.parametrize("rounds", [1, 2, None])
def test_retreat_by_win_chance_in_the_merged_engine(rounds: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The merged engine (AA blocks over distinct states), forced on a small battle, makes
    # the general engine's decisions, after the last round of a round limit too.
    import engine.odds.aa_merged as merged

    monkeypatch.setattr(merged, "MERGE_MIN_CELLS", 0)
    battle = AABattle.parse("2 tank, 2 fig, 1 bom", "3 inf, 2 tank, 1 aa", retreat_chance=70, rounds=rounds)
    table, general = aa_odds(battle), aa_odds(battle, engine="general")
    for key in CHANCES:
        assert getattr(general, key) == pytest.approx(getattr(table, key), abs=1e-12), key
    assert table.retreat > 0.1 and (table.unfinished > 0) == (rounds is not None)


@pytest.mark.parametrize("attacker, defender", [
    ("1 fig", "1 fig"),
    ("3 inf, 1 fig", "2 inf, 1 fig"),
    ("2 inf, 2 fig", "2 inf, 1 fig, 1 aa"),  # AA blocks: the merged engine when forced
])  # fmt: skip
@pytest.mark.parametrize("path", ["dense", "rows", "merged", "general"])
def test_retreat_by_win_chance_at_a_tie(
    attacker: str, defender: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 1 fighter attacking 1 fighter (3 against 4, A-10.3) wins 1/6 / (1 - 1/6) = 1/5
    # exactly, and each battle here can come down to that.  Every way of computing it:
    # the table engine's one dense solve, its rows, the merged engine, the general one.
    import engine.odds.aa_merged as merged
    import engine.odds.aa_table as table

    monkeypatch.setattr(table, "DENSE_MAX", 10**6 if path == "dense" else 0)
    monkeypatch.setattr(merged, "MERGE_MIN_CELLS", 0 if path == "merged" else 10**9)
    engine = "general" if path == "general" else "auto"

    def odds(percent: float) -> Any:
        return aa_odds(AABattle.parse(attacker, defender, retreat_chance=percent), engine=engine)

    fights, retreats = odds(19.99), odds(20.01)  # 1/5 fights on, or not
    assert fights.attacker_win - retreats.attacker_win > 0.02
    assert fights.error_bound < 1e-12 and retreats.error_bound < 1e-12
    # At 20 % the chance 1/5 is not below the threshold: it fights on (the rule), however
    # the decimal passes rounded it, and nothing is left open.
    tie = odds(20)
    assert tie.attacker_win == pytest.approx(fights.attacker_win, abs=1e-12)
    assert tie.retreat == pytest.approx(fights.retreat, abs=1e-12) and tie.error_bound < 1e-12
    # Just above, decimals cannot tell 1/5 from the threshold: the decision is left open,
    # and the error bound covers both answers.
    hair = odds(20 + 1e-9)
    assert hair.attacker_win in (pytest.approx(fights.attacker_win, abs=1e-12),
                                 pytest.approx(retreats.attacker_win, abs=1e-12))  # fmt: skip
    assert hair.error_bound >= fights.attacker_win - retreats.attacker_win
    assert hair.error_bound <= 1


async def test_discord_retreat_chance_at_sea_with_submarines() -> None:
    msg = await invoke("odds aa", attacker="2 sub", defender="1 cru", kind="sea", retreat_chance="60")
    assert "attacker retreats when its chance to win falls below 60%" in msg.text
    assert f"attacker retreats {2 / 7:.1%}" in msg.text


async def test_discord_retreat_chance() -> None:
    msg = await invoke("odds aa", attacker="6 inf, 2 art, 2 tank", defender="8 inf, 1 art", retreat_chance="40")
    assert "attacker retreats when its chance to win falls below 40%" in msg.text
    assert "attacker retreats 32.9%" in msg.text


def test_second_wave_in_the_chart_sections() -> None:
    from engine.odds.report import aa_sections

    odds = aa_odds(AABattle.parse("1 inf", "1 inf", wave2="1 inf"))
    titles = [title for title, _ in aa_sections(odds)]
    assert titles == ["Outcome", "Surviving attacker units", "Surviving defender units", "With the second wave"]
    bars = dict(aa_sections(odds)[-1][1])
    assert bars["Attacker wins"] == pytest.approx(17 / 32)


def _random_land_battle(rng: random.Random) -> AABattle:
    """A random land battle of 4-14 attackers (aircraft likely) against 3-12 defenders
    (an AA gun likely) with random options: what a player may ask for."""
    attacker = random_army(rng, ["inf", "art", "tank", "fig", "bom", "fig", "bom"], rng.randint(4, 14))
    defender = random_army(rng, ["inf", "art", "tank", "fig"], rng.randint(3, 12)) + (
        ", 1 aa" if rng.random() < 0.7 else ""
    )
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        options["retreat_chance"] = rng.choice([10, 25, 40, 55, 70])
    elif rng.random() < 0.3:
        options["retreat_left"] = rng.randint(1, 4)
    if rng.random() < 0.25:
        options["rounds"] = rng.randint(1, 4)
    if rng.random() < 0.15:
        options["retreat_after"] = rng.randint(1, options.get("rounds", 3))
    if rng.random() < 0.2:
        options["keep_land_unit"] = True
    if rng.random() < 0.2:
        options["low_luck"] = True
    if rng.random() < 0.2:
        options["rules"] = rng.choice(["1942se", "global1940"])
    if rng.random() < 0.2:
        options["ool_attacker"] = rng.choice(["fig,inf,bom", "bom,fig", "inf,art,tank,bom,fig"])
    return AABattle.parse(attacker, defender, **options)


@pytest.mark.parametrize("path", ["dense", "rows", "merged"])
def test_table_engines_agree_with_the_general_engine_on_random_battles(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each way the table engines compute a land battle (one dense solve, rows, the merged
    # engine of AA blocks), forced for every battle, against the general engine's pairs
    # of states: AA fire (A-10.5), artillery (A-14.2), round limits and strafes (A-10.15),
    # retreat rules, keeping land units, low luck and the rules sets, chosen at random
    # (seeded).  Such a comparison found the round-limit bug of the retreat by win chance.
    import engine.odds.aa as aa_module
    import engine.odds.aa_merged as merged
    import engine.odds.aa_table as table

    monkeypatch.setattr(aa_module, "SMALL_CELLS", 0)
    monkeypatch.setattr(aa_module, "SMALL_CELLS_ROUNDS", 0)
    monkeypatch.setattr(table, "DENSE_MAX", 10**6 if path == "dense" else 0)
    monkeypatch.setattr(merged, "MERGE_MIN_CELLS", 0 if path == "merged" else 10**9)
    rng = random.Random(19)
    with_retreat = 0
    for _ in range(40):
        battle = _random_land_battle(rng)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got, want = aa_odds(battle), aa_odds(battle, engine="general")
        tolerance = 1e-9 + got.error_bound + want.error_bound
        for key in CHANCES:
            assert getattr(got, key) == pytest.approx(getattr(want, key), abs=tolerance), (key, battle)
        assert got.attacker_win + got.defender_win + got.draw == pytest.approx(1.0, abs=1e-9)
        with_retreat += battle.retreat_chance is not None
    assert with_retreat >= 10


# -- a second wave joined by the first wave's units still fighting (issue 19) -------------


def test_second_wave_joins_the_first_waves_units_still_fighting() -> None:
    # 1 inf attacks 1 inf for one round (rounds:1, no retreat), then 1 tank comes.  Round
    # 1 (attack 1, defense 2): both hit 2/36 (empty: the tank walks in), only the
    # attacker 4/36 (won), only the defender 10/36 (the tank alone against 1 inf), nobody
    # 20/36: the infantry still fights and the tank joins it, a new battle (inf first).
    #   Tank against inf, per round: win 1/2 * 2/3, draw 1/2 * 1/3, lose 1/2 * 1/3, else
    #   again: win 1/2, draw 1/4, lose 1/4.
    #   Inf + tank against inf, per round: the attack hits with 1 - 5/6 * 1/2 = 7/12,
    #   the defence with 1/3 (the infantry is lost): won 7/12, tank alone against inf
    #   5/12 * 1/3, else again: won 21/26, tank against inf 5/26.
    tank = {"win": F(1, 2), "draw": F(1, 4), "lose": F(1, 4)}
    joined = {k: F(5, 26) * v for k, v in tank.items()}
    joined["win"] += F(21, 26)
    battle = AABattle.parse("1 inf", "1 inf", wave2="1 tank", rounds=1)
    assert battle.wave2_joins
    want = {
        "attacker_win": F(2, 36) + F(4, 36) + F(10, 36) * tank["win"] + F(20, 36) * joined["win"],
        "draw": F(10, 36) * tank["draw"] + F(20, 36) * joined["draw"],
        "defender_win": F(10, 36) * tank["lose"] + F(20, 36) * joined["lose"],
    }
    for exact in (False, True):
        w = aa_odds(battle, exact=exact).second_wave
        assert w is not None
        for key, value in want.items():
            assert w[key] == pytest.approx(float(value), abs=1e-15), (exact, key)
        assert w["attacker_takes"] == pytest.approx(w["attacker_win"], abs=1e-15)
    # A strafe (retreat_after) retreats the infantry instead: the tank attacks alone
    # whatever is left (A-10.15).
    strafe = AABattle.parse("1 inf", "1 inf", wave2="1 tank", retreat_after=1)
    assert not strafe.wave2_joins
    w = aa_odds(strafe, exact=True).second_wave
    assert w is not None
    alone = F(2, 36) + F(4, 36) + F(30, 36) * tank["win"]
    assert w["attacker_win"] == pytest.approx(float(alone), abs=1e-15)


def test_joined_second_wave_is_one_start_per_pair_of_states(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1 fighter against 1 inf and an AA gun for one round, then 1 more fighter.  The AA
    # gun hits the first fighter 1/6; otherwise a round: only the infantry hits 5/6 *
    # 1/6, nobody 5/6 * 1/3, both or only the fighter 5/6 * 1/2 (no defending unit left,
    # but the AA gun: A-10.10's ruling, it fires at aircraft entering, A-10.5).
    # So the second fighter attacks 1 inf alone with 1/6 + 5/36 = 11/36, the gun alone
    # with 5/12 (a battle of its own: its defender never fought), and joins the first
    # against the infantry with 5/18.  The AA gun fires before that battle at each force:
    # 1 fighter hit 1/6; 2 fighters 0, 1, 2 hit 25/36, 10/36, 1/36.  Two forces left with
    # the same fighters against the same infantry are one start, chances added
    # (engine.odds.aa._second_wave_once): 3 starts, not 5.
    from engine.odds import aa

    seen: list[tuple[AABattle, list[Any]]] = []
    real = aa._run

    def spy(battle: AABattle, *args: Any, starts: Any = None, **kwargs: Any) -> Any:
        if starts is not None:
            seen.append((battle, starts))
        return real(battle, *args, starts=starts, **kwargs)

    monkeypatch.setattr(aa, "_run", spy)
    odds = aa_odds(AABattle.parse("1 fig", "1 inf, 1 aa", wave2="1 fig", rounds=1), exact=True)
    (second, starts), = seen
    setup, _ = setup_battle(second, F(1))
    alone, joined, gun = F(11, 36), F(5, 18), F(5, 12)
    assert alone + joined + gun == 1
    live = alone + joined
    want = {
        0: (alone * F(1, 6) + joined * F(1, 36)) / live,
        1: (alone * F(5, 6) + joined * F(10, 36)) / live,
        2: joined * F(25, 36) / live,
    }
    got = {setup.attacker.counts(s.attacker).get("fighter", 0): s.weight for s in starts}
    assert len(starts) == 3 and got == want
    assert all(setup.defender.counts(s.defender) == {"infantry": 1, "aa gun": 1} for s in starts)
    # Fighters alone never take the territory (A-10.10); against the gun alone the second
    # fighter wins 5/6 and, shot down, the defender holds.
    whole = odds.second_wave
    assert whole is not None
    assert whole["attacker_takes"] == 0.0
    # The 0-fighter start holds for the defender; the others fight 1 inf (1 fighter: wins
    # 1/2, loses 1/4, trades 1/4; 2 fighters against 1 inf at 2: computed as one battle).
    two = aa_odds(AABattle.parse("2 fig", "1 inf"), exact=True)
    assert two.exact is not None
    held = live * (got[0] + got[1] * F(1, 4) + got[2] * two.exact["defender_win"])
    assert whole["defender_win"] == pytest.approx(float(held + gun * F(1, 6)), abs=1e-15)


def test_second_wave_joined_says_so() -> None:
    lines = aa_lines(aa_odds(AABattle.parse("3 inf", "3 inf", wave2="2 tank", rounds=1)))
    assert any("joined by the first wave's units still fighting after round 1" in line for line in lines)
    lines = aa_lines(aa_odds(AABattle.parse("3 inf", "3 inf", wave2="2 tank", retreat_after=1)))
    assert not any("joined" in line for line in lines)


async def test_joined_second_wave_past_discords_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Discord caps the starts of the battle the joined forces fight (bot.commands.odds.
    # MAX_STARTS; 1,400,000 starts take ~3 s): here lowered, so a small battle
    # passes it.  The command line has no cap.
    from bot.commands import odds

    real = odds.MAX_STARTS
    monkeypatch.setattr(odds, "MAX_STARTS", 5)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", attacker="3 inf, 1 tank", defender="3 inf", rounds=2, wave2="2 tank")
    text = err.value.text()
    assert "too big to compute exactly here" in text and "after round 2" in text
    # What would be legal: the same forces scaled down, found answered under the same
    # limit (then kept as this member's reply to it), then the refusal's own advice.
    offer = {"attacker": "1 inf, 1 tank", "defender": "1 inf", "wave2": "1 tank"}
    assert err.value.legal == (
        f'/odds aa … attacker:"{offer["attacker"]}" defender:"{offer["defender"]}" wave2:"{offer["wave2"]}"',
        "/odds aa … rounds:1 wave2:…", "/odds aa … retreat_after:2 wave2:…")
    msg = await invoke("odds aa", asker=2, **{"rounds": 2, **offer})
    assert "joined by the first wave's units still fighting after round 2" in msg.text
    assert (await invoke("odds aa", **{"rounds": 2, **offer})).text == msg.text
    monkeypatch.setattr(odds, "MAX_STARTS", real)
    msg = await invoke("odds aa", attacker="3 inf, 1 tank", defender="3 inf", rounds=2, wave2="2 tank")
    assert "joined by the first wave's units still fighting after round 2" in msg.text


async def test_joined_second_wave_at_sea_past_discords_sea_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # At sea the joined battle's starts go through the submarine solves one by one
    # (bot.commands.odds.MAX_SEA_STARTS, below MAX_STARTS: 665,000 of them took ~52 s
    # before the work limit refused the battle): here lowered, so a small fleet passes it;
    # a land battle keeps MAX_STARTS.
    from bot.commands import odds

    fleet = {"attacker": "3 sub, 1 des", "defender": "2 des, 1 cru", "kind": "sea", "rounds": 1, "wave2": "1 des"}
    monkeypatch.setattr(odds, "MAX_SEA_STARTS", 1)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", **fleet)
    text = err.value.text()
    assert "too big to compute exactly here" in text and "more than 1 starting points" in text
    msg = await invoke("odds aa", attacker="3 inf, 1 tank", defender="3 inf", rounds=2, wave2="2 tank")
    assert "joined by the first wave's units still fighting after round 2" in msg.text
    monkeypatch.setattr(odds, "MAX_SEA_STARTS", 5_000)
    msg = await invoke("odds aa", **fleet)
    assert "joined by the first wave's units still fighting after round 1" in msg.text


async def test_joined_second_wave_whose_table_passes_discords_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # And the merged engine's table for that battle (attacker states x columns,
    # bot.commands.odds.MAX_TABLE; 22 million cells: ~4 s and ~1 GB at most), checked
    # before it is fought: here lowered below this battle's 16,380 cells.
    from bot.commands import odds

    battle = {"attacker": "8 inf, 4 fig, 4 bom", "defender": "12 inf, 1 aa", "rounds": 1, "wave2": "4 inf, 2 fig"}
    real = odds.MAX_TABLE
    monkeypatch.setattr(odds, "MAX_TABLE", 16_379)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", **battle)
    text = err.value.text()
    assert "too big to compute exactly here" in text and "16,380 cells" in text and "16,379" in text
    assert "/odds aa … retreat_after:2 wave2:…" in text and "--" not in text
    monkeypatch.setattr(odds, "MAX_TABLE", 16_380)  # at the limit: fought
    msg = await invoke("odds aa", **battle)
    assert "joined by the first wave's units still fighting after round 1" in msg.text
    assert real >= 20_000_000  # 100 attackers with 20 aircraft joined by 100 more are taken


async def test_submarine_battle_whose_table_passes_discords_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The submarine solves' mass table (attacker states x 2 defender states, 8 bytes a
    # cell; bot.commands.odds.MAX_NAVAL_TABLE, 32 million cells), checked before it
    # grows: the battles answered need up to ~4.4 million, submarines striking on both
    # sides against aircraft that cannot hit them can need far more.  Lowered here.
    from bot.commands import odds

    battle = {"attacker": "12 sub, 4 cru, 2 bat, 2 bom", "defender": "8 cru, 4 car, 2 bat, 6 fig", "kind": "sea"}
    real = odds.MAX_NAVAL_TABLE
    monkeypatch.setattr(odds, "MAX_NAVAL_TABLE", 9000)
    with pytest.raises(PlayerError) as err:
        await invoke("odds aa", **battle)
    text = err.value.text()
    assert "too big to compute exactly here" in text and "the limit here is 9,000" in text
    # What would be legal: the biggest battle of its forces scaled down that the engine
    # found answered under the same limit (a quarter, "1 bom, 3 sub, 1 cru, 1 bat"
    # against "2 fig, 2 cru, 1 car, 1 bat", first; then, the table's limit not being
    # the work's, halfway between the biggest answered and the smallest refused), asked
    # afresh by another member: answered.
    offer = {"attacker": "2 bom, 8 sub, 3 cru, 2 bat", "defender": "4 fig, 5 cru, 3 car, 2 bat"}
    assert err.value.legal == (f'/odds aa … attacker:"{offer["attacker"]}" defender:"{offer["defender"]}"',)
    assert "--" not in text
    assert "sea battle" in (await invoke("odds aa", asker=2, **{**battle, **offer})).text
    monkeypatch.setattr(odds, "MAX_NAVAL_TABLE", real)
    msg = await invoke("odds aa", **battle)
    assert "sea battle" in msg.text and "Computed exactly" in msg.text
    assert real >= 7 * 4_400_000  # the 100-a-side strike battle's table, with room


def test_naval_table_limit_allows_exactly_what_the_table_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The cap (aa_odds max_naval_table) takes a battle whose table fits it, grown by half
    # where that fits and just enough where not, and refuses one that would pass it
    # before the table grows past it.
    from engine.odds import aa_naval, aa_strike

    # The numpy solve's table (the compiled pass of engine.odds.aa_strike, which takes
    # this battle otherwise, checks the cap once: tests/odds/test_aa_strike.py).
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    battle = AABattle.parse("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig", mode="sea")
    sizes: list[int] = []
    grown = aa_naval._grown

    def recorded(table: Any, A: Any, D: Any, cap: int | None = None) -> Any:
        got = grown(table, A, D, cap)
        sizes.append(got.size)
        return got

    monkeypatch.setattr(aa_naval, "_grown", recorded)
    free = aa_odds(battle)
    need = max(sizes)
    assert need > 8192  # past the first table (64 x 128)
    assert aa_odds(battle, max_naval_table=need) == free
    sizes.clear()
    with pytest.raises(PlayerError, match="too big"):
        aa_odds(battle, max_naval_table=8193)  # the first table (64 x 128) and not a cell more
    assert max(sizes) == 8192


async def test_discord_answers_a_joined_wave_of_a_hundred_attackers() -> None:
    # No cap below 100 units a side (issue 19): 100 attackers in all, 20 of them aircraft
    # facing an AA gun, the first 70 fighting 1 round before 30 more join (the bench's
    # odds-aa-joined-wave-100-ms: 875,000 starts, 15 million cells, ~2-3 s).
    msg = await invoke("odds aa", attacker="30 inf, 10 art, 10 tank, 10 fig, 10 bom",
                       defender="60 inf, 15 art, 10 tank, 5 fig, 1 aa", rounds=1,
                       wave2="10 inf, 5 art, 5 tank, 5 fig, 5 bom")  # fmt: skip
    assert "joined by the first wave's units still fighting after round 1" in msg.text
    assert "attacker wins 50.5%" in msg.text


@pytest.mark.parametrize(
    "options",
    [{}, {"rules": "1942se"}, {"low_luck": True}],
    ids=["anniversary", "1942se", "low-luck"],
)
def test_a_joined_second_wave_in_the_merged_engine_equals_a_battle_per_pair(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, object]
) -> None:
    # Big enough for the merged table engine, which reads the starts as arrays
    # (StartTable: AA fire at every force at once, A-10.5, the 1942 Second Edition guns
    # too): the same odds as a battle per pair of states the first round left.
    from engine.odds import aa_merged

    battle = AABattle.parse("6 inf, 2 art, 3 fig, 2 bom", "10 inf, 3 art, 2 fig, 1 aa", rounds=1,
                            wave2="4 inf, 2 tank, 2 fig", **options)  # type: ignore[arg-type]
    read: list[int] = []
    table_starts = aa_merged.MergedTable._table_starts

    def counted(self: Any, table: Any, *args: Any) -> None:
        read.append(len(table))
        table_starts(self, table, *args)

    with monkeypatch.context() as patch:
        patch.setattr(aa_merged.MergedTable, "_table_starts", counted)
        once = aa_odds(battle).second_wave
    assert read and read[0] > 40  # starts read as arrays
    each = _second_wave_each(monkeypatch, battle)
    assert once is not None and each is not None
    assert 0.05 < once["attacker_win"] < 0.99
    for key in each:
        assert once[key] == pytest.approx(each[key], abs=1e-12), key


# A start nobody can hit in (A-10.4: rounds repeat until a side is gone or the attacker
# retreats; A-10.9: it retreats at the end of a round): round 1 is fought and changes
# nothing, then the end-of-round rules act.  The general engine's float passes once
# settled such a start before round 1 (no round, and a stalemate where a strafe after
# round 1 or a retreat by win chance retreats): found by fuzzing the engines.
@pytest.mark.parametrize(("attacker", "defender"), [
    ("7 fig", "8 sub"),  # aircraft never hit submarines without a destroyer (A-10.6)
    ("2 fig", "1 sub, 1 tra"),  # the transport is lost without dice (A-10.7), then the same
    ("2 tra", "1 tra"),  # neither side rolls
])  # fmt: skip
@pytest.mark.parametrize(("options", "outcome"), [
    ({}, "stalemate"),
    ({"rounds": 2}, "stalemate"),
    ({"retreat_after": 2}, "stalemate"),
    ({"retreat_after": 1}, "retreat"),  # the strafe: after round 1
    ({"rounds": 1}, "unfinished"),
    ({"retreat_chance": 60}, "retreat"),  # fighting on never wins
    ({"retreat_chance": 10, "rounds": 1}, "retreat"),  # the retreat rules act after the last round too
    ({"retreat_below": 8}, "retreat"),
    ({"retreat_below": 8, "rounds": 1}, "retreat"),
])  # fmt: skip
def test_a_start_nobody_can_hit_in_fights_round_1_then_the_rules_act(
    attacker: str, defender: str, options: dict[str, object], outcome: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.odds.aa as aa_module

    battle = AABattle.parse(attacker, defender, mode="sea", **options)  # type: ignore[arg-type]
    answers = [aa_odds(battle), aa_odds(battle, engine="general")]
    if "retreat_chance" not in options:
        answers.append(aa_odds(battle, exact=True))
    for odds in answers:
        assert getattr(odds, outcome) == 1.0, (odds.engine, options)
        assert odds.expected_rounds == 1.0
        assert odds.error_bound < 1e-15
    # The fast engine's own pass (no submarine) reads the rules the same way.
    if "sub" not in attacker + defender:
        monkeypatch.setattr(aa_module, "stuck_start", lambda *args, **kwargs: None)
        fast = aa_odds(battle)
        assert fast.engine == "fast" and getattr(fast, outcome) == 1.0 and fast.expected_rounds == 1.0


# The same start with a second wave that joins the units still fighting after a round
# limit of 1 (A-10.4, A-10.9): round 1 changes nothing, the fighters still fight, and the
# destroyer joins them (A-10.6: now they hit the submarines).  The float passes once
# skipped the stuck start here and settled it before round 1 as a stalemate, so the
# fighters never joined (found by fuzzing the float answers against exact fractions).
@pytest.mark.parametrize(("rounds", "outcome", "joined"), [
    (1, "unfinished", True),  # still fighting: the destroyer joins two fighters
    (2, "stalemate", False),  # ended before the limit: the destroyer attacks alone
])  # fmt: skip
def test_a_stuck_start_still_fighting_is_joined_by_the_second_wave(
    rounds: int, outcome: str, joined: bool
) -> None:
    battle = AABattle.parse("2 fig", "2 sub", mode="sea", rounds=rounds, wave2="1 des")
    alone = aa_odds(AABattle.parse("1 des", "2 sub", mode="sea"), exact=True)
    together = aa_odds(AABattle.parse("2 fig, 1 des", "2 sub", mode="sea"), exact=True)
    expected = together if joined else alone
    exact = aa_odds(battle, exact=True)
    assert exact.exact is not None and exact.second_wave is not None
    for odds in (aa_odds(battle), aa_odds(battle, engine="general"), exact):
        assert getattr(odds, outcome) == 1.0 and odds.expected_rounds == 1.0, odds.engine
        assert odds.second_wave is not None
        assert odds.second_wave["attacker_win"] == pytest.approx(expected.attacker_win, abs=1e-12)
        assert odds.second_wave["draw"] == pytest.approx(expected.draw, abs=1e-12)
    assert together.attacker_win > alone.attacker_win + 0.5  # the two cases differ


@pytest.mark.parametrize("retreat", [dict(retreat_after=2), dict(retreat_left=20), dict(retreat_after=3, retreat_left=25),
                                     dict(retreat_chance=40), dict(retreat_chance=30, retreat_left=15)])
def test_a_big_landings_retreat_in_the_merged_table_engine_is_the_general_engines(
        monkeypatch: pytest.MonkeyPatch, retreat: dict[str, int]) -> None:
    """A-10.3: with AA fire splitting the attacker, the merged table engine keeps the
    pairs the attacker retreats from (and those still fighting after a strafe's round);
    the landed units fighting on from them give the general engine's whole assault."""
    from engine.odds import aa_merged

    kept: list[int] = []
    original = aa_merged.MergedTable._pair_table

    def spy(self: Any, cells: Any) -> Any:
        table = original(self, cells)
        kept.append(len(table.w))
        return table

    monkeypatch.setattr(aa_merged.MergedTable, "_pair_table", spy)
    battle = AABattle.parse("30 inf, 10 tank, 10 fig", "40 inf, 10 art, 1 aa", mode="amphibious", bombard="2 bat",
                            overland="5 tank", keep_land_unit=1, **retreat)  # fmt: skip
    merged = aa_odds(battle)
    assert kept and max(kept) > 0  # the merged engine answered, and kept pairs
    general = aa_odds(battle, engine="general")
    assert merged.fight_on is not None and general.fight_on is not None
    bound = merged.error_bound + general.error_bound
    for key in ("attacker_win", "defender_win", "draw", "attacker_takes"):
        assert merged.fight_on[key] == pytest.approx(general.fight_on[key], abs=bound)
    assert merged.retreat == pytest.approx(general.retreat, abs=bound) and merged.retreat > 0.01
    assert merged.fight_on_losses is not None and general.fight_on_losses is not None
    for who in ("attacker", "defender"):
        assert merged.fight_on_losses["expected_ipc_loss"][who] == pytest.approx(
            general.fight_on_losses["expected_ipc_loss"][who], abs=1e-9)


def test_numbered_retreat_pairs_read_as_the_pairs_of_states_they_number() -> None:
    """The numpy passes' decisions of a retreat by win chance (A-10.15; engine.odds.
    aa_naval.NumberedPairs) are the set of pairs of states their keys number, and the
    solve with the retreats that reuses the sides which numbered them takes the keys as
    they are; a set of the same pairs made of states gives it the same keys."""
    import numpy as np

    from engine.odds.aa_naval import SHIFT, NavalSolver, NumberedPairs

    battle = AABattle.parse("4 sub, 1 des, 1 cru", "2 des, 2 cru, 1 car, 2 fig", mode="sea", retreat_chance=40)
    setup, _ = setup_battle(battle, 1.0)
    found: list[Any] = []
    pairs, _ = retreat_pairs(setup, 0.4, sides=found)
    assert isinstance(pairs, NumberedPairs)
    plain = frozenset(iter(pairs))
    assert len(plain) == len(pairs) > 10
    assert all(pair in pairs for pair in plain)
    A, D = found[0]
    outside = [(a, d) for a in A.states for d in D.states if (a, d) not in plain]
    assert outside and not any(pair in pairs for pair in outside[:200])
    assert "not a pair" not in pairs and (A.states[0],) not in pairs
    assert not pairs ^ plain and isinstance(pairs | plain, frozenset) and pairs == plain
    assert pairs.attacker_states() == frozenset(a for a, _ in plain)
    assert sorted(pairs.keys.tolist()) == sorted((A.idx[a] << SHIFT) | D.idx[d] for a, d in plain)
    solver = NavalSolver(replace(setup, retreat_at=pairs), sides=found[0])
    assert solver._retreat_keys is pairs.keys
    again = NavalSolver(replace(setup, retreat_at=plain), sides=found[0])
    assert np.array_equal(again._retreat_keys, pairs.keys)
    assert pairs.keys_for(A, D) is pairs.keys and pairs.keys_for(D, A) is None
