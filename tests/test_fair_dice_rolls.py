"""Verifiable quick rolls (issue 17, item 5; bot/roll_ledger.py): each /roll gets an id
under the channel's seed of the day, and /verify roll: proves it once the day is over."""

from __future__ import annotations

import io
import re
from datetime import datetime, timezone
from pathlib import Path

from bot.app import App
from bot.clock import ManualClock
from bot.local import run_script, stable_id
from bot.roll_ledger import DOCUMENT, roll_label
from engine.core.dice import commitment, stream_die

CHANNEL = stable_id("channel", "table")


async def run(script: str, tmp_path: Path) -> tuple[int, str]:
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / "r.db", out_dir=tmp_path / "files", seed=4, out=out)
    return code, out.getvalue()


async def test_a_quick_roll_gets_an_id_and_is_proved_after_its_day(tmp_path: Path) -> None:
    code, out = await run("alice: /roll dice:3d6\n!expect roll `20260101-1`\n"
                          "bob: /roll dice:11d6>=4\n!expect roll `20260101-2`\n"
                          "bob: /verify roll:20260101-2\n!expect is revealed once the day is over\n"
                          "!expect-not seed `\n"
                          "!wait 1d\n"
                          "carol: /roll dice:1d20\n!expect roll `20260102-1`\n"
                          "bob: /verify roll:20260101-2\n!expect ✅ all 11 dice match.\n"
                          "!wait 1d\ncarol: /verify roll:20260102-1\n!expect ✅ the only die matches.\n"
                          "bob: /verify roll:20260101-3\n!expect No roll `20260101-3`\n"
                          "bob: /verify roll:yesterday\n!expect is not a roll id\n"
                          "!channel #elsewhere\nbob: /verify roll:20260101-1\n!expect No roll\n", tmp_path)
    assert code == 0, out
    posted = re.findall(r"seed commitment `([0-9a-f]{16})…`", out)
    assert posted[0] == posted[1] != posted[2]  # one seed per channel and day
    revealed = re.search(r"seed `([0-9a-f]{64})`, SHA-256 `([0-9a-f]{64})`", out)
    assert revealed is not None
    seed = bytes.fromhex(revealed.group(1))
    assert commitment(seed) == revealed.group(2) and revealed.group(2).startswith(posted[1])
    shown = re.search(r"\*\*11d6>=4\*\* → ([\d, ]+) →", out)
    assert shown is not None
    label = roll_label(CHANNEL, "20260101", 2)
    derived = sorted((stream_die(seed, label, i, 6) for i in range(11)), reverse=True)
    assert [int(v) for v in shown.group(1).split(", ")] == derived


async def test_a_changed_roll_in_the_ledger_is_caught(tmp_path: Path) -> None:
    code, _ = await run("alice: /roll dice:2d6\n", tmp_path)
    assert code == 0
    clock = ManualClock(datetime(2026, 1, 3, tzinfo=timezone.utc))
    app = await App.start(tmp_path / "r.db", seed=4, clock=clock)
    try:
        key = f"{CHANNEL}:20260101"
        doc = await app.repo.document(DOCUMENT, key)
        assert doc is not None
        data = dict(doc.data)
        value, sides = data["rolls"][0]["dice"][1]
        data["rolls"] = [{**data["rolls"][0], "dice": [data["rolls"][0]["dice"][0], [value % 6 + 1, sides]]}]
        await app.repo.put_document(DOCUMENT, key, data, expected_version=doc.version, now=clock.now())
    finally:
        await app.close()
    code, out = await run("!wait 1d\nalice: /verify roll:20260101-1\n!expect ❌ die 2: the log says\n", tmp_path)
    assert code == 0, out


async def test_scripted_dice_are_not_logged_as_verifiable(tmp_path: Path) -> None:
    code, out = await run("!dice 6 6\nalice: /roll dice:2d6\n!expect-not roll `\n"
                          "alice: /roll dice:2d6\n!expect roll `20260101-1`\n", tmp_path)
    assert code == 0, out
