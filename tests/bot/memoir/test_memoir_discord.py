"""/memoir through the Discord adapter with real discord.py interactions (no network):
the hand in an ephemeral reply with its picture and buttons, autocomplete offering only
the asker's legal choices, a button playing a card, the Ambush prompt's buttons.

The game is opened through the local channel on the same App and channel id, then
Discord interactions continue it as the same users."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord_app import WarroomBot
from bot.local import stable_id
from tests.bot.memoir.scripts import opening
from tests.discord_harness import button, deliver, member, option, play_script, png_files, Recorder, slash

ALICE = member(stable_id("user", "alice"), "alice")
BOB = member(stable_id("user", "bob"), "bob")






async def test_the_hand_is_an_ephemeral_reply_with_buttons(bot: WarroomBot, rec: Recorder, tmp_path: Path) -> None:
    await play_script(bot, opening(), tmp_path)
    deliver(bot, slash("memoir hand", [], ALICE))
    calls = await rec.wait_for(2)
    assert all(c.ephemeral for c in calls)  # the defer too: nothing shows in the channel
    reply = calls[-1]
    assert "**Your hand** (Allies, 6 cards)" in reply.content
    (png,) = png_files(reply)
    assert png[:4] == b"\x89PNG"
    assert [b["custom_id"] for b in reply.buttons][:2] == ["wr:/memoir play card:assault-centre",
                                                          "wr:/memoir play card:attack-left"]


async def test_autocomplete_offers_only_the_askers_legal_choices(bot: WarroomBot, rec: Recorder,
                                                                 tmp_path: Path) -> None:
    await play_script(bot, opening(), tmp_path)
    deliver(bot, slash("memoir play", [option("card", "", focused=True)], ALICE, autocomplete=True))
    (call,) = await rec.wait_for(1)
    values = [c["value"] for c in call.payload["data"]["choices"]]
    assert values == ["assault-centre", "attack-left", "direct-from-hq", "probe-right", "recon-left"]
    rec.calls.clear()
    deliver(bot, slash("memoir play", [option("card", "", focused=True)], BOB, autocomplete=True))
    (call,) = await rec.wait_for(1)
    assert call.payload["data"]["choices"] == []  # not Bob's turn: nothing, and never Alice's cards
    rec.calls.clear()
    await play_script(bot, "alice: /memoir play card:attack-left\n", tmp_path)
    deliver(bot, slash("memoir order", [option("units", "C6 ", focused=True)], ALICE, autocomplete=True))
    (call,) = await rec.wait_for(1)
    values = [c["value"] for c in call.payload["data"]["choices"]]
    assert values == ["C6 C7", "C6 D7"]  # Attack Left: the Allies' left section only


async def test_a_button_plays_the_card_and_the_ambush_prompt_has_buttons(bot: WarroomBot, rec: Recorder,
                                                                         tmp_path: Path) -> None:
    await play_script(bot, opening(), tmp_path)
    deliver(bot, button("wr:/memoir play card:attack-left", ALICE))
    calls = await rec.wait_for(3)
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    assert any("🃏 Allies played **Attack Left**." in c.content for c in calls)
    await play_script(bot, 'alice: /memoir order units:"C6 C7 D7"\nalice: /memoir move unit:C6 to:D5\n'
                       "alice: /memoir done\n", tmp_path)
    rec.calls.clear()
    deliver(bot, slash("memoir battle", [option("unit", "D5"), option("target", "D4")], ALICE))
    calls = await rec.wait_for(3)
    prompt = next(c for c in calls if c.buttons)
    assert [b["custom_id"] for b in prompt.buttons] == ["wr:/memoir decide ambush", "wr:/memoir decide pass"]
    assert f"<@{BOB['user']['id']}>" in prompt.content
    # the wrong player pressing is refused privately
    rec.calls.clear()
    deliver(bot, button("wr:/memoir decide pass", ALICE))
    calls = await rec.wait_for(2)
    assert calls[-1].ephemeral and "⚠️" in calls[-1].content


async def test_an_attached_m44_file_opens_a_game(bot: WarroomBot, rec: Recorder, tmp_path: Path,
                                                 monkeypatch: Any) -> None:
    """`/memoir new file:` with a real Discord attachment (its bytes fetched from Discord's
    file server, answered here by the test in place of the network)."""
    import discord

    m44 = (Path(__file__).resolve().parents[2] / "memoir" / "data" / "orchard-crossroads.m44").read_bytes()
    url = "https://cdn.discordapp.com/attachments/1/2/orchard.m44"

    async def from_cdn(self: Any, asked: str) -> bytes:
        assert asked == url
        return m44

    monkeypatch.setattr(discord.http.HTTPClient, "get_from_cdn", from_cdn)
    payload = slash("memoir new", [{"name": "file", "type": 11, "value": "777"},
                                   {"name": "side", "type": 3, "value": "axis"}], ALICE)
    payload["data"]["resolved"] = {"attachments": {"777": {
        "id": "777", "filename": "orchard.m44", "size": len(m44), "url": url, "proxy_url": url,
        "content_type": "application/octet-stream"}}}
    deliver(bot, payload)
    calls = await rec.wait_for(1)
    assert any("Scenario: **Orchard Crossroads**" in c.content for c in calls), [c.content for c in calls]
