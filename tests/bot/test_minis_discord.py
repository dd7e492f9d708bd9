"""/minis through the Discord adapter with real discord.py interactions (no network):
a command with autocomplete, a button answer, an ephemeral army reply, an image post.

The battle is set up through the local channel on the same App and channel id, then
Discord interactions continue it as the same users."""

from __future__ import annotations

from pathlib import Path


from bot.discord_app import WarroomBot
from bot.local import stable_id
from tests.bot.minis_scripts import OPEN, TO_PROMPT
from tests.discord_harness import Recorder, button, deliver, member, option, play_script, png_files, slash

ALICE = member(stable_id("user", "alice"), "alice")
BOB = member(stable_id("user", "bob"), "bob")






async def test_army_reply_is_ephemeral_and_the_channel_learns_nothing(bot: WarroomBot, rec: Recorder,
                                                                     tmp_path: Path) -> None:
    await play_script(bot, OPEN.split("alice: /minis army")[0], tmp_path)
    units = "Panzer IV Ausf. G, 2 Mauser Kar 98k"
    deliver(bot, slash("minis army", [option("units", units)], ALICE))
    calls = await rec.wait_for(1)
    assert len(calls) == 1  # the channel is not even told that a list changed (issue 9)
    private = calls[0]
    assert private.kind == "message" and private.ephemeral
    assert private.content.startswith("Your army (3 units, 29 points): Panzer IV Ausf. G, Mauser Kar 98k")
    for call in calls:
        if not call.ephemeral:
            assert "Panzer" not in call.content and "Mauser" not in call.content


async def test_autocomplete_offers_the_units_that_can_act(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT, tmp_path)
    deliver(bot, slash("minis move", [option("unit", "", focused=True)], ALICE, autocomplete=True))
    (call,) = await rec.wait_for(1)
    assert call.kind == "autocomplete"
    choices = call.payload["data"]["choices"]
    assert choices[0] == {"name": "ax1 Panzer IV Ausf. G (C8)", "value": "ax1"}
    assert {c["value"] for c in choices} == {"ax1", "ax2", "ax3", "ax4", "ax5"}
    rec.calls.clear()
    deliver(bot, slash("minis move", [option("unit", "ax1"), option("to", "F", focused=True)], ALICE,
                         autocomplete=True))
    (call,) = await rec.wait_for(1)
    values = [c["value"] for c in call.payload["data"]["choices"]]
    assert values and all(v.startswith("F") for v in values) and "F8" in values


async def test_a_button_answers_the_defensive_fire_prompt(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    out = await play_script(bot, TO_PROMPT, tmp_path)
    assert "buttons: [1: ax1 fires (leaving hex)]" in out
    deliver(bot, button("wr:/minis defend fire unit:ax1 at:leaving", ALICE))
    calls = await rec.wait_for(3)
    # The button defers exactly like /minis defend fire (it may roll and draw a map).
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    answer = calls[1]
    assert answer.kind == "followup" and not answer.ephemeral
    assert "🔫 Defensive fire by ax1 Panzer IV Ausf. G at J8 (leaving hex)" in answer.content
    assert any("your movement phase (turn 2)" in c.content for c in calls[2:])
    # A button pressed by the wrong player is refused privately and changes nothing.
    rec.calls.clear()
    deliver(bot, button("wr:/minis defend hold", BOB))
    calls = await rec.wait_for(3)
    refusal = calls[-1]
    assert calls[0].kind == "defer" and refusal.ephemeral and "⚠️" in refusal.content


async def test_the_prompt_is_posted_with_buttons(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    await play_script(bot, TO_PROMPT.rsplit("bob: /minis move", 1)[0], tmp_path)
    deliver(bot, slash("minis move", [option("unit", "al1"), option("to", "J7"), option("face", "N")], BOB))
    calls = await rec.wait_for(3)
    prompt = next(c for c in calls if c.buttons)
    assert [b["custom_id"] for b in prompt.buttons] == [
        "wr:/minis defend fire unit:ax1 at:leaving", "wr:/minis defend fire unit:ax1 at:entering", "wr:/minis defend hold"]
    assert f"<@{ALICE['user']['id']}>" in prompt.content
    assert [str(u) for u in prompt.data["allowed_mentions"]["users"]] == [ALICE["user"]["id"]]


async def test_the_map_is_posted_as_an_image(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT, tmp_path)
    deliver(bot, slash("minis map", [option("overlay", "reach"), option("unit", "ax1")], ALICE))
    calls = await rec.wait_for(2)
    assert calls[0].kind == "defer"
    post = calls[1]
    assert post.kind == "followup" and not post.ephemeral
    assert "ax1 Panzer IV Ausf. G can reach" in post.content
    (png,) = png_files(post)
    assert 10_000 < len(png) < 1_000_000


async def test_a_phase_report_posts_the_map_and_its_closeup(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8 face:SE\n", tmp_path)
    deliver(bot, slash("minis done", [], ALICE))
    calls = await rec.wait_for(3)
    report = next(c for c in calls if c.content.startswith("📜 **Turn 1, movement phase (Axis)"))
    assert not report.ephemeral
    assert [name for name, _ in report.files] == ["turn1-movement-axis.png", "turn1-movement-axis-closeup.png"]
    assert len(png_files(report)) == 2


async def test_map_zoom_and_a_bad_hex(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT, tmp_path)
    deliver(bot, slash("minis map", [option("zoom", "C8")], ALICE))
    calls = await rec.wait_for(2)
    post = calls[1]
    assert post.kind == "followup" and not post.ephemeral and "Close-up around C8." in post.content
    assert [name for name, _ in post.files] == ["zoom-C8.png"] and len(png_files(post)) == 1
    rec.calls.clear()
    deliver(bot, slash("minis map", [option("zoom", "C99")], ALICE))
    calls = await rec.wait_for(2)
    refusal = calls[-1]
    assert refusal.ephemeral and "'C99' is not a hex of the map Highland: columns A–S, rows 1–16." in refusal.content
    assert not refusal.files


async def test_replay_of_a_finished_battle_is_a_gif(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT + "bob: /minis concede confirm:true\n", tmp_path)
    deliver(bot, slash("minis replay", [], BOB))
    calls = await rec.wait_for(2)
    assert calls[0].kind == "defer"
    post = calls[1]
    assert not post.ephemeral and post.content.startswith("🎞️ Replay of the battle: 5 phase reports")
    ((name, data),) = post.files
    assert name == "battle-replay.gif" and data.startswith(b"GIF89a") and len(data) < 8 * 1024 * 1024


async def test_orders_that_end_a_phase_defer_before_drawing(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    """`/minis done` ends a phase, and its report draws maps: it is acknowledged at once
    (Discord drops an interaction not answered within 3 s), then answered (issue 14)."""
    from tests.bot.minis_scripts import TO_MOVEMENT

    await play_script(bot, TO_MOVEMENT, tmp_path)
    deliver(bot, slash("minis done", [], ALICE))
    calls = await rec.wait_for(3)
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    assert any(png_files(c) for c in calls[1:])
