"""Ratings against OpenSkill's published examples.

The numbers are those printed in the openskill.py README's "Usage" and "Artificial
Ranks" sections (e.g. the manual at openskill.me/en/v2.5.1/manual.html, and the
project README on GitHub, OpenDebates/openskill.py, up to version 4).  Those versions
added no per-game uncertainty (tau) before rating; later versions add tau = 25/300 by
default, so the examples are reproduced here with ``RatingModel(tau=0)``."""

from __future__ import annotations

import pytest

from bot.league.model import Pairing, Result
from bot.league.ratings import DEFAULT_MODEL, Rating, RatingModel, leaderboard, rate_game, rate_ranks, rated_game

PUBLISHED = RatingModel(tau=0.0)
EXACT = 1e-12


def close(r: Rating, mu: float, sigma: float) -> bool:
    return r.mu == pytest.approx(mu, abs=EXACT) and r.sigma == pytest.approx(sigma, abs=EXACT)


def test_two_teams_of_two_published_example() -> None:
    """a1 (new) and a2 (32.444 ± 5.123) beat b1 (43.381 ± 2.421) and b2 (25.188 ± 6.211)."""
    table = {2: Rating(32.444, 5.123), 3: Rating(43.381, 2.421), 4: Rating(25.188, 6.211)}
    out = rate_game(table, [[1, 2], [3, 4]], winner=0, model=PUBLISHED)
    assert close(out[1], 28.669648436582808, 8.071520788025197)
    assert close(out[2], 33.83086971107981, 5.062772998705765)
    assert close(out[3], 43.071274808241974, 2.4166900452721256)
    assert close(out[4], 23.149503312339064, 6.1378606973362135)
    assert [out[p].games for p in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert out[1].text() == "28.7 ± 8.1"


def test_four_players_ranked_published_example() -> None:
    """Four new players finishing 4th, 1st, 3rd, 2nd."""
    out = rate_ranks({}, [[1], [2], [3], [4]], [4, 1, 3, 2], model=PUBLISHED)
    assert close(out[1], 20.96265504062538, 8.083731307186588)
    assert close(out[2], 27.795084971874736, 8.263160757613477)
    assert close(out[3], 24.68943500312503, 8.083731307186588)
    assert close(out[4], 26.552824984374855, 8.179213704945203)


def test_tied_players_published_example() -> None:
    """Scores 37, 19, 37, 42: the two 37s tie (the README's score example)."""
    out = rate_ranks({}, [[1], [2], [3], [4]], [2, 3, 2, 1], model=PUBLISHED)
    assert close(out[1], 24.68943500312503, 8.179213704945203)
    assert close(out[2], 22.826045021875203, 8.179213704945203)
    assert close(out[3], 24.68943500312503, 8.179213704945203)
    assert close(out[4], 27.795084971874736, 8.263160757613477)


def test_default_model_is_the_librarys_and_a_draw_keeps_equals_equal() -> None:
    assert (DEFAULT_MODEL.mu, DEFAULT_MODEL.sigma, DEFAULT_MODEL.beta, DEFAULT_MODEL.tau) == (
        25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0)
    out = rate_game({}, [[1], [2]], winner=None)
    assert out[1].mu == pytest.approx(25.0, abs=EXACT) and out[2].mu == pytest.approx(25.0, abs=EXACT)
    assert out[1].sigma < 25.0 / 3.0
    won = rate_game({}, [[1], [2]], winner=1)
    assert won[2].mu > 25.0 > won[1].mu


def test_table_is_not_mutated_and_others_unchanged() -> None:
    table = {9: Rating(30.0, 2.0, 12)}
    out = rate_game(table, [[1], [2]], winner=0)
    assert table == {9: Rating(30.0, 2.0, 12)} and out[9] == table[9]
    with pytest.raises(ValueError):
        rate_game(table, [[1], [1]], winner=0)
    with pytest.raises(ValueError):
        rate_game(table, [[1], [2]], winner=2)


def test_leaderboard_orders_by_conservative_estimate() -> None:
    table = {1: Rating(30.0, 8.0, 1), 2: Rating(27.0, 2.0, 9), 3: Rating(27.0, 2.0, 4), 4: Rating(40.0, 1.0, 0)}
    assert [pid for pid, _ in leaderboard(table)] == [4, 2, 3, 1]  # 37, 21, 21 (id), 6
    assert [pid for pid, _ in leaderboard(table, min_games=1)] == [2, 3, 1]


def test_league_pairings_are_rated_only_when_played() -> None:
    p = Pairing(1, (5, 6), ("axis", "allies"))
    assert rated_game(p) is None
    assert rated_game(Pairing(1, (5, 6), ("axis", "allies"), Result.SECOND_WINS)) == (((5,), (6,)), 1)
    assert rated_game(Pairing(1, (5, 6), ("axis", "allies"), Result.DRAW)) == (((5,), (6,)), None)
    assert rated_game(Pairing(1, (5, 6), ("axis", "allies"), Result.FIRST_WINS_BY_FORFEIT)) is None
