"""League play on the platform: match threads, games opened there, results from the
game's end, ratings, and the deadlines.

- :func:`open_round`: one thread per pairing in the league's channel ("Round 2 · alice
  vs bob"), the game opened there through the game's own lifecycle ``new`` and ``join``
  commands (the league's settings, the first side to ``players[0]``, the second to
  ``players[1]``), both players pinged with the deadline as Discord timestamps.
- :func:`game_ended` (registered with :func:`bot.games.on_game_end`): a league game
  that finished records its result (a win, a draw, a concession, a timeout forfeit) and
  rates it; an aborted one is left to the moderators.
- :func:`tick` (run by the scheduler every minute): warnings 48 h and 24 h before a
  round's deadline in each open match thread, the league's deadline policy at the
  deadline, and reports confirmed automatically after 48 hours.

Everything is in the database (documents, see :mod:`bot.league.store`); a notice that
must go out once is claimed first, so a restart or a second process never sends it twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Mapping

from bot.commands.base import Command, find
from bot.context import Actor, Attachment, Channel, Ctx, Message
from bot.games import front_for
from bot.league import ops, store
from bot.league.export import deadline_text, deadline_warnings, pairings_text, standings_image, thread_title
from bot.league.errors import LeagueNotationError, LeagueRuleError
from bot.league.model import League, Pairing, Result, Round
from bot.league.ratings import rate_game, rated_game
from bot.lifecycle import abort_change, by_side
from bot.session import Change, Loaded, pending_key
from engine.core.errors import PlayerError
from engine.core.game import rules_for

log = logging.getLogger("warroom.league")

# What happens at a round's deadline to a game without a result.
DEADLINE_POLICIES = ("moderators", "forfeit", "game")
POLICY_KEY = "at_deadline"
# A user setting: this player's casual games are rated (when the opponent's are too).
CASUAL_KEY = "rated_casual"
# Platform keys of a league's settings (the rest are the game's own ``new`` options).
LEAGUE_KEYS = (POLICY_KEY,)


# -- the game kinds ------------------------------------------------------------------

def game_kind(game: str) -> str:
    """``minis`` (a group or a kind) → the game kind, for games a league can host."""
    from bot.games import fronts

    wanted = game.strip().lower()
    for front in fronts():
        if wanted in (front.group.lower(), front.kind.lower()):
            return str(front.kind)
    raise LeagueNotationError(f"'{game[:30]}' is not a game this bot hosts.",
                              legal=tuple(f.group for f in fronts()))


def sides_of(kind: str) -> tuple[str, str]:
    """The game's two sides (teams); a league pairs two players, each holding every seat
    of one side (A&A: one player is the whole Axis)."""
    teams = rules_for(kind).teams()
    if len(teams) != 2:
        raise LeagueRuleError(f"League play needs a game of two sides; {front_for(kind).title} has"
                              f" {len(teams)}.", legal=tuple(f.group for f in _duel_fronts()))
    return teams[0], teams[1]


def side_seats(kind: str, team: str) -> str:
    """What a league player joins as: every seat of their side (``"Germany, Italy, Japan"``)."""
    rules = rules_for(kind)
    return ", ".join(by_side(rules.team, rules.seats)[team])


def _duel_fronts() -> list[Any]:
    from bot.games import fronts

    return [f for f in fronts() if len(rules_for(f.kind).teams()) == 2]


def _commands(kind: str) -> tuple[Command, Command]:
    group = front_for(kind).group
    return find((group, "new")), find((group, "join"))


def game_values(kind: str, settings: Mapping[str, Any], side: str | None) -> dict[str, Any]:
    """The game's ``new`` options from the league's settings, checked by the game's own
    command (unknown names, bad values and ranges are refused the same way)."""
    new, _ = _commands(kind)
    raw = {k: v for k, v in settings.items() if k not in LEAGUE_KEYS}
    if side is not None:
        raw["side"] = side_seats(kind, side)
    try:
        return new.bind(raw)
    except PlayerError as err:
        raise LeagueNotationError(f"A setting for the league's games is not right: {err.message}",
                                  legal=[o.name for o in new.options if o.name != "side"]) from None


def parse_settings(text: str | None) -> dict[str, str]:
    """``"scenario=assault points=120 timeout=3d"`` → a dict (values stay text; the game's
    command converts them)."""
    out: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise LeagueNotationError(f"'{part[:40]}' is not a setting.",
                                      legal=("settings:\"scenario=assault points=120 timeout=3d\"",))
        out[key.strip().lower()] = value.strip()
    return out


# -- match threads ---------------------------------------------------------------------

@dataclass
class ThreadChannel:
    """The game's ``new``/``join`` replies, posted publicly in the match thread (the
    players are not the ones who typed a command).  Private replies are not shown."""

    base: Channel
    thread: int

    async def reply(self, message: Message) -> None:
        if not message.ephemeral:
            await self.base.post(self.thread, message)

    async def post(self, channel_id: int, message: Message) -> None:
        await self.base.post(channel_id, message)

    async def dm(self, user_id: int, message: Message) -> bool:
        return await self.base.dm(user_id, message)

    async def create_thread(self, channel_id: int, name: str) -> int:
        return await self.base.create_thread(channel_id, name)


def mention_all(ids: Any) -> str:
    return " ".join(f"<@{i}>" for i in ids)


async def open_round(app: Any, channel: Channel, stored: store.Stored, rnd: Round) -> None:
    """Announce a new round in the league's channel and open a thread per game."""
    league = stored.league
    await channel.post(stored.channel, Message(
        f"📋 **{league.name}** — round {rnd.number} of {league.rounds} is paired.\n"
        + pairings_text(league, rnd.number)))
    for pairing in rnd.pairings:
        if pairing.result is None:
            await open_match(app, channel, stored, rnd, pairing)


