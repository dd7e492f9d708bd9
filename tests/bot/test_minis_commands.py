"""/minis through the local channel: every command and every refusal path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.local_scripts import public, replies_to
from tests.bot.minis_scripts import DEPLOY, OPEN, TO_MOVEMENT, TO_PROMPT, run


async def test_opening_joining_and_secret_army_lists(tmp_path: Path) -> None:
    code, out = await run(OPEN + "carol: /minis status\nbob: /minis army\n", tmp_path)
    assert code == 0, out
    pub = public(out)
    assert "@alice opened an **A&A Miniatures** battle.\n         Scenario: standard." in pub
    assert "configuration 3 “Highland”" in pub
    assert "@bob joins as **Allies**." in pub
    # M-2.5: no card of either list appears in anything the channel sees.
    for secret in ("Panzer", "Mauser", "MG 42", "Sherman", "Garand", "Bazooka", "Red Devil", "units,"):
        assert secret not in pub, secret
    # Not even how often a list was edited reaches the channel (issue 9).
    assert "army list" not in pub and "The Axis army is ready." in pub
    assert "Your army (5 units, 46 points): Panzer IV Ausf. G, Mauser Kar 98k" in replies_to(out, "alice")
    assert "**Allies** (5 units, 40 points, ready): M4A1 Sherman" in replies_to(out, "bob")
    assert "🪙 Coin toss" in pub


async def test_the_log_keeps_army_lists_secret(tmp_path: Path) -> None:
    code, out = await run(OPEN + "carol: /minis log\n", tmp_path)
    assert code == 0, out
    log = replies_to(out, "carol")
    # Secret orders leave no trace in anyone else's log, not even a count (issue 9).
    assert "units:" not in log and "Panzer" not in log and "Sherman" not in log
    assert "Axis: /minis army ready:true" in log


async def test_join_refusals(tmp_path: Path) -> None:
    code, out = await run(
        "alice: /minis new side:axis\n"
        "alice: /minis join\n"
        "bob: /minis join side:axis\n"
        "bob: /minis join side:allies\n"
        "carol: /minis join\n"
        "alice: /minis new\n",
        tmp_path,
    )
    assert code == 0, out
    assert "[to alice] ⚠️ You already play axis in this battle." in out
    assert "[to bob] ⚠️ The axis seat is taken. Legal: /minis join side:allies." in out
    assert "[to carol] ⚠️ Every seat of this battle is taken." in out
    assert "[to alice] ⚠️ This channel already has a game in progress." in out


async def test_army_refusals(tmp_path: Path) -> None:
    code, out = await run(
        OPEN.split("alice: /minis army")[0]
        + 'carol: /minis army units:"Bazooka"\n'
        + 'alice: /minis army units:"Tiger I, Tiger I"\n'
        + "alice: /minis army ready:true\n"
        + 'alice: /minis army units:"M4A1 Sherman"\n'
        + 'alice: /minis army units:"Unobtainium Tank"\n',
        tmp_path,
    )
    assert code == 0, out
    assert "[to carol] ⚠️ You are not playing in this game" in out
    alice = replies_to(out, "alice")
    assert "Your army (2 units, 112 points): Tiger I, Tiger I. Not ready yet: 112 points, more than 100 (M-2.1" in alice
    assert "⚠️ Your army is not legal: 112 points, more than 100" in alice
    assert "Not ready yet: M4A1 Sherman fights for the allies, not the axis (M-1.4)" in alice
    assert "Your army (1 unit, 21 points)" in alice
    assert "⚠️ There is no unit called 'Unobtainium Tank'." in alice


async def test_only_the_active_player_moves_and_only_their_own_units(tmp_path: Path) -> None:
    code, out = await run(
        TO_MOVEMENT
        + "bob: /minis move unit:al1 to:O8\n"
        + "alice: /minis move unit:al1 to:O8\n"
        + "carol: /minis move unit:ax1 to:D8\n"
        + "alice: /minis attack unit:ax1 target:al1\n"
        + "alice: /minis move unit:ax1 to:R8\n",
        tmp_path,
    )
    assert code == 0, out
    assert "[to bob] ⚠️ It is the axis player's movement phase." in out
    assert "[to alice] ⚠️ al1 is not yours." in out
    assert "[to carol] ⚠️ You are not playing in this game" in out
    alice = replies_to(out, "alice")
    assert "assault" in alice  # attacking is for the assault phase (M-5.4)
    assert "ax1 cannot reach R8" in alice and "Legal:" in alice


async def test_moves_are_answered_at_once_and_phases_end_with_a_map(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8 face:SE\nalice: /minis done\n", tmp_path)
    assert code == 0, out
    assert "[#table] ax1 Panzer IV Ausf. G moved C8 → D7 → E8 → F8, facing SE" in out
    report = out.split("📜 **Turn 1, movement phase (Axis) — report**")[1]
    assert "ax1 Panzer IV Ausf. G moved" in report.split("[#table]")[0]
    images = sorted(p.name for p in (tmp_path / "img").iterdir())
    assert images[-2].endswith("turn1-movement-axis.png")  # named after the phase it reports
    assert images[-1].endswith("turn1-movement-axis-closeup.png")  # and its close-up (issue 18)
    assert "@bob (Allies) — your movement phase (turn 1)" in out


async def test_defensive_fire_prompt_with_buttons(tmp_path: Path) -> None:
    code, out = await run(TO_PROMPT + "alice: !press 1\n", tmp_path)
    assert code == 0, out
    assert "[#table] ⏳ Your order is under way; Axis may react first." in out
    assert ("[#table] @alice (Axis) — defensive fire: al1 (M4A1 Sherman) moves J8 → J7 — fire with a unit"
            in out)
    assert "buttons: [1: ax1 fires (leaving hex)]  [2: ax1 fires (entering hex)]  [3: Hold fire]" in out
    assert "🔫 Defensive fire by ax1 Panzer IV Ausf. G at J8 (leaving hex)" in out
    assert "💥 ax1 Panzer IV Ausf. G → al1 M4A1 Sherman (defensive fire), 1 hex (short): 15 dice" in out


async def test_holding_fire_lets_the_move_finish(tmp_path: Path) -> None:
    """M-12.2/M-12.5: the defender may fire at the hex left, then at the hex entered."""
    code, out = await run(TO_PROMPT + "bob: /minis defend hold\nalice: /minis defend hold\nalice: /minis defend hold\n", tmp_path)
    assert code == 0, out
    assert "[to bob] ⚠️ The non-moving player answers defensive fire." in out
    second = out.split("The Axis held fire as al1 M4A1 Sherman passed J8.")[1]
    assert "buttons: [1: ax1 fires (entering hex)]  [2: Hold fire]" in second
    assert "The Axis held fire as al1 M4A1 Sherman passed J7." in second
    assert "al1 M4A1 Sherman moved J8 → J7, facing N" in out


async def test_standing_orders_answer_without_a_prompt(tmp_path: Path) -> None:
    script = TO_PROMPT.replace(
        "bob: /minis move unit:al1 to:J7 face:N\n",
        "alice: /minis defend standing unit:ax1 policy:hold\nbob: /minis move unit:al1 to:J7 face:N\n")
    code, out = await run(script, tmp_path)
    assert code == 0, out
    assert "[to alice] Standing order for ax1 Panzer IV Ausf. G: hold." in out
    assert "Standing order" not in public(out)  # nobody else learns it
    assert "fires (" not in out and "Hold fire" not in out
    assert "al1 M4A1 Sherman moved J8 → J7, facing N" in out


async def test_an_unanswered_prompt_falls_back_to_the_standing_order(tmp_path: Path) -> None:
    code, out = await run(TO_PROMPT + "!wait 11h\n!wait 2h\n", tmp_path)
    assert code == 0, out
    after = out.split("[3: Hold fire]")[1]
    assert "⏰ The Axis did not answer in time: hold." in after
    assert "al1 M4A1 Sherman moved J8 → J7" in after


async def test_reminder_after_a_day(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "!wait 23h\n!expect-not Reminder\n!wait 2h\n!expect ⏰ Reminder: @alice (axis)\n",
                          tmp_path)
    assert code == 0, out


async def test_game_timeout_policy_ends_the_phase(tmp_path: Path) -> None:
    script = TO_MOVEMENT.replace("alice: /minis new side:axis map:3",
                                 "alice: /minis new side:axis map:3 timeout:2d policy:done remind:off")
    code, out = await run(script + "!wait 47h\n!expect-not did not answer\n!wait 2h\n", tmp_path)
    assert code == 0, out
    assert "⏰ The Axis did not answer in time: done." in out
    assert "@bob (Allies) — your movement phase (turn 1)" in out.split("did not answer")[-1]


async def test_bad_durations_are_refused(tmp_path: Path) -> None:
    code, out = await run("alice: /minis new timeout:soon\n", tmp_path)
    assert code == 0
    assert "[to alice] ⚠️ 'soon' is not a duration for timeout." in out


async def test_undo_previews_then_needs_agreement_or_a_free_moderator(tmp_path: Path) -> None:
    """Issue 9: a player takes back alone only their own last order without dice; taking
    back the opponent's order needs their agreement; a moderator without a seat may."""
    code, out = await run(
        TO_MOVEMENT
        + "alice: /minis move unit:ax1 to:F8 face:SE\n"
        + "carol: /minis undo\n"            # holds no seat, no moderator
        + "alice: /minis undo\n"            # preview of her own dice-free order
        + "!expect Undo would take back 1 order:\n"
        + "!expect • Axis: /minis move unit:ax1 to:F8 path:\"D7 E8\" face:SE\n"
        + "alice: !press Undo\n"
        + "!expect ↩️ @alice undid:\n"
        + "bob: /minis undo\n"              # alice's 'first' choice: someone else's order
        + "!expect It needs the other side's agreement (it takes back your opponent's order)\n"
        + "bob: !press 1\n"
        + "!expect @alice: do you agree?\n"
        + "bob: /minis undo answer:agree\n"  # the asker cannot agree for the other side
        + "!expect Only the other side\n"
        + "alice: /minis undo answer:refuse\n"
        + "!expect refused the undo\n"
        + "!moderator mod\n"
        + "mod: /minis undo\n"
        + "mod: !press Undo\n"
        + "!expect ↩️ @mod undid:\n"
        + "alice: /minis status\n",
        tmp_path,
    )
    assert code == 0, out
    assert "[to carol] ⚠️ Only the players of this game, or a moderator who holds no seat" in out
    assert "@alice (Axis) — you won the initiative for turn 1" in out.split("@mod undid")[1]


