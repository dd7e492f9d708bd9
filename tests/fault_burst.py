"""A bot process for the fault tests (tests/test_faults.py): it opens the database given
on the command line, starts a dice race in channel 100 and plays orders back to back
through the session, printing ``ACK <version>`` once each order is acknowledged, until
it is killed."""

from __future__ import annotations

import asyncio
import sys

import tests.toygame  # noqa: F401  (registers the dice race)
from bot.app import App
from bot.games import load_games
from tests.toygame.harness import ALICE, BOB, CHANNEL, start


async def main(database: str) -> None:
    load_games()
    app = await App.start(database, seed=5)
    loaded = await start(app, target=100)
    print(f"GAME {loaded.game.id}", flush=True)
    players = [ALICE, BOB] if loaded.game.snapshot.get("turn", 0) == 0 else [BOB, ALICE]
    n = 0
    while True:
        current = await app.sessions.load(CHANNEL)
        actor = players[0] if current.pending[0].player == "red" else players[1]
        acted = await app.sessions.act(CHANNEL, actor, "roll" if n % 10 == 0 else "pass")
        print(f"ACK {acted.game.version}", flush=True)
        n += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
