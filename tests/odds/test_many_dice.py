"""Battles with thousands of dice, and counts no battle holds (the command line has no
unit cap, so these reach the engines there).

Before: a binomial's first term ``q ** n`` underflowed from a few thousand dice on, so
every chance came out 0 (with an error bound of 1 printed as "computed exactly"), and
the pure-Python binomial overflowed (``comb(n, k)`` as a float) from ~1,030 dice on, a
traceback; a count such as ``99999999999999999999 inf`` ran out of memory or crashed,
and a round limit of ``10**20`` hung."""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bot.cli import main
from engine.core.errors import IllegalOrder, NotationError
from engine.odds.aa import MAX_ROUNDS, AABattle, aa_odds
from engine.odds.aa_table import hits
from engine.odds.aa_units import MOST_OF_A_KIND, parse_army
from engine.odds.dist import binomial
from engine.odds.report import NOT_EXACT, aa_lines


def _exact_term(n: int, k: int, p: Fraction) -> float:
    return float(math.comb(n, k) * p**k * (1 - p) ** (n - k))


@pytest.mark.parametrize("n, p", [(1200, Fraction(1, 6)), (2500, Fraction(1, 2)), (5000, Fraction(4, 6))])
def test_float_binomials_of_thousands_of_dice_match_exact_fractions(n: int, p: Fraction) -> None:
    got = binomial(n, float(p))  # pure Python (AA fire, the dict engines)
    table = hits([(int(p * 6), n)])  # numpy (the table and naval engines)
    assert len(got) == len(table) == n + 1
    assert math.fsum(got) == pytest.approx(1.0, abs=1e-12)
    assert float(table.sum()) == pytest.approx(1.0, abs=1e-12)
    mode = int((n + 1) * p)
    for k in range(max(0, mode - 300), min(n, mode + 300) + 1, 7):
        want = _exact_term(n, k, p)
        if want > 1e-250:
            assert got[k] == pytest.approx(want, rel=1e-9), k
            assert table[k] == pytest.approx(want, rel=1e-9), k
    mean = float(np.arange(n + 1) @ table)
    assert mean == pytest.approx(float(n * p), rel=1e-12)


@pytest.mark.parametrize(
    "attacker, defender, mode, kept",
    [
        # 1100 tanks hit on 3: (1/2) ** 1100 underflowed to 0; the lone infantry (2)
        # kills one tank with chance 1/3 before it dies in round 1 (A-10.4).
        ("1100 tank", "1 inf", "land", ("tank", 1100 - 1 / 3)),
        ("1100 cru", "1 des", "sea", ("cruiser", 1100 - 1 / 3)),
        # AA fire (A-10.5): 1200 dice at 1 (the pure-Python binomial), 200 fighters
        # lost on average, then 1/3 more to the infantry.
        ("1200 fig", "1 inf, 1 aa", "land", ("fighter", 1200 - 200 - 1 / 3)),
    ],
)
def test_battles_of_thousands_of_dice_are_answered(attacker: str, defender: str, mode: str,
                                                  kept: tuple[str, float]) -> None:  # fmt: skip
    odds = aa_odds(AABattle.parse(attacker, defender, mode=mode))
    assert odds.attacker_win == pytest.approx(1.0, abs=1e-12)
    assert odds.error_bound < 1e-12
    unit, survivors = kept
    assert odds.expected_survivors["attacker"][unit] == pytest.approx(survivors, abs=1e-9)
    assert aa_lines(odds)[-1].startswith("Computed exactly")


def test_a_count_no_battle_holds_is_refused_with_the_most_there_can_be() -> None:
    with pytest.raises(NotationError) as err:
        parse_army("99999999999999999999 inf")
    assert f"at most {MOST_OF_A_KIND}" in err.value.message and err.value.legal == (f"{MOST_OF_A_KIND} inf",)
    with pytest.raises(NotationError):  # a repeated unit adds up
        parse_army(f"{MOST_OF_A_KIND} inf, 1 infantry")
    assert parse_army(f"{MOST_OF_A_KIND} inf") == {"infantry": MOST_OF_A_KIND}


def test_the_command_line_refuses_a_huge_count_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "aa", "--attacker", "99999999999999999999 inf", "--defender", "2 inf"])
    err = capsys.readouterr().err
    assert code == 2
    assert "at most 9999 units of a kind" in err and "Traceback" not in err


def test_an_answer_whose_bound_could_move_a_printed_chance_is_not_called_exact() -> None:
    odds = aa_odds(AABattle.parse("2 inf", "2 inf"))
    assert aa_lines(odds)[-1].startswith("Computed exactly (error below")
    assert aa_lines(replace(odds, error_bound=NOT_EXACT / 2))[-1].startswith("Computed exactly")
    assert aa_lines(replace(odds, error_bound=0.004))[-1] == (
        "Not exact: every chance may be off by up to 0.4 percentage points, no simulation.")
    assert "up to 100 percentage points" in aa_lines(replace(odds, error_bound=1.0))[-1]


@pytest.mark.parametrize("option", ["rounds", "retreat_after"])
def test_a_round_limit_past_100_is_refused_not_looped_over(option: str) -> None:
    # 10**20 rounds looped over every round (empty ones too) in the table, fast and
    # exact engines: the command line hung.  100 is answered, 101 refused.
    battle = AABattle.parse("3 inf", "3 inf", **{option: MAX_ROUNDS})
    assert aa_odds(battle).attacker_win == pytest.approx(aa_odds(AABattle.parse("3 inf", "3 inf")).attacker_win,
                                                         abs=1e-12)  # fmt: skip
    for too_many in (MAX_ROUNDS + 1, 10**20):
        with pytest.raises(IllegalOrder) as err:
            aa_odds(AABattle.parse("3 inf", "3 inf", **{option: too_many}))
        assert err.value.legal == (f"/odds aa … {option}:{MAX_ROUNDS}",)


def test_a_battle_too_big_for_the_memory_is_said_plainly() -> None:
    # A real process with its address space capped: the naval engine's chains of 9,999
    # ships outgrow 700 MB within ~2 s.  Before: a numpy traceback.
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (700_000_000, 700_000_000))\n"
        "from bot.cli import main\n"
        "sys.exit(main(['odds', 'aa', '--attacker', '9999 sub', '--defender', '9999 des', '--sea']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    assert "needs more memory than this machine has; try fewer units" in done.stderr
    assert "Traceback" not in done.stderr
    from bot.commands.odds import MAX_UNITS

    assert f"(Discord answers up to {MAX_UNITS} a side)" in done.stderr  # the cap it writes out is Discord's
