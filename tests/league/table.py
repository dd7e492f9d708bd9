"""A league run through the local channel: the same handlers as Discord, with the
dice race (tests/toygame) or Minis played in the match threads."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from bot.app import App
from bot.clock import ManualClock
from bot.league import store
from bot.league.model import League, Pairing
from bot.local import LocalChannel, LocalSession, stable_id

GUILD = 1


class Table:
    def __init__(self, app: App, session: LocalSession, out: io.StringIO) -> None:
        self.app, self.session, self.out = app, session, out

    @classmethod
    async def open(cls, tmp_path: Path, seed: int = 7) -> "Table":
        app = await App.start(tmp_path / "league.db", seed=seed, clock=ManualClock(), local=True)
        out = io.StringIO()
        session = LocalSession(app, LocalChannel(out, tmp_path / "img"), guild_id=GUILD)
        return cls(app, session, out)

    async def close(self) -> None:
        await self.app.close()

    async def run(self, *lines: str) -> str:
        """Run script lines; return what they printed.  Every line must run without a
        bug or a failed expectation."""
        start = len(self.out.getvalue())
        for line in lines:
            await self.session.run_line(line)
        assert self.session.ok, (self.session.failures, self.app.bugs, self.out.getvalue()[start:])
        return self.out.getvalue()[start:]

    def at(self, channel: int | str) -> None:
        """Later lines act in this channel (a thread id or a name)."""
        if isinstance(channel, int):
            self.session.channel.current_channel = channel
        else:
            self.session.use_channel(channel)

    def uid(self, name: str) -> int:
        return stable_id("user", name)

    async def league(self, name: str) -> League:
        return (await store.load(self.app.repo, GUILD, name)).league

    async def thread(self, league: str, round_number: int, board: int) -> int:
        found = await store.match(self.app.repo, GUILD, league, round_number, board)
        assert found is not None
        return int(found["thread"])

    async def play_race(self, league: League, round_number: int, pairing: Pairing, winner: int) -> str:
        """Play a dice race (target 3) in its thread so that ``winner`` (0 or 1: the
        pairing's first or second player) wins: both pick 3, the winner boosts."""
        thread = await self.thread(league.name, round_number, pairing.board)
        self.at(thread)
        a, b = (league.name_of(p) for p in pairing.players)
        out = await self.run(f"{a}: /race secret number:3", f"{b}: /race secret number:3")
        loaded = await self.app.sessions.find(thread)
        assert loaded is not None
        state: Any = loaded.state
        names = (a, b)
        if state.turn != winner:
            out += await self.run(f"{names[state.turn]}: /race pass")
        out += await self.run(f"{names[winner]}: /race boost")
        self.at("table")
        return out

    async def concede(self, league: League, round_number: int, pairing: Pairing, loser: int) -> str:
        thread = await self.thread(league.name, round_number, pairing.board)
        self.at(thread)
        out = await self.run(f"{league.name_of(pairing.players[loser])}: /race concede confirm:true")
        self.at("table")
        return out
