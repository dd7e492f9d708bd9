"""The session: one channel's game, loaded once per command, changed atomically.

Every order goes the same way, whatever the game kind (design.md, "the one pipeline"):
take the channel's lock → load the game row → engine ``apply`` with the game's dice →
append the order (with its events and dice) and save the snapshot in one transaction that
succeeds only on the version read → hand the result back for narration, images and pings.

An order is either fully applied and stored, or not at all: a player error or a version
conflict leaves the database and the dice queues as they were.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from bot.clock import Clock, iso
from bot.context import Actor
from bot.dice_service import DiceService
from bot.storage.repository import (
    GameExists,
    GameRecord,
    GameUpdate,
    NewOrder,
    OrderRecord,
    Repository,
    VersionConflict,
)
from engine.core.dice import replay_dice
from engine.core.errors import IllegalOrder, NotYourTurn, PlayerError
from engine.core.events import Event
from engine.core.game import GameRules, Outcome, Pending, rules_for

SYSTEM = "system"


class NoGame(PlayerError):
    """The channel has no game in progress."""


@dataclass(frozen=True)
class Loaded:
    game: GameRecord
    rules: GameRules[Any]
    state: Any

    @property
    def pending(self) -> Sequence[Pending]:
        return self.rules.pending(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state)

    def acting_seat(self, user_id: int) -> str | None:
        """The seat a user plays now (None if not seated).  Someone holding several seats
        (a solo test game) plays the one whose decision is pending."""
        seats = self.game.seat_of(user_id)
        if len(seats) <= 1:
            return seats[0] if seats else None
        waiting = [p.player for p in self.pending if p.player in seats]
        return waiting[0] if waiting else seats[0]


@dataclass(frozen=True)
class Acted:
    """The result of one accepted order."""

    before: Loaded
    after: Loaded
    seat: str
    text: str
    events: tuple[Event, ...]
    dice: tuple[int, ...]

    @property
    def game(self) -> GameRecord:
        return self.after.game

    @property
    def waiting_changed(self) -> bool:
        """Someone else must decide now, or something else: worth a ping."""
        return _pending_key(self.before.pending) != _pending_key(self.after.pending)


def _pending_key(pending: Sequence[Pending]) -> tuple[tuple[str, str], ...]:
    return tuple((p.player, p.decision) for p in pending)


class Sessions:
    def __init__(self, repo: Repository, dice: DiceService, clock: Clock) -> None:
        self.repo = repo
        self.dice = dice
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        # (game id, version) -> state: a game is parsed from JSON once per change.
        self._cache: dict[int, tuple[int, Any]] = {}

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ loading

    def _state(self, game: GameRecord, rules: GameRules[Any]) -> Any:
        cached = self._cache.get(game.id)
        if cached and cached[0] == game.version:
            return cached[1]
        state = rules.load_state(game.snapshot)
        self._cache[game.id] = (game.version, state)
        return state

    def loaded(self, game: GameRecord) -> Loaded:
        """A stored game with its rules and state (the state parsed once per version)."""
        rules = rules_for(game.kind)
        return Loaded(game, rules, self._state(game, rules))

    async def find(self, channel_id: int) -> Loaded | None:
        game = await self.repo.live_game(channel_id)
        return self.loaded(game) if game else None

    async def load(self, channel_id: int, *, kind: str | None = None) -> Loaded:
        loaded = await self.find(channel_id)
        if loaded is None or (kind is not None and loaded.game.kind != kind):
            hint = f"/{kind} new" if kind else "a game's new command"
            raise NoGame(f"There is no game in progress in this channel. Start one with {hint}.")
        return loaded

    async def latest(self, channel_id: int, *, kind: str | None = None) -> Loaded:
        """The channel's game in progress, else its most recent one (finished or aborted
        games can still be looked at)."""
        loaded = await self.find(channel_id)
        if loaded is None:
            game = await self.repo.last_game(channel_id)
            loaded = self.loaded(game) if game else None
        if loaded is None or (kind is not None and loaded.game.kind != kind):
            hint = f"/{kind} new" if kind else "a game's new command"
            raise NoGame(f"There is no game in this channel yet. Start one with {hint}.")
        return loaded

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
    ) -> tuple[Loaded, tuple[Event, ...]]:
        rules = rules_for(kind)
        now = iso(self.clock.now())
        async with self.lock(channel_id):
            if await self.repo.live_game(channel_id):
                raise IllegalOrder(
                    "This channel already has a game in progress.",
                    legal=("finish or abort it first", "or start the new game in a thread"),
                )
            for actor in {host, *seats.values()}:
                await self.repo.remember_player(actor.id, actor.name, now)
            order = self.dice.quick()  # the game id does not exist yet
            try:
                state, events = rules.new_game(options, order.dice)
            except BaseException:
                self.dice.settle(order, applied=False)
                raise
            self.dice.settle(order, applied=True)
            first = NewOrder(
                kind="new",
                seat="",
                text=_json_text(options),
                actor_id=host.id,
                events=[e.to_dict() for e in events],
                dice=order.rolled,
            )
            try:
                game = await self.repo.create_game(
                    channel_id=channel_id,
                    guild_id=guild_id,
                    kind=kind,
                    host_id=host.id,
                    options=options,
                    seats={seat: a.id for seat, a in seats.items()},
                    snapshot=rules.dump_state(state),
                    first=first,
                    now=now,
                )
            except GameExists:
                raise IllegalOrder("This channel already has a game in progress.") from None
        self._cache[game.id] = (game.version, state)
        return Loaded(game, rules, state), tuple(events)

    # ------------------------------------------------------------------ acting

    def seat_for(self, loaded: Loaded, actor: Actor, wanted: str | None = None) -> str:
        """Which seat an actor plays now.  A player holding several seats (a solo test
        game) plays the one whose decision is pending."""
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
        actor: Actor | None,
        text: str,
        *,
        seat: str | None = None,
        kind: str | None = None,
    ) -> Acted:
        """Apply one order for ``actor`` (None = the system, e.g. a timeout)."""
        async with self.lock(channel_id):
            before = await self.load(channel_id, kind=kind)
            if before.game.status != "active":
                raise IllegalOrder("The game has not started yet: every seat must be taken first.")
            who = SYSTEM if actor is None else self.seat_for(before, actor, seat)
            return await self._apply(before, actor, who, text)

    async def _apply(self, before: Loaded, actor: Actor | None, seat: str, text: str) -> Acted:
        game = before.game
        order = self.dice.for_game(game.id, game.carry_dice)
        try:
            state, events = before.rules.apply_text(before.state, seat, text, order.dice)
        except BaseException:
            self.dice.settle(order, applied=False)
            raise
        after_pending = before.rules.pending(state)
        outcome = before.rules.outcome(state)
        now = iso(self.clock.now())
        changed = _pending_key(after_pending) != _pending_key(before.pending)
        update = GameUpdate(
            snapshot=before.rules.dump_state(state),
            status="finished" if outcome else None,
            waiting_since=now if changed else None,
            clear_reminded=changed,
            carry_dice=order.carry_left if game.carry_dice else None,
        )
        record = NewOrder(
            kind="order",
            seat=seat,
            text=text,
            actor_id=actor.id if actor else None,
            events=[e.to_dict() for e in events],
            dice=order.rolled,
        )
        try:
            stored = await self.repo.commit(
                game.id, expected_version=game.version, update=update, record=record, now=now
            )
        except VersionConflict:
            self.dice.settle(order, applied=False)
            raise IllegalOrder(
                "The game changed while your order was being applied (someone else acted first)."
                " Nothing was applied; look at the game and send it again."
            ) from None
        except BaseException:
            self.dice.settle(order, applied=False)
            raise
        self.dice.settle(order, applied=True)
        self._cache[stored.id] = (stored.version, state)
        after = Loaded(stored, before.rules, state)
        return Acted(before, after, seat, text, tuple(events), order.rolled)

    # ------------------------------------------------------------------ seats and status

    async def update_game(
        self,
        channel_id: int,
        *,
        record: NewOrder,
        status: str | None = None,
        seats: Mapping[str, int] | None = None,
        options: Mapping[str, Any] | None = None,
        kind: str | None = None,
    ) -> Loaded:
        """Change a game's seats/status/options (joining, replacing a player, aborting),
        logged in the order log like any order."""
        async with self.lock(channel_id):
            loaded = await self.load(channel_id, kind=kind)
            now = iso(self.clock.now())
            starting = status == "active" and loaded.game.status != "active"
            stored = await self.repo.commit(
                loaded.game.id,
                expected_version=loaded.game.version,
                update=GameUpdate(
                    status=status,
                    seats=seats,
                    options=options,
                    waiting_since=now if starting else None,
                    clear_reminded=starting,
                ),
                record=record,
                now=now,
            )
            self._cache[stored.id] = (stored.version, loaded.state)
            return Loaded(stored, loaded.rules, loaded.state)

    async def mark_reminded(self, game: GameRecord) -> GameRecord | None:
        now = iso(self.clock.now())
        try:
            stored = await self.repo.commit(
                game.id, expected_version=game.version,
                update=GameUpdate(reminded_at=now), record=None, now=now,
            )
        except VersionConflict:
            return None
        if game.id in self._cache:
            self._cache[stored.id] = (stored.version, self._cache[game.id][1])
        return stored

    # ------------------------------------------------------------------ history

    async def replay(self, game: GameRecord) -> Any:
        """Rebuild the state from the order log alone, re-using every recorded die."""
        stack = _replay_stack(rules_for(game.kind), game.options, await self.repo.orders(game.id))
        return stack[-1][1]

    async def undo(
        self, channel_id: int, actor: Actor, *, kind: str | None = None
    ) -> tuple[Loaded, str]:
        """Rewind to before the last order in effect.  The dice that order rolled are
        carried over to the next orders: undo never re-rolls anything."""
        async with self.lock(channel_id):
            loaded = await self.load(channel_id, kind=kind)
            game = loaded.game
            rows = await self.repo.orders(game.id)
            stack = _replay_stack(loaded.rules, game.options, rows)
            if len(stack) <= 1:
                raise IllegalOrder("There is no order to undo yet.")
            undone = next(r for r in rows if r.seq == stack[-1][0])
            target, state = stack[-2]
            now = iso(self.clock.now())
            stored = await self.repo.commit(
                game.id,
                expected_version=game.version,
                update=GameUpdate(
                    snapshot=loaded.rules.dump_state(state),
                    status="active",
                    carry_dice=(*undone.dice, *game.carry_dice),
                    waiting_since=now,
                    clear_reminded=True,
                ),
                record=NewOrder(kind="undo", seat="", text=f"undo to {target}", actor_id=actor.id),
                now=now,
            )
            self._cache[stored.id] = (stored.version, state)
            return Loaded(stored, loaded.rules, state), undone.text


def _replay_stack(
    rules: GameRules[Any], options: Mapping[str, Any], rows: Sequence[OrderRecord]
) -> list[tuple[int, Any]]:
    """(seq, state after it) for the creation and every order still in effect."""
    stack: list[tuple[int, Any]] = []
    for row in rows:
        if row.kind == "new":
            state, _ = rules.new_game(options, replay_dice(row.dice))
            stack = [(row.seq, state)]
        elif row.kind == "order":
            state, _ = rules.apply_text(stack[-1][1], row.seat, row.text, replay_dice(row.dice))
            stack.append((row.seq, state))
        elif row.kind == "undo":
            target = int(row.text.split()[-1])
            stack = [entry for entry in stack if entry[0] <= target]
    return stack


def _json_text(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
