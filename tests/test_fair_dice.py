"""Provably fair dice through the local channel (issue 17): the commitment at creation and
in status, players' entropy at join, the seed revealed at the end, the JSON export, and
verification by /verify, `warroom verify --export` and the plain-Python checker of
docs/fair-dice.md — on an honest log and on tampered ones."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from bot.cli import main
from bot.dice_service import FAIR, DiceService
from bot.fair_dice import export
from bot.local import run_script
from bot.verify import BadExport, verify_export
from engine.core.dice import commitment, entropy_digest, play_key, stream_die
from engine.core.game import PUBLIC, rules_for
from tests.fair_dice_helpers import OPEN, SEED, starter
from tests.toygame.harness import ALICE, BOB, CHANNEL, start

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "fair-dice.md"

FIRST, SECOND = starter()
# The first player rolls, takes it back with the other's agreement and rolls again (the
# same die, from the same position of their stream), then both roll until the race ends.
PLAY = f"""\
{FIRST}: /race roll
{FIRST}: /race undo
{FIRST}: !press 1
{SECOND}: !press Agree
!expect Undone with @{SECOND}'s agreement
{FIRST}: /race roll
""" + f"{SECOND}: /race roll\n{FIRST}: /race roll\n" * 12


async def run(script: str, tmp_path: Path, db: str = "f.db", seed: int = SEED) -> tuple[int, str]:
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / db, out_dir=tmp_path / "files", seed=seed, out=out)
    return code, out.getvalue()


def exported(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = sorted((tmp_path / "files").glob("*.json"))[-1]
    return path, json.loads(path.read_text(encoding="utf-8"))


async def finished_game(tmp_path: Path) -> tuple[str, Path, dict[str, Any]]:
    code, out = await run(OPEN + PLAY + "alice: /race log export:true\n", tmp_path)
    assert code == 0, out
    path, data = exported(tmp_path)
    return out, path, data


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def checker_source() -> str:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- checker:start -->", 1)[1].split("<!-- checker:end -->", 1)[0]
    return block.split("```python", 1)[1].split("```", 1)[0]


def run_checker(path: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(checker_source(), encoding="utf-8")
    return subprocess.run([sys.executable, "-I", str(script), str(path)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)


# --------------------------------------------------------------------------- commit and reveal


async def test_the_commitment_is_posted_at_creation_and_the_seed_at_the_end(tmp_path: Path) -> None:
    out, _, data = await finished_game(tmp_path)
    seed = bytes.fromhex(data["seed"])
    posted = re.search(r"Dice commitment: `([0-9a-f]{64})`", out)
    assert posted is not None and posted.group(1) == commitment(seed) == data["commitment"]
    assert out.index("Dice commitment:") < out.index("joins as **Red**")  # before anyone contributes
    reveal = [line for line in out.splitlines() if line.startswith("[#table] 🔓")]
    assert len(reveal) == 1 and f"seed was `{seed.hex()}`" in reveal[0]
    total = sum(len(r["dice"]) for r in data["orders"])
    assert f"The log holds {total} dice" in reveal[0] and f"/verify game:{data['game']['uid']}" in reveal[0]
    assert out.index("🔓") > out.index("🏆")  # after the command's own account of the end


async def test_status_shows_the_commitment_while_live_and_the_seed_once_over(tmp_path: Path) -> None:
    code, out = await run(OPEN + "alice: /race status\n!expect Dice commitment: `\n"
                          "!expect Entropy added by: blue, red.\n!expect The seed is revealed when the game ends\n"
                          "!expect-not Seed (revealed)\n"
                          "!moderator mod\nmod: /race abort confirm:true\n!expect 🔓 The game is over\n"
                          "alice: /race status\n!expect Seed (revealed): `\n", tmp_path)
    assert code == 0, out


async def test_an_aborted_open_game_reveals_its_seed_too(tmp_path: Path) -> None:
    code, out = await run("alice: /race new\nalice: /race abort confirm:true\n!expect 🔓 The game is over\n"
                          "alice: /verify\n!expect the only die matches\n", tmp_path)
    assert code == 0, out


async def test_a_forfeit_on_timeout_reveals_the_seed_outside_any_command(tmp_path: Path) -> None:
    code, out = await run("alice: /race new side:red timeout:1h policy:forfeit\nbob: /race join\n"
                          "!wait 2h\n!expect ⏰ Forfeit\n!expect 🔓 The game is over\n"
                          "alice: /verify\n!expect the only die matches\n", tmp_path)
    assert code == 0, out
    assert out.index("⏰ Forfeit") < out.index("🔓")


# --------------------------------------------------------------------------- entropy


async def test_players_entropy_is_mixed_into_every_stream_but_setup(tmp_path: Path) -> None:
    """Same seed (same seeded service, fresh database), different entropy: the setup die is
    the same, the play dice follow the play key of each game's own contributions."""
    code, _ = await run(OPEN + PLAY, tmp_path, db="a.db")
    assert code == 0
    other = OPEN.replace("bob 4471", "bob 4472")
    code, _ = await run(other + PLAY, tmp_path, db="b.db")
    assert code == 0
    app_a = await App.start(tmp_path / "a.db")
    app_b = await App.start(tmp_path / "b.db")
    try:
        a, b = await app_a.repo.game(1), await app_b.repo.game(1)
        assert a.dice_key == b.dice_key and a.uid == b.uid
        assert a.options[FAIR]["entropy"] == {"red": entropy_digest("the crows fly at dawn"),
                                              "blue": entropy_digest("bob 4471")}
        rows_a, rows_b = await app_a.repo.orders(a.id), await app_b.repo.orders(b.id)
        assert rows_a[0].dice == rows_b[0].dice  # the setup stream: the seed alone
        key_a = play_key(a.dice_key, a.uid, a.options[FAIR]["entropy"])
        reds = [d.value for r in rows_a if r.kind == "order" and r.seat == "red" for d in r.dice]
        assert reds[0] == stream_die(key_a, f"{a.uid}/red", 0, 6)
        red_b = [d.value for r in rows_b if r.kind == "order" and r.seat == "red" for d in r.dice]
        assert reds != red_b
    finally:
        await app_a.close()
        await app_b.close()


