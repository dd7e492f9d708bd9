"""A 5-player round-robin (so a bye every round), driven through the pure API: wins,
draws, a concession, a timeout forfeit, a drop whose remaining games become forfeits,
and a bye turned into a half-point bye.  Hand-worked numbers in the comments."""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction as F

import pytest

from bot.league.errors import LeagueRuleError
from bot.league.export import results_csv, show_json
from bot.league.model import Bye, League, Result
from bot.league.ops import drop_player, next_round, record_game, record_result, set_bye, start
from bot.league.standings import standings
from tests.league.helpers import ORGANISER, T0, boards, new_league

NAMES = ["ann", "ben", "cat", "dan", "eve"]
ANN, BEN, CAT, DAN, EVE = range(1, 6)


def week(n: int) -> datetime:
    return T0 + timedelta(days=7 * n)


def play_season() -> League:
    league = new_league(NAMES, name="Spring RR", format="round-robin")
    league = start(league, by=ORGANISER, now=T0)
    # 5 players + a phantom = 6 slots, 5 rounds.  Round t pairs slots i, j with
    # i + j ≡ t (mod 5); the slot with 2i ≡ t meets the phantom (the bye).  In i–j the
    # lower slot has the first side when i + j is odd.
    assert league.rounds == 5

    # Round 1 (t=0): ann bye; ben–eve (1+4 odd: ben first); cat–dan (2+3 odd: cat first).
    assert boards(league) == [("ben", "eve"), ("cat", "dan")]
    assert league.current is not None and league.current.bye == Bye(ANN)
    league = record_game(league, 1, 1, BEN)
    league = record_result(league, 1, 2, Result.DRAW)

    # Round 2 (t=1): ann–ben (odd: ann first); cat–eve (6 even: eve first); dan bye.
    league = next_round(league, now=week(1))
    assert boards(league) == [("ann", "ben"), ("eve", "cat")]
    league = record_game(league, 2, 1, BEN, how="concession")             # ann concedes
    league = record_game(league, 2, 2, EVE, forfeit=True, how="timeout")  # cat times out: 1F-0F

    # Round 3 (t=2): ann–cat (even: cat first); dan–eve (7 odd: dan first); ben bye.
    league = next_round(league, now=week(2))
    assert boards(league) == [("cat", "ann"), ("dan", "eve")]
    league = record_game(league, 3, 1, CAT)
    league = record_result(league, 3, 2, Result.DRAW)
    league = drop_player(league, DAN, by=ORGANISER)

    # Round 4 (t=3): ann–dan (odd: ann first) — dan dropped: 1F-0F at once; ben–cat
    # (odd: ben first); eve bye, made a half-point bye.
    league = next_round(league, now=week(3))
    assert boards(league) == [("ann", "dan"), ("ben", "cat")]
    r4 = league.round(4)
    assert (r4.board(1).result, r4.board(1).how) == (Result.FIRST_WINS_BY_FORFEIT, "drop")
    league = set_bye(league, 4, half=True, by=ORGANISER)
    league = record_result(league, 4, 2, Result.DRAW)

    # Round 5 (t=4): ann–eve (even: eve first); ben–dan (even: dan first) → 0F-1F; cat bye.
    league = next_round(league, now=week(4))
    assert boards(league) == [("eve", "ann"), ("dan", "ben")]
    assert league.round(5).board(2).result is Result.SECOND_WINS_BY_FORFEIT
    assert league.round(5).bye == Bye(CAT)
    league = record_game(league, 5, 1, ANN)
    assert league.finished
    return league


def test_everyone_meets_everyone_once_with_one_bye_each() -> None:
    league = play_season()
    met: dict[int, list[int]] = {pid: [] for pid in range(1, 6)}
    byes = []
    for r in league.paired:
        for p in r.pairings:
            met[p.players[0]].append(p.players[1])
            met[p.players[1]].append(p.players[0])
        assert r.bye is not None
        byes.append(r.bye.player)
    assert all(sorted(opps) == sorted(set(range(1, 6)) - {pid}) for pid, opps in met.items())
    assert sorted(byes) == [ANN, BEN, CAT, DAN, EVE]


