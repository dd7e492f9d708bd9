"""The session: one channel's game, loaded once per command, changed atomically.

Every change to a game — orders, joins, replacements, settings, undo, concessions,
aborts, scheduled timeouts — goes through :meth:`Sessions.change`: take the channel's
lock → load the game row → *decide* (the caller's check of what is legal now, made on
what was just loaded) → commit in one transaction that succeeds only on the version
read.  If another process committed in between, nothing is written and the player is
told the game changed (:class:`TryAgain`), never "something went wrong".

Orders (:meth:`Sessions.act`) are applied by the engine with the dice of the acting
seat (bot/dice_service.py) and stored in their canonical form (``GameRules.format_order``
of the order as read), so a replay never depends on today's defaults.  A command may
send several orders; they are applied and stored together or not at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Awaitable, Callable, Mapping, Sequence

from bot.clock import Clock
from bot.context import Actor
from bot.dice_service import FAIR, SETUP, SYSTEM, DiceService, SeatRoller, new_fair, stream_key
from bot.storage.repository import (
    GameExists,
    GameRecord,
    GameUpdate,
    NewGame,
    NewOrder,
    OrderRecord,
    Repository,
    VersionConflict,
)
from engine.core.dice import Die, replay_dice
from engine.core.errors import IllegalOrder, NotYourTurn, PlayerError
from engine.core.events import Event
from engine.core.game import PUBLIC, GameRules, Outcome, Pending, Viewer, rules_for

log = logging.getLogger("warroom.session")


class NoGame(PlayerError):
    """The channel has no game in progress."""


class TryAgain(IllegalOrder):
    """Someone else changed the game between our read and our write."""

    def __init__(self) -> None:
        super().__init__("The game changed while your command was being applied (someone else"
                         " acted first). Nothing was applied: look at the game and try again.")


class ReplayMismatch(Exception):
    """The order log does not replay to the stored snapshot: a bug, never trusted."""


@dataclass(frozen=True)
class Loaded:
    game: GameRecord
    rules: GameRules[Any]
    state: Any

    @property
    def pending(self) -> Sequence[Pending]:
        """Who the game waits for (nobody until every seat is taken, or once it is over)."""
        if self.game.status != "active":
            return ()
        return self.rules.pending(self.state)

    @property
    def outcome(self) -> Outcome | None:
        result = self.game.result
        if result:
            return Outcome(result.get("winner"), str(result.get("reason", "")))
        return self.rules.outcome(self.state)

    def viewer(self, user_id: int | None) -> Viewer:
        """What a user may see: the seats they hold (none: the public)."""
        return PUBLIC if user_id is None else Viewer.of(self.game.seat_of(user_id))

    def view(self, viewer: Viewer = PUBLIC) -> Any:
        """The state as ``viewer`` may know it (the engine's per-seat view)."""
        return self.rules.view(self.state, viewer)

    def seen_by(self, user_id: int | None) -> Any:
        """The state as a user may know it: :meth:`view` for their :meth:`viewer`."""
        return self.view(self.viewer(user_id))

    def acting_seat(self, user_id: int) -> str | None:
        """The seat a user plays now (None if not seated).  Someone holding several seats
        plays the one whose decision is pending."""
        seats = self.game.seat_of(user_id)
        if len(seats) <= 1:
            return seats[0] if seats else None
        waiting = [p.player for p in self.pending if p.player in seats]
        return waiting[0] if waiting else seats[0]


@dataclass(frozen=True)
class Change:
    """What a decision commits: the row update, the log rows, and the new engine state
    (None when the state does not change)."""

    update: GameUpdate
    records: tuple[NewOrder, ...]
    state: Any = None


@dataclass(frozen=True)
class Acted:
    """The result of accepted orders (or of a timeout)."""

    before: Loaded
    after: Loaded
    seat: str
    texts: tuple[str, ...]
    events: tuple[Event, ...]
    dice: tuple[Die, ...]
    actor_id: int | None = None

    @property
    def game(self) -> GameRecord:
        return self.after.game

    @property
    def event_dicts(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.events]

    @property
    def waiting_changed(self) -> bool:
        """Someone else must decide now, or something else: worth a ping."""
        return pending_key(self.before.pending) != pending_key(self.after.pending)


def pending_key(pending: Sequence[Pending]) -> tuple[tuple[str, str], ...]:
    return tuple((p.player, p.decision) for p in pending)


@dataclass(frozen=True)
class History:
    """A game's log replayed: every row, the rows still in effect, and the state after
    the creation and after every row still in effect (seq → state)."""

    rows: tuple[OrderRecord, ...]
    effective: tuple[OrderRecord, ...]
    states: tuple[tuple[int, Any], ...] = field(default=())

    @property
    def final(self) -> Any:
        return self.states[-1][1]


def effective_rows(rows: Sequence[OrderRecord]) -> list[OrderRecord]:
    """The rows still in effect: an ``undo to N`` row takes back every order and timeout
    after N (the undo rows themselves are not kept; seat and admin rows always are)."""
    kept: list[OrderRecord] = []
    for row in rows:
        if row.kind == "undo":
            target = int(row.text.split()[-1])
            kept = [r for r in kept if r.seq <= target or r.kind not in ("order", "timeout")]
        else:
            kept.append(row)
    return kept


def undone_seqs(rows: Sequence[OrderRecord]) -> set[int]:
    alive = {r.seq for r in effective_rows(rows)}
    return {r.seq for r in rows if r.seq not in alive and r.kind != "undo"}


def replay(rules: GameRules[Any], rows: Sequence[OrderRecord]) -> History:
    """Rebuild the states from the log alone, re-using every recorded die (the creation's
    options are in its row).  Orders are re-read from their canonical text."""
    states: list[tuple[int, Any]] = []
    for row in rows:
        dice = replay_dice(row.dice)
        if row.kind == "new":
            state, _ = rules.new_game(json.loads(row.text), dice)
            states = [(row.seq, state)]
        elif row.kind == "order":
            state = states[-1][1]
            new, _ = rules.apply(state, rules.parse_order(state, row.seat, row.text), dice)
            states.append((row.seq, new))
        elif row.kind == "timeout" and row.text != "forfeit":
            new, _ = rules.timeout(states[-1][1], row.text, dice)
            states.append((row.seq, new))
        elif row.kind == "undo":
            target = int(row.text.split()[-1])
            states = [entry for entry in states if entry[0] <= target]
    return History(tuple(rows), tuple(effective_rows(rows)), tuple(states))


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


Decide = Callable[[Loaded], Awaitable[Change]]


class Sessions:
    def __init__(self, repo: Repository, dice: DiceService, clock: Clock) -> None:
        self.repo = repo
        self.dice = dice
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        # Coroutines called with the game once it ends (the App wires bot.games' listeners).
        self.on_end: list[Callable[[Loaded], Awaitable[None]]] = []
        # game id -> (version, state): a game is parsed from JSON once per change.
        self._cache: dict[int, tuple[int, Any]] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def now(self) -> datetime:
        return self.clock.now()

    # ------------------------------------------------------------------ loading

    def loaded(self, game: GameRecord) -> Loaded:
        """A stored game with its rules and state (the state parsed once per version)."""
        rules = rules_for(game.kind)
        cached = self._cache.get(game.id)
        if cached and cached[0] == game.version:
            return Loaded(game, rules, cached[1])
        state = rules.load_state(game.snapshot)
        self._cache[game.id] = (game.version, state)
        return Loaded(game, rules, state)

    async def find(self, channel_id: int) -> Loaded | None:
        game = await self.repo.live_game(channel_id)
        return self.loaded(game) if game else None

    async def load(self, channel_id: int, *, kind: str | None = None) -> Loaded:
        loaded = await self.find(channel_id)
        if loaded is None or (kind is not None and loaded.game.kind != kind):
            raise NoGame(f"There is no game in progress in this channel. Start one with {_new_hint(kind)}.")
        return loaded

    async def latest(self, channel_id: int, *, kind: str | None = None) -> Loaded:
        """The channel's game in progress, else its most recent one (finished or aborted
        games can still be looked at)."""
        loaded = await self.find(channel_id)
        if loaded is None:
            game = await self.repo.last_game(channel_id)
            loaded = self.loaded(game) if game else None
        if loaded is None or (kind is not None and loaded.game.kind != kind):
            raise NoGame(f"There is no game in this channel yet. Start one with {_new_hint(kind)}.")
        return loaded

    async def history(self, game: GameRecord, *, check: bool = False) -> History:
        """The game's log replayed.  With ``check``, the replay must reproduce the stored
        snapshot exactly; a mismatch is a bug (:class:`ReplayMismatch`), never silently
        repaired."""
        rules = rules_for(game.kind)
        history = replay(rules, await self.repo.orders(game.id))
        if check and _json(rules.dump_state(history.final)) != _json(game.snapshot):
            raise ReplayMismatch(f"game {game.id} (version {game.version}) does not replay to its snapshot")
        return history

    # ------------------------------------------------------------------ the one path

    async def change(self, channel_id: int, decide: Decide, *, kind: str | None = None,
                     finished: bool = False) -> Loaded:
        """Load the channel's game under its lock, let ``decide`` check and describe the
        change on what was just loaded, and commit it on that version.  ``finished``
        allows changing the channel's last game when none is live."""
        async with self.lock(channel_id):
            before = await (self.latest if finished else self.load)(channel_id, kind=kind)
            change = await decide(before)
            try:
                stored = await self.repo.commit(
                    before.game.id, expected_version=before.game.version,
                    update=replace(change.update, apart=before.rules.snapshot_parts),
                    records=change.records, now=self.now())
            except VersionConflict:
                raise TryAgain() from None
            state = before.state if change.state is None else change.state
            self._cache[stored.id] = (stored.version, state)
            after = Loaded(stored, before.rules, state)
        if before.game.live and not stored.live:
            for listener in self.on_end:
                try:
                    await listener(after)
                except Exception:
                    log.exception("a game-end listener failed on game %s", stored.id)
        return after

    def engine_update(self, before: Loaded, state: Any, positions: Mapping[str, int],
                      *, result: Mapping[str, Any] | None = None) -> GameUpdate:
        """The row update after the engine changed the state: snapshot, finished when the
        game has an outcome, waiting time restarted when someone new must decide."""
        rules = before.rules
        over = result is not None or rules.outcome(state) is not None
        changed = pending_key(rules.pending(state)) != pending_key(before.pending)
        now = self.now()
        return GameUpdate(
            snapshot=rules.dump_state(state),
            status="finished" if over else None,
            waiting_since=now if changed else None,
            clear_reminded=changed,
            dice_positions={**before.game.dice_positions, **positions},
            result=result,
        )

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        *,
        kind: str,
        channel_id: int,
        guild_id: int | None,
        host: Actor,
        options: Mapping[str, Any],
        seats: Mapping[str, Actor],
        settings: Mapping[str, Any] | None = None,
    ) -> tuple[Loaded, tuple[Event, ...]]:
        """Open a game: the engine's ``options`` (the creation row keeps them, so a replay
        rebuilds the same game) and the platform's ``settings`` (reminders, time limits)."""
        rules = rules_for(kind)
        now = self.now()
        async with self.lock(channel_id):
            if await self.repo.live_game(channel_id):
                raise IllegalOrder(
                    "This channel already has a game in progress.",
                    legal=("finish or abort it first", "or start the new game in a thread"),
                )
            for actor in {host, *seats.values()}:
                await self.repo.remember_player(actor.id, actor.name, now)
            uid, key = self.dice.new_secret()
            roller = self.dice.roller(key, uid, SETUP, 0)
            dice = roller.order()
            try:
                state, events = rules.new_game(options, dice)
                game = await self.repo.create_game(NewGame(
                    channel_id=channel_id, guild_id=guild_id, kind=kind, host_id=host.id,
                    options={FAIR: new_fair(), **options, **(settings or {})},
                    seats={seat: a.id for seat, a in seats.items()},
                    snapshot=rules.dump_state(state),
                    first=NewOrder(kind="new", seat="", text=_json_text(options), actor_id=host.id,
                                   events=[e.to_dict() for e in events], dice=dice.rolled),
                    uid=uid, dice_key=key, dice_positions={SETUP: roller.position},
                    apart=rules.snapshot_parts,
                ), now=now)
            except GameExists:
                roller.give_back()
                raise IllegalOrder("This channel already has a game in progress.") from None
            except BaseException:
                roller.give_back()
                raise
        self._cache[game.id] = (game.version, state)
        return Loaded(game, rules, state), tuple(events)

    # ------------------------------------------------------------------ acting

    def seat_for(self, loaded: Loaded, actor: Actor, wanted: str | None = None) -> str:
        """Which seat an actor plays now.  A player holding several seats plays the one
        whose decision is pending."""
        seats = loaded.game.seat_of(actor.id)
        if wanted is not None:
            if wanted not in seats:
                raise NotYourTurn(f"You do not hold the seat '{wanted}'.", legal=seats)
            return wanted
        seat = loaded.acting_seat(actor.id)
        if seat is None:
            taken = ", ".join(f"{s}: <@{u}>" for s, u in loaded.game.seats.items()) or "none yet"
            raise NotYourTurn(f"You are not playing in this game (seats: {taken}).")
        return seat

    async def act(
        self,
        channel_id: int,
        actor: Actor,
        texts: str | Sequence[str],
        *,
        seat: str | None = None,
        kind: str | None = None,
    ) -> Acted:
        """Apply one command's orders for ``actor``: all of them, or none."""
        orders = [texts] if isinstance(texts, str) else list(texts)
        rollers: list[SeatRoller] = []
        done: dict[str, Any] = {}

        async def decide(before: Loaded) -> Change:
            status = before.game.status
            if status == "open":
                raise IllegalOrder("The game has not started yet: every seat must be taken first.")
            if status != "active":
                raise IllegalOrder(f"This {kind or 'game'} is over.")
            who = self.seat_for(before, actor, seat)
            game, rules = before.game, before.rules
            roller = self.dice.roller(stream_key(game.dice_key, game.uid, game.options, who), game.uid,
                                      who, game.dice_positions.get(who, 0))
            rollers.append(roller)
            state = before.state
            records: list[NewOrder] = []
            events: list[Event] = []
            dice: list[Die] = []
            for text in orders:
                if rules.outcome(state) is not None:
                    raise IllegalOrder("The game ended with the previous order; nothing more was applied.")
                order = rules.parse_order(state, who, text)
                canonical = rules.format_order(state, order)
                rolled = roller.order()
                state, new_events = rules.apply(state, order, rolled)
                records.append(NewOrder(kind="order", seat=who, text=canonical, actor_id=actor.id,
                                        events=[e.to_dict() for e in new_events], dice=rolled.rolled))
                events.extend(new_events)
                dice.extend(rolled.rolled)
            done.update(seat=who, texts=tuple(r.text for r in records), events=tuple(events),
                        dice=tuple(dice), before=before)
            return Change(self.engine_update(before, state, {who: roller.position}),
                          tuple(records), state)

        try:
            after = await self.change(channel_id, decide, kind=kind)
        except BaseException:
            for roller in rollers:
                roller.give_back()
            raise
        return Acted(done["before"], after, done["seat"], done["texts"], done["events"],
                     done["dice"], actor.id)

    async def timeout(self, channel_id: int, *, expect: tuple[int, tuple[tuple[str, str], ...]],
                      policy: str) -> Acted | None:
        """Apply the game's timeout policy to whoever is waited for — only if the game is
        still waiting for exactly what the scheduler saw (``expect`` = (version, pending
        key)); otherwise nothing happens and None is returned."""
        rollers: list[SeatRoller] = []
        done: dict[str, Any] = {}

        class Stale(Exception):
            pass

        async def decide(before: Loaded) -> Change:
            if (before.game.version, pending_key(before.pending)) != expect:
                raise Stale()
            game, rules = before.game, before.rules
            waiting = sorted({p.player for p in before.pending})
            if policy == "forfeit":
                winner = winner_against(rules, {rules.team(s) for s in waiting})
                reason = (f"{' and '.join(waiting)} did not answer in time" if winner
                          else "nobody answered in time")
                event = {"type": "GameForfeited", "seats": waiting, "winner": winner, "reason": reason}
                done.update(events=(), dice=(), before=before, texts=("forfeit",))
                return Change(GameUpdate(status="finished", result={"winner": winner, "reason": reason}),
                              (NewOrder(kind="timeout", seat="", text="forfeit", events=[event]),))
            roller = self.dice.roller(stream_key(game.dice_key, game.uid, game.options, SYSTEM), game.uid,
                                      SYSTEM, game.dice_positions.get(SYSTEM, 0))
            rollers.append(roller)
            rolled = roller.order()
            state, events = rules.timeout(before.state, policy, rolled)
            done.update(events=tuple(events), dice=tuple(rolled.rolled), before=before, texts=(policy,))
            return Change(self.engine_update(before, state, {SYSTEM: roller.position}),
                          (NewOrder(kind="timeout", seat="", text=policy,
                                    events=[e.to_dict() for e in events], dice=rolled.rolled),), state)

        try:
            after = await self.change(channel_id, decide)
        except Stale:
            return None
        except BaseException:
            for roller in rollers:
                roller.give_back()
            raise
        return Acted(done["before"], after, SYSTEM, done["texts"], done["events"], done["dice"])

    # ------------------------------------------------------------------ housekeeping

    async def mark_reminded(self, game: GameRecord) -> bool:
        return await self.repo.mark_reminded(game.id, version=game.version, now=self.now())


def winner_against(rules: GameRules[Any], losers: set[str]) -> str | None:
    """The winning team when ``losers`` give up or run out of time: the one other team,
    or None (a draw) when none or several remain."""
    others = [t for t in rules.teams() if t not in losers]
    return others[0] if len(others) == 1 else None


def _new_hint(kind: str | None) -> str:
    return f"/{kind} new" if kind else "a game's new command"


def _json_text(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
