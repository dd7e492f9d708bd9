"""The league operations: who may do what, what each refuses (with a message saying
what would be legal), and that a refusal changes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction

import pytest

from bot.league.errors import LeagueNotationError, LeagueRuleError, NotLeagueModerator, UnknownLeagueName
from bot.league.model import (
    Bye,
    Format,
    Result,
    Scoring,
    Status,
    Tiebreak,
    frac_text,
    parse_result,
    parse_scoring,
    parse_tiebreaks,
)
from bot.league.ops import (
    add_moderator,
    create_league,
    drop_player,
    is_moderator,
    leave,
    next_round,
    open_pairing_of,
    pairing_between,
    record_game,
    record_result,
    result_for_side,
    set_result,
    sign_up,
    start,
)
from bot.league.standings import points
from engine.core.errors import PlayerError
from tests.league.helpers import ORGANISER, SIDES, T0, boards, new_league

FOUR = ["ann", "ben", "cat", "dan"]


def test_create_validates_and_keeps_settings() -> None:
    league = create_league("Winter Cup", "minis", organiser=ORGANISER, sides=SIDES, format="swiss", rounds=4,
                           deadline=timedelta(days=3), scoring="win=3,draw=1,bye=1/2",
                           tiebreaks="buchholz, wins", settings={"scenario": "standard", "points": 200},
                           moderators=[7, 5, 7])
    assert (league.name, league.kind, league.format, league.rounds, league.deadline) == (
        "Winter Cup", "minis", Format.SWISS, 4, timedelta(days=3))
    assert league.scoring == Scoring(win=Fraction(3), draw=Fraction(1), bye=Fraction(1, 2))
    assert league.tiebreaks == (Tiebreak.BUCHHOLZ, Tiebreak.WINS)
    assert dict(league.settings) == {"scenario": "standard", "points": 200}
    assert league.moderators == (5, 7) and league.status is Status.SIGNUP
    with pytest.raises(TypeError):
        league.settings["points"] = 300  # type: ignore[index]


@pytest.mark.parametrize("kwargs, match", [
    ({"name": "  "}, "cannot be a league name"),
    ({"name": "a" * 41}, "cannot be a league name"),
    ({"format": "knockout"}, "not a league format. Write it like: swiss, round-robin"),
    ({"format": "round-robin", "rounds": 3}, "leave rounds: out"),
    ({"format": "swiss", "double": True}, "double:true is for round-robin"),
    ({"rounds": 0}, "at least one round"),
    ({"deadline": timedelta(0)}, "positive duration"),
    ({"scoring": "win=two"}, "not a number of points"),
    ({"scoring": "wins=1"}, "not a scoring entry"),
    ({"scoring": "loss=-1"}, "cannot be negative"),
    ({"tiebreaks": "buchholz,sonneborn"}, "'sonneborn' is not a tiebreak"),
    ({"tiebreaks": "wins,wins"}, "listed twice"),
])
def test_create_refuses_bad_options(kwargs: dict[str, object], match: str) -> None:
    options: dict[str, object] = {"name": "Cup", "format": "swiss"}
    options.update(kwargs)
    name = str(options.pop("name"))
    with pytest.raises(PlayerError, match=match):
        create_league(name, "minis", organiser=ORGANISER, sides=SIDES, **options)  # type: ignore[arg-type]


def test_sign_up_and_leave() -> None:
    league = new_league(["ann"])
    league = sign_up(league, 2, "ben")
    assert [p.name for p in league.players] == ["ann", "ben"]
    with pytest.raises(LeagueRuleError, match=r"already signed up for Autumn.*/league leave name:Autumn"):
        sign_up(league, 2, "ben")
    league = leave(league, 1)
    assert [p.name for p in league.players] == ["ben"]
    with pytest.raises(LeagueRuleError, match=r"not signed up.*/league join name:Autumn"):
        leave(league, 1)


def test_only_moderators_start_and_force() -> None:
    league = add_moderator(new_league(FOUR), 77, by=ORGANISER)
    assert is_moderator(league, 77) and is_moderator(league, ORGANISER) and not is_moderator(league, 1)
    assert is_moderator(league, 1, server_moderator=True)
    with pytest.raises(NotLeagueModerator, match="Only a moderator of Autumn"):
        start(league, by=1, now=T0)
    running = start(league, by=77, now=T0)
    with pytest.raises(NotLeagueModerator):
        next_round(running, now=T0, by=1, force=True)
    forced = next_round(running, now=T0 + timedelta(days=1), by=5, force=True, server_moderator=True)
    assert len(forced.paired) == 2
    # The games left open in round 1 stay open and may still be recorded.
    assert [p.result for p in forced.round(1).pairings] == [None, None]
    later = record_game(forced, 1, 1, forced.round(1).board(1).players[0])
    assert later.round(1).board(1).result is Result.FIRST_WINS
    # Forced rounds never pair the open games' players again.
    met = {frozenset(p.players) for p in forced.round(1).pairings}
    assert not met & {frozenset(p.players) for p in forced.round(2).pairings}


def test_start_refusals_change_nothing() -> None:
    alone = new_league(["ann"])
    with pytest.raises(LeagueRuleError, match=r"at least 2 players.*1 signed up.*/league join name:Autumn"):
        start(alone, by=ORGANISER, now=T0)
    league = new_league(FOUR)
    with pytest.raises(LeagueRuleError, match=r"1 to 3 rounds.*/league start name:Autumn rounds:2"):
        start(league, by=ORGANISER, now=T0, rounds=4)
    assert league.status is Status.SIGNUP and league.paired == ()
    running = start(league, by=ORGANISER, now=T0)
    with pytest.raises(LeagueRuleError, match="already started"):
        start(running, by=ORGANISER, now=T0)
    with pytest.raises(LeagueRuleError, match=r"closed.*/league standings name:Autumn"):
        sign_up(running, 9, "zed")
    with pytest.raises(LeagueRuleError, match=r"has started: withdraw with /league drop name:Autumn"):
        leave(running, 1)
    with pytest.raises(ValueError, match="timezone-aware"):
        start(league, by=ORGANISER, now=datetime(2026, 1, 1))


def test_seeding_and_deadlines() -> None:
    league = start(new_league(FOUR, deadline=timedelta(days=3)), by=ORGANISER, now=T0, seeding=[4, 3, 2, 1])
    assert [p.name for p in league.players] == ["dan", "cat", "ben", "ann"]
    assert boards(league) == [("dan", "ben"), ("ann", "cat")]
    rnd = league.round(1)
    assert (rnd.started, rnd.deadline) == (T0, T0 + timedelta(days=3))


def test_results_from_game_outcomes() -> None:
    league = start(new_league(FOUR), by=ORGANISER, now=T0)
    p = league.round(1).board(1)  # ann (axis) vs cat (allies)
    assert (p.players, p.sides) == ((1, 3), ("axis", "allies"))
    assert result_for_side(p, "allies") is Result.SECOND_WINS
    assert result_for_side(p, "axis", forfeit=True) is Result.FIRST_WINS_BY_FORFEIT
    assert result_for_side(p, None) is Result.DRAW
    assert result_for_side(p, None, forfeit=True) is Result.DOUBLE_FORFEIT
    assert open_pairing_of(league, 3) == (league.round(1), p)
    assert pairing_between(league, 3, 1) == (league.round(1), p)
    with pytest.raises(LeagueRuleError, match="no game without a result against that player.*Legal: cat"):
        pairing_between(league, 1, 2)
    with pytest.raises(UnknownLeagueName, match="no board 5. Legal: 1, 2"):
        record_result(league, 1, 5, Result.DRAW)
    with pytest.raises(UnknownLeagueName, match="no round 2 yet. Legal: 1"):
        record_result(league, 2, 1, Result.DRAW)


def test_moderator_sets_any_result_and_clears_it() -> None:
    league = start(new_league(FOUR), by=ORGANISER, now=T0)
    league = record_result(league, 1, 1, Result.FIRST_WINS)
    with pytest.raises(NotLeagueModerator):
        set_result(league, 1, 1, Result.DOUBLE_FORFEIT, by=2)
    changed = set_result(league, 1, 1, Result.DOUBLE_FORFEIT, by=ORGANISER)
    assert (changed.round(1).board(1).result, changed.round(1).board(1).how) == (Result.DOUBLE_FORFEIT, "moderator")
    assert points(changed)[1] == 0 and points(changed)[3] == 0
    cleared = set_result(changed, 1, 1, None, by=ORGANISER)
    assert cleared.round(1).board(1).result is None and not cleared.round(1).complete


def test_drop_makes_open_games_forfeits() -> None:
    league = start(new_league(FOUR), by=ORGANISER, now=T0)
    with pytest.raises(NotLeagueModerator, match="drop another player"):
        drop_player(league, 1, by=2)
    league = drop_player(league, 1, by=1)  # ann withdraws herself
    p = league.round(1).board(1)
    assert (p.result, p.how) == (Result.SECOND_WINS_BY_FORFEIT, "drop") and league.player(1).dropped
    with pytest.raises(LeagueRuleError, match="already dropped"):
        drop_player(league, 1, by=ORGANISER)
    league = record_result(league, 1, 2, Result.DRAW)
    league = next_round(league, now=T0 + timedelta(days=7))
    assert 1 not in league.round(2).players()  # dropped players are no longer paired
    assert league.round(2).bye == Bye(4)  # 3 left: lowest-ranked without a bye (dan, ½, seed 4)
    # Before the start, dropping removes the player.
    assert [p.name for p in drop_player(new_league(FOUR), 2, by=ORGANISER).players] == ["ann", "cat", "dan"]


def test_parsers_and_numbers() -> None:
    assert parse_result(" ½-½ ") is Result.DRAW and parse_result("1f-0f") is Result.FIRST_WINS_BY_FORFEIT
    assert parse_result("0.5-0.5") is Result.DRAW
    with pytest.raises(LeagueNotationError, match="Write it like: 1-0, 0-1, 1/2-1/2, 1F-0F, 0F-1F, 0F-0F"):
        parse_result("2-0")
    s = parse_scoring("win=3, draw=1, half_bye=0.5")
    assert parse_scoring(s.text()) == s
    assert parse_tiebreaks("Median Buchholz, head-to-head") == (Tiebreak.MEDIAN_BUCHHOLZ, Tiebreak.HEAD_TO_HEAD)
    assert [frac_text(Fraction(n, d)) for n, d in [(5, 2), (4, 1), (1, 4), (1, 3)]] == ["2.5", "4", "0.25", "1/3"]
    assert Result.SECOND_WINS_BY_FORFEIT.swapped() is Result.FIRST_WINS_BY_FORFEIT


def test_custom_scoring_counts() -> None:
    league = start(new_league(FOUR, scoring="win=3,draw=1,forfeit_win=2"), by=ORGANISER, now=T0)
    league = record_result(league, 1, 1, Result.FIRST_WINS)
    league = record_result(league, 1, 2, Result.SECOND_WINS_BY_FORFEIT)  # dan–ben: ben by forfeit
    assert points(league) == {1: 3, 2: 2, 3: 0, 4: 0}
    league = replace(league, scoring=Scoring(draw=Fraction(1, 3)))
    league = set_result(league, 1, 1, Result.DRAW, by=ORGANISER)
    assert points(league)[1] == Fraction(1, 3)
