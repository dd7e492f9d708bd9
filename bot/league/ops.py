"""What can happen to a league, as pure functions returning a new :class:`League`.

Every function checks first and raises a :class:`~engine.core.errors.PlayerError`
subclass (:mod:`bot.league.errors`) without changing anything when the request is not
allowed; its message says what would be.  Times (``now``) are handed in, timezone-aware.

Who may do what (``by`` is the Discord user id asking; ``server_moderator`` is True
when the platform says that user holds the server's moderator role or Manage Channels):

- anyone: ``sign_up`` / ``leave`` themselves while sign-ups are open; ``next_round``
  once every result of the current round is in;
- a player: ``drop_player`` themselves (withdraw);
- a league moderator (:func:`is_moderator`): ``start``, ``next_round(force=True)``,
  ``set_result``, ``set_bye``, ``drop_player`` anyone, ``add_moderator``/
  ``remove_moderator``;
- the platform itself (no user): ``record_result``/``record_game`` when a league game
  ends or a report is confirmed.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from bot.league.errors import LeagueNotationError, LeagueRuleError, NotLeagueModerator, UnknownLeagueName
from bot.league.model import (
    DEFAULT_TIEBREAKS,
    Bye,
    Format,
    League,
    Pairing,
    Player,
    Result,
    Round,
    Scoring,
    Status,
    Tiebreak,
    parse_scoring,
    parse_tiebreaks,
)
from bot.league.pairing import (
    PairingPlan,
    SwissPlayer,
    round_robin_length,
    round_robin_round,
    swiss_round,
)
from bot.league.standings import Kind, round_records

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'’-]{0,39}$")
NAME_RULE = "1–40 letters, digits, spaces, - _ . ' (starting with a letter or digit)"
FORMATS = tuple(f.value for f in Format)


def _cmd(league: League | str, command: str, extra: str = "") -> str:
    name = league.name if isinstance(league, League) else league
    return f"/league {command} name:{name}" + (f" {extra}" if extra else "")


def _aware(now: datetime) -> datetime:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("league times must be timezone-aware")
    return now


# -- creating --------------------------------------------------------------------

def check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise LeagueNotationError(f"'{name}' cannot be a league name: use {NAME_RULE}.",
                                  legal=("/league create name:Autumn-1944 game:minis format:swiss",))
    return name


def parse_format(text: str | Format) -> Format:
    if isinstance(text, Format):
        return text
    t = text.strip().lower().replace("_", "-").replace(" ", "-")
    if t in ("roundrobin", "rr"):
        t = "round-robin"
    try:
        return Format(t)
    except ValueError:
        raise LeagueNotationError(f"'{text}' is not a league format.", legal=FORMATS) from None


def create_league(
    name: str,
    kind: str,
    *,
    organiser: int,
    sides: Sequence[str],
    format: Format | str = Format.SWISS,
    rounds: int | None = None,
    double: bool = False,
    deadline: timedelta = timedelta(days=7),
    scoring: Scoring | str = Scoring(),
    tiebreaks: Sequence[Tiebreak] | str = DEFAULT_TIEBREAKS,
    settings: Mapping[str, Any] | None = None,
    moderators: Iterable[int] = (),
) -> League:
    """A new league, open for sign-ups.  ``sides`` are the game kind's two sides
    (teams), e.g. ``("axis", "allies")``; ``settings`` are the options every league
    game is opened with (scenario, points, year, map, timeout policy…), JSON values."""
    name = check_name(name)
    fmt = parse_format(format)
    if len(sides) != 2 or sides[0] == sides[1]:
        raise ValueError(f"a league needs a game with two sides, got {tuple(sides)}")
    if fmt is Format.ROUND_ROBIN and rounds is not None:
        raise LeagueRuleError(
            "A round-robin has one round per opponent: leave rounds: out (add double:true to play everyone twice).",
            legal=(f"/league create name:{name} game:{kind} format:round-robin",
                   f"/league create name:{name} game:{kind} format:round-robin double:true"))
    if fmt is Format.SWISS and double:
        raise LeagueRuleError("double:true is for round-robin leagues.",
                              legal=(f"/league create name:{name} game:{kind} format:swiss rounds:5",))
    if rounds is not None and rounds < 1:
        raise LeagueRuleError(f"A league needs at least one round, not {rounds}.",
                              legal=(f"/league create name:{name} game:{kind} format:swiss rounds:3",))
    if deadline <= timedelta(0):
        raise LeagueRuleError("The deadline must be a positive duration.", legal=("3d", "7d", "12h"))
    if isinstance(scoring, str):
        scoring = parse_scoring(scoring)
    tbs = parse_tiebreaks(tiebreaks) if isinstance(tiebreaks, str) else tuple(tiebreaks)
    if len(set(tbs)) != len(tbs):
        raise LeagueNotationError("A tiebreak is listed twice.", legal=tuple(t.value for t in Tiebreak))
    values = dict(settings or {})
    try:
        json.dumps(values)
    except (TypeError, ValueError):
        raise ValueError("league game settings must be JSON values") from None
    return League(
        name=name, kind=kind, format=fmt, sides=(sides[0], sides[1]), organiser=organiser,
        rounds=rounds, double=double, deadline=deadline, scoring=scoring, tiebreaks=tbs,
        settings=values, moderators=tuple(sorted(set(moderators))),
    )


# -- moderators ------------------------------------------------------------------

def is_moderator(league: League, user: int | None, *, server_moderator: bool = False) -> bool:
    """The organiser, a named league moderator, or a server moderator."""
    return server_moderator or (user is not None and (user == league.organiser or user in league.moderators))


def _require_moderator(league: League, user: int | None, what: str, server_moderator: bool) -> None:
    if not is_moderator(league, user, server_moderator=server_moderator):
        named = ", ".join(f"<@{m}>" for m in (league.organiser, *league.moderators))
        raise NotLeagueModerator(
            f"Only a moderator of {league.name} ({named} or the server's moderator role) may {what}.")


def add_moderator(league: League, user: int, *, by: int, server_moderator: bool = False) -> League:
    _require_moderator(league, by, "name moderators", server_moderator)
    return replace(league, moderators=tuple(sorted({*league.moderators, user})))


def remove_moderator(league: League, user: int, *, by: int, server_moderator: bool = False) -> League:
    _require_moderator(league, by, "remove moderators", server_moderator)
    if user not in league.moderators:
        raise UnknownLeagueName(f"<@{user}> is not a named moderator of {league.name}.",
                                legal=tuple(f"<@{m}>" for m in league.moderators))
    return replace(league, moderators=tuple(m for m in league.moderators if m != user))


# -- sign-ups --------------------------------------------------------------------

def sign_up(league: League, player: int, name: str) -> League:
    if league.status is not Status.SIGNUP:
        raise LeagueRuleError(f"Sign-ups for {league.name} are closed: it has started.",
                              legal=(_cmd(league, "standings"), _cmd(league, "pairings")))
    if league.has_player(player):
        raise LeagueRuleError(f"You are already signed up for {league.name}.",
                              legal=(_cmd(league, "leave"),))
    return replace(league, players=league.players + (Player(player, name.strip() or str(player)),))


def leave(league: League, player: int) -> League:
    if league.status is not Status.SIGNUP:
        raise LeagueRuleError(
            f"{league.name} has started: withdraw with /league drop name:{league.name} (your remaining games "
            "become forfeits), or ask a moderator.")
    if not league.has_player(player):
        raise LeagueRuleError(f"You are not signed up for {league.name}.", legal=(_cmd(league, "join"),))
    return replace(league, players=tuple(p for p in league.players if p.id != player))


# -- starting and pairing ------------------------------------------------------------

def max_swiss_rounds(players: int) -> int:
    """The most rounds a Swiss league of ``players`` can have without a rematch (and
    without anyone needing a second bye)."""
    return players - 1 if players % 2 == 0 else players


def default_swiss_rounds(players: int) -> int:
    """⌈log2 players⌉ (at least one): enough for a single winner to emerge."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def start(
    league: League,
    *,
    by: int,
    now: datetime,
    server_moderator: bool = False,
    seeding: Sequence[int] | None = None,
    rounds: int | None = None,
) -> League:
    """Close sign-ups and pair round 1.  ``seeding`` (player ids, best first; e.g. by
    rating) replaces the sign-up order; ``rounds`` overrides a Swiss league's count."""
    _aware(now)
    _require_moderator(league, by, "start the league", server_moderator)
    if league.status is not Status.SIGNUP:
        raise LeagueRuleError(f"{league.name} has already started.", legal=(_cmd(league, "pairings"),))
    n = len(league.players)
    if n < 2:
        raise LeagueRuleError(f"{league.name} needs at least 2 players to start; {n} signed up.",
                              legal=(_cmd(league, "join"),))
    players = league.players
    if seeding is not None:
        ids = [p.id for p in league.players]
        if sorted(seeding) != sorted(ids) or len(set(seeding)) != len(seeding):
            raise ValueError("the seeding must list every signed-up player once")
        by_id = {p.id: p for p in league.players}
        players = tuple(by_id[pid] for pid in seeding)
    if league.format is Format.ROUND_ROBIN:
        if rounds is not None:
            raise LeagueRuleError("A round-robin's number of rounds follows from its players.",
                                  legal=(_cmd(league, "start"),))
        total = round_robin_length(n, double=league.double)
    else:
        total = rounds if rounds is not None else (league.rounds or default_swiss_rounds(n))
        most = max_swiss_rounds(n)
        if not 1 <= total <= most:
            raise LeagueRuleError(
                f"A Swiss league of {n} players can have 1 to {most} rounds without rematches, not {total}.",
                legal=(_cmd(league, "start", f"rounds:{min(most, default_swiss_rounds(n))}"),))
    started = replace(league, players=players, rounds=total, status=Status.RUNNING)
    return _pair_next(started, now)


