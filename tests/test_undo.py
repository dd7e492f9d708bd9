"""Undo cannot fish for dice or overrule the opponent (issue 9, item 2; bot/undo.py),
played through the local channel with the dice race (/race …, tests/toygame)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.local import run_script

OPEN = """\
!dice 1
alice: /race new side:red target:50
bob: /race join
alice: /race secret number:2
bob: /race secret number:3
"""


async def run(script: str, tmp_path: Path, db: str = "u.db") -> tuple[int, str]:
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / db, out_dir=tmp_path / "img", seed=5, out=out)
    return code, out.getvalue()


def rolls(out: str, seat: str) -> list[str]:
    return [line.split(f"{seat} rolls ")[1].split(":")[0] for line in out.splitlines()
            if line.startswith(f"[#table] 🎲 {seat} rolls ")]


async def test_own_last_order_without_dice_is_taken_back_alone_after_a_preview(tmp_path: Path) -> None:
    code, out = await run(OPEN + "!dice 1\nalice: /race pass\nalice: /race undo\n"
                          "!expect [to alice] Undo would take back 1 order:\n!expect • Red: /race pass\n"
                          "!expect-not agreement\n"
                          "alice: !press Undo\n!expect ↩️ @alice undid:\n!expect • Red: /race pass\n"
                          "alice: /race status\n!expect Waiting for @alice\n", tmp_path)
    assert code == 0, out


async def test_an_order_that_showed_its_player_a_secret_needs_the_opponent(tmp_path: Path) -> None:
    """Choosing the race's secret rolls no dice but is seen by its player alone: taking it
    back needs the other side (the same rule stops a Memoir player from undoing a card draw)."""
    code, out = await run("!dice 1\nalice: /race new target:20 side:red\nbob: /race join\n"
                          "alice: /race secret number:3\nalice: /race undo\n"
                          "!expect It needs the other side's agreement (that order showed you something secret)\n",
                          tmp_path)
    assert code == 0, out


async def test_an_order_with_dice_needs_the_opponent_and_its_dice_stay_with_its_seat(tmp_path: Path) -> None:
    """alice rolls, asks to undo, bob agrees: alice's re-issued roll gets the very same die
    (never re-rolled), and bob's rolls are untouched by hers (never handed over)."""
    code, out = await run(OPEN + "alice: /race roll\nalice: /race undo\n"
                          "!expect It needs the other side's agreement (that order rolled dice)\n"
                          "alice: !press 1\n!expect @bob: do you agree?\n"
                          "bob: !press Agree\n!expect Undone with @bob's agreement\n"
                          "alice: /race roll\nbob: /race roll\n", tmp_path)
    assert code == 0, out
    red = rolls(out, "red")
    assert len(red) == 2 and red[0] == red[1]
    # bob's first roll comes from his own stream's first position, as if nothing happened
    code2, clean = await run(OPEN + "alice: /race roll\nbob: /race roll\n", tmp_path, db="clean.db")
    assert code2 == 0 and rolls(clean, "blue") == rolls(out, "blue") and rolls(clean, "red")[0] == red[0]


async def test_the_opponent_may_refuse_and_silence_means_no(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /race roll\nbob: /race undo\n!expect your opponent's order\n"
                          "bob: !press 1\nalice: !press Refuse\n!expect 🚫 @alice refused the undo\n"
                          "bob: /race undo\nbob: !press 1\n!wait 25h\n"
                          "!expect ⌛ The undo request expired without an answer: nothing was undone.\n"
                          "alice: /race undo answer:agree\n!expect ⚠️ There is no undo request waiting\n"
                          "bob: /race status\n!expect-not red 0,\n", tmp_path)
    assert code == 0, out


async def test_any_other_change_voids_a_request(tmp_path: Path) -> None:
    code, out = await run(OPEN + "!dice 4\nalice: /race roll\nbob: /race undo\nbob: !press 1\n"
                          "bob: /race pass\nalice: /race undo answer:agree\n"
                          "!expect ⚠️ There is no undo request waiting\n", tmp_path)
    assert code == 0, out


async def test_several_orders_need_agreement_and_a_free_moderator_needs_none(tmp_path: Path) -> None:
    code, out = await run(OPEN + "!dice 4 5\nalice: /race roll\nbob: /race roll\n"
                          "alice: /race undo orders:2\n!expect it takes back several orders\n"
                          "carol: /race undo\n!expect ⚠️ Only the players of this game, or a moderator\n"
                          "!moderator mod\nmod: /race undo orders:2\nmod: !press Undo\n"
                          "!expect ↩️ @mod undid:\n!expect • Red: /race roll (1 die)\n"
                          "alice: /race status\n!expect red 0, blue 0\n"
                          "mod: /race undo orders:9\n!expect ⚠️ Only 2 orders can be undone.\n", tmp_path)
    assert code == 0, out


async def test_a_stale_preview_undoes_nothing(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /race pass\nalice: /race undo\nbob: /race pass\n"
                          "alice: !press Undo\n!expect ⚠️ The game changed since that preview; nothing was undone.\n",
                          tmp_path)
    assert code == 0, out


async def test_undoing_the_opponents_secret_never_shows_it(tmp_path: Path) -> None:
    """Issue 9's reproducer: the undo preview and notices never publish a secret order."""
    code, out = await run("alice: /race new side:red\nbob: /race join\nbob: /race secret number:3\n"
                          "alice: /race undo\nalice: !press 1\n", tmp_path)
    assert code == 0, out
    after = out.split("[to bob] Your secret number is 3.")[1]
    assert "number:3" not in after and "secret 3" not in after
    assert "• Blue: /race secret number:?" in after
