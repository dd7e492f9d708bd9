"""``/odds minis attacker:… target:…`` through the local channel, on a real game."""

from __future__ import annotations

from pathlib import Path

from bot.commands import load_all
from bot.commands.base import REGISTRY
from bot.minis import complete
from engine.odds.minis import MinisAttack, minis_odds
from engine.odds.report import minis_lines

from .minis_scripts import DEPLOY, OPEN, TO_MOVEMENT, run

# After TO_MOVEMENT the Panzer (C8, facing SE) moves 3 hexes to F8: the Sherman in P8,
# facing NW, is 10 hexes away — long range for the Panzer's Extended Range 10 against
# Vehicles (M-7.1): 11 dice against front defense 5 (M-7.9), in clear terrain.
PANZER_UP = TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8\n"


def lines_to(out: str, who: str) -> list[str]:
    """The player errors shown to ``who`` alone."""
    return [ln for ln in out.splitlines() if ln.startswith(f"[to {who}] ⚠️")]


async def test_live_odds_name_the_units_and_equal_the_numbers_form(tmp_path: Path) -> None:
    code, out = await run(PANZER_UP + "carol: /odds minis attacker:ax1 target:al1\n", tmp_path)
    assert code == 0, out
    answer = out[out.index("[to carol] ax1 Panzer IV Ausf. G (F8) attacks"):]
    assert answer.startswith("[to carol] ax1 Panzer IV Ausf. G (F8) attacks al1 M4A1 Sherman (P8): "
                             "10 hexes, long range\n")
    assert ("11 dice, die modifier +0: each succeeds 50.0% · defense 5 front / 4 rear, front arc: 5 · "
            "cover: none (clear)") in answer
    # the same attack from the numbers, computed here from the numbers alone
    by_hand = minis_lines(minis_odds(MinisAttack(dice=11, defense=5)))
    assert f"**{by_hand[1]}**" in answer and by_hand[2] in answer
    assert "odds-minis.png" in answer  # the chart


async def test_live_odds_for_a_player_and_the_numbers_form_agree(tmp_path: Path) -> None:
    code, out = await run(PANZER_UP + "alice: /odds minis attacker:ax1 target:al1\n"
                          "bob: /odds minis dice:11 defense:5\n", tmp_path)
    assert code == 0, out
    hits = [ln for ln in out.splitlines() if "**0 hits" in ln]
    assert len(hits) == 2 and hits[0].split("**")[1] == hits[1].split("**")[1]


async def test_live_odds_refuse_what_the_rules_refuse(tmp_path: Path) -> None:
    script = PANZER_UP + (
        "bob: /odds minis attacker:al4 target:ax1\n"
        "bob: /odds minis attacker:al4 target:ax1 defensive:true\n"
        "bob: /odds minis attacker:al1 target:al2\n"
        "alice: /odds minis attacker:ax1 target:al1 ap:true\n"
    )
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert lines_to(out, "bob") == [
        "[to bob] ⚠️ al4 cannot attack ax1: it is 9 hexes away, beyond its range 8.",
        "[to bob] ⚠️ al4 cannot make defensive fire at ax1: it is 9 hexes away; defensive fire is at "
        "range 0 or 1 (M-12.2).",
        "[to bob] ⚠️ al1 cannot attack al2: it is a friendly unit.",
    ]
    assert lines_to(out, "alice") == ["[to alice] ⚠️ ax1 has no Armor-Piercing Rounds."]


