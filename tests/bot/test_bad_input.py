"""Issue 9, item 4: each input the fuzzer once crashed on is a regression test.

The values go straight to the command dispatcher, as Discord hands them over (no local
tokenizer in between), and each must get a clear refusal that changes nothing.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.app import App, dispatch
from bot.clock import ManualClock
from bot.context import Message
from bot.local import LocalChannel, LocalSession
from tests.bot.minis_scripts import OPEN, run

DEEP_JSON = '{"a":' * 1200 + "1" + "}" * 1200  # under Discord's 6,000 characters
DEEP_LIST = "[" * 1200 + "]" * 1200


class Replies(LocalChannel):
    def __init__(self, tmp: Path) -> None:
        super().__init__(io.StringIO(), tmp / "img")
        self.seen: list[Message] = []

    async def reply(self, message: Message) -> None:
        self.seen.append(message)
        await super().reply(message)


async def ask(tmp_path: Path, path: str, options: dict[str, Any], *, before: str = "") -> tuple[App, list[str]]:
    app = await App.start(tmp_path / "bad.db", seed=3, clock=ManualClock(), local=True)
    channel = Replies(tmp_path)
    session = LocalSession(app, channel)
    for line in before.splitlines():
        await session.run_line(line)
    channel.seen.clear()
    await dispatch(app, actor=session.actor("alice"), channel=channel, channel_id=channel.current_channel,
                   guild_id=1, path=tuple(path.split()), options=options)
    return app, [m.text for m in channel.seen]


@pytest.mark.parametrize(("path", "options", "expected"), [
    ("roll", {"dice": "1d6/0"}, "cannot divide by zero"),
    ("minis new", {"remind": "9999999999d"}, "is not a duration for remind"),
    ("minis new", {"prompt_timeout": "1" * 400}, "is not a duration for prompt_timeout"),
    ("minis new", {"custom": DEEP_JSON}, "nested too deeply"),
    ("minis new", {"cards": DEEP_JSON}, "nested too deeply"),
    ("minis new", {"cards": DEEP_LIST}, "nested too deeply"),
    ("minis log", {"page": "inf"}, "must be a whole number"),
    ("minis log", {"page": 2**63}, "must be at most"),
    ("odds minis", {"dice": "nan", "defense": 4}, "whole number"),
    # Out of range: the nearest value that is in range, as the option is typed.
    ("odds memoir", {"dice": 20, "target": "infantry"}, "must be at most 12. Write it like: dice:12."),
    ("odds aa", {"attacker": "1 inf", "defender": "1 inf", "rounds": 0}, "must be at least 1. Write it like: rounds:1."),
    # A NUL in a name reached PostgreSQL (which cannot store one) as a bug.
    ("league history", {"name": "\x00"}, "contains a control character"),
])
async def test_reproducers_get_one_clear_refusal(tmp_path: Path, path: str, options: dict[str, Any],
                                                 expected: str) -> None:
    before = "bob: /minis new side:axis map:3\n" if path == "minis log" else ""
    app, texts = await ask(tmp_path, path, options, before=before)
    try:
        assert not app.bugs
        assert len(texts) == 1 and texts[0].startswith("⚠️"), texts
        assert expected in texts[0]
        assert len(texts[0]) < 2000
        if path == "minis new":
            assert await app.repo.live_game(LocalChannel(io.StringIO(), tmp_path).current_channel) is None
    finally:
        await app.close()


async def test_a_refusal_echoes_a_long_paste_by_its_start_only(tmp_path: Path) -> None:
    app, texts = await ask(tmp_path, "minis card", {"unit": "x" * 3000})
    try:
        assert len(texts) == 1 and len(texts[0]) < 400 and "x" * 39 + "…" in texts[0]
    finally:
        await app.close()


async def test_army_with_ready_is_one_atomic_command(tmp_path: Path) -> None:
    """An over-budget list with ready:true stores nothing: the earlier list stays (M-2.1)."""
    code, out = await run(
        "alice: /minis new side:axis map:3\nbob: /minis join\n"
        'bob: /minis army units:"M4A1 Sherman"\n'
        'bob: /minis army units:"10 M4A1 Sherman" ready:true\n'
        "bob: /minis army\n", tmp_path)
    assert code == 0, out
    assert "⚠️ Your army is not legal: 210 points, more than 100" in out
    assert out.rstrip().endswith("[to bob] **Allies** (1 unit, 21 points): M4A1 Sherman")


async def test_ready_without_a_list_changes_nothing(tmp_path: Path) -> None:
    code, out = await run(OPEN.split("bob: /minis army")[0] + "bob: /minis army ready:true\nbob: /minis army\n",
                          tmp_path)
    assert code == 0, out
    assert "[to bob] ⚠️" in out and "The Allies army is ready" not in out


async def test_a_file_too_large_is_refused_without_being_read(tmp_path: Path) -> None:
    """A file option over MAX_FILE_BYTES is refused by its size alone: a path in the local
    channel is never read, and Discord's attachment is never downloaded."""
    import discord

    from bot.commands.base import MAX_FILE_BYTES, Option
    from bot.context import Attachment
    from bot.discord_app import _file_value
    from engine.core.errors import PlayerError

    big = tmp_path / "huge.m44"
    big.write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    option = Option("file", Attachment, "a scenario file")
    with pytest.raises(PlayerError, match="'huge.m44' is too large"):
        option.convert(str(big))
    small = tmp_path / "small.m44"
    small.write_bytes(b"{}")
    assert option.convert(str(small)) == Attachment("small.m44", b"{}")
    sent = discord.Attachment(data={"id": 1, "filename": "huge.m44", "size": MAX_FILE_BYTES + 5,
                                    "url": "https://example.invalid/a", "proxy_url": "https://example.invalid/a"},
                              state=type("State", (), {"http": None})())  # type: ignore[arg-type]
    got = await _file_value(sent)  # read() would need the network: it is not called
    assert got == Attachment("huge.m44", b"", MAX_FILE_BYTES + 5)
    with pytest.raises(PlayerError, match="too large"):
        option.convert(got)
