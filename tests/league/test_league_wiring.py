"""League wiring through the local channel: a round robin with byes, simultaneous
sign-ups, deadlines (warnings once, the moderators' or the forfeit policy), reports
confirmed automatically, ratings, a Minis game opened in a thread, settings checked by
the game's own command, and the command line."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.league import store
from bot.storage.repository import VersionConflict
from bot.league.export import show_json
from bot.league.ratings import Rating, rate_game
from tests.league.table import GUILD, Table
from tests.storage.suite_backend import db_address

FIVE = ["ann", "ben", "cat", "dan", "eve"]
ROOT = Path(__file__).resolve().parents[2]


async def _signed_up(t: Table, names: list[str], create: str) -> str:
    out = await t.run("!moderator mo", f"org: {create}")
    for name in names:
        await t.run(f"{name}: /league join name:Spring")
    return out


async def test_round_robin_of_five_with_byes(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE, '/league create name:Spring game:race format:round-robin settings:"target=3"')
        out = await t.run("mo: /league start name:Spring")
        assert "5 players, 5 rounds" in out
        byes = []
        for number in range(1, 6):
            league = await t.league("Spring")
            rnd = league.round(number)
            assert len(rnd.pairings) == 2 and rnd.bye is not None
            byes.append(league.name_of(rnd.bye.player))
            await t.concede(league, number, rnd.board(1), loser=1)
            await t.run(f"mo: /league result name:Spring round:{number} board:2 result:1/2-1/2")
            if number == 2:
                await t.run("mo: /league bye name:Spring round:2 half:true")
            if number < 5:
                out = await t.run("ann: /league next name:Spring")
                assert f"paired round {number + 1}" in out
        assert sorted(byes) == sorted(FIVE)  # one bye each
        out = await t.run("ann: /league next name:Spring")
        assert "Round 5 was the last round of Spring" in out
        league = await t.league("Spring")
        assert league.finished
        data = show_json(league)
        met = {frozenset(p["players"]) for r in data["rounds"] for p in r["pairings"]}
        assert len(met) == 10  # everyone met everyone once
        assert [(r["round"], [(p["players"], p["result"]) for p in r["pairings"]], r["bye"])
                for r in data["rounds"]] == EXPECTED_RR_ROUNDS  # Berger tables, sides alternating
        assert data["standings"] == EXPECTED_RR_STANDINGS
    finally:
        await t.close()


EXPECTED_RR_ROUNDS: list[object] = [
    (1, [(["ben", "eve"], "1-0"), (["cat", "dan"], "1/2-1/2")], "ann"),
    (2, [(["ann", "ben"], "1-0"), (["eve", "cat"], "1/2-1/2")], "dan"),
    (3, [(["cat", "ann"], "1-0"), (["dan", "eve"], "1/2-1/2")], "ben"),
    (4, [(["ann", "dan"], "1-0"), (["ben", "cat"], "1/2-1/2")], "eve"),
    (5, [(["eve", "ann"], "1-0"), (["dan", "ben"], "1/2-1/2")], "cat"),
]
# Checked by hand: ann, ben and eve tie on 3 and beat each other once (head-to-head 1
# each); ann has 2 wins; ben's Buchholz 12 beats eve's 11.5.  ann's Buchholz: the round-1
# bye's virtual opponent 0 + 0 (a loss) + 4 draws = 2, ben 2.5 (his bye counted as a
# draw), cat 3, dan 2 (a half-point bye counts as the draw it is), eve 2.5 = 12.
EXPECTED_RR_STANDINGS: list[object] = [
    {"player": "cat", "points": 3.5, "tiebreaks": {"buchholz": 12.0, "cumulative": 9.5, "head_to_head": 0.0,
        "median_buchholz": 7.5, "opponents_cumulative": 33.5, "wins": 1}},
    {"player": "ann", "points": 3.0, "tiebreaks": {"buchholz": 12.0, "cumulative": 11.0, "head_to_head": 1.0,
        "median_buchholz": 7.0, "opponents_cumulative": 32.0, "wins": 2}},
    {"player": "ben", "points": 3.0, "tiebreaks": {"buchholz": 12.0, "cumulative": 9.5, "head_to_head": 1.0,
        "median_buchholz": 7.0, "opponents_cumulative": 33.5, "wins": 1}},
    {"player": "eve", "points": 3.0, "tiebreaks": {"buchholz": 11.5, "cumulative": 6.5, "head_to_head": 1.0,
        "median_buchholz": 7.0, "opponents_cumulative": 36.5, "wins": 1}},
    {"player": "dan", "points": 2.0, "tiebreaks": {"buchholz": 13.0, "cumulative": 6.5, "head_to_head": 0.0,
        "median_buchholz": 7.5, "opponents_cumulative": 36.5, "wins": 0}},
]


async def test_two_players_joining_at_once_are_both_recorded(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await t.run('org: /league create name:Spring game:race format:swiss')
        before = await t.app.repo.document(store.LEAGUE, store.league_key(GUILD, "Spring"))
        repo = t.app.repo
        put = repo.put_document
        conflicts = []

        async def counting(*args: Any, **kwargs: Any) -> Any:  # the real write, counted
            try:
                return await put(*args, **kwargs)
            except VersionConflict:
                conflicts.append(args[1])
                raise

        repo.put_document = counting  # type: ignore[method-assign]
        await asyncio.gather(*(t.session.command(n, "/league join name:Spring") for n in FIVE))
        repo.put_document = put  # type: ignore[method-assign]
        assert conflicts  # the joins did collide, and were retried
        league = await t.league("Spring")
        assert sorted(p.name for p in league.players) == FIVE
        after = await t.app.repo.document(store.LEAGUE, store.league_key(GUILD, "Spring"))
        assert before is not None and after is not None and after.version == before.version + 5
        assert not t.app.bugs
        out = await t.run("ann: /league join name:Spring")
        assert "You are already signed up for Spring." in out
        out = await t.run("ann: /league leave name:Spring")
        assert "@ann left **Spring**" in out
        assert [p.name for p in (await t.league("Spring")).players if p.name == "ann"] == []
    finally:
        await t.close()


async def test_deadline_warnings_once_then_the_moderators_decide(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:2], '/league create name:Spring game:race format:swiss rounds:1 deadline:3d')
        await t.run("org: /league start name:Spring")
        thread = "[#round-1-ann-vs-ben]"
        out = await t.run("!wait 23h")
        assert "hours left" not in out
        out = await t.run("!wait 2h")  # 47 h before the deadline
        assert f"{thread} ⏰ @ann @ben: 48 hours left for your Spring round 1 game." in out
        out = await t.run("!wait 1h")
        assert "hours left" not in out  # sent once
        out = await t.run("!wait 24h")
        assert out.count("24 hours left") == 1
        out = await t.run("!wait 21h")
        assert "deadline" not in out.lower()
        out = await t.run("!wait 1h")
        assert ("⌛ The deadline of Spring round 1 has passed without a result for: board 1 ann vs ben."
                " @org: decide with /league result") in out
        out = await t.run("!wait 1h")
        assert "deadline" not in out.lower()  # once
        league = await t.league("Spring")
        assert league.round(1).board(1).result is None
    finally:
        await t.close()


async def test_deadline_forfeit_policy_uses_the_games_timeout(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:4], '/league create name:Spring game:race format:swiss rounds:1 deadline:1d'
                                      ' at_deadline:forfeit settings:"remind=off"')
        await t.run("org: /league start name:Spring")
        league = await t.league("Spring")
        b1, b2 = league.round(1).pairings
        # Board 1: only the first player chose a secret number; the game waits for the other.
        t.at(await t.thread("Spring", 1, 1))
        await t.run(f"{league.name_of(b1.players[0])}: /race secret number:2")
        t.at("table")
        out = await t.run("!wait 1d")
        assert "The league's deadline has passed: forfeit" in out
        league = await t.league("Spring")
        one, two = league.round(1).board(1), league.round(1).board(2)
        assert one.result is not None and two.result is not None
        assert (one.result.value, one.how) == ("1F-0F", "timeout")
        # Board 2: nobody acted, both are waited for: a double forfeit.
        assert (two.result.value, two.how) == ("0F-0F", "timeout")
        assert two.players == b2.players
    finally:
        await t.close()


async def test_report_confirmed_automatically_after_48_hours(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:2], '/league create name:Spring game:race format:swiss rounds:1')
        await t.run("org: /league start name:Spring")
        out = await t.run("ann: /league report name:Spring opponent:@cat result:win")
        assert "You have no game without a result against that player in Spring. Legal: ben." in out
        await t.run("ann: /league report name:Spring opponent:@ben result:loss")
        out = await t.run("ann: /league report name:Spring opponent:@ben result:win")
        assert "already waiting" in out
        out = await t.run("!wait 47h")
        assert "board 1" not in out
        out = await t.run("!wait 1h")
        assert "round 1 board 1: ann vs ben **0-1** (report)" in out
        out = await t.run("ben: !press Confirm")
        assert "no report of that game waiting" in out
    finally:
        await t.close()


async def test_ratings_follow_openskill(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:2], '/league create name:Spring game:race format:swiss rounds:1'
                                      ' settings:"target=3"')
        await t.run("org: /league start name:Spring")
        league = await t.league("Spring")
        await t.play_race(league, 1, league.round(1).board(1), winner=1)
        expected = rate_game({}, ((t.uid("ann"),), (t.uid("ben"),)), 1)
        out = await t.run("ann: /rating user:@ben game:race")
        assert f"race: **{expected[t.uid('ben')].text()}** (1 rated game, #1 of 2)" in out
        out = await t.run("cat: /leaderboard game:race")
        assert f"1. ben: {expected[t.uid('ben')].text()} (1)" in out
        assert f"2. ann: {expected[t.uid('ann')].text()} (1)" in out
        table = await store.ratings(t.app.repo, GUILD, "race")
        assert table == expected
        out = await t.run("cat: /rating")
        assert "cat has no rated game on this server yet." in out
    finally:
        await t.close()


async def test_a_minis_league_opens_its_battles_with_the_league_settings(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        out = await t.run("org: /league create name:Spring game:minis format:swiss rounds:1 scenario:whatever")
        assert "A setting for the league's games is not right: Option 'scenario' cannot be 'whatever'" in out
        out = await t.run('org: /league create name:Spring game:minis format:swiss settings:"colour=red"')
        assert "/minis new has no option 'colour'" in out
        await _signed_up(t, FIVE[:2], "/league create name:Spring game:minis format:swiss rounds:1"
                                      " points:150 map:3 timeout:2d policy:forfeit")
        await t.run("org: /league start name:Spring")
        loaded = await t.app.sessions.find(await t.thread("Spring", 1, 1))
        assert loaded is not None and loaded.game.kind == "minis" and loaded.game.status == "active"
        assert loaded.game.seats == {"axis": t.uid("ann"), "allies": t.uid("ben")}
        options = loaded.game.options
        assert (options["points"], options["map"], options["timeout_after"], options["timeout_policy"]) == \
            (150, 3, "2d", "forfeit")
        # Conceding the battle records the league result.
        t.at(await t.thread("Spring", 1, 1))
        out = await t.run("ben: /minis concede confirm:true")
        assert "round 1 board 1: ann vs ben **1-0** (concession)" in out
        assert "Spring is over" in out
    finally:
        await t.close()


async def test_an_aa_league_gives_each_player_a_whole_side(tmp_path: Path) -> None:
    """A&A has seven seats in two sides: a league player holds every power of theirs."""
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:2], "/league create name:Spring game:aa format:swiss rounds:1 settings:setup=1942")
        await t.run("org: /league start name:Spring")
        loaded = await t.app.sessions.find(await t.thread("Spring", 1, 1))
        assert loaded is not None and loaded.game.kind == "aa" and loaded.game.status == "active"
        ann, ben = t.uid("ann"), t.uid("ben")
        assert loaded.game.seats == {"Germany": ann, "Japan": ann, "Italy": ann, "Soviet Union": ben,
                                     "United Kingdom": ben, "United States": ben, "China": ben}
        t.at(await t.thread("Spring", 1, 1))
        out = await t.run("ann: /aa concede confirm:true")
        assert "round 1 board 1: ann vs ben **0-1** (concession)" in out
    finally:
        await t.close()


async def test_command_line_export_and_show(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:3], '/league create name:Spring game:race format:swiss rounds:1')
        await t.run("org: /league start name:Spring")
        await t.run("mo: /league result name:Spring round:1 board:1 result:0-1")
    finally:
        await t.close()
    db = db_address(str(tmp_path / "league.db"))
    shown = subprocess.run([sys.executable, "-m", "bot.cli", "league", "show", "spring", "--db", db, "--json"],
                           capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(shown.stdout)
    assert data["rounds"] == [{"round": 1, "pairings": [{"players": ["ann", "ben"], "sides": ["red", "blue"],
                                                         "result": "0-1"}], "bye": "cat"}]
    assert [(s["player"], s["points"]) for s in data["standings"]] == [("ben", 1.0), ("cat", 1.0), ("ann", 0.0)]  # wins: a bye is none
    exported = subprocess.run([sys.executable, "-m", "bot.cli", "league", "export", "Spring", "--db", db],
                              capture_output=True, text=True, cwd=ROOT, check=True)
    assert exported.stdout.splitlines()[0].startswith("round,board,player_1,side_1,player_2,side_2,result")
    missing = subprocess.run([sys.executable, "-m", "bot.cli", "league", "show", "Nope", "--db", db],
                             capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "no league named 'Nope'" in missing.stderr


async def test_named_moderators_seeding_by_rating_and_missing_threads(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await t.run('org: /league create name:Spring game:race format:swiss rounds:1 moderators:"@ref"')
        for name in FIVE[:4]:
            await t.run(f"{name}: /league join name:Spring")
        # dan is the best rated, then cat: they become seeds 1 and 2.
        await store.update_ratings(t.app.repo, GUILD, "race", lambda _: {
            t.uid("dan"): Rating(40.0, 2.0, 9), t.uid("cat"): Rating(30.0, 3.0, 5)}, t.app.clock.now())
        fails = {"left": 1}
        create = t.session.channel.create_thread

        async def flaky(channel_id: int, name: str) -> int:
            if fails["left"]:
                fails["left"] -= 1
                raise RuntimeError("Missing Permissions")
            return await create(channel_id, name)

        t.session.channel.create_thread = flaky  # type: ignore[method-assign]
        out = await t.run("ref: /league start name:Spring seeding:rating")
        assert [p.name for p in (await t.league("Spring")).players] == ["dan", "cat", "ann", "ben"]
        assert "1. dan (red) vs ann (blue)" in out and "2. ben (red) vs cat (blue)" in out
        assert "Could not create the thread of round 1 board 1" in out
        assert await store.match(t.app.repo, GUILD, "Spring", 1, 1) is None
        out = await t.run("ann: /league threads name:Spring")
        assert "Only a moderator of Spring may open match threads." in out
        out = await t.run("ref: /league threads name:Spring")
        assert "Opening 1 missing match thread for round 1" in out
        assert "new thread #round-1-dan-vs-ann" in out
        assert await store.match(t.app.repo, GUILD, "Spring", 1, 1) is not None
        out = await t.run("ref: !complete /league pairings name:spr")
        assert "choices for name: Spring" in out
    finally:
        await t.close()


async def test_casual_games_are_rated_when_both_players_opted_in(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await t.run("ann: /rating casual:on", "ben: /rating casual:on")
        for channel, (red, blue) in (("one", ("ann", "ben")), ("two", ("ann", "cat"))):
            t.at(channel)
            await t.run(f"{red}: /race new target:3 side:red", f"{blue}: /race join side:blue",
                        f"{red}: /race secret number:3", f"{blue}: /race secret number:3")
            loaded = await t.app.sessions.find(t.session.channel.current_channel)
            assert loaded is not None
            if loaded.state.turn == 1:
                await t.run(f"{blue}: /race pass")
            await t.run(f"{red}: /race boost")
        table = await store.ratings(t.app.repo, GUILD, "race")
        assert table == rate_game({}, ((t.uid("ann"),), (t.uid("ben"),)), 0)  # cat did not opt in
    finally:
        await t.close()


async def test_a_casual_aa_game_of_two_players_one_side_each_is_rated(tmp_path: Path) -> None:
    """Each player holds a whole A&A side (several powers): still one player per side,
    so the finished game is rated like a duel (it was skipped for having 7 seats)."""
    t = await Table.open(tmp_path)
    try:
        await t.run("ann: /rating casual:on", "ben: /rating casual:on",
                    'ann: /aa new setup:1941 side:"Germany, Italy, Japan"',
                    'ben: /aa join side:"Soviet Union, United Kingdom, United States"',
                    "ben: /aa concede confirm:true")
        table = await store.ratings(t.app.repo, GUILD, "aa")
        assert table == rate_game({}, ((t.uid("ann"),), (t.uid("ben"),)), 0)  # the Axis (ann) won
    finally:
        await t.close()


async def test_deadline_policy_game_lets_the_games_go_on(tmp_path: Path) -> None:
    t = await Table.open(tmp_path)
    try:
        await _signed_up(t, FIVE[:2], '/league create name:Spring game:race format:swiss rounds:1 deadline:1d'
                                      ' at_deadline:game settings:"remind=off"')
        await t.run("org: /league start name:Spring")
        out = await t.run("!wait 1d")
        assert ("⌛ The deadline of Spring round 1 has passed. Still playing: board 1 ann vs ben; their games go"
                " on under their own time limits") in out
        assert "@org" not in out
        loaded = await t.app.sessions.find(await t.thread("Spring", 1, 1))
        assert loaded is not None and loaded.game.status == "active"
    finally:
        await t.close()
