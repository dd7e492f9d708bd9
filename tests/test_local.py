"""The local channel: same handlers as Discord, driven by script lines."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.command_line import parse_command, tokenize
from bot.app import App
from bot.local import run_script
from engine.core.errors import NotationError, PlayerError

ROOT = Path(__file__).resolve().parent.parent


def test_tokenize_keeps_quoted_values_and_apostrophes() -> None:
    assert tokenize('/minis move unit:ax3 path:"E6 F6"') == ["/minis", "move", "unit:ax3", "path:E6 F6"]
    assert tokenize("/x name:Memoir '44") == ["/x", "name:Memoir", "'44"]
    assert tokenize('/x a:""') == ["/x", "a:"]
    with pytest.raises(NotationError):
        tokenize('/x a:"open')


def test_parse_command_names_and_positional_options() -> None:
    assert parse_command("/roll dice:11d6>=4") == (("roll",), {"dice": "11d6>=4"})
    assert parse_command("/roll 2d6") == (("roll",), {"dice": "2d6"})
    assert parse_command("/ROLL dice:2d6 image:true") == (("roll",), {"dice": "2d6", "image": "true"})
    with pytest.raises(PlayerError, match="no command /nothing"):
        parse_command("/nothing here")
    with pytest.raises(PlayerError, match="not an option"):
        parse_command("/roll 2d6 extra")


async def _run(script: str, tmp_path: Path, seed: int = 3) -> tuple[int, str]:
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / "l.db", out_dir=tmp_path / "img", seed=seed, out=out)
    return code, out.getvalue()


async def test_script_prints_public_and_ephemeral_replies(tmp_path: Path) -> None:
    code, out = await _run(
        "# a comment\n"
        "!dice 6 6 6 5 4 4 3 3 3 1 1\n"
        "alice: /roll dice:11d6>=4\n"
        "!expect 6 successes\n"
        "bob: /roll dice:zz\n"
        "!expect Can't roll\n"
        "carol: /help\n",
        tmp_path,
    )
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "[#table] **11d6>=4** → 6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1 → **6 successes**"
    assert lines[1].startswith("[to bob] ⚠️ Can't roll 'zz'.")
    assert any(line.startswith("[to carol] **Warroom**") for line in lines)


async def test_images_are_written_with_sequential_names(tmp_path: Path) -> None:
    code, out = await _run("!dice 1 2\na: /roll dice:2d6 image:true\n!dice 3\na: /roll dice:1d6 image:true\n", tmp_path)
    assert code == 0, out
    files = sorted(p.name for p in (tmp_path / "img").iterdir())
    assert files == ["0001-roll.png", "0002-roll.png"]
    assert (tmp_path / "img" / "0001-roll.png").read_bytes()[:4] == b"\x89PNG"
    assert f"[#table] [image] {tmp_path / 'img' / '0002-roll.png'}" in out


async def test_failed_expectation_and_bad_directives_fail_the_script(tmp_path: Path) -> None:
    code, out = await _run("a: /roll dice:1d6\n!expect 7 successes\n", tmp_path)
    assert code == 1 and "!! line 2: expected output containing '7 successes'" in out
    code, out = await _run("!nonsense\n", tmp_path)
    assert code == 1 and "unknown directive" in out
    code, _ = await _run("!dice x\n", tmp_path)
    assert code == 1


async def test_player_errors_are_not_failures(tmp_path: Path) -> None:
    code, out = await _run("a: /roll dice:1d6 image:maybe\nb: /unknown\n", tmp_path)
    assert code == 0
    assert "[to a] ⚠️ Option 'image' must be true or false, not 'maybe'." in out
    assert "[to b] ⚠️ There is no command /unknown." in out


async def test_channels_and_buttons_and_completion(tmp_path: Path) -> None:
    code, out = await _run("!channel #league-1\na: /roll dice:1d6\na: !complete /help game:\n", tmp_path)
    assert code == 0, out
    assert out.splitlines()[0].startswith("[#league-1] **1d6**")
    assert "[to a] choices for game: Quick commands (no game needed) = quick, Exact odds = odds," \
           " A&A Miniatures = minis" in out
    code, out = await _run("a: !press 1\n", tmp_path)
    assert code == 1 and "no button '1'" in out


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    full_env = {**os.environ, **(extra or {})}
    full_env.pop("DISCORD_TOKEN", None)
    if "DISCORD_TOKEN_FOR_TEST" in full_env:
        full_env["DISCORD_TOKEN"] = full_env.pop("DISCORD_TOKEN_FOR_TEST")
    return full_env


def _cli(*args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full_env = _env(env)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=full_env, cwd=cwd or ROOT)


def test_warroom_local_script_from_the_command_line(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("!dice 4 4\nalice: /roll dice:2d6>=4\n!expect 2 successes\nbob: /help\n", encoding="utf-8")
    done = _cli("local", "--script", str(script), "--out", str(tmp_path / "o"), "--seed", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[#table] **2d6>=4** → 4, 4 → **2 successes**" in done.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("a: /roll dice:1d6\n!expect nothing like this\n", encoding="utf-8")
    assert _cli("local", "--script", str(bad)).returncode == 1


def test_run_without_a_token_in_a_terminal_opens_the_local_channel(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("# no token here\nWARROOM_LOG=WARNING\n", encoding="utf-8")
    main, terminal = os.openpty()  # `make run` in a terminal: stdin is a TTY
    try:
        os.write(main, b"/roll dice:11d6>=4\n/quit\n")
        done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], stdin=terminal, capture_output=True,
                              text=True, timeout=120, cwd=tmp_path,
                              env={**_env(), "PYTHONPATH": str(ROOT), "WARROOM_DB": str(tmp_path / "w.db")})
    finally:
        os.close(main)
        os.close(terminal)
    assert done.returncode == 0, done.stderr
    lines = [line.removeprefix("> ") for line in done.stdout.splitlines()]
    assert lines[0].startswith("No DISCORD_TOKEN configured: opening the local channel")
    assert lines[1].startswith("[#table] **11d6>=4** → ") and "success" in lines[1]


def test_run_without_a_token_or_a_terminal_fails_with_one_line(tmp_path: Path) -> None:
    """Issue 9: in a container without a token, `warroom run` must not exit 0 quietly."""
    done = _cli("run", stdin="/roll dice:1d6\n", cwd=tmp_path,
                env={"PYTHONPATH": str(ROOT), "WARROOM_DB": str(tmp_path / "w.db")})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "no DISCORD_TOKEN is set" in done.stderr


def test_an_unreachable_discord_is_a_short_error(tmp_path: Path) -> None:
    """A token but no way to Discord (this test machine has no route to discord.com,
    and a made-up token would be refused if it had): a short line, no traceback."""
    done = _cli("run", cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "WARROOM_DB": str(tmp_path / "w.db"),
                                          "DISCORD_TOKEN_FOR_TEST": "MTIz.abc.def"})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("warroom run: cannot reach Discord") or last.startswith(
        "warroom run: Discord refused the token")


def test_the_roll_example_script_runs(tmp_path: Path) -> None:
    done = _cli("local", "--script", str(ROOT / "examples" / "roll.txt"), "--out", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "0001-roll.png").exists()


async def test_moderator_role_setting_needs_manage_server(tmp_path: Path) -> None:
    code, out = await _run(
        "eve: /settings moderator-role role:<@&123456789>\n"
        "!expect Only members with Manage Server\n"
        "!moderator ann\n"
        "ann: /settings moderator-role role:<@&123456789>\n"
        "!expect Members with <@&123456789> may now\n"
        "ann: /settings moderator-role role:banana\n"
        "!expect is not a role\n",
        tmp_path,
    )
    assert code == 0, out


async def test_mentions_name_known_players(tmp_path: Path) -> None:
    """A user option takes @name in the local channel and <@id> (Discord's form) too."""
    from bot.context import Ctx
    from bot.local import LocalChannel, LocalSession, stable_id

    app = await App.start(tmp_path / "u.db", seed=1)
    try:
        session = LocalSession(app, LocalChannel(io.StringIO(), tmp_path))
        bob = session.actor("bob")
        await app.repo.remember_player(bob.id, "bob", app.clock.now())
        ctx = Ctx(app, session.actor("alice"), 1, 1, session.channel)
        assert (await ctx.user("@bob")).id == stable_id("user", "bob")
        assert await ctx.user(f"<@{bob.id}>") == bob
        with pytest.raises(NotationError):
            await ctx.user("<not a user>")
    finally:
        await app.close()