async def test_replace_abort_and_a_new_game(tmp_path: Path) -> None:
    code, out = await run(
        TO_MOVEMENT
        + "carol: /minis replace side:allies user:@dave\n"
        + "alice: /minis replace side:allies user:@dave\n"
        + "!moderator mod\n"
        + "mod: /minis replace side:allies user:@dave\n"
        + "dave: /minis status\n"
        + "bob: /minis abort\n"
        + "alice: /minis abort\n"
        + "mod: /minis abort\n"
        + "mod: !press Abort\n"
        + "alice: /minis status\n"
        + "alice: /minis new\n",
        tmp_path,
    )
    assert code == 0, out
    assert "[to carol] ⚠️ Only a moderator who holds no seat in this game may replace a player" in out
    assert "[to alice] ⚠️ Only a moderator who holds no seat in this game may replace a player" in out
    assert "@dave now plays **Allies** (set by @mod)." in out
    assert "Allies: @dave" in out
    assert "[to bob] ⚠️ Once the battle has started only a moderator who holds no seat may abort it" in out
    assert "[to alice] ⚠️ Once the battle has started" in out
    assert "The battle was aborted by @mod." in out
    assert "status aborted" in out.split("The battle was aborted by @mod.")[1]  # still visible
    assert "@alice opened an **A&A Miniatures** battle" in out.split("aborted")[-1]