def next_round(
    league: League,
    *,
    now: datetime,
    by: int | None = None,
    force: bool = False,
    server_moderator: bool = False,
) -> League:
    """Pair the next round once every result of the current one is in.  A moderator
    may ``force`` it earlier: the games still open stay open (their results may still
    be recorded) and count as played against each other for the pairing."""
    _aware(now)
    if league.status is not Status.RUNNING:
        raise LeagueRuleError(f"{league.name} has not started yet.", legal=(_cmd(league, "start"),))
    current = league.current
    assert current is not None and league.rounds is not None
    if len(league.paired) >= league.rounds:
        raise LeagueRuleError(f"Round {current.number} was the last round of {league.name}.",
                              legal=(_cmd(league, "standings"),))
    if force:
        _require_moderator(league, by, "start the next round before every result is in", server_moderator)
    elif not current.complete:
        waiting = [f"board {p.board} {league.name_of(p.players[0])} vs {league.name_of(p.players[1])}"
                   for p in current.open_pairings]
        raise LeagueRuleError(
            f"Round {current.number} of {league.name} is still waiting for {len(waiting)} result"
            f"{'s' if len(waiting) != 1 else ''}: {'; '.join(waiting)}. A moderator may set them "
            f"(/league result name:{league.name} round:{current.number} board:… result:…) or "
            f"force the next round ({_cmd(league, 'next', 'force:true')}).")
    return _pair_next(league, now)


