"""Fuzzing every command (issue 9, item 4).

Every registered command of every game, with random and adversarial option values, at
several stages of a game, by a seated player, the opponent, a bystander and a
moderator. Whatever the input:

- no bug reply ("Something went wrong"), no exception logged as a bug;
- a refusal (⚠️) changes nothing in the database;
- every message fits Discord's 2,000 characters, and a refusal is one message;
- nobody is pinged because of text a player typed (mentions only name real players).

The values are drawn from a seeded generator, so a failure is reproducible: the
assertion message names the stage, the user, the command and its options.
"""

from __future__ import annotations

import hashlib
import io
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import tests.toygame  # noqa: F401  (registers /race)
from bot.app import App, dispatch
from bot.clock import ManualClock
from bot.commands.base import REGISTRY, Command, Option
from bot.context import Attachment, Message
from bot.local import LocalChannel, LocalSession
from tests.bot.minis_scripts import OPEN, TO_MOVEMENT, TO_PROMPT

ATTEMPTS = 6
DEEP_JSON = '{"a":' * 1200 + "1" + "}" * 1200
DEEP_LIST = "[" * 3000
STRINGS = (
    "", " ", "ax1", "al1", "al2", "F7", "Z99", "A0", "K4", "@everyone", "@here", "<@1234567>",
    "<@&42>", "x" * 3000, DEEP_JSON, DEEP_LIST, "inf", "-1", "0", "nan", "1e400", "1d6/0",
    "9999999999d", "1" * 400, "🙂", "\x00", "off", "left", "ax1 al1 F7", '"quoted', "{}", "[]",
    '{"map": 99}', "null", "sherman, 2 garand", "99 sherman", "first", "standard", "1941",
)
INTS = (0, -1, 1, 3, 2**63, -(2**63), 10**30, "inf", "1e400", "nan", "", "7x")
FLOATS = ("nan", "inf", "-inf", 1e308, -1.0, 0.5, "x")
BOOLS = (True, False, "maybe", "")
USERS = ("alice", "bob", "carol", "mod")
FILES = (Attachment("x.m44", b"\xff\xfe\x00"), Attachment("deep.m44", DEEP_JSON.encode()),
         Attachment("big.m44", b"{" * 1_000_001), Attachment("empty.m44", b""), "no-such-file.m44", "")
# Plausible values, so that the fuzz gets past the option checks into the rules.
PLAUSIBLE = ("ax1", "ax2", "al1", "al2", "F7", "D10", "I8", "K4", "2d6", "3d6+1", "first", "hold",
             "standard", "@bob", "bob", "N", "SE", "1")
PLAUSIBLE_INTS = (1, 2, 3, 5, 10)


@dataclass
class Recording(LocalChannel):
    """The local channel, keeping every message object as well as printing it."""

    messages: list[Message] = field(default_factory=list)

    async def reply(self, message: Message) -> None:
        self.messages.append(message)
        await super().reply(message)

    async def post(self, channel_id: int, message: Message) -> None:
        self.messages.append(message)
        await super().post(channel_id, message)

    async def dm(self, user_id: int, message: Message) -> bool:
        self.messages.append(message)
        return await super().dm(user_id, message)


def values_for(option: Option, rng: random.Random) -> tuple[Any, ...]:
    if option.kind is Attachment:
        return FILES
    if rng.random() < 0.5:  # plausible
        if option.choices:
            return option.choices
        if option.kind is bool:
            return (True, False)
        if option.kind in (int, float):
            return PLAUSIBLE_INTS
        return PLAUSIBLE
    if option.kind is bool:
        return BOOLS
    if option.kind is int:
        return INTS
    if option.kind is float:
        return FLOATS
    return STRINGS + option.choices


def random_options(command: Command, rng: random.Random, everything: bool) -> dict[str, Any]:
    chosen: dict[str, Any] = {}
    for option in command.options:
        if option.required or everything or rng.random() < 0.5:
            chosen[option.name] = rng.choice(values_for(option, rng))
    if rng.random() < 0.1:
        chosen["no_such_option"] = "x"
    return chosen


async def fingerprint(app: App, channel_id: int) -> tuple[Any, ...]:
    game = await app.repo.last_game(channel_id)
    if game is None:
        return ()
    return (game.id, game.version, game.status, tuple(sorted(game.seats.items())),
            hashlib.sha256(str(game.snapshot).encode()).hexdigest(), dict(game.dice_positions))


# Whoever starts (a die decides) rolls, or boosts by 3 to reach a target of 3.
RACE = ("alice: /race new target:{target} side:red\nbob: /race join\nalice: /race secret number:3\n"
        "bob: /race secret number:3\nalice: /race {verb}\nbob: /race {verb}\n")
STAGES = {
    "no game": "",
    "open, waiting for a player": "alice: /minis new side:axis map:3\n",
    "secret army lists": OPEN.replace("ready:true\n", "\n", 2),
    "movement phase": TO_MOVEMENT,
    "defensive-fire prompt": TO_PROMPT,
    "race in play": RACE.format(target=30, verb="roll"),
    "race finished": RACE.format(target=3, verb="boost"),
}


@pytest.mark.parametrize("stage", list(STAGES))
async def test_no_input_crashes_or_changes_anything_when_refused(stage: str, tmp_path: Path) -> None:
    app = await App.start(tmp_path / "fuzz.db", seed=5, clock=ManualClock(), local=True)
    try:
        channel = Recording(io.StringIO(), tmp_path / "img")
        session = LocalSession(app, channel)
        session.moderators.add("mod")
        for line in STAGES[stage].splitlines():
            await session.run_line(line)
        assert session.ok, channel.out.getvalue()  # type: ignore[attr-defined]
        rng = random.Random(f"fuzz {stage}")
        commands = sorted(REGISTRY.values(), key=lambda c: c.path)
        tried = 0
        outcomes: list[bool] = []
        for command in commands:
            for attempt in range(ATTEMPTS):
                user = rng.choice(USERS)
                options = random_options(command, rng, everything=attempt == ATTEMPTS - 1)
                where = f"[{stage}] {user}: /{' '.join(command.path)} {options!r}"[:600]
                before = await fingerprint(app, channel.current_channel)
                channel.messages.clear()
                channel.current_user = user
                await dispatch(app, actor=session.actor(user), channel=channel,
                               channel_id=channel.current_channel, guild_id=session.guild_id,
                               path=command.path, options=options)
                tried += 1
                assert not app.bugs, where
                texts = [m.text for m in channel.messages]
                assert all("Something went wrong" not in t for t in texts), where
                assert all(len(t) <= 2000 for t in texts), where
                # Pings go to known players, or to the user a moderator named in a user option.
                named = {1234567} if any(o.name in ("user", "player") for o in command.options) else set()
                for message in channel.messages:
                    assert set(message.mentions) <= set(channel.users) | named, where
                refused = [t for t in texts if t.startswith("⚠️")]
                outcomes.append(bool(refused))
                if refused:
                    assert len(texts) == 1, (where, texts)
                    assert await fingerprint(app, channel.current_channel) == before, where
        assert tried == ATTEMPTS * len(commands) and len(commands) > 40
        print(stage, len(commands), "commands,", outcomes.count(False), "accepted,", outcomes.count(True), "refused")
        assert outcomes.count(False) >= 5, "the fuzz reaches past the option checks"
    finally:
        await app.close()