async def test_concede_asks_first_then_ends_the_battle(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "bob: /minis concede\nalice: /minis move unit:ax1 to:D8\n"
                          "bob: !press Concede\nalice: /minis move unit:ax1 to:D8\n", tmp_path)
    assert code == 0, out
    first, second = out.split("bob: !press", 1)[0], out
    assert "[to bob] Concede the battle? It ends now and the other side wins." in first
    assert "ax1 Panzer IV Ausf. G moved C8 → D8" in out  # nothing ended before the confirmation
    assert "🏳️ Allies concede (@bob). 🏆 Axis win the battle." in second
    assert "[to alice] ⚠️ There is no game in progress" in second.split("Axis win the battle")[1]


async def test_looking_commands(tmp_path: Path) -> None:
    code, out = await run(
        TO_MOVEMENT
        + "carol: /minis los from:C8 to:P8\n"
        + "carol: /minis map overlay:los from:C8 to:H2\n"
        + "alice: /minis map overlay:reach unit:ax1\n"
        + "carol: /minis map overlay:ranges unit:al1\n"
        + "carol: /minis card unit:al1\n"
        + 'carol: /minis card unit:"Tiger I"\n'
        + "carol: /minis units side:axis nation:Germany\n"
        + "carol: /minis units search:zzz\n"
        + "carol: /minis map overlay:reach\n",
        tmp_path,
    )
    assert code == 0, out
    assert re.search(r"\[#table\] (👁️|🚫) C8 → P8", out)
    assert "al1 M4A1 Sherman — P8 (facing NW)" in out
    assert "ax1 Panzer IV Ausf. G can reach" in out
    assert "al1 M4A1 Sherman: short 0–1, medium 2–4, long 5–8 (M-7.1)." in out
    assert "**Tiger I** (Germany, Vehicle–Tank, 1942) 56 pts" in out
    assert "[to carol] ⚠️ No unit card matches." in out
    assert "[to carol] ⚠️ The reach overlay needs a unit." in out
    names = [p.name for p in (tmp_path / "img").iterdir()]
    assert "m4a1-sherman.png" in " ".join(names) and "tiger-i.png" in " ".join(names)
    assert sum(n.endswith("board.png") for n in names) == 3