def _pair_next(league: League, now: datetime) -> League:
    number = len(league.paired) + 1
    if league.format is Format.ROUND_ROBIN:
        plan = round_robin_round([p.id for p in league.players], number, double=league.double)
    else:
        active = league.active_players
        if len(active) < 2:
            raise LeagueRuleError(
                f"Only {len(active)} player{'s are' if len(active) != 1 else ' is'} left in {league.name}: "
                "there is nobody to pair.", legal=(_cmd(league, "standings"),))
        plan = swiss_round(swiss_players(league))
    rnd = _round_from_plan(league, number, plan, now)
    return replace(league, paired=league.paired + (rnd,))


def swiss_players(league: League) -> list[SwissPlayer]:
    """The players to pair in the next Swiss round (not dropped), ranked by points,
    then seed — what :func:`~bot.league.pairing.swiss_round` takes."""
    records = round_records(league)
    out: list[SwissPlayer] = []
    for seed, p in enumerate(league.players):
        if p.dropped:
            continue
        recs = records[p.id]
        out.append(SwissPlayer(
            id=p.id,
            score=sum((r.points for r in recs), Fraction(0)),
            opponents=frozenset(r.opponent for r in recs if r.opponent is not None),
            sides=tuple(r.side for r in recs if r.kind in (Kind.GAME, Kind.PENDING)),
            had_bye=any(r.kind in (Kind.BYE, Kind.HALF_BYE) for r in recs),
        ))
    seed_of = {p.id: k for k, p in enumerate(league.players)}
    out.sort(key=lambda sp: (-sp.score, seed_of[sp.id]))
    return out