async def test_the_host_adds_entropy_before_the_start_once_and_never_after(tmp_path: Path) -> None:
    code, out = await run(
        "alice: /race new side:red\n"
        "alice: /race join entropy:\"   \"\n!expect must be 1 to 200 characters\n"
        "alice: /race join entropy:first\n!expect Their entropy is recorded\n"
        "alice: /race join entropy:second\n!expect red already added its entropy\n"
        "bob: /race join side:blue\n!expect the game begins\n"
        "bob: /race join entropy:late\n!expect Every seat of this game is taken\n"
        "alice: /race status\n!expect Entropy added by: red.\n", tmp_path)
    assert code == 0, out


# --------------------------------------------------------------------------- export and verify


async def test_a_finished_game_verifies_with_the_bot_the_command_line_and_the_plain_checker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, path, data = await finished_game(tmp_path)
    total = sum(len(r["dice"]) for r in data["orders"])
    assert total >= 8 and data["scheme"] == "warroom-fair-dice-v1"
    assert any(r["kind"] == "undo" for r in data["orders"])
    assert [r["seq"] for r in data["orders"]] == list(range(1, len(data["orders"]) + 1))
    assert verify_export(data).text() == f"✅ all {total} dice match the revealed seed and its commitment."
    code, text = cli("verify", "--export", str(path), capsys=capsys)
    assert code == 0 and f"all {total} dice match" in text
    code, text = cli("verify", "--export", str(path), "--json", capsys=capsys)
    assert code == 0 and json.loads(text) == {"ok": True, "dice": total, "problem": None}
    checked = run_checker(path, tmp_path)
    assert checked.returncode == 0 and checked.stdout.strip() == f"all {total} dice match", checked
    # /verify in the channel, and by the game's id from another channel
    code, out = await run(f"alice: /verify\n!expect all {total} dice match\n"
                          f"!channel #elsewhere\ncarol: /verify game:{data['game']['uid']}\n"
                          f"!expect all {total} dice match\n"
                          "carol: /verify game:ffffffffffffffff\n!expect No ended game has the id\n", tmp_path)
    assert code == 0, out


def tampered(data: dict[str, Any], change: Any) -> dict[str, Any]:
    copy_ = copy.deepcopy(data)
    change(copy_)
    return copy_