async def test_undeployed_units_cannot_be_looked_at(tmp_path: Path) -> None:
    script = OPEN + DEPLOY.split("alice: /minis done")[0]
    code, out = await run(script + "carol: /minis card unit:al1\nbob: /minis map overlay:ranges unit:al2\n", tmp_path)
    assert code == 0, out
    carol = replies_to(out, "carol")
    assert "[to carol] ⚠️ There is no unit 'al1' on the map." in carol and "Sherman" not in carol
    # Bob's own undeployed unit is not on the (public) map either: the same answer as for
    # a unit that does not exist.
    assert "[to bob] ⚠️ There is no unit 'al2' on the map." in out


async def test_autocomplete_puts_legal_choices_first(tmp_path: Path) -> None:
    code, out = await run(
        TO_MOVEMENT
        + "alice: !complete /minis move unit:\n"
        + "alice: !complete /minis move unit:ax1 to:\n"
        + "carol: !complete /minis move unit:\n"
        + 'alice: !complete /minis army units:"Panzer IV Ausf. G, 2 kar"\n',
        tmp_path,
    )
    assert code == 0, out
    alice = replies_to(out, "alice").splitlines()
    units = next(line for line in alice if "choices for unit:" in line)
    assert units.startswith("[to alice] choices for unit: ax1 Panzer IV Ausf. G (C8) = ax1")
    assert "al1" not in units
    dest = next(line for line in alice if "choices for to:" in line)
    assert "F8" in dest and "R8" not in dest
    assert "[to carol] choices for unit: (no suggestions)" in out
    army = next(line for line in alice if "choices for units:" in line)
    assert "Panzer IV Ausf. G, 2 Mauser Kar 98k" in army


@pytest.mark.parametrize("db_name", ["persist.db"])
async def test_a_restart_loses_nothing(tmp_path: Path, db_name: str) -> None:
    """Two runs on one database file: the second process picks the game up where the
    first left it, including whose turn it is and when they were last pinged."""
    import io

    from bot.local import run_script

    db = tmp_path / db_name
    first = io.StringIO()
    assert await run_script(TO_MOVEMENT, database=db, out_dir=tmp_path / "a", seed=3, out=first) == 0
    second = io.StringIO()
    code = await run_script(
        "alice: /minis status\n!expect Waiting for @alice: your movement phase (turn 1)\n"
        "alice: /minis move unit:ax1 to:F8 face:SE\n!expect ax1 Panzer IV Ausf. G moved\n"
        "!wait 25h\n!expect Reminder\n",
        database=db, out_dir=tmp_path / "b", seed=4, out=second,
    )
    assert code == 0, second.getvalue()


async def test_a_league_brings_its_own_cards(tmp_path: Path) -> None:
    import json

    from engine.minis.catalogue import card_to_dict, load_catalogue

    card = card_to_dict(load_catalogue().find("Bazooka"))
    card.update(key="league-bazooka", name="League Bazooka", short_name="L-Bazooka", cost=3)
    doc = json.dumps({"format": "warroom-minis-units", "version": 1, "cards": [card]})
    quoted = doc.replace("\\", "\\\\").replace('"', '\\"')
    code, out = await run(
        f'alice: /minis new side:allies cards:"{quoted}"\n'
        "bob: /minis join\n"
        'alice: /minis army units:"League Bazooka, M4A1 Sherman"\n'
        "!channel #other\n"
        'bob: /minis new cards:"{broken"\n',
        tmp_path,
    )
    assert code == 0, out
    assert "[to alice] Your army (2 units, 24 points): League Bazooka, M4A1 Sherman." in out
    assert "[to bob] ⚠️" in out


async def test_a_finished_battle_can_still_be_looked_at(tmp_path: Path) -> None:
    code, out = await run(
        TO_MOVEMENT + "bob: /minis concede confirm:true\n"
        "carol: /minis status\ncarol: /minis log\ncarol: /minis map\ncarol: /minis card unit:ax1\n"
        "alice: /minis move unit:ax1 to:D8\n",
        tmp_path,
    )
    assert code == 0, out
    after = out.split("🏳️ Allies concede (@bob).", 1)[1]
    assert "status finished" in after and "🏁 Over: Axis" in after
    # Nobody is to move in a conceded game: the status says where it stopped (issue 9).
    status = after.split("status finished", 1)[1].split("[", 1)[0]
    assert "Waiting for" not in status and "Final position (nobody is to move):" in status
    assert "[to carol] **Order log**" in after
    assert "[to carol] ⚠️" not in after
    assert "[to alice] ⚠️ There is no game in progress" in after