async def test_numbers_and_units_do_not_mix(tmp_path: Path) -> None:
    script = TO_MOVEMENT + (
        "alice: /odds minis attacker:ax1 target:al1 dice:11\n"
        "alice: /odds minis attacker:ax1\n"
        "alice: /odds minis target:soldier dice:3 defense:3\n"
        "alice: /odds minis cover:5\n"
        "alice: /odds minis dice:3 defense:3 at:entering\n"
    )
    code, out = await run(script, tmp_path)
    assert code == 0, out
    told = lines_to(out, "alice")
    assert told[0].startswith("[to alice] ⚠️ Give either two units or the numbers, not both: with attacker "
                              "and target the game gives every number, so leave out dice.")
    assert told[1].startswith("[to alice] ⚠️ Give the target unit too")
    assert told[2] == ("[to alice] ⚠️ 'target' names a unit of the game; the numbers form takes "
                       "target_type:soldier. Write it like: /odds minis dice:11 defense:5 target_type:soldier.")
    assert told[3].startswith("[to alice] ⚠️ Give the attacker and target units of this channel's game, "
                              "or at least dice and defense.")
    assert told[4] == ("[to alice] ⚠️ 'at' is for defensive fire between two units of the game (attacker and "
                       "target). Write it like: /odds minis attacker:ax2 target:al1 defensive:true at:entering.")
    assert not any("**0 hits" in ln for ln in out.splitlines()[-5:])


async def test_undeployed_units_stay_secret(tmp_path: Path) -> None:
    # Axis deployed the Panzer only; the rest of its army is still secret (M-2.5).
    partial = OPEN + "!dice 1\n" + DEPLOY[:DEPLOY.index("alice: /minis deploy unit:ax2")]
    script = partial + (
        "bob: /odds minis attacker:al1 target:ax2\n"  # an undeployed enemy: like no unit at all
        "bob: /odds minis attacker:al1 target:ax9\n"  # no such unit
        "carol: /odds minis attacker:ax1 target:ax3\n"  # an onlooker
        "alice: /odds minis attacker:ax2 target:al1\n"  # her own undeployed unit, an undeployed enemy
        "alice: /odds minis attacker:al1 target:ax2\n"  # bob's undeployed unit
        "bob: /odds minis attacker:al1 target:ax1\n"  # his own unit, not on the map yet
    )
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert lines_to(out, "bob") == [
        "[to bob] ⚠️ There is no unit 'ax2' on the map. Legal: ax1.",
        "[to bob] ⚠️ There is no unit 'ax9' on the map. Legal: ax1.",
        "[to bob] ⚠️ al1 cannot attack ax1: it is not on the map.",
    ]
    assert lines_to(out, "carol") == ["[to carol] ⚠️ There is no unit 'ax3' on the map. Legal: ax1."]
    assert lines_to(out, "alice")[-2:] == [
        "[to alice] ⚠️ There is no unit 'al1' on the map. Legal: ax1.",
        "[to alice] ⚠️ There is no unit 'al1' on the map. Legal: ax1.",
    ]


async def test_no_minis_game_in_the_channel(tmp_path: Path) -> None:
    code, out = await run("alice: /odds minis attacker:ax1 target:al1\n", tmp_path)
    assert code == 0, out
    assert lines_to(out, "alice") == [
        "[to alice] ⚠️ There is no A&A Miniatures game in this channel: give the numbers instead "
        "(/odds minis dice:11 defense:5), or start one with /minis new."]


async def test_no_memoir_game_in_the_channel(tmp_path: Path) -> None:
    """The Memoir '44 live form says what the Minis one says: the numbers need no game."""
    code, out = await run("alice: /odds memoir unit:E4 enemy:F6\nalice: /odds memoir dice:3 target:infantry\n",
                          tmp_path)
    assert code == 0, out
    assert lines_to(out, "alice") == [
        "[to alice] ⚠️ There is no Memoir '44 game in this channel: give the numbers instead "
        "(/odds memoir dice:3 target:infantry), or start one with /memoir new."]
    assert "[#table] 3 battle dice vs infantry" in out, out  # the numbers answered, publicly


def test_unit_options_complete_from_the_units_the_asker_sees() -> None:
    load_all()
    cmd = REGISTRY[("odds", "minis")]
    assert cmd.option("attacker").autocomplete is complete.any_unit
    assert cmd.option("target").autocomplete is complete.any_unit
