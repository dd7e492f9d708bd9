"""Standings: points by the league's scoring, and tiebreaks in the league's order,
computed exactly (``Fraction``).

Every player has one *record* per paired round: a game (won, drawn or lost, conceded
included), a forfeit (won or lost; a double forfeit is a forfeit loss for both), a bye
(the pairing bye or a half-point bye), a pending game (no result yet), or absent (a
dropped player no longer paired in a Swiss league).

The tiebreaks, and how unplayed rounds count (the "virtual opponent" rule of FIDE's
tie-break regulations as they stood before the 2023 revision):

- **head_to_head**: points scored in games (forfeits included, byes not) against the
  other players still tied with them when this tiebreak is applied (for the JSON and
  tables when it is not in the league's list: against those with the same points).
- **wins**: games won, over the board or by forfeit (byes do not count).
- **buchholz**: the sum of one value per round (pending games give none):
  - a game played against Q: Q's *adjusted score*, in which every round of Q's that
    was not a game played over the board (byes, forfeits either way, rounds after Q
    dropped, pending games) counts as a draw;
  - a round P did not play (a bye, a forfeit won or lost, absent after dropping): a
    *virtual opponent* who had P's score before that round, took the opposite of P's
    result in it (P's forfeit win or full bye → a loss; P's forfeit loss, double
    forfeit or absence → a win; P's half-point bye → a draw) and drew every later
    round: ``S_before + opposite + draw × (rounds paired − that round)``.
- **median_buchholz**: the same values without the highest and the lowest (when there
  are at least three; otherwise equal to Buchholz).
- **cumulative**: the sum of the player's running score after each paired round.
- **opponents_cumulative**: the sum of the cumulative scores of the opponents met in
  games played over the board (unplayed rounds add nothing).

Ties left after the whole list are broken by seed (the league's seeding order), so the
order is always the same for the same league.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping, Sequence

from bot.league.model import League, Outcome, Player, Tiebreak

ZERO = Fraction(0)


class Kind(enum.Enum):
    GAME = "game"
    FORFEIT = "forfeit"
    BYE = "bye"
    HALF_BYE = "half-point bye"
    PENDING = "pending"
    ABSENT = "absent"


@dataclass(frozen=True)
class RoundRecord:
    """One player's round: what kind, against whom, with which side (+1 first side,
    -1 second, 0 none), the outcome and the points it gave."""

    round: int
    kind: Kind
    opponent: int | None = None
    side: int = 0
    outcome: Outcome | None = None
    points: Fraction = ZERO


def round_records(league: League) -> dict[int, tuple[RoundRecord, ...]]:
    """Every player's record for each paired round, in round order."""
    out: dict[int, list[RoundRecord]] = {p.id: [] for p in league.players}
    for rnd in league.paired:
        seen: set[int] = set()
        for pairing in rnd.pairings:
            for i, pid in enumerate(pairing.players):
                side = 1 if i == 0 else -1
                opp = pairing.players[1 - i]
                if pairing.result is None:
                    rec = RoundRecord(rnd.number, Kind.PENDING, opp, side)
                else:
                    outcome = pairing.result.outcome(i)
                    kind = Kind.GAME if pairing.result.played else Kind.FORFEIT
                    rec = RoundRecord(rnd.number, kind, opp, side, outcome, league.scoring.points(outcome))
                out[pid].append(rec)
                seen.add(pid)
        if rnd.bye is not None:
            kind = Kind.HALF_BYE if rnd.bye.half else Kind.BYE
            out[rnd.bye.player].append(
                RoundRecord(rnd.number, kind, points=league.scoring.bye_points(rnd.bye)))
            seen.add(rnd.bye.player)
        for pid in out:
            if pid not in seen:
                out[pid].append(RoundRecord(rnd.number, Kind.ABSENT))
    return {pid: tuple(recs) for pid, recs in out.items()}


@dataclass(frozen=True)
class Tiebreaks:
    head_to_head: Fraction
    wins: int
    buchholz: Fraction
    median_buchholz: Fraction
    cumulative: Fraction
    opponents_cumulative: Fraction

    def value(self, tb: Tiebreak) -> Fraction:
        return Fraction(getattr(self, tb.value))


@dataclass(frozen=True)
class Standing:
    place: int  # 1-based rank
    player: Player
    points: Fraction
    tiebreaks: Tiebreaks
    games: int  # rounds with a result (games, forfeits, byes)


def points(league: League) -> dict[int, Fraction]:
    """Each player's points so far."""
    return {pid: sum((r.points for r in recs), ZERO) for pid, recs in round_records(league).items()}