async def test_tampered_exports_fail_at_the_right_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, path, data = await finished_game(tmp_path)
    orders = data["orders"]
    rolls = [i for i, r in enumerate(orders) if r["kind"] == "order" and r["dice"]]
    target = orders[rolls[3]]
    before = sum(len(r["dice"]) for r in orders[:rolls[3]])

    def change_die(d: dict[str, Any]) -> None:
        die = d["orders"][rolls[3]]["dice"][0]
        die[0] = die[0] % 6 + 1

    bad = tampered(data, change_die)
    verdict = verify_export(bad)
    assert not verdict.ok and verdict.dice == before
    assert verdict.problem.startswith(f"log row {target['seq']} (order by {target['seat']}: roll), die 1:")
    bad_path = tmp_path / "one-die.json"
    bad_path.write_text(json.dumps(bad), encoding="utf-8")
    code, text = cli("verify", "--export", str(bad_path), capsys=capsys)
    assert code == 1 and f"log row {target['seq']}" in text
    checked = run_checker(bad_path, tmp_path)
    assert checked.returncode != 0 and f"log row {target['seq']}:" in checked.stderr

    # one order removed: the row numbers have a gap there
    removed = tampered(data, lambda d: d["orders"].pop(rolls[3]))
    verdict = verify_export(removed)
    assert not verdict.ok and verdict.problem.startswith(f"log row {target['seq']} is missing")

    # removed and the rows renumbered: the seat's later dice come from the wrong positions,
    # or the stream's count no longer matches the positions the game recorded
    def renumber(d: dict[str, Any]) -> None:
        d["orders"].pop(rolls[3])
        for i, row in enumerate(d["orders"], 1):
            row["seq"] = i
    verdict = verify_export(tampered(data, renumber))
    assert not verdict.ok and verdict.dice >= before
    assert "stream" in verdict.problem

    # another seed than the committed one
    other = tampered(data, lambda d: d.update(seed="00" * 32))
    assert verify_export(other).problem == "the seed does not match the commitment (its SHA-256 differs)"
    other_path = tmp_path / "other-seed.json"
    other_path.write_text(json.dumps(other), encoding="utf-8")
    assert "does not match the commitment" in run_checker(other_path, tmp_path).stderr

    # someone's entropy changed: the play dice no longer match, from the first play die on
    changed = tampered(data, lambda d: d["entropy"].update(blue=entropy_digest("bob 4472")))
    assert not verify_export(changed).ok


async def test_a_live_export_has_no_seed_or_die_values_and_hides_what_the_asker_may_not_see(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = await run(OPEN.replace("bob: /race secret number:3\n", "") + "bob: /race log export:true\n"
                          "!expect The seed and the dice values are in the export once the game is over\n"
                          "bob: /verify\n!expect is not over\n", tmp_path)
    assert code == 0, out
    path, data = exported(tmp_path)
    assert data["seed"] is None and data["commitment"] in out
    assert all(value is None for r in data["orders"] for value, _ in r["dice"])
    texts = [r["text"] for r in data["orders"] if r["kind"] == "order"]
    assert texts == ["secret ?"]  # alice's secret number is not bob's to see
    with pytest.raises(BadExport, match="revealed when the game ends"):
        verify_export(data)
    code, text = cli("verify", "--export", str(path), capsys=capsys)
    assert code == 2 and "revealed when the game ends" in text


async def test_a_game_from_before_fair_dice_verifies_with_the_seed_alone(tmp_path: Path) -> None:
    """Games created before fair dice have no fair-dice option (made here by creating one
    with the option cleared): every stream is keyed by the seed; the export says so and
    verifies, and such a game takes no entropy."""
    uid, key = DiceService(seed=2).new_secret()
    honest = stream_die(key, f"{uid}/setup", 0, 2)
    app = await App.start(tmp_path / "old.db", seed=2)
    try:
        await start(app, target=6, first=3 - honest, **{FAIR: None})  # the harness scripts the other value
        for _ in range(6):
            for actor in (ALICE, BOB):
                if (await app.repo.live_game(CHANNEL)) is not None:
                    await app.sessions.act(CHANNEL, actor, "roll")
        game = await app.repo.last_game(CHANNEL)
        assert game is not None and not game.live
        data = export(game, await app.repo.orders(game.id), title="race", order_view=rules_for("race").order_view,
                      viewer=PUBLIC)
        assert data["scheme"] == "warroom-seed-only"
        verdict = verify_export(data)
        # the harness scripts the creation's die (who starts), which the stream did not draw
        assert not verdict.ok and verdict.problem.startswith("log row 1 (new), die 1")
        data["orders"][0]["dice"][0][0] = honest
        assert verify_export(data).ok
    finally:
        await app.close()


async def test_every_new_game_is_fair_whoever_creates_it(tmp_path: Path) -> None:
    """A game opened through the session API (as a league would) gets the fair-dice option
    too: its play dice come from the play key (here without entropy)."""
    app = await App.start(tmp_path / "api.db", seed=2)
    try:
        await start(app, target=50)
        game = await app.repo.live_game(CHANNEL)
        assert game is not None and game.options[FAIR] == {"v": 1, "entropy": {}}
        acted = await app.sessions.act(CHANNEL, ALICE if game.snapshot["turn"] == 0 else BOB, "roll")
        key = play_key(game.dice_key, game.uid, {})
        assert acted.dice[0].value == stream_die(key, f"{game.uid}/{acted.seat}", 0, 6)
    finally:
        await app.close()
