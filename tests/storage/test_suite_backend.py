"""The switch that runs the local-channel suite on PostgreSQL really switches it."""

from __future__ import annotations

from pathlib import Path

from bot.app import App
from bot.storage.postgres import PostgresRepository
from bot.storage.sqlite import SqliteRepository
from tests.storage.suite_backend import on_postgres


async def test_apps_open_the_backend_the_suite_runs_on(tmp_path: Path) -> None:
    one = await App.start(tmp_path / "x.db", seed=1)
    two = await App.start(tmp_path / "x.db", seed=2)  # a second "process" on the same database
    other = await App.start(tmp_path / "y.db", seed=3)
    try:
        assert type(one.repo) is (PostgresRepository if on_postgres() else SqliteRepository)
        await one.repo.set_guild_setting(1, "k", "shared")
        assert await two.repo.guild_setting(1, "k") == "shared"
        assert await other.repo.guild_setting(1, "k") is None  # every test starts empty
    finally:
        for app in (one, two, other):
            await app.close()