def test_final_standings_and_tiebreaks() -> None:
    """Points: ann bye 1 + 0 + 0 + 1F + 1 = 3; ben 1 + 1 + bye 1 + ½ + 1F = 4½;
    cat ½ + 0F + 1 + ½ + bye 1 = 3; dan ½ + bye 1 + ½ + 0F + 0F = 2;
    eve 0 + 1F + ½ + half bye ½ + 0 = 2.

    Adjusted scores (every round not played over the board counts ½): ann ½+0+0+½+1 =
    2, ben 1+1+½+½+½ = 3½, cat ½+½+1+½+½ = 3, dan ½·5 = 2½, eve 0+½+½+½+0 = 1½.
    Virtual opponents (score before + opposite result + ½ per later round, 5 rounds):
      ann r1 bye 0+0+2 = 2, r4 forfeit win 1+0+½ = 1½;
      ben r3 bye 2+0+1 = 3, r5 forfeit win 3½+0+0 = 3½;
      cat r2 forfeit loss ½+1+1½ = 3, r5 bye 2+0+0 = 2;
      dan r2 bye ½+0+1½ = 2, r4 forfeit loss 2+1+½ = 3½, r5 forfeit loss 2+1+0 = 3;
      eve r2 forfeit win 0+0+1½ = 1½, r4 half-point bye 1½+½+½ = 2½.
    Buchholz (median: less the highest and the lowest):
      ann 2 + ben 3½ + cat 3 + 1½ + eve 1½ = 11½ (6½)
      ben eve 1½ + ann 2 + 3 + cat 3 + 3½ = 13 (8)
      cat dan 2½ + 3 + ann 2 + ben 3½ + 2 = 13 (7½)
      dan cat 3 + 2 + eve 1½ + 3½ + 3 = 13 (8)
      eve ben 3½ + 1½ + dan 2½ + 2½ + ann 2 = 12 (7)
    Cumulative: ann 1+1+1+2+3 = 8, ben 1+2+3+3½+4½ = 14, cat ½+½+1½+2+3 = 7½,
    dan ½+1½+2+2+2 = 8, eve 0+1+1½+2+2 = 6½.
    Opponents' cumulative (games played): ann ben 14 + cat 7½ + eve 6½ = 28;
    ben eve 6½ + ann 8 + cat 7½ = 22; cat dan 8 + ann 8 + ben 14 = 30;
    dan cat 7½ + eve 6½ = 14; eve ben 14 + dan 8 + ann 8 = 30.
    Ranking: ben; ann/cat tied on 3, cat beat ann (head-to-head 1–0); eve/dan tied on
    2, drew (½ each), wins 1 vs 0 → eve.
    """
    league = play_season()
    table = standings(league)
    got = [(s.place, s.player.name, s.points, s.tiebreaks.head_to_head, s.tiebreaks.wins,
            s.tiebreaks.buchholz, s.tiebreaks.median_buchholz, s.tiebreaks.cumulative,
            s.tiebreaks.opponents_cumulative) for s in table]
    assert got == [
        (1, "ben", F(9, 2), F(0), 3, F(13), F(8), F(14), F(22)),
        (2, "cat", F(3), F(1), 1, F(13), F(15, 2), F(15, 2), F(30)),
        (3, "ann", F(3), F(0), 2, F(23, 2), F(13, 2), F(8), F(28)),
        (4, "eve", F(2), F(1, 2), 1, F(12), F(7), F(13, 2), F(30)),
        (5, "dan", F(2), F(1, 2), 0, F(13), F(8), F(8), F(14)),
    ]
    assert table[4].player.dropped


def test_json_and_csv() -> None:
    league = play_season()
    data = show_json(league)
    assert data["rounds"][3] == {"round": 4, "pairings": [
        {"players": ["ann", "dan"], "sides": ["axis", "allies"], "result": "1F-0F"},
        {"players": ["ben", "cat"], "sides": ["axis", "allies"], "result": "1/2-1/2"},
    ], "bye": "eve"}
    assert data["standings"][3] == {"player": "eve", "points": 2.0, "tiebreaks": {
        "buchholz": 12.0, "median_buchholz": 7.0, "wins": 1, "cumulative": 6.5,
        "opponents_cumulative": 30.0, "head_to_head": 0.5}}
    assert results_csv(league).splitlines() == [
        "round,board,player_1,side_1,player_2,side_2,result,how,points_1,points_2",
        "1,1,ben,axis,eve,allies,1-0,game,1,0",
        "1,2,cat,axis,dan,allies,1/2-1/2,game,0.5,0.5",
        "1,,ann,,,,bye,,1,",
        "2,1,ann,axis,ben,allies,0-1,concession,0,1",
        "2,2,eve,axis,cat,allies,1F-0F,timeout,1,0",
        "2,,dan,,,,bye,,1,",
        "3,1,cat,axis,ann,allies,1-0,game,1,0",
        "3,2,dan,axis,eve,allies,1/2-1/2,game,0.5,0.5",
        "3,,ben,,,,bye,,1,",
        "4,1,ann,axis,dan,allies,1F-0F,drop,1,0",
        "4,2,ben,axis,cat,allies,1/2-1/2,game,0.5,0.5",
        "4,,eve,,,,half-point bye,,0.5,",
        "5,1,eve,axis,ann,allies,0-1,game,0,1",
        "5,2,dan,axis,ben,allies,0F-1F,drop,0,1",
        "5,,cat,,,,bye,,1,",
    ]


def test_next_round_waits_for_every_result() -> None:
    league = new_league(NAMES, format="round-robin")
    league = start(league, by=ORGANISER, now=T0)
    league = record_game(league, 1, 1, BEN)
    with pytest.raises(LeagueRuleError, match=r"waiting for 1 result: board 2 cat vs dan.*force:true"):
        next_round(league, now=week(1))