class _Calc:
    """The tiebreak values of one league, from the round records."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.scoring = league.scoring
        self.records = round_records(league)
        self.rounds = len(league.paired)
        self.points = {pid: sum((r.points for r in recs), ZERO) for pid, recs in self.records.items()}
        self.cumulative = {pid: self._cumulative(recs) for pid, recs in self.records.items()}
        self.adjusted = {pid: self._adjusted(recs) for pid, recs in self.records.items()}

    @staticmethod
    def _cumulative(recs: Sequence[RoundRecord]) -> Fraction:
        running, total = ZERO, ZERO
        for r in recs:
            running += r.points
            total += running
        return total

    def _adjusted(self, recs: Sequence[RoundRecord]) -> Fraction:
        return sum((r.points if r.kind is Kind.GAME else self.scoring.draw for r in recs), ZERO)

    def _opposite(self, rec: RoundRecord) -> Fraction:
        if rec.kind is Kind.HALF_BYE:
            return self.scoring.draw
        if rec.kind is Kind.BYE or rec.outcome is Outcome.FORFEIT_WIN:
            return self.scoring.loss
        return self.scoring.win  # forfeit loss, double forfeit, absent

    def contributions(self, pid: int) -> list[Fraction]:
        values: list[Fraction] = []
        before = ZERO
        for rec in self.records[pid]:
            if rec.kind is Kind.GAME:
                assert rec.opponent is not None
                values.append(self.adjusted[rec.opponent])
            elif rec.kind is not Kind.PENDING:
                values.append(before + self._opposite(rec) + self.scoring.draw * (self.rounds - rec.round))
            before += rec.points
        return values

    def buchholz(self, pid: int) -> Fraction:
        return sum(self.contributions(pid), ZERO)

    def median_buchholz(self, pid: int) -> Fraction:
        values = self.contributions(pid)
        if len(values) < 3:
            return sum(values, ZERO)
        return sum(values, ZERO) - max(values) - min(values)

    def wins(self, pid: int) -> int:
        return sum(1 for r in self.records[pid] if r.outcome in (Outcome.WIN, Outcome.FORFEIT_WIN))

    def opponents_cumulative(self, pid: int) -> Fraction:
        return sum((self.cumulative[r.opponent] for r in self.records[pid]
                    if r.kind is Kind.GAME and r.opponent is not None), ZERO)

    def head_to_head(self, pid: int, group: frozenset[int]) -> Fraction:
        return sum((r.points for r in self.records[pid]
                    if r.kind in (Kind.GAME, Kind.FORFEIT) and r.opponent in group), ZERO)


def standings(league: League) -> tuple[Standing, ...]:
    """Every player (dropped ones too) in rank order: points, then the league's
    tiebreaks in order, then seed."""
    calc = _Calc(league)
    seed = {p.id: k for k, p in enumerate(league.players)}
    ids = [p.id for p in league.players]

    # Groups of players still tied, best first.
    groups: list[list[int]] = _split(sorted(ids, key=lambda pid: seed[pid]), lambda pid: calc.points[pid])
    h2h: dict[int, Fraction] = {}
    for g in groups:
        members = frozenset(g)
        for pid in g:
            h2h[pid] = calc.head_to_head(pid, members)

    simple: Mapping[Tiebreak, Callable[[int], Fraction]] = {
        Tiebreak.WINS: lambda pid: Fraction(calc.wins(pid)),
        Tiebreak.BUCHHOLZ: calc.buchholz,
        Tiebreak.MEDIAN_BUCHHOLZ: calc.median_buchholz,
        Tiebreak.CUMULATIVE: lambda pid: calc.cumulative[pid],
        Tiebreak.OPPONENTS_CUMULATIVE: calc.opponents_cumulative,
    }
    for tb in league.tiebreaks:
        refined: list[list[int]] = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if tb is Tiebreak.HEAD_TO_HEAD:
                members = frozenset(g)
                values = {pid: calc.head_to_head(pid, members) for pid in g}
                h2h.update(values)
                refined.extend(_split(g, values.__getitem__))
            else:
                refined.extend(_split(g, simple[tb]))
        groups = refined

    out: list[Standing] = []
    for g in groups:
        for pid in g:  # still tied: seed order (each group is kept in seed order)
            tiebreaks = Tiebreaks(
                head_to_head=h2h[pid],
                wins=calc.wins(pid),
                buchholz=calc.buchholz(pid),
                median_buchholz=calc.median_buchholz(pid),
                cumulative=calc.cumulative[pid],
                opponents_cumulative=calc.opponents_cumulative(pid),
            )
            games = sum(1 for r in calc.records[pid] if r.kind not in (Kind.PENDING, Kind.ABSENT))
            out.append(Standing(len(out) + 1, league.player(pid), calc.points[pid], tiebreaks, games))
    return tuple(out)


def _split(group: list[int], key: Callable[[int], Fraction]) -> list[list[int]]:
    """Split a group (kept in seed order) into sub-groups by ``key``, highest first."""
    values = {pid: key(pid) for pid in group}
    out: list[list[int]] = []
    for value in sorted(set(values.values()), reverse=True):
        out.append([pid for pid in group if values[pid] == value])
    return out
