"""`warroom migrate --from sqlite:///… --to postgresql://…`: every game (seats, snapshot,
undo request, result), its whole order log (events, dice, times), players, settings and
documents arrive unchanged; the games go on in PostgreSQL; a target that is not empty is
refused and left alone."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.cli import main
from bot.clock import ManualClock
from bot.storage import open_repository
from bot.storage.sqlite import SqliteRepository
from tests.storage import pg_server
from tests.toygame.harness import ALICE, BOB, CHANNEL, start


@pytest.fixture(autouse=True)
def _real_sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    """The source must be a real SQLite file even in the suite's PostgreSQL pass."""
    import bot.app
    import bot.storage

    monkeypatch.setattr(bot.app, "open_repository", bot.storage.open_repository)


async def _sqlite_deployment(path: Path) -> None:
    app = await App.start(f"sqlite:///{path}", seed=3, clock=ManualClock())
    try:
        await start(app, timeout_after="2d")
        app.dice.queue([5])
        await app.sessions.act(CHANNEL, ALICE, "roll")
        await app.sessions.act(CHANNEL, BOB, "pass")
        await start(app, channel=CHANNEL + 1)  # a second game…
        assert isinstance(app.clock, ManualClock)
        app.clock.advance(timedelta(hours=3))
        await app.sessions.act(CHANNEL + 1, ALICE, "pass")
        await app.repo.set_guild_setting(5, "moderator_role", 42)
        await app.repo.set_user_setting(1, "dm_turns", True)
        await app.repo.put_document("league", "5/spring", {"round": 2, "names": ["é", "ß"]},
                                    expected_version=0, now=app.clock.now())
    finally:
        await app.close()


def test_migrate_copies_everything_and_the_games_go_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "warroom.db"
    asyncio.run(_sqlite_deployment(source))
    target = pg_server.fresh_database()
    assert main(["migrate", "--from", f"sqlite:///{source}", "--to", target]) == 0
    out = capsys.readouterr().out
    assert "done: 2 games" in out and "both databases read back the same" in out

    async def compare() -> None:
        old, new = SqliteRepository(source), await open_repository(target)
        await old.open()
        try:
            for channel in (CHANNEL, CHANNEL + 1):
                a, b = await old.live_game(channel), await new.live_game(channel)
                assert a is not None and b is not None and a == b
                assert await old.orders(a.id) == await new.orders(b.id)
                assert len(await new.orders(b.id)) >= 4
            assert await new.guild_setting(5, "moderator_role") == 42
            assert await new.user_setting(1, "dm_turns") is True
            doc = await new.document("league", "5/spring")
            assert doc is not None and (doc.version, doc.data) == (1, {"round": 2, "names": ["é", "ß"]})
            assert await new.player_names() == {1: "alice", 2: "bob"}
        finally:
            await old.close()
            await new.close()
        # The games go on in PostgreSQL, and new games get new ids.
        app = await App.start(target, seed=4, clock=ManualClock())
        try:
            app.dice.queue([6])
            acted = await app.sessions.act(CHANNEL, ALICE, "roll")
            assert acted.game.version == (await app.repo.orders(acted.game.id))[-1].seq
            third = await start(app, channel=CHANNEL + 2)
            assert third.game.id == 3
        finally:
            await app.close()

    asyncio.run(compare())


def test_a_target_that_is_not_empty_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "warroom.db"
    asyncio.run(_sqlite_deployment(source))
    target = pg_server.fresh_database()
    assert main(["migrate", "--from", f"sqlite:///{source}", "--to", target]) == 0
    capsys.readouterr()
    assert main(["migrate", "--from", f"sqlite:///{source}", "--to", target]) == 2
    assert "the target database is not empty" in capsys.readouterr().err
    assert main(["migrate", "--from", f"sqlite:///{tmp_path / 'none.db'}", "--to", target]) == 2
    assert "there is no SQLite database" in capsys.readouterr().err
    assert main(["migrate", "--from", target, "--to", target]) == 2
    assert "copies a SQLite database" in capsys.readouterr().err
