"""Text and chart sections of odds results."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from engine.odds.aa import AABattle, aa_odds
from engine.odds.report import _count_bars, aa_lines, aa_sections, percent


def test_percent_never_rounds_possible_to_impossible() -> None:
    assert [percent(x) for x in (0, 1e-9, 0.25, 0.99999, 1)] == ["0%", "<0.1%", "25.0%", ">99.9%", "100%"]


@given(st.dictionaries(st.integers(0, 120), st.floats(0, 1), min_size=1))
def test_survivor_bars_keep_all_the_mass(counts: dict[int, float]) -> None:
    bars = _count_bars(counts)
    assert math.fsum(p for _, p in bars) == pytest.approx(math.fsum(counts.values()))
    assert len(bars) <= 10
    assert bars[-1][0] == "0 left"


def test_aa_text_names_each_part_of_defender_holds() -> None:
    odds = aa_odds(AABattle.parse("2 inf", "2 inf", rounds=1, retreat_below=2))
    text = "\n".join(aa_lines(odds))
    assert "attacker retreats" in text and "still fighting after 1 round(s)" in text
    assert [name for name, _ in aa_sections(odds)] == [
        "Outcome", "Surviving attacker units", "Surviving defender units"]  # fmt: skip


def test_aa_first_line_names_technologies_and_submerging() -> None:
    # A-7 technologies and submerging shape the answer, so the first line names
    # them with the other options (without them, a reply could not be told apart).
    battle = AABattle.parse("2 sub, 3 fig, 1 bom", "2 cru, 1 car", mode="sea", tech_attacker="heavy bombers, jets",
                            tech_defender="super subs", submerge_attacker=True)  # fmt: skip
    first = aa_lines(aa_odds(battle))[0]
    assert first.endswith("— attacker with heavy bombers, jet fighters, defender with super submarines, "
                          "attacker's submarines submerge when alone"), first
    assert "—" not in aa_lines(aa_odds(AABattle.parse("2 sub", "2 cru", mode="sea")))[0]


def test_defensive_fire_shows_0_and_1_hit_in_the_text_and_the_chart_alike() -> None:
    # M-12.4: defensive fire that reaches the defense disrupts; 2 or 3 hits mean nothing
    # more, so neither the text nor the chart shows them (one rule for both).
    from engine.odds.minis import MinisAttack, minis_odds
    from engine.odds.report import minis_lines, minis_sections

    odds = minis_odds(MinisAttack(dice=6, defense=4, defensive_fire=True))
    assert max(odds.hits) >= 2  # the dice can make more; the report leaves them out
    hits = dict(minis_sections(odds))["Hits"]
    assert [label for label, _ in hits] == ["0 hits", "1 hit"]
    text = minis_lines(odds)[1]
    assert text == " · ".join(f"{label} {percent(p)}" for label, p in hits)
    attack = minis_odds(MinisAttack(dice=6, defense=4))
    assert [label for label, _ in dict(minis_sections(attack))["Hits"]][2:] == ["2 hits", "3 hits"]


def test_one_die_and_one_figure_are_singular() -> None:
    from engine.odds.memoir import ARMOR, INFANTRY, MemoirBattle, MemoirRoll, memoir_battle, memoir_odds
    from engine.odds.minis import MinisAttack, minis_odds
    from engine.odds.report import memoir_battle_lines, memoir_lines, memoir_subtitle, minis_lines

    whole = memoir_battle(MemoirBattle(attack=MemoirRoll(dice=1, target=ARMOR, figures=1), attacker=ARMOR,
                                       ambush=MemoirRoll(dice=1, target=ARMOR, figures=2),
                                       overrun=MemoirRoll(dice=2, target=INFANTRY, figures=1)))  # fmt: skip
    text = "\n".join(memoir_battle_lines(whole))
    assert "armor on armor (1 figure)" in text and "Ambush first (1 die at the armor)" in text
    assert "Overrun (2 dice at infantry, 1 figure)" in text
    roll = memoir_odds(MemoirRoll(dice=1, target=INFANTRY, figures=3))
    assert memoir_lines(roll)[0].startswith("1 battle die vs infantry")
    assert memoir_subtitle(roll).startswith("1 die vs infantry, 3 figures")
    assert minis_lines(minis_odds(MinisAttack(dice=1, defense=4)))[0].startswith("1 die attack vs defense 4")