def _round_from_plan(league: League, number: int, plan: PairingPlan, now: datetime) -> Round:
    dropped = {p.id for p in league.players if p.dropped}
    pairings: list[Pairing] = []
    for board, (a, b) in enumerate(plan.pairs, start=1):
        pairing = Pairing(board, (a, b), league.sides)
        if a in dropped or b in dropped:
            pairing = replace(pairing, result=_drop_result(a in dropped, b in dropped), how="drop")
        pairings.append(pairing)
    bye = Bye(plan.bye) if plan.bye is not None and plan.bye not in dropped else None
    return Round(number, tuple(pairings), bye, now, now + league.deadline)


def _drop_result(first_dropped: bool, second_dropped: bool) -> Result:
    if first_dropped and second_dropped:
        return Result.DOUBLE_FORFEIT
    return Result.SECOND_WINS_BY_FORFEIT if first_dropped else Result.FIRST_WINS_BY_FORFEIT


# -- results ---------------------------------------------------------------------

def _running(league: League) -> None:
    if league.status is not Status.RUNNING:
        raise LeagueRuleError(f"{league.name} has not started yet.", legal=(_cmd(league, "start"),))


def _with_pairing(league: League, round_number: int, pairing: Pairing) -> League:
    rounds = tuple(
        replace(r, pairings=tuple(pairing if p.board == pairing.board else p for p in r.pairings))
        if r.number == round_number else r
        for r in league.paired)
    return replace(league, paired=rounds)


def record_result(league: League, round_number: int, board: int, result: Result, *, how: str = "game") -> League:
    """Record the result of a game that had none (a league game ended, a report was
    confirmed).  ``how``: "game", "concession", "timeout", "report"."""
    _running(league)
    pairing = league.round(round_number).board(board)
    if pairing.result is not None:
        raise LeagueRuleError(
            f"Round {round_number} board {board} ({league.name_of(pairing.players[0])} vs "
            f"{league.name_of(pairing.players[1])}) already has a result ({pairing.result.value}); "
            f"a moderator may change it: /league result name:{league.name} round:{round_number} "
            f"board:{board} result:…")
    return _with_pairing(league, round_number, replace(pairing, result=result, how=how))


def result_for(pairing: Pairing, winner: int | None, *, forfeit: bool = False) -> Result:
    """The result when ``winner`` (a player of the pairing, or None for a draw — or,
    with ``forfeit``, a double forfeit) won, over the board or by forfeit."""
    if winner is None:
        return Result.DOUBLE_FORFEIT if forfeit else Result.DRAW
    first = pairing.index(winner) == 0
    if forfeit:
        return Result.FIRST_WINS_BY_FORFEIT if first else Result.SECOND_WINS_BY_FORFEIT
    return Result.FIRST_WINS if first else Result.SECOND_WINS


