"""Verifiable quick rolls (docs/fair-dice.md, "Quick rolls"): every ``/roll`` in a
channel gets an id and is logged under the channel's seed of the day.

The seed of a channel and UTC day is drawn when the day's first roll is made there; each
roll shows the first 16 hex digits of its SHA-256 (the commitment).  Roll number ``n`` of
the day rolls the stream ``roll/<channel id>/<YYYYMMDD>/<n>`` under that seed (the same
dice stream as games, engine/core/dice.py).  Once the day is over (UTC), ``/verify
roll:<YYYYMMDD-n>`` reveals the seed and recomputes the roll's dice.

Storage: one versioned document per channel and day (kind ``rollseed``, key
``<channel id>:<YYYYMMDD>``) holding the seed and the rolls; a roll is stored on the
version read, so two processes never give the same id twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from bot.roll import RollResult, roll
from bot.session import TryAgain
from bot.storage.repository import VersionConflict
from bot.verify import all_match
from engine.core.dice import commitment, dice_from_json, dice_json, stream_dice, stream_die
from engine.core.errors import IllegalOrder, NotationError, UnknownName

DOCUMENT = "rollseed"
_ID = re.compile(r"^\s*(\d{8})-(\d{1,7})\s*$")


def day_of(now: datetime) -> str:
    return now.astimezone(timezone.utc).strftime("%Y%m%d")


def roll_label(channel_id: int, day: str, n: int) -> str:
    return f"roll/{channel_id}/{day}/{n}"


@dataclass(frozen=True)
class Logged:
    result: RollResult
    roll_id: str
    commitment: str

    def note(self) -> str:
        return (f"🎲 roll `{self.roll_id}` · seed commitment `{self.commitment[:16]}…` · check it with"
                f" `/verify roll:{self.roll_id}` once the day is over (UTC)")


async def roll_logged(app: Any, channel_id: int, actor_id: int, expression: str) -> Logged:
    """Roll ``expression`` from the channel's seed of the day and log it (an error in the
    notation logs nothing)."""
    now = app.clock.now()
    day = day_of(now)
    key = f"{channel_id}:{day}"
    for _ in range(8):
        doc = await app.repo.document(DOCUMENT, key)
        if doc is None:
            seed = app.dice.roll_seed(channel_id, day)
            data: dict[str, Any] = {"seed": seed.hex(), "commitment": commitment(seed), "rolls": []}
        else:
            data = dict(doc.data)
            seed = bytes.fromhex(data["seed"])
        n = len(data["rolls"]) + 1
        dice = stream_dice(seed, roll_label(channel_id, day, n))
        result = roll(expression, dice)
        data["rolls"] = [*data["rolls"], {"n": n, "expression": result.expression, "by": actor_id,
                                          "dice": dice_json(dice.rolled)}]
        try:
            await app.repo.put_document(DOCUMENT, key, data, expected_version=doc.version if doc else 0, now=now)
        except VersionConflict:
            continue
        return Logged(result, f"{day}-{n}", data["commitment"])
    raise TryAgain()


async def verify_roll(app: Any, channel_id: int, roll_id: str) -> str:
    """Reveal the day's seed (once the day is over) and recompute the roll's dice."""
    m = _ID.match(roll_id)
    if m is None:
        raise NotationError(f"'{roll_id[:30]}' is not a roll id.", legal=("/verify roll:20260101-1",))
    day, n = m.group(1), int(m.group(2))
    doc = await app.repo.document(DOCUMENT, f"{channel_id}:{day}")
    rolls = doc.data["rolls"] if doc else []
    if not 1 <= n <= len(rolls):
        raise UnknownName(f"No roll `{day}-{n}` was made in this channel (a roll is checked in its channel).")
    data = doc.data if doc else {}
    if day >= day_of(app.clock.now()):
        raise IllegalOrder(f"Roll `{day}-{n}` is from today: the channel's seed of the day (commitment"
                           f" `{data['commitment']}`) is revealed once the day is over (UTC).",
                           legal=(f"/verify roll:{day}-{n} tomorrow",))
    seed = bytes.fromhex(data["seed"])
    logged = rolls[n - 1]
    label = roll_label(channel_id, day, n)
    lines = [f"Roll `{day}-{n}` ({logged['expression']}): seed `{seed.hex()}`, SHA-256 `{commitment(seed)}`"
             f"{'' if commitment(seed) == data['commitment'] else ' — NOT the commitment'}; dice stream `{label}`."]
    for i, die in enumerate(dice_from_json(logged["dice"])):
        derived = stream_die(seed, label, i, die.sides)
        if derived != die.value:
            lines.append(f"❌ die {i + 1}: the log says {die.value} (d{die.sides}) but the stream gives {derived}.")
            return "\n".join(lines)
    lines.append(f"✅ {all_match(len(logged['dice']))}.")
    return "\n".join(lines)