async def open_match(app: Any, channel: Channel, stored: store.Stored, rnd: Round, pairing: Pairing) -> None:
    league, guild = stored.league, stored.guild
    try:
        thread = await channel.create_thread(stored.channel, thread_title(league, rnd.number, pairing))
    except Exception:
        log.exception("league %s: no thread for round %s board %s", league.name, rnd.number, pairing.board)
        await channel.post(stored.channel, Message(
            f"⚠️ Could not create the thread of round {rnd.number} board {pairing.board} (may the bot"
            f" create public threads here?). A moderator may retry with /league threads name:{league.name}"))
        return
    a, b = (Actor(pid, league.name_of(pid)) for pid in pairing.players)
    now = app.clock.now()
    try:
        new, join = _commands(league.kind)
        inner = ThreadChannel(channel, thread)
        values = game_values(league.kind, league.settings, pairing.sides[0])
        await new.handler(Ctx(app, a, thread, guild, inner), **values)
        await join.handler(Ctx(app, b, thread, guild, inner), **join.bind({"side": side_seats(league.kind, pairing.sides[1])}))
    except Exception as err:
        why = err.text() if isinstance(err, PlayerError) else "an error on our side (it has been logged)"
        if not isinstance(err, PlayerError):
            log.exception("league %s: opening the game of round %s board %s failed",
                          league.name, rnd.number, pairing.board)
        await channel.post(stored.channel, Message(
            f"⚠️ The game of round {rnd.number} board {pairing.board} could not be opened: {why}"
            f" A moderator may set its result with /league result name:{league.name} round:{rnd.number}"
            f" board:{pairing.board} result:…"))
    loaded = await app.sessions.find(thread)
    game_id = loaded.game.id if loaded else None
    await store.save_match(app.repo, guild, league.name, rnd.number, pairing.board, thread, game_id, now)
    await channel.post(thread, Message(
        f"⚔️ **{league.name}**, round {rnd.number}: {a.mention} ({pairing.sides[0]}) vs {b.mention}"
        f" ({pairing.sides[1]}). Play your game here; its result is recorded when it ends.\n"
        f"Deadline: {deadline_text(rnd.deadline)}.", mentions=pairing.players))


# -- results ---------------------------------------------------------------------------

async def record(app: Any, channel: Channel | None, guild: int, name: str, round_number: int, board: int,
                 result: Result, how: str) -> store.Stored:
    """Record a result the platform saw (a game ended, a report confirmed), rate it when
    it was played, and tell the league's channel."""
    now = app.clock.now()
    _, after = await store.update(app.repo, guild, name,
                                  lambda lg: ops.record_result(lg, round_number, board, result, how=how), now)
    league = after.league
    pairing = league.round(round_number).board(board)
    await rate(app, guild, league.kind, pairing)
    if channel is not None:
        await announce_result(channel, after, round_number, pairing)
    return after


async def rate(app: Any, guild: int, kind: str, pairing: Pairing) -> None:
    rated = rated_game(pairing)
    if rated is None:
        return
    teams, winner = rated
    await store.update_ratings(app.repo, guild, kind, lambda table: rate_game(table, teams, winner),
                               app.clock.now())


async def announce_result(channel: Channel, stored: store.Stored, round_number: int, pairing: Pairing) -> None:
    league = stored.league
    a, b = (league.name_of(p) for p in pairing.players)
    assert pairing.result is not None
    lines = [f"📝 **{league.name}** round {round_number} board {pairing.board}: {a} vs {b}"
             f" **{pairing.result.value}** ({pairing.how})."]
    lines += progress(league)
    await channel.post(stored.channel, Message("\n".join(lines), files=final_files(league)))


