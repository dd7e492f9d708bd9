"""``/odds memoir`` full battle (issue 19): Ambush first (E-6.4), the close assault,
Take Ground (E-15) and Armor Overrun (E-16), with retreats open, partly blocked or
blocked (E-14.5).  Exact fractions worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from bot.cli import main
from engine.core.errors import PlayerError
from engine.odds.memoir import ARMOR, INFANTRY, MemoirBattle, MemoirRoll, memoir_battle
from tests.odds.helpers import invoke


def test_ambush_then_attack_by_hand() -> None:
    # One die at 1-figure infantry: a hit (1/2) eliminates; a flag alone (1/6) retreats it.
    battle = MemoirBattle(
        attack=MemoirRoll(dice=1, target=INFANTRY, figures=1),
        attacker=INFANTRY,
        ambush=MemoirRoll(dice=1, target=INFANTRY, figures=1),
    )
    odds = memoir_battle(battle)
    assert odds.attacker_eliminated == F(1, 2)
    assert odds.cancelled == F(2, 3)
    assert odds.target_eliminated == F(1, 3) * F(1, 2)
    assert odds.success == F(1, 3) * F(2, 3)
    assert odds.medals_defender == F(1, 2) and odds.medals_attacker == F(1, 6)


def test_a_blocked_attacker_is_not_cancelled_by_a_flag() -> None:
    # The attacker (2 figures) cannot retreat: the Ambush flag costs a figure, it stays and attacks.
    battle = MemoirBattle(
        attack=MemoirRoll(dice=1, target=INFANTRY, figures=1),
        ambush=MemoirRoll(dice=1, target=INFANTRY, figures=2, blocked=True),
    )
    odds = memoir_battle(battle)
    assert odds.cancelled == 0
    assert odds.target_eliminated == F(1, 2)


def test_partly_blocked_retreat_and_overrun() -> None:
    # 2 dice at armor (hit 1/3, flag 1/6), 1 figure, room for 1 hex: two flags and no hit
    # retreat 1 hex and cost the figure for the second.
    battle = MemoirBattle(
        attack=MemoirRoll(dice=2, target=ARMOR, figures=1, retreat_room=1),
        attacker=ARMOR,
        overrun=MemoirRoll(dice=3, target=INFANTRY, figures=1),
    )
    odds = memoir_battle(battle)
    hit = F(1, 3)
    no_hit = 1 - (1 - hit) ** 2
    two_flags = F(1, 6) ** 2
    one_flag = 2 * F(1, 6) * (1 - hit - F(1, 6))
    assert odds.target_eliminated == no_hit + two_flags
    assert odds.success == no_hit + two_flags + one_flag
    assert odds.overrun_made == odds.success
    assert odds.overrun_eliminated == odds.success * (1 - F(1, 2) ** 3)


def test_only_armor_overruns_in_slash_syntax() -> None:
    with pytest.raises(PlayerError) as err:
        memoir_battle(MemoirBattle(attack=MemoirRoll(dice=1, target=INFANTRY, figures=1),
                                   overrun=MemoirRoll(dice=1, target=INFANTRY, figures=1)))  # fmt: skip
    # The example keeps the Overrun asked about (its dice and figures): armor makes it.
    assert "/odds memoir … attacker:armor overrun_dice:1 overrun_figures:1" in err.value.text()


def test_cli_full_battle(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "memoir", "--dice", "1", "--target", "infantry", "--figures", "1",
                 "--attacker", "infantry", "--ambush-dice", "1", "--attacker-figures", "1", "--json"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["exact"] == {"target_eliminated": "1/6", "success": "2/9", "cancelled_by_ambush": "2/3"}


async def test_discord_full_battle() -> None:
    msg = await invoke("odds memoir", dice="3", target="infantry", figures="4", attacker="armor",
                       ambush_dice="2", attacker_figures="3", overrun_dice="3", overrun_target="infantry",
                       overrun_figures="2", overrun_retreat_room="0")  # fmt: skip
    assert "Close assault by armor on infantry (4 figures)" in msg.text
    assert "Ambush first (2 dice at the armor)" in msg.text
    assert "Overrun (3 dice at infantry, 2 figures)" in msg.text
    assert "Expected medals" in msg.text


@pytest.mark.parametrize(
    ("options", "needs"),
    [
        ({"overrun_target": "armor"}, "Overrun dice"),
        ({"overrun_figures": "2"}, "Overrun dice"),
        ({"overrun_retreat_room": "0", "attacker": "armor"}, "Overrun dice"),
        ({"attacker_figures": "3"}, "Ambush dice"),
        ({"attacker_retreat_room": "0", "attacker": "infantry"}, "Ambush dice"),
    ],
)
async def test_an_option_of_the_full_battle_alone_is_refused_not_dropped(options: dict[str, str], needs: str) -> None:
    # Before, these answered the dice alone (or the battle without them) in silence.
    with pytest.raises(PlayerError, match=needs):
        await invoke("odds memoir", dice="3", target="infantry", figures="4", **options)
    flags = [item for name, value in options.items() for item in (f"--{name.replace('_', '-')}", value)]
    assert main(["odds", "memoir", "--dice", "3", "--target", "infantry", "--figures", "4", *flags]) == 2


def test_cli_dice_alone_is_not_a_full_battle(capsys: pytest.CaptureFixture[str]) -> None:
    # The command line's Overrun target has no default of its own any more: the dice alone
    # stay the dice alone.
    assert main(["odds", "memoir", "--dice", "3", "--target", "infantry", "--figures", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 battle dice vs infantry") and "Close assault" not in out


def test_the_chart_of_a_whole_close_assault_shows_its_steps_then_the_dice() -> None:
    from engine.odds.memoir import memoir_odds
    from engine.odds.report import memoir_battle_sections, memoir_sections

    roll = MemoirRoll(dice=3, target=INFANTRY, figures=4)
    battle = MemoirBattle(attack=roll, attacker=ARMOR, ambush=MemoirRoll(dice=2, target=ARMOR, figures=3),
                          overrun=MemoirRoll(dice=3, target=INFANTRY, figures=2))  # fmt: skip
    whole, dice = memoir_battle(battle), memoir_odds(roll)
    sections = memoir_battle_sections(whole, dice)
    assert sections[0] == ("Close assault", [
        ("Ambush cancels it", float(whole.cancelled)), ("Target eliminated", float(whole.target_eliminated)),
        ("Ground can be taken", float(whole.success)), ("Overrun made", float(whole.overrun_made)),
        ("Overrun eliminates", float(whole.overrun_eliminated))])  # fmt: skip
    assert sections[1:] == memoir_sections(dice)
    assert 0 < whole.cancelled < 1 and 0 < whole.overrun_made <= whole.success
    # Without an Ambush or an Overrun their bars are left out.
    plain = memoir_battle(MemoirBattle(attack=roll, attacker=INFANTRY))
    assert [label for label, _ in memoir_battle_sections(plain, dice)[0][1]] == [
        "Target eliminated", "Ground can be taken"]
