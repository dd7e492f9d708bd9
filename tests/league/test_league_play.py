"""A whole league through the local channel: sign-ups, match threads with the game
opened in them, results from games won and conceded, a report confirmed, a dispute, a
moderator's forfeit, a drop, byes, standings, export and ratings."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from bot.league.export import show_json
from tests.league.table import Table

EIGHT = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"]


def results(league: object) -> list[tuple[int, int, str, str, str | None, str]]:
    from bot.league.model import League

    assert isinstance(league, League)
    return [(r.number, p.board, league.name_of(p.players[0]), league.name_of(p.players[1]),
             p.result.value if p.result else None, p.how)
            for r in league.paired for p in r.pairings]


async def test_swiss_league_of_eight_over_three_rounds(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        out = await t.run("!moderator mo",
                          'org: /league create name:Autumn game:race format:swiss rounds:3 deadline:7d'
                          ' settings:"target=3"')
        assert "created the league **Autumn**: race, swiss, 3 rounds" in out
        for name in EIGHT:
            await t.run(f"{name}: /league join name:Autumn")
        out = await t.run("ann: /league start name:Autumn")
        assert "Only a moderator of Autumn" in out  # a player may not start it
        out = await t.run("org: /league start name:Autumn")
        assert "**Autumn** has started: 8 players, 3 rounds." in out
        # Round 1: top half against bottom half, sides alternating down the boards.
        assert "1. ann (red) vs eve (blue): pending" in out
        assert "2. fay (red) vs ben (blue): pending" in out
        assert "3. cat (red) vs gus (blue): pending" in out
        assert "4. hal (red) vs dan (blue): pending" in out
        assert "🧵 new thread #round-1-ann-vs-eve: Round 1 · ann vs eve" in out
        # The game is opened in the thread with the league's settings and both seats.
        assert "[#round-1-ann-vs-eve] ⚔️ @ann opened a **Dice race** game.\n" in out
        assert "First to 3 wins." in out
        assert "[#round-1-ann-vs-eve] @eve joins as **Blue**. Every seat is taken: the game begins." in out
        assert "Deadline: <t:1767873600:F> (<t:1767873600:R>)." in out  # 7 days after the start
        game = await t.app.sessions.find(await t.thread("Autumn", 1, 1))
        assert game is not None and game.game.seats == {"red": t.uid("ann"), "blue": t.uid("eve")}
        assert game.game.status == "active" and game.state.target == 3

        league = await t.league("Autumn")
        r1 = league.round(1)
        # Board 1 played to the end (ann wins), board 2 conceded by ben.
        out = await t.play_race(league, 1, r1.board(1), winner=0)
        assert "round 1 board 1: ann vs eve **1-0** (game)" in out
        out = await t.concede(league, 1, r1.board(2), loser=1)
        assert "round 1 board 2: fay vs ben **1-0** (concession)" in out
        # Board 3 reported (played elsewhere) and confirmed with the opponent's button.
        out = await t.run("gus: /league report name:Autumn opponent:@cat result:win")
        assert "reports a **win** against @cat" in out and "[1: Confirm]  [2: Dispute]" in out
        out = await t.run("hal: !press Confirm")
        assert "Only @cat may confirm or dispute this report." in out
        out = await t.run("cat: !press Confirm")
        assert "round 1 board 3: cat vs gus **0-1** (report)" in out
        # Board 4 reported, disputed; a moderator decides it is a draw.
        await t.run("hal: /league report name:Autumn opponent:@dan result:win")
        out = await t.run("dan: !press Dispute")
        assert "disputes the reported result" in out and "@org" in out
        out = await t.run("dan: /league next name:Autumn")
        assert "still waiting for 1 result: board 4 hal vs dan" in out
        out = await t.run("ann: /league result name:Autumn round:1 board:4 result:1/2-1/2")
        assert "Only a moderator of Autumn" in out
        out = await t.run("mo: /league result name:Autumn round:1 board:4 result:1/2-1/2")
        assert "**1/2-1/2**" in out and "Round 1 is complete" in out
        # The game left in board 3 and 4's threads is ended by the results from outside.
        assert "🛑 This game ends here: a league moderator set the result" in out

        out = await t.run("ann: /league next name:Autumn")
        league = await t.league("Autumn")
        r2 = league.round(2)
        pairs = {(league.name_of(p.players[0]), league.name_of(p.players[1])) for p in r2.pairings}
        met = {frozenset((a, b)) for rn, _, a, b, _, _ in results(league) if rn == 1}
        assert not any(frozenset(p) in met for p in pairs)  # no rematch
        # Round 2: a game played, a concession, a moderator's forfeit, a drop.
        await t.play_race(league, 2, r2.board(1), winner=1)
        await t.concede(league, 2, r2.board(2), loser=0)
        out = await t.run("org: /league result name:Autumn round:2 board:3 result:1F-0F")
        assert "**1F-0F**" in out
        b4 = r2.board(4)
        quitter = league.name_of(b4.players[1])
        out = await t.run(f"{quitter}: /league drop name:Autumn")
        assert "[1: Drop]" in out
        out = await t.run(f"{quitter}: !press Drop")
        assert f"@{quitter} dropped out of **Autumn**" in out and "Round 2 is complete" in out
        assert f"This game ends here: {quitter} dropped out of the league" in out

        out = await t.run("org: /league next name:Autumn")
        league = await t.league("Autumn")
        r3 = league.round(3)
        assert r3.bye is not None and len(r3.pairings) == 3  # seven players left
        assert league.name_of(r3.bye.player) in out and "Bye:" in out
        for p in r3.pairings:
            out = await t.concede(league, 3, p, loser=1)
        assert "Autumn is over. Final standings below" in out and "final-standings.png" in out
        out = await t.run("mo: /league bye name:Autumn round:3 half:true")
        assert "has a half-point bye" in out

        league = await t.league("Autumn")
        assert league.finished
        assert results(league) == EXPECTED_SWISS_RESULTS
        assert show_json(league)["standings"] == EXPECTED_SWISS_STANDINGS
        out = await t.run("org: /league standings name:Autumn")
        assert "[image]" in out and "standings.png" in out
        out = await t.run("org: /league export name:Autumn")
        csv_path = Path(out.split("[image] ")[-1].strip())
        assert csv_path.name.endswith("autumn-results.csv")
        rows = list(csv.reader(io.StringIO(csv_path.read_text())))
        assert rows[0][:3] == ["round", "board", "player_1"] and len(rows) == 1 + 4 + 4 + 3 + 1
    finally:
        await t.close()


EXPECTED_SWISS_RESULTS: list[tuple[int, int, str, str, str | None, str]] = [
    (1, 1, "ann", "eve", "1-0", "game"),
    (1, 2, "fay", "ben", "1-0", "concession"),
    (1, 3, "cat", "gus", "0-1", "report"),
    (1, 4, "hal", "dan", "1/2-1/2", "moderator"),
    (2, 1, "dan", "ann", "0-1", "game"),
    (2, 2, "gus", "fay", "0-1", "concession"),
    (2, 3, "ben", "hal", "1F-0F", "moderator"),
    (2, 4, "eve", "cat", "1F-0F", "drop"),
    (3, 1, "ann", "fay", "1-0", "concession"),
    (3, 2, "ben", "dan", "1-0", "concession"),
    (3, 3, "eve", "gus", "1-0", "concession"),
]
# Checked by hand (docs/league.md's rules): ann's Buchholz = eve 1.5 (2, her forfeit win counted as a
# draw) + dan 0.5 + fay 2 = 4; median drops 2 and 0.5; cumulative 1+2+3; opponents' cumulative
# eve 0+1+2 + dan 0.5×3 + fay 1+2+2 = 9.5.  fay, eve and ben tie on 2: fay beat ben (head-to-head 1).
EXPECTED_SWISS_STANDINGS: list[dict[str, object]] = [
    {"player": "ann", "points": 3.0, "tiebreaks": {"buchholz": 4.0, "cumulative": 6.0, "head_to_head": 0.0,
        "median_buchholz": 1.5, "opponents_cumulative": 9.5, "wins": 3}},
    {"player": "fay", "points": 2.0, "tiebreaks": {"buchholz": 5.5, "cumulative": 5.0, "head_to_head": 1.0,
        "median_buchholz": 1.5, "opponents_cumulative": 12.0, "wins": 2}},
    {"player": "eve", "points": 2.0, "tiebreaks": {"buchholz": 4.5, "cumulative": 3.0, "head_to_head": 0.0,
        "median_buchholz": 1.0, "opponents_cumulative": 9.0, "wins": 2}},
    {"player": "ben", "points": 2.0, "tiebreaks": {"buchholz": 3.0, "cumulative": 3.0, "head_to_head": 0.0,
        "median_buchholz": 0.5, "opponents_cumulative": 6.5, "wins": 2}},
    {"player": "gus", "points": 1.0, "tiebreaks": {"buchholz": 4.5, "cumulative": 3.0, "head_to_head": 0.0,
        "median_buchholz": 1.5, "opponents_cumulative": 8.0, "wins": 1}},
    {"player": "hal", "points": 1.0, "tiebreaks": {"buchholz": 3.5, "cumulative": 2.0, "head_to_head": 0.0,
        "median_buchholz": 1.0, "opponents_cumulative": 1.5, "wins": 0}},
    {"player": "dan", "points": 0.5, "tiebreaks": {"buchholz": 6.0, "cumulative": 1.5, "head_to_head": 0.0,
        "median_buchholz": 1.5, "opponents_cumulative": 11.0, "wins": 0}},
    {"player": "cat", "points": 0.0, "tiebreaks": {"buchholz": 3.5, "cumulative": 0.0, "head_to_head": 0.0,
        "median_buchholz": 1.0, "opponents_cumulative": 3.0, "wins": 0}},
]
