"""JSON for storage: a league (and a pending report) to a dict of JSON values and back.

Exact: points are fractions written as text ("1/2"), times as ISO 8601 with their
offset, the deadline in seconds.  ``version`` lets a later format migrate old rows.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, Mapping

from bot.league.model import (
    SCORING_KEYS,
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
)
from bot.league.reports import Report

VERSION = 1


def league_to_dict(league: League) -> dict[str, Any]:
    return {
        "version": VERSION,
        "name": league.name,
        "kind": league.kind,
        "format": league.format.value,
        "sides": list(league.sides),
        "organiser": league.organiser,
        "rounds": league.rounds,
        "double": league.double,
        "deadline_seconds": league.deadline.total_seconds(),
        "scoring": {k: str(v) for k, v in league.scoring.items()},
        "tiebreaks": [t.value for t in league.tiebreaks],
        "settings": dict(league.settings),
        "moderators": list(league.moderators),
        "status": league.status.value,
        "players": [{"id": p.id, "name": p.name, "dropped": p.dropped} for p in league.players],
        "paired": [_round_to_dict(r) for r in league.paired],
    }


def _round_to_dict(r: Round) -> dict[str, Any]:
    return {
        "number": r.number,
        "started": r.started.isoformat(),
        "deadline": r.deadline.isoformat(),
        "bye": None if r.bye is None else {"player": r.bye.player, "half": r.bye.half},
        "pairings": [
            {"board": p.board, "players": list(p.players), "sides": list(p.sides),
             "result": None if p.result is None else p.result.value, "how": p.how}
            for p in r.pairings
        ],
    }


def league_from_dict(data: Mapping[str, Any]) -> League:
    if data.get("version") != VERSION:
        raise ValueError(f"unknown league format version {data.get('version')!r}")
    scoring = Scoring(**{k: Fraction(v) for k, v in data["scoring"].items() if k in SCORING_KEYS})
    return League(
        name=data["name"],
        kind=data["kind"],
        format=Format(data["format"]),
        sides=(data["sides"][0], data["sides"][1]),
        organiser=int(data["organiser"]),
        rounds=data["rounds"],
        double=bool(data["double"]),
        deadline=timedelta(seconds=data["deadline_seconds"]),
        scoring=scoring,
        tiebreaks=tuple(Tiebreak(t) for t in data["tiebreaks"]),
        settings=dict(data["settings"]),
        moderators=tuple(int(m) for m in data["moderators"]),
        status=Status(data["status"]),
        players=tuple(Player(int(p["id"]), p["name"], bool(p["dropped"])) for p in data["players"]),
        paired=tuple(_round_from_dict(r) for r in data["paired"]),
    )


def _round_from_dict(d: Mapping[str, Any]) -> Round:
    bye = None if d["bye"] is None else Bye(int(d["bye"]["player"]), bool(d["bye"]["half"]))
    pairings = tuple(
        Pairing(int(p["board"]), (int(p["players"][0]), int(p["players"][1])), (p["sides"][0], p["sides"][1]),
                None if p["result"] is None else Result(p["result"]), p["how"])
        for p in d["pairings"])
    return Round(int(d["number"]), pairings, bye, datetime.fromisoformat(d["started"]),
                 datetime.fromisoformat(d["deadline"]))


def report_to_dict(report: Report) -> dict[str, Any]:
    return {"league": report.league, "round": report.round, "board": report.board,
            "reporter": report.reporter, "opponent": report.opponent, "result": report.result.value,
            "at": report.at.isoformat()}


def report_from_dict(d: Mapping[str, Any]) -> Report:
    return Report(d["league"], int(d["round"]), int(d["board"]), int(d["reporter"]), int(d["opponent"]),
                  Result(d["result"]), datetime.fromisoformat(d["at"]))
