"""The channel's words for initiative (M-5.1): a tie broken by the commander bonus says why."""

from __future__ import annotations

from bot.minis.narrate import lines
from tests.minis.helpers import battle, open_map


def initiative(axis: list[int], allies: list[int], bonuses: tuple[int, int], winner: str | None) -> str:
    event = {"type": "InitiativeRolled", "turn": 2, "axis_dice": axis, "allies_dice": allies,
             "axis_bonus": bonuses[0], "allies_bonus": bonuses[1], "winner": winner}
    (line,) = lines([event], battle(open_map(), []))
    return line


def test_a_tie_on_totals_is_broken_by_the_higher_commander_bonus_and_says_so() -> None:
    assert initiative([3, 4], [5, 1], (2, 3), "allies") == (
        "🎲 Initiative, turn 2: Axis 3+4+2 = 9, Allies 5+1+3 = 9 → tie broken by the higher "
        "commander bonus: the Allies win (M-5.1)")


def test_a_full_tie_rolls_again_and_a_plain_win_is_plain() -> None:
    assert initiative([3, 4], [4, 3], (1, 1), None).endswith("= 8 → tie, both roll again (M-5.1)")
    assert initiative([6, 6], [1, 1], (0, 3), "axis").endswith("Allies 1+1+3 = 5 → the Axis win")


def attack_line(dice: list[int]) -> str:
    event = {"type": "Attacked", "attacker": "ax1", "target": "al1", "kind": "normal", "range": 1, "band": "short",
             "dice": dice, "modifier": 0, "successes": sum(d >= 4 for d in dice), "defense": 2, "front": None,
             "hits": 0, "covered": False, "counters": [], "effect": "none"}
    (line,) = lines([event], battle(open_map(), []))
    return line


def test_an_attack_line_counts_one_die_in_the_singular() -> None:
    assert "1 hex (short): 1 die 5 = 1 success vs defense 2" in attack_line([5])
    assert "1 hex (short): 3 dice 6 4 1 = 2 successes vs defense 2" in attack_line([4, 1, 6])