def result_for_side(pairing: Pairing, winning_side: str | None, *, forfeit: bool = False) -> Result:
    """The result from a finished game's outcome (``Outcome.winner`` is a team/side, or
    None for a draw)."""
    if winning_side is None:
        return result_for(pairing, None, forfeit=forfeit)
    if winning_side not in pairing.sides:
        raise ValueError(f"{winning_side!r} is not a side of this pairing {pairing.sides}")
    return result_for(pairing, pairing.players[pairing.sides.index(winning_side)], forfeit=forfeit)


def record_game(league: League, round_number: int, board: int, winner: int | None, *,
                forfeit: bool = False, how: str = "game") -> League:
    """:func:`record_result` from the winner's id (None: a draw)."""
    pairing = league.round(round_number).board(board)
    return record_result(league, round_number, board, result_for(pairing, winner, forfeit=forfeit), how=how)


def set_result(league: League, round_number: int, board: int, result: Result | None, *,
               by: int, server_moderator: bool = False) -> League:
    """A moderator sets (or, with None, clears) any game's result in any round."""
    _require_moderator(league, by, "set results", server_moderator)
    _running(league)
    pairing = league.round(round_number).board(board)
    return _with_pairing(league, round_number,
                         replace(pairing, result=result, how="moderator" if result is not None else ""))


def set_bye(league: League, round_number: int, *, half: bool, by: int, server_moderator: bool = False) -> League:
    """A moderator makes a round's bye a half-point bye (``half=True``) or a full one."""
    _require_moderator(league, by, "change byes", server_moderator)
    _running(league)
    rnd = league.round(round_number)
    if rnd.bye is None:
        raise LeagueRuleError(f"Round {round_number} of {league.name} has no bye.",
                              legal=tuple(str(r.number) for r in league.paired if r.bye is not None))
    changed = replace(rnd, bye=replace(rnd.bye, half=half))
    return replace(league, paired=tuple(changed if r.number == round_number else r for r in league.paired))


def drop_player(league: League, player: int, *, by: int, server_moderator: bool = False) -> League:
    """Withdraw a player (themselves, or anyone by a moderator).  Before the start it
    removes them; after it their open games become forfeits won by their opponents
    (double forfeits against a dropped opponent), a round-robin's later games with them
    are forfeits as those rounds are paired, and Swiss rounds no longer pair them."""
    if by != player:
        _require_moderator(league, by, "drop another player", server_moderator)
    target = league.player(player)
    if league.status is Status.SIGNUP:
        return replace(league, players=tuple(p for p in league.players if p.id != player))
    if target.dropped:
        raise LeagueRuleError(f"{target.name} has already dropped out of {league.name}.")
    players = tuple(replace(p, dropped=True) if p.id == player else p for p in league.players)
    dropped = {p.id for p in players if p.dropped}
    rounds: list[Round] = []
    for r in league.paired:
        pairings = tuple(
            replace(p, result=_drop_result(p.players[0] in dropped, p.players[1] in dropped), how="drop")
            if p.result is None and p.has(player) else p
            for p in r.pairings)
        rounds.append(replace(r, pairings=pairings))
    return replace(league, players=players, paired=tuple(rounds))


# -- looking up ------------------------------------------------------------------

def open_pairing_of(league: League, player: int) -> tuple[Round, Pairing] | None:
    """The player's earliest game that has no result yet."""
    for r in league.paired:
        p = r.pairing_of(player)
        if p is not None and p.result is None:
            return r, p
    return None


def pairing_between(league: League, a: int, b: int) -> tuple[Round, Pairing]:
    """The latest pairing of ``a`` against ``b`` that has no result yet (for reports)."""
    found: tuple[Round, Pairing] | None = None
    for r in league.paired:
        for p in r.pairings:
            if p.has(a) and p.has(b) and a != b and p.result is None:
                found = (r, p)
    if found is None:
        opponents = []
        for r in league.paired:
            mine = r.pairing_of(a)
            if mine is not None and mine.result is None:
                opponents.append(league.name_of(mine.opponent(a)))
        raise LeagueRuleError("You have no game without a result against that player in "
                              f"{league.name}.", legal=opponents)
    return found

