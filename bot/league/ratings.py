"""Ratings per server and game kind, with OpenSkill (the ``openskill`` package, the
Weng–Lin Bayesian rating of teams; its Plackett–Luce model).

A rating is a skill estimate ``mu`` with its uncertainty ``sigma``, shown as
``mu ± sigma`` (e.g. ``28.7 ± 8.1``); leaderboards sort by the conservative estimate
``mu − 3·sigma`` (OpenSkill's "ordinal"), so a newcomer with a lucky first game does
not top the board.  Teams are lists of player ids, so an A&A game with two players per
side is rated the same way as a duel.

The platform keeps one table per (server, game kind): ``player id → Rating``.  A game
is rated when both players opted in (casual games) or it is a league game that was
played (forfeits and byes are not rated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.league.model import Pairing, Result

SHOWN_DIGITS = 1


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu − 3·sigma`` (leaderboard order)."""
        return self.mu - 3 * self.sigma

    def text(self, digits: int = SHOWN_DIGITS) -> str:
        return f"{self.mu:.{digits}f} ± {self.sigma:.{digits}f}"


@dataclass(frozen=True)
class RatingModel:
    """OpenSkill's parameters; the defaults are the library's own (mu 25, sigma 25/3,
    beta 25/6, tau 25/300: the small additive uncertainty that keeps ratings moving)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0

    def initial(self) -> Rating:
        return Rating(self.mu, self.sigma, 0)

    def _openskill(self) -> PlackettLuce:
        return PlackettLuce(mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau)


DEFAULT_MODEL = RatingModel()


def rate_ranks(
    table: Mapping[int, Rating],
    teams: Sequence[Sequence[int]],
    ranks: Sequence[int],
    model: RatingModel = DEFAULT_MODEL,
) -> dict[int, Rating]:
    """A new table after one game of ``teams`` finishing in ``ranks`` (lower is better;
    equal ranks are a draw).  Players not yet in the table start at the model's
    initial rating; everyone else in the table is unchanged."""
    if len(teams) < 2 or any(len(t) == 0 for t in teams):
        raise ValueError("a rated game needs at least two teams, none empty")
    ids = [pid for team in teams for pid in team]
    if len(set(ids)) != len(ids):
        raise ValueError("a player cannot be on two teams (or twice on one)")
    if len(ranks) != len(teams):
        raise ValueError("one rank per team")
    os_model = model._openskill()
    start = {pid: table.get(pid, model.initial()) for pid in ids}
    os_teams = [[os_model.rating(mu=start[pid].mu, sigma=start[pid].sigma) for pid in team] for team in teams]
    rated: list[list[PlackettLuceRating]] = os_model.rate(os_teams, ranks=[float(r) for r in ranks])
    out = dict(table)
    for team, new_team in zip(teams, rated):
        for pid, new in zip(team, new_team):
            out[pid] = Rating(float(new.mu), float(new.sigma), start[pid].games + 1)
    return out


def rate_game(
    table: Mapping[int, Rating],
    teams: Sequence[Sequence[int]],
    winner: int | None,
    model: RatingModel = DEFAULT_MODEL,
) -> dict[int, Rating]:
    """A new table after a finished game: ``winner`` is the index of the winning team
    in ``teams``, or None for a draw."""
    if winner is None:
        ranks = [0] * len(teams)
    else:
        if not 0 <= winner < len(teams):
            raise ValueError(f"winner must be a team index 0..{len(teams) - 1} or None")
        ranks = [0 if k == winner else 1 for k in range(len(teams))]
    return rate_ranks(table, teams, ranks, model)


def rated_game(pairing: Pairing) -> tuple[tuple[tuple[int], tuple[int]], int | None] | None:
    """(teams, winner) to rate a league pairing, or None when it is not rated (no
    result yet, or a forfeit: no game was played)."""
    if pairing.result is None or not pairing.result.played:
        return None
    teams = ((pairing.players[0],), (pairing.players[1],))
    if pairing.result is Result.DRAW:
        return teams, None
    return teams, (0 if pairing.result is Result.FIRST_WINS else 1)


def leaderboard(table: Mapping[int, Rating], *, min_games: int = 0) -> list[tuple[int, Rating]]:
    """Players with at least ``min_games`` rated games, best first: by ``mu − 3·sigma``,
    then ``mu``, then id (so the order is always the same)."""
    rows = [(pid, r) for pid, r in table.items() if r.games >= min_games]
    rows.sort(key=lambda row: (-row[1].ordinal, -row[1].mu, row[0]))
    return rows
