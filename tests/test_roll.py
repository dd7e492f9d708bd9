"""/roll notation: d20 forms and wargame success counting, with scripted dice."""

from __future__ import annotations

import json
import random

import pytest

from bot.cli import main
from bot.roll import roll
from engine.core.dice import scripted_dice, seeded_dice
from engine.core.errors import NotationError


def test_success_test_counts_dice_meeting_the_target() -> None:
    r = roll("11d6>=4", scripted_dice([6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1]))  # M-7.10's dice
    assert r.successes == 6 and r.dice == (6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1)
    assert r.hits == (True,) * 6 + (False,) * 5
    assert r.text() == "**11d6>=4** → 6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1 → **6 successes**"
    assert r.to_json()["successes"] == 6


@pytest.mark.parametrize(
    "expr, dice, successes",
    [("3d6>4", [5, 4, 6], 2), ("3d6<=2", [1, 2, 3], 2), ("2d6=6", [6, 1], 1), ("1d6>=4", [3], 0)],
)
def test_comparisons(expr: str, dice: list[int], successes: int) -> None:
    assert roll(expr, scripted_dice(dice)).successes == successes


def test_plain_notation_totals_and_keeps() -> None:
    r = roll("3d6+2", scripted_dice([4, 3, 1]))
    assert (r.total, r.successes, r.dice) == (10, None, (4, 3, 1))
    k = roll("4d6kh3", scripted_dice([2, 5, 1, 3]))
    assert (k.total, k.kept, k.dice) == (10, (2, 5, 3), (2, 5, 1, 3))
    sel = roll("4d6k>3", scripted_dice([2, 5, 1, 4]))  # d20's own selector, not a success test
    assert (sel.total, sel.successes) == (9, None)


@pytest.mark.parametrize("expr", ["", "3dx", "hello", "3d6+2>=4", "1001d6", "(1d6", "2d0"])
def test_bad_expressions_say_how_to_write_one(expr: str) -> None:
    with pytest.raises(NotationError) as err:
        roll(expr, seeded_dice(1))
    assert "11d6>=4" in err.value.text()


def test_roll_never_touches_global_random() -> None:
    random.seed(123)
    expected = [random.random() for _ in range(3)]
    random.seed(123)
    roll("20d6>=4", scripted_dice([3] * 20))
    assert [random.random() for _ in range(3)] == expected


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "11d6>=4", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["dice"]) == 11 and all(1 <= d <= 6 for d in out["dice"])
    assert out["successes"] == sum(d >= 4 for d in out["dice"])
    assert main(["roll", "11d6>=4", "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == out  # a seed makes it reproducible


def test_cli_bad_expression_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "3dx"]) == 2
    assert "Can't roll '3dx'" in capsys.readouterr().err
