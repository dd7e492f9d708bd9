"""A whole 8-player Swiss league of 3 rounds, driven through the pure API: wins, draws,
a concession, a timeout forfeit, a result reported and confirmed, a drop, and the bye
made a half-point bye by a moderator.  Every pairing, standing and tiebreak below was
worked out by hand (the working is in the comments)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from fractions import Fraction as F

import pytest

from bot.league.errors import LeagueRuleError, NotLeagueModerator
from bot.league.export import show_json
from bot.league.model import Bye, League, Result, Status, Tiebreak
from bot.league.ops import drop_player, next_round, record_game, record_result, set_bye, start
from bot.league.reports import confirm_report, report_result
from bot.league.standings import standings
from tests.league.helpers import ORGANISER, T0, boards, new_league

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE, HEIDI = range(1, 9)


def play_season() -> League:
    league = new_league(NAMES, name="Autumn")
    league = start(league, by=ORGANISER, now=T0)
    assert league.status is Status.RUNNING and league.rounds == 3  # ⌈log2 8⌉

    # Round 1: one score group; top half meets bottom half (1–5, 2–6, 3–7, 4–8), the
    # higher seed takes the first side on odd boards.
    assert boards(league) == [("alice", "erin"), ("frank", "bob"), ("carol", "grace"), ("heidi", "dave")]
    league = record_game(league, 1, 1, ALICE)                             # alice wins
    league = record_result(league, 1, 2, Result.DRAW)                     # frank–bob drawn
    league = record_game(league, 1, 3, GRACE, how="concession")           # carol concedes
    league = record_game(league, 1, 4, DAVE, forfeit=True, how="timeout")  # heidi times out: 0F-1F
    assert league.round(1).board(4).result is Result.SECOND_WINS_BY_FORFEIT

    # Round 2.  Ranking (score, then seed): alice 1, dave 1, grace 1 | bob ½, frank ½ |
    # carol 0, erin 0, heidi 0.  Three odd groups: two floats at least (squared score
    # differences 1+1 in half points).  Side wishes (forfeits give no side): alice,
    # frank, carol want allies (strongly: one axis game); erin, bob, grace want axis;
    # dave and heidi have none.  Among the float-minimal pairings with every wish met,
    # the one closest to top-half/bottom-half order is alice–dave (group order 0),
    # grace–frank (grace, lowest of her group, floats; frank is 2nd of his: 1),
    # bob–carol (bob floats: 1, to carol, top of hers: 0), erin–heidi (0): total 2;
    # every other has 4.  Boards by the higher score, then rank.
    league = next_round(league, now=T0 + timedelta(days=7))
    assert boards(league) == [("dave", "alice"), ("grace", "frank"), ("bob", "carol"), ("erin", "heidi")]
    league = record_result(league, 2, 1, Result.DRAW)
    league = record_game(league, 2, 2, GRACE)
    league = record_game(league, 2, 3, CAROL)
    league = record_game(league, 2, 4, ERIN, how="concession")
    league = drop_player(league, HEIDI, by=ORGANISER)

    # Round 3: 7 players, so a bye: the lowest-ranked player who has had none is frank
    # (½), and the other six pair without rematch.  Ranking: grace 2 | alice 1½,
    # dave 1½ | carol 1, erin 1 | bob ½ | frank ½.  alice–dave and grace–carol are
    # rematches, so grace floats to alice or dave and one 1-pointer floats to bob:
    # (a) grace–alice, dave–carol, erin–bob or (b) grace–dave, alice–carol, erin–bob.
    # Side wishes: grace, erin, bob allies (mild), alice, carol axis (mild), dave allies
    # (strong: one axis game, his forfeit gave none).  (a) leaves one mild wish unmet
    # (erin–bob), (b) three: (a).  erin outranks bob, so erin gets her wish.
    league = next_round(league, now=T0 + timedelta(days=14))
    assert boards(league) == [("alice", "grace"), ("carol", "dave"), ("bob", "erin")]
    assert league.current is not None and league.current.bye == Bye(FRANK)
    league = set_bye(league, 3, half=True, by=ORGANISER)
    league = record_game(league, 3, 1, ALICE)
    league = record_result(league, 3, 2, Result.DRAW)
    report = report_result(league, BOB, ERIN, "win", T0 + timedelta(days=15))
    league = confirm_report(league, report, by=ERIN)
    assert league.finished
    return league


def test_pairings_results_and_final_standings() -> None:
    league = play_season()
    table = standings(league)
    # Points: alice 1+½+1 = 2½; grace 1+1+0 = 2; dave 1F+½+½ = 2; carol 0+1+½ = 1½;
    # bob ½+0+1 = 1½; erin 0+1+0 = 1; frank ½+0+½ (half-point bye) = 1; heidi 0F+0 = 0.
    # Ties: grace/dave never met (head-to-head 0 each), wins 2 vs 1 → grace.
    # carol beat bob in round 2 → head-to-head 1 vs 0 → carol.  erin/frank never met;
    # wins 1 vs 0 → erin.
    assert [(s.place, s.player.name, s.points) for s in table] == [
        (1, "alice", F(5, 2)), (2, "grace", F(2)), (3, "dave", F(2)), (4, "carol", F(3, 2)),
        (5, "bob", F(3, 2)), (6, "erin", F(1)), (7, "frank", F(1)), (8, "heidi", F(0))]


def test_tiebreaks_exactly() -> None:
    """Adjusted scores (rounds not played over the board count as draws): alice 2½,
    grace 2, dave ½+½+½ = 1½, carol 1½, bob 1½, erin 1, frank ½+0+½ = 1,
    heidi ½+0+½ (absent in round 3) = 1.

    Virtual opponents (score before + the opposite result + ½ per later round):
    dave's round-1 forfeit win: 0 + 0 + ½·2 = 1; frank's round-3 half-point bye:
    ½ + ½ + 0 = 1; heidi's round-1 forfeit loss: 0 + 1 + ½·2 = 2, her absence in round
    3: 0 + 1 + 0 = 1.

    Buchholz (median: without the highest and lowest):
      alice: erin 1 + dave 1½ + grace 2 = 4½ (median 1½)
      grace: carol 1½ + frank 1 + alice 2½ = 5 (1½)
      dave: virtual 1 + alice 2½ + carol 1½ = 5 (1½)
      carol: grace 2 + bob 1½ + dave 1½ = 5 (1½)
      bob: frank 1 + carol 1½ + erin 1 = 3½ (1)
      erin: alice 2½ + heidi 1 + bob 1½ = 5 (1½)
      frank: bob 1½ + grace 2 + virtual 1 = 4½ (1½)
      heidi: virtual 2 + erin 1 + virtual 1 = 4 (1)
    Cumulative (running scores summed): alice 1+1½+2½ = 5, grace 1+2+2 = 5,
    dave 1+1½+2 = 4½, carol 0+1+1½ = 2½, bob ½+½+1½ = 2½, erin 0+1+1 = 2,
    frank ½+½+1 = 2, heidi 0.
    Opponents' cumulative (games played over the board): alice erin 2 + dave 4½ +
    grace 5 = 11½; grace carol 2½ + frank 2 + alice 5 = 9½; dave alice 5 + carol 2½ =
    7½; carol grace 5 + bob 2½ + dave 4½ = 12; bob frank 2 + carol 2½ + erin 2 = 6½;
    erin alice 5 + heidi 0 + bob 2½ = 7½; frank bob 2½ + grace 5 = 7½; heidi erin 2.
    Wins (forfeit wins count): alice 2, grace 2, dave 1, carol 1, bob 1, erin 1.
    """
    league = play_season()
    got = {s.player.name: s.tiebreaks for s in standings(league)}
    expected = {
        #         h2h     wins  buchholz  median   cumul.   opp. cumul.
        "alice": (F(0), 2, F(9, 2), F(3, 2), F(5), F(23, 2)),
        "grace": (F(0), 2, F(5), F(3, 2), F(5), F(19, 2)),
        "dave": (F(0), 1, F(5), F(3, 2), F(9, 2), F(15, 2)),
        "carol": (F(1), 1, F(5), F(3, 2), F(5, 2), F(12)),
        "bob": (F(0), 1, F(7, 2), F(1), F(5, 2), F(13, 2)),
        "erin": (F(0), 1, F(5), F(3, 2), F(2), F(15, 2)),
        "frank": (F(0), 0, F(9, 2), F(3, 2), F(2), F(15, 2)),
        "heidi": (F(0), 0, F(4), F(1), F(0), F(2)),
    }
    for name, (h2h, wins, buch, median, cum, opp) in expected.items():
        t = got[name]
        assert (t.head_to_head, t.wins, t.buchholz, t.median_buchholz, t.cumulative,
                t.opponents_cumulative) == (h2h, wins, buch, median, cum, opp), name


def test_show_json_matches_the_issue_shape() -> None:
    league = play_season()
    data = show_json(league)
    assert list(data) == ["standings", "rounds"]
    assert data["standings"][0] == {
        "player": "alice", "points": 2.5,
        "tiebreaks": {"buchholz": 4.5, "median_buchholz": 1.5, "wins": 2, "cumulative": 5.0,
                      "opponents_cumulative": 11.5, "head_to_head": 0.0}}
    assert [s["player"] for s in data["standings"]] == [
        "alice", "grace", "dave", "carol", "bob", "erin", "frank", "heidi"]
    assert data["rounds"][0] == {"round": 1, "pairings": [
        {"players": ["alice", "erin"], "sides": ["axis", "allies"], "result": "1-0"},
        {"players": ["frank", "bob"], "sides": ["axis", "allies"], "result": "1/2-1/2"},
        {"players": ["carol", "grace"], "sides": ["axis", "allies"], "result": "0-1"},
        {"players": ["heidi", "dave"], "sides": ["axis", "allies"], "result": "0F-1F"},
    ], "bye": None}
    assert data["rounds"][2]["bye"] == "frank"
    assert [p["result"] for p in data["rounds"][2]["pairings"]] == ["1-0", "1/2-1/2", "1-0"]


def test_tiebreak_order_is_the_leagues() -> None:
    """With no tiebreaks at all, ties keep seeding order: dave (seed 4) before grace
    (seed 7), bob (seed 2) before carol (seed 3)."""
    league = play_season()
    plain = replace(league, tiebreaks=())
    assert [s.player.name for s in standings(plain)] == [
        "alice", "dave", "grace", "bob", "carol", "erin", "frank", "heidi"]
    by_buchholz = replace(league, tiebreaks=(Tiebreak.BUCHHOLZ, Tiebreak.CUMULATIVE))
    # grace/dave: Buchholz 5 = 5, cumulative 5 > 4½ → grace; bob/carol: 3½ < 5 → carol.
    assert [s.player.name for s in standings(by_buchholz)][:5] == ["alice", "grace", "dave", "carol", "bob"]


def test_no_next_round_after_the_last_and_results_are_final() -> None:
    league = play_season()
    with pytest.raises(LeagueRuleError, match="last round"):
        next_round(league, now=T0 + timedelta(days=21))
    with pytest.raises(LeagueRuleError, match="already has a result"):
        record_result(league, 3, 1, Result.SECOND_WINS)
    with pytest.raises(NotLeagueModerator):
        set_bye(league, 3, half=False, by=ALICE)
