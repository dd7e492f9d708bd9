"""Text tables, thread titles, deadlines, reports, and the JSON codec's round trip."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.league.codec import league_from_dict, league_to_dict, report_from_dict, report_to_dict
from bot.league.errors import LeagueNotationError, LeagueRuleError
from bot.league.export import (
    deadline_text,
    deadline_warnings,
    history_text,
    overdue,
    pairings_text,
    show_json,
    standings_text,
    thread_title,
)
from bot.league.model import League, Result
from bot.league.ops import drop_player, next_round, record_result, set_bye, start
from bot.league.reports import CONFIRM_LABEL, confirm_report, report_result
from tests.league.helpers import ORGANISER, T0, new_league

FIVE = ["ann", "ben", "cat", "dan", "eve"]


def two_rounds() -> League:
    """Round 1 of five: the lowest seed (eve) has the bye; ann–cat and dan–ben (top
    half against bottom half, the higher seed on the first side on odd boards)."""
    return start(new_league(FIVE, name="Cup", deadline=timedelta(days=3)), by=ORGANISER, now=T0)


def test_round_one_of_five_and_texts() -> None:
    league = two_rounds()
    rnd = league.round(1)
    assert rnd.bye is not None and league.name_of(rnd.bye.player) == "eve"
    t = int(rnd.deadline.timestamp())
    assert pairings_text(league) == (
        f"Cup — round 1 (deadline <t:{t}:F> (<t:{t}:R>))\n"
        "1. ann (axis) vs cat (allies): pending\n"
        "2. dan (axis) vs ben (allies): pending\n"
        "Bye: eve")
    assert thread_title(league, 1, rnd.board(2)) == "Round 1 · dan vs ben"
    assert deadline_text(T0) == f"<t:{int(T0.timestamp())}:F> (<t:{int(T0.timestamp())}:R>)"
    assert deadline_warnings(rnd) == ((48, T0 + timedelta(days=1)), (24, T0 + timedelta(days=2)))
    assert overdue(league, T0 + timedelta(days=3) - timedelta(seconds=1)) == ()
    assert [p.board for _, p in overdue(league, T0 + timedelta(days=3))] == [1, 2]


def test_standings_and_history_text() -> None:
    league = two_rounds()
    league = record_result(league, 1, 1, Result.FIRST_WINS)
    league = record_result(league, 1, 2, Result.DRAW)
    league = drop_player(league, 3, by=ORGANISER)
    # Adjusted scores: ann 1, cat 0, ben ½, dan ½, eve ½ (her bye counts as a draw).
    # ann: Buchholz = cat's 0; eve: virtual opponent 0 + 0 (loss) + 0 = 0; ben and dan
    # drew each other (head-to-head ½ each) and tie on everything else: seed order.
    assert standings_text(league) == (
        "Cup — standings after round 1\n"
        "#  Player         Pts  H2H  W  Buch  Med  Cum  OppC\n"
        "1  ann              1    0  1     0    0    1     0\n"
        "2  eve              1    0  0     0    0    1     0\n"
        "3  ben            0.5  0.5  0   0.5  0.5  0.5   0.5\n"
        "4  dan            0.5  0.5  0   0.5  0.5  0.5   0.5\n"
        "5  cat (dropped)    0    0  0     1    1    0     1\n"
        "Tiebreaks in order: H2H = head-to-head, W = wins, Buch = Buchholz, Med = median Buchholz, "
        "Cum = cumulative, OppC = opponents' cumulative")
    assert history_text(league, 1) == "ann in Cup\nRound 1: win vs cat (axis) — 1 (total 1)"
    league = next_round(league, now=T0 + timedelta(days=3))
    assert history_text(league, 3) == (
        "cat in Cup\nRound 1: loss vs ann (allies) — 0 (total 0)\nRound 2: not paired (dropped) — 0 (total 0)")


def test_report_and_confirm() -> None:  # auto-confirmation: tests/league/test_league_wiring.py
    league = two_rounds()
    report = report_result(league, 2, 4, "win", T0 + timedelta(hours=5))  # ben reports beating dan
    assert (report.round, report.board, report.result) == (1, 2, Result.SECOND_WINS)
    assert report.confirm_by == T0 + timedelta(hours=53) and CONFIRM_LABEL == "Confirm"
    with pytest.raises(LeagueRuleError, match="Only <@4> may confirm"):
        confirm_report(league, report, by=2)
    done = confirm_report(league, report, by=4)
    assert (done.round(1).board(2).result, done.round(1).board(2).how) == (Result.SECOND_WINS, "report")
    with pytest.raises(LeagueRuleError, match="already has a result"):
        confirm_report(done, report, by=4)
    with pytest.raises(LeagueNotationError, match="Write it like: win, loss, draw"):
        report_result(league, 2, 4, "won", T0)
    assert report_result(league, 1, 3, "draw", T0).result is Result.DRAW
    assert report_from_dict(json.loads(json.dumps(report_to_dict(report)))) == report


@st.composite
def leagues(draw: st.DrawFn) -> League:
    n = draw(st.integers(2, 7))
    fmt = draw(st.sampled_from(["swiss", "round-robin"]))
    league = new_league([f"player {k}" for k in range(1, n + 1)], format=fmt,
                        scoring=draw(st.sampled_from(["", "win=3,draw=1", "bye=1/2,draw=1/3"])),
                        settings={"scenario": "standard", "points": draw(st.integers(100, 300))})
    if draw(st.booleans()):
        return league
    league = start(league, by=ORGANISER, now=T0)
    for k in range(draw(st.integers(0, 3))):
        rnd = league.current
        assert rnd is not None
        for p in rnd.open_pairings:
            if draw(st.booleans()):
                league = record_result(league, rnd.number, p.board, draw(st.sampled_from(list(Result))))
        if rnd.bye is not None and draw(st.booleans()):
            league = set_bye(league, rnd.number, half=True, by=ORGANISER)
        if league.rounds is not None and len(league.paired) < league.rounds and len(league.active_players) >= 2:
            league = next_round(league, now=T0 + timedelta(days=k + 1), by=ORGANISER, force=True)
    return league


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(leagues())
def test_codec_round_trips_through_json(league: League) -> None:
    text = json.dumps(league_to_dict(league))
    back = league_from_dict(json.loads(text))
    assert back == league
    assert show_json(back) == show_json(league)
    json.dumps(show_json(league))  # the show shape is JSON as it is