def progress(league: League) -> list[str]:
    """What the league waits for after a result."""
    current = league.current
    if current is None or not current.complete:
        return []
    if league.finished:
        return [f"🏁 That was the last result: {league.name} is over. Final standings below (or"
                f" /league standings name:{league.name})."]
    return [f"✅ Round {current.number} is complete: pair the next one with /league next name:{league.name}"]


def final_files(league: League) -> tuple[Attachment, ...]:
    """The final standings image, once the last result is in."""
    if not league.finished:
        return ()
    return (Attachment("final-standings.png", standings_image(league).png()),)


def _how(loaded: Loaded, rows: list[Any]) -> tuple[str, bool]:
    last = rows[-1] if rows else None
    if last is not None and last.kind == "timeout" and last.text == "forfeit":
        return "timeout", True
    if last is not None and last.kind == "admin" and last.text == "concede":
        return "concession", False
    return "game", False


async def game_ended(app: Any, loaded: Loaded) -> None:
    """A game ended: if it is a league game, record its result (a finished game) or ask
    the moderators (an aborted one); a casual game is rated if both players opted in."""
    found = await store.game_match(app.repo, loaded.game.id)
    if found is None:
        await rate_casual(app, loaded)
        return
    guild, name, rnd, board = int(found["guild"]), str(found["league"]), int(found["round"]), int(found["board"])
    channel = app.poster
    stored = await store.load(app.repo, guild, name)
    pairing = stored.league.round(rnd).board(board)
    if pairing.result is not None:
        return  # set already (a moderator, a drop): the game no longer decides it
    if loaded.game.status != "finished" or loaded.outcome is None:
        if channel is not None:
            await channel.post(stored.channel, Message(
                f"⚠️ The game of {name} round {rnd} board {board} was aborted without a result."
                f" {mention_all(moderators(stored.league))}: set it with /league result name:{name}"
                f" round:{rnd} board:{board} result:…", mentions=moderators(stored.league)))
        return
    how, forfeit = _how(loaded, await app.repo.orders(loaded.game.id))
    result = ops.result_for_side(pairing, loaded.outcome.winner, forfeit=forfeit)
    try:
        await record(app, channel, guild, name, rnd, board, result, how)
    except LeagueRuleError:
        log.info("league %s round %s board %s: result already set", name, rnd, board)


async def rate_casual(app: Any, loaded: Loaded) -> None:
    """A finished casual game of two players, each holding every seat of one side (an
    A&A side is several powers), both opted in: rated (a forfeit on time is not: no game
    was played to its end)."""
    game, outcome = loaded.game, loaded.outcome
    if game.status != "finished" or outcome is None or game.guild_id is None:
        return
    rules = loaded.rules
    teams = list(rules.teams())
    holders = {t: {game.seats.get(s) for s in seats} for t, seats in by_side(rules.team, rules.seats).items()}
    if len(teams) != 2 or any(len(h) != 1 or None in h for h in holders.values()):
        return
    players = [uid for t in teams for uid in holders[t] if uid is not None]
    if len(set(players)) != 2:
        return
    for uid in players:
        if not await app.repo.user_setting(uid, CASUAL_KEY):
            return
    how, forfeit = _how(loaded, await app.repo.orders(game.id))
    if forfeit:
        return
    order = [(uid,) for uid in players]
    winner = None if outcome.winner is None else teams.index(outcome.winner)
    await store.update_ratings(app.repo, game.guild_id, game.kind,
                               lambda table: rate_game(table, order, winner), app.clock.now())


def rating_seeding(league: League, table: Mapping[int, Any]) -> list[int]:
    """Players best first by rating (μ − 3σ; the unrated at the initial rating), sign-up
    order between equals."""
    from bot.league.ratings import DEFAULT_MODEL

    initial = DEFAULT_MODEL.initial()
    keyed = [(-(table.get(p.id) or initial).ordinal, k, p.id) for k, p in enumerate(league.players)]
    return [pid for _, _, pid in sorted(keyed)]


def moderators(league: League) -> tuple[int, ...]:
    return tuple(dict.fromkeys((league.organiser, *league.moderators)))


async def end_games(app: Any, channel: Channel | None, guild: int, before: League, after: League,
                    by: int, why: str) -> None:
    """Abort the live games whose pairing got a result from outside the game (a drop, a
    moderator's result): the thread is told why."""
    for r_after in after.paired:
        r_before = before.round(r_after.number) if r_after.number <= len(before.paired) else None
        for p in r_after.pairings:
            old = r_before.board(p.board) if r_before is not None else None
            if p.result is None or (old is not None and old.result is not None):
                continue
            found = await store.match(app.repo, guild, after.name, r_after.number, p.board)
            if not found:
                continue
            thread = int(found["thread"])
            loaded = await app.sessions.find(thread)
            if loaded is None or loaded.game.id != found.get("game"):
                continue

            async def abort(current: Loaded) -> Change:
                return abort_change(by)

            try:
                await app.sessions.change(thread, abort)
            except PlayerError:
                continue
            if channel is not None:
                await channel.post(thread, Message(
                    f"🛑 This game ends here: {why} ({p.result.value if p.result else ''} in {after.name})."))


