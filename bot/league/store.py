"""Where leagues live: versioned documents in the repository (``repo.document``,
``repo.documents``, ``repo.put_document``), one document per thing, keyed per server.

| kind | key | data |
|---|---|---|
| ``league`` | ``GUILD:name`` (name lower-cased) | ``{"league": codec.league_to_dict(…), "channel": id}`` |
| ``league-match`` | ``GUILD:name:ROUND:BOARD`` | ``{"thread": id, "game": id}`` |
| ``league-game`` | ``GAME_ID`` | ``{"guild", "league", "round", "board"}`` |
| ``league-report`` | ``GUILD:name:ROUND:BOARD`` | ``codec.report_to_dict(…)`` + ``"state"`` |
| ``league-mark`` | ``GUILD:name:ROUND:WHAT`` | ``{}`` — a deadline warning sent (created once) |
| ``rating`` | ``GUILD:KIND`` | ``{USER_ID: [mu, sigma, games]}`` |

Every change is a read–modify–write on the version read; a conflict (someone else
wrote in between, e.g. two players joining at once) is retried on the fresh document,
so both changes land.  The pure operation is re-run on what was re-read, so its checks
always hold on the league as stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from bot.league.codec import league_from_dict, league_to_dict, report_from_dict, report_to_dict
from bot.league.errors import UnknownLeagueName
from bot.league.model import League
from bot.league.ratings import Rating
from bot.league.reports import Report
from bot.storage.repository import Document, Repository, VersionConflict
from engine.core.errors import IllegalOrder

LEAGUE, MATCH, GAME, REPORT, MARK, RATING = (
    "league", "league-match", "league-game", "league-report", "league-mark", "rating")
RETRIES = 20


class Busy(IllegalOrder):
    """The league kept changing under us (many writers at once)."""

    def __init__(self) -> None:
        super().__init__("The league was changing too fast to apply that; nothing was changed. Try again.")


def league_key(guild: int, name: str) -> str:
    return f"{guild}:{name.strip().lower()}"


def match_key(guild: int, name: str, round_number: int, board: int) -> str:
    return f"{league_key(guild, name)}:{round_number}:{board}"


@dataclass(frozen=True)
class Stored:
    """A league as stored: the value, its channel and the document version read."""

    league: League
    channel: int
    version: int
    guild: int


def _stored(doc: Document, guild: int) -> Stored:
    return Stored(league_from_dict(doc.data["league"]), int(doc.data["channel"]), doc.version, guild)


async def load(repo: Repository, guild: int, name: str) -> Stored:
    doc = await repo.document(LEAGUE, league_key(guild, name))
    if doc is None:
        names = [s.league.name for s in await all_leagues(repo, guild)]
        raise UnknownLeagueName(f"This server has no league named '{name[:40]}'.",
                                legal=names or ("/league create name:… game:… format:swiss",))
    return _stored(doc, guild)


async def all_leagues(repo: Repository, guild: int | None = None) -> list[Stored]:
    """Every league of a server (or of every server)."""
    prefix = f"{guild}:" if guild is not None else ""
    return [_stored(d, int(d.key.split(":", 1)[0])) for d in await repo.documents(LEAGUE, prefix)]


async def create(repo: Repository, guild: int, league: League, channel: int, now: Any) -> Stored:
    try:
        doc = await repo.put_document(LEAGUE, league_key(guild, league.name),
                                      {"league": league_to_dict(league), "channel": channel},
                                      expected_version=0, now=now)
    except VersionConflict:
        raise IllegalOrder(f"This server already has a league named {league.name}.",
                           legal=(f"/league standings name:{league.name}", "another name")) from None
    return _stored(doc, guild)


async def update(repo: Repository, guild: int, name: str, change: Callable[[League], League],
                 now: Any) -> tuple[Stored, Stored]:
    """Apply the pure ``change`` to the stored league and save it on the version read,
    re-reading and re-applying on a conflict.  Returns (before, after)."""
    for _ in range(RETRIES):
        before = await load(repo, guild, name)
        league = change(before.league)
        try:
            doc = await repo.put_document(
                LEAGUE, league_key(guild, name), {"league": league_to_dict(league), "channel": before.channel},
                expected_version=before.version, now=now)
        except VersionConflict:
            continue
        return before, _stored(doc, guild)
    raise Busy()


# -- matches -----------------------------------------------------------------------

async def save_match(repo: Repository, guild: int, name: str, round_number: int, board: int,
                     thread: int, game: int | None, now: Any) -> None:
    key = match_key(guild, name, round_number, board)
    old = await repo.document(MATCH, key)
    await repo.put_document(MATCH, key, {"thread": thread, "game": game},
                            expected_version=old.version if old else 0, now=now)
    if game is not None:
        await repo.put_document(GAME, str(game), {"guild": guild, "league": name, "round": round_number,
                                                  "board": board}, expected_version=0, now=now)


async def match(repo: Repository, guild: int, name: str, round_number: int, board: int) -> Mapping[str, Any] | None:
    doc = await repo.document(MATCH, match_key(guild, name, round_number, board))
    return doc.data if doc else None


async def game_match(repo: Repository, game_id: int) -> Mapping[str, Any] | None:
    doc = await repo.document(GAME, str(game_id))
    return doc.data if doc else None


# -- reports -----------------------------------------------------------------------

async def add_report(repo: Repository, guild: int, report: Report, now: Any) -> None:
    key = match_key(guild, report.league, report.round, report.board)
    old = await repo.document(REPORT, key)
    if old is not None and old.data.get("state") == "pending":
        raise IllegalOrder("A report of that game is already waiting for the opponent's answer.")
    data = {**report_to_dict(report), "state": "pending"}
    try:
        await repo.put_document(REPORT, key, data, expected_version=old.version if old else 0, now=now)
    except VersionConflict:
        raise IllegalOrder("A report of that game is already waiting for the opponent's answer.") from None


async def pending_report(repo: Repository, guild: int, name: str, round_number: int,
                         board: int) -> tuple[Report, int] | None:
    doc = await repo.document(REPORT, match_key(guild, name, round_number, board))
    if doc is None or doc.data.get("state") != "pending":
        return None
    return report_from_dict(doc.data), doc.version


async def pending_reports(repo: Repository) -> list[tuple[int, Report, int]]:
    out = []
    for doc in await repo.documents(REPORT):
        if doc.data.get("state") == "pending":
            out.append((int(doc.key.split(":", 1)[0]), report_from_dict(doc.data), doc.version))
    return out


async def close_report(repo: Repository, guild: int, report: Report, version: int, state: str, now: Any) -> bool:
    """Mark a pending report answered; False if someone else answered it first."""
    key = match_key(guild, report.league, report.round, report.board)
    try:
        await repo.put_document(REPORT, key, {**report_to_dict(report), "state": state},
                                expected_version=version, now=now)
    except VersionConflict:
        return False
    return True


# -- marks (once-only notices) ------------------------------------------------------

async def claim(repo: Repository, key: str, now: Any) -> bool:
    """True the first time ``key`` is claimed, False ever after (across processes)."""
    try:
        await repo.put_document(MARK, key, {}, expected_version=0, now=now)
    except VersionConflict:
        return False
    return True


# -- ratings -----------------------------------------------------------------------

def rating_key(guild: int, kind: str) -> str:
    return f"{guild}:{kind}"


async def ratings(repo: Repository, guild: int, kind: str) -> dict[int, Rating]:
    doc = await repo.document(RATING, rating_key(guild, kind))
    return _table(doc.data) if doc else {}


def _table(data: Mapping[str, Any]) -> dict[int, Rating]:
    return {int(k): Rating(float(v[0]), float(v[1]), int(v[2])) for k, v in data.items()}


async def update_ratings(repo: Repository, guild: int, kind: str,
                         change: Callable[[dict[int, Rating]], dict[int, Rating]], now: Any) -> dict[int, Rating]:
    key = rating_key(guild, kind)
    for _ in range(RETRIES):
        doc = await repo.document(RATING, key)
        table = change(_table(doc.data) if doc else {})
        data = {str(k): [r.mu, r.sigma, r.games] for k, r in table.items()}
        try:
            await repo.put_document(RATING, key, data, expected_version=doc.version if doc else 0, now=now)
        except VersionConflict:
            continue
        return table
    raise Busy()


async def rating_kinds(repo: Repository, guild: int) -> list[str]:
    return [d.key.split(":", 1)[1] for d in await repo.documents(RATING, f"{guild}:")]
