"""Faults on whichever backend the suite runs on (SQLite, and PostgreSQL in the second
pass): a bot process killed with SIGKILL in the middle of a burst of orders loses no
acknowledged order and leaves a game that loads and replays to its snapshot; two
processes ordering the same game at once lose nothing, duplicate nothing and never
answer with a crash."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.app import App
from bot.clock import ManualClock
from bot.session import TryAgain
from engine.core.errors import PlayerError
from tests.storage.suite_backend import on_postgres
from tests.storage import pg_server
from tests.toygame.harness import ALICE, BOB, CHANNEL, start

ROOT = Path(__file__).resolve().parents[1]


def _database(tmp_path: Path) -> str:
    return pg_server.fresh_database() if on_postgres() else f"sqlite:///{tmp_path / 'burst.db'}"


async def test_kill_9_during_a_burst_loses_no_acknowledged_order(tmp_path: Path) -> None:
    database = _database(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "tests.fault_burst", database], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    import threading

    watchdog = threading.Timer(120, proc.kill)  # never hang the suite on a stuck child
    watchdog.start()
    acked: list[int] = []
    game_id = 0
    try:
        for line in proc.stdout:
            if line.startswith("GAME "):
                game_id = int(line.split()[1])
            elif line.startswith("ACK "):
                acked.append(int(line.split()[1]))
                if len(acked) >= 40:
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        watchdog.cancel()
    assert len(acked) >= 40, proc.stderr.read() if proc.stderr else ""
    app = await App.start(database, seed=1)
    try:
        game = await app.repo.game(game_id)
        log = await app.repo.orders(game_id)
        assert set(acked) <= {row.seq for row in log}  # every acknowledged order is stored
        assert game.version == log[-1].seq >= acked[-1]
        history = await app.sessions.history(game, check=True)  # replays to its snapshot
        assert len(history.rows) == len(log)
        # The game goes on after the crash.
        loaded = await app.sessions.load(CHANNEL)
        actor = ALICE if loaded.pending[0].player == "red" else BOB
        acted = await app.sessions.act(CHANNEL, actor, "pass")
        assert acted.game.version == game.version + 1
    finally:
        await app.close()


async def test_two_processes_ordering_the_same_game(tmp_path: Path) -> None:
    """Both processes send the same player's orders as fast as they can: every order is
    either applied once or refused with "the game changed, try again"."""
    one = await App.start(tmp_path / "shared.db", seed=1, clock=ManualClock())
    two = await App.start(tmp_path / "shared.db", seed=2, clock=ManualClock())
    try:
        await start(one, target=100)
        applied: list[int] = []
        refused = 0

        async def player(app: App, n: int) -> None:
            nonlocal refused
            for i in range(n):
                try:
                    loaded = await app.sessions.load(CHANNEL)
                    actor = ALICE if loaded.pending[0].player == "red" else BOB
                    acted = await app.sessions.act(CHANNEL, actor, "roll" if i % 4 == 0 else "pass")
                    applied.append(acted.game.version)
                except (TryAgain, PlayerError):  # a conflict, or the seat changed under us
                    refused += 1

        await asyncio.gather(player(one, 30), player(two, 30))
        game = await two.repo.live_game(CHANNEL)
        assert game is not None
        log = await two.repo.orders(game.id)
        orders = [row.seq for row in log if row.kind == "order"]
        assert sorted(applied) == [v for v in orders if v in applied]  # no duplicate
        assert set(applied) == {row.seq for row in log if row.kind == "order" and row.text in ("roll", "pass")}
        assert len(applied) + refused == 60 and len(applied) >= 30
        assert [row.seq for row in log] == list(range(1, game.version + 1))  # no gap, no lost update
        await two.sessions.history(game, check=True)
    finally:
        await one.close()
        await two.close()