# -- deadlines and reports ---------------------------------------------------------------

async def tick(app: Any, channel: Channel) -> int:
    """Deadline warnings, the deadline policy, and reports due for automatic
    confirmation.  Returns how many actions were taken."""
    now = app.clock.now()
    actions = 0
    for stored in await store.all_leagues(app.repo):
        try:
            actions += await _deadlines(app, channel, stored, now)
        except Exception:
            log.exception("league tick failed on %s", stored.league.name)
    for guild, report, version in await store.pending_reports(app.repo):
        if not report.due(now):
            continue
        try:
            stored = await store.load(app.repo, guild, report.league)
            if not await store.close_report(app.repo, guild, report, version, "auto-confirmed", now):
                continue
            pairing = stored.league.round(report.round).board(report.board)
            if pairing.result is not None:
                continue
            await record(app, channel, guild, report.league, report.round, report.board, report.result, "report")
            actions += 1
        except Exception:
            log.exception("league report auto-confirmation failed (%s)", report)
    return actions


async def _deadlines(app: Any, channel: Channel, stored: store.Stored, now: Any) -> int:
    league = stored.league
    actions = 0
    prefix = store.league_key(stored.guild, league.name)
    for rnd in league.paired:
        open_games = rnd.open_pairings
        if not open_games:
            continue
        if now < rnd.deadline:
            due = [h for h, at in deadline_warnings(rnd) if now >= at]
            if not due:
                continue
            hours = min(due)
            if not await store.claim(app.repo, f"{prefix}:{rnd.number}:warn{hours}", now):
                continue
            for h in due:  # a missed earlier warning is never sent late
                await store.claim(app.repo, f"{prefix}:{rnd.number}:warn{h}", now)
            for p in open_games:
                found = await store.match(app.repo, stored.guild, league.name, rnd.number, p.board)
                where = int(found["thread"]) if found else stored.channel
                await channel.post(where, Message(
                    f"⏰ {mention_all(p.players)}: {hours} hours left for your {league.name} round"
                    f" {rnd.number} game. Deadline: {deadline_text(rnd.deadline)}.", mentions=p.players))
            actions += 1
            continue
        if not await store.claim(app.repo, f"{prefix}:{rnd.number}:deadline", now):
            continue
        actions += 1
        policy = str(league.settings.get(POLICY_KEY, "moderators"))
        if policy == "game":
            games = "; ".join(f"board {p.board} {league.name_of(p.players[0])} vs {league.name_of(p.players[1])}"
                              for p in open_games)
            await channel.post(stored.channel, Message(
                f"⌛ The deadline of {league.name} round {rnd.number} has passed. Still playing: {games}; their"
                " games go on under their own time limits (or a moderator sets the result)."))
            continue
        left: list[Pairing] = []
        for p in open_games:
            if policy == "forfeit" and await _forfeit(app, channel, stored, rnd, p):
                continue
            left.append(p)
        if left:
            mods = moderators(league)
            games = "; ".join(f"board {p.board} {league.name_of(p.players[0])} vs {league.name_of(p.players[1])}"
                              for p in left)
            await channel.post(stored.channel, Message(
                f"⌛ The deadline of {league.name} round {rnd.number} has passed without a result for: {games}."
                f" {mention_all(mods)}: decide with /league result name:{league.name} round:{rnd.number}"
                f" board:… result:… (e.g. 1F-0F, 0F-1F, 0F-0F), or let them finish.", mentions=mods))
    return actions


async def _forfeit(app: Any, channel: Channel, stored: store.Stored, rnd: Round, p: Pairing) -> bool:
    """The game's own timeout with the forfeit policy: whoever the game waits for loses.
    True if the game ended that way (the game-end listener records the result)."""
    found = await store.match(app.repo, stored.guild, stored.league.name, rnd.number, p.board)
    if not found:
        return False
    thread = int(found["thread"])
    loaded = await app.sessions.find(thread)
    if loaded is None or loaded.game.status != "active" or not loaded.pending:
        return False
    acted = await app.sessions.timeout(thread, expect=(loaded.game.version, pending_key(loaded.pending)),
                                       policy="forfeit")
    if acted is None:
        return False
    outcome = acted.after.outcome
    reason = outcome.reason if outcome else ""
    await channel.post(thread, Message(f"⌛ The league's deadline has passed: forfeit ({reason})."))
    return True
