"""Shared test set-up: every command module registered, as in the running bot."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.app import App
from bot.commands import load_all
from bot.games import load_games
from bot.config import Config
from bot.discord_app import WarroomBot
from tests.discord_harness import Recorder, start_offline

load_all()
load_games()
import tests.toygame  # noqa: E402,F401  (the dice race: the platform's second game)


@pytest.fixture(autouse=True)
def _suite_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """WARROOM_TEST_BACKEND=postgresql: every repository the tests open is a PostgreSQL
    one (tests/storage/suite_backend.py); the default runs on SQLite files."""
    from tests.storage import suite_backend

    if suite_backend.on_postgres():
        import bot.app
        import bot.storage

        monkeypatch.setattr(bot.app, "open_repository", suite_backend.redirect(bot.storage.open_repository))


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[WarroomBot]:
    """The Discord client, started without a network, on a fresh database."""
    app = await App.start(tmp_path / "bot.db", seed=11)
    client = WarroomBot(Config(None, None, str(tmp_path / "bot.db"), "INFO"), app=app, sync=False)
    await start_offline(client)
    yield client
    await app.close()


@pytest.fixture
def rec(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    """Every request the client sends to Discord, answered the way Discord would."""
    recorder = Recorder()
    recorder.install(monkeypatch)
    return recorder
