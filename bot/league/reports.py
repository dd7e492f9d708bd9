"""Results of league games played elsewhere: reported by one player
(``/league report name: opponent: result:win|loss|draw``), then confirmed by the
opponent's "Confirm" button, confirmed automatically 48 hours later, or disputed (the
moderators decide with ``/league result``).

A :class:`Report` is a plain value the platform stores until it is answered; the
league changes only when it is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.league.errors import LeagueNotationError, LeagueRuleError
from bot.league.model import League, Result
from bot.league.ops import pairing_between, record_result, result_for

AUTO_CONFIRM_AFTER = timedelta(hours=48)
REPORT_WORDS = ("win", "loss", "draw")
CONFIRM_LABEL = "Confirm"


@dataclass(frozen=True)
class Report:
    league: str
    round: int
    board: int
    reporter: int
    opponent: int
    result: Result  # as the pairing reads (players[0]–players[1])
    at: datetime

    @property
    def confirm_by(self) -> datetime:
        """When it is confirmed without an answer."""
        return self.at + AUTO_CONFIRM_AFTER

    def due(self, now: datetime) -> bool:
        return now >= self.confirm_by


def report_result(league: League, reporter: int, opponent: int, word: str, now: datetime) -> Report:
    """Check a report (``word``: the reporter's result, win, loss or draw) and return it,
    to be stored and shown to the opponent with a "Confirm" button."""
    if now.tzinfo is None:
        raise ValueError("league times must be timezone-aware")
    w = word.strip().lower()
    if w not in REPORT_WORDS:
        raise LeagueNotationError(f"'{word}' is not a result to report.", legal=REPORT_WORDS)
    if not league.has_player(reporter):
        raise LeagueRuleError(f"You are not playing in {league.name}.")
    rnd, pairing = pairing_between(league, reporter, opponent)
    winner = None if w == "draw" else (reporter if w == "win" else opponent)
    return Report(league.name, rnd.number, pairing.board, reporter, opponent, result_for(pairing, winner), now)


def check_answer(report: Report, by: int) -> None:
    """Only the opponent may confirm or dispute a report."""
    if by != report.opponent:
        raise LeagueRuleError(f"Only <@{report.opponent}> may confirm or dispute this report.")


def confirm_report(league: League, report: Report, *, by: int) -> League:
    """The opponent confirms: the result is recorded (how = "report")."""
    check_answer(report, by)
    return record_result(league, report.round, report.board, report.result, how="report")
