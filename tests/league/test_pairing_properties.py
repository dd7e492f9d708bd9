"""Properties of the pairings, checked against brute force on small fields.

Swiss: never a rematch (nor a second bye) while a pairing without one exists — more
precisely the fewest possible; the bye goes to the lowest-ranked player who has not had
one (among those whose absence leaves a pairing without rematches); everyone is paired
once; the same input gives the same pairing.  Round-robin: everyone meets everyone
exactly once (twice in a double round-robin, sides swapped), one bye per player per
cycle for an odd count, sides balanced within one, never three times the same side in a
row."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Iterator, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.league.model import Format, Result
from bot.league.ops import drop_player, max_swiss_rounds, next_round, record_result, start, swiss_players
from bot.league.pairing import FIRST, SwissPlayer, round_robin_length, round_robin_round, swiss_round
from tests.league.helpers import ORGANISER, T0, new_league


# -- brute force ---------------------------------------------------------------------

def perfect_matchings(ids: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        for m in perfect_matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *m]


def defects(players: Sequence[SwissPlayer], pairs: Sequence[tuple[int, int]], bye: int | None) -> int:
    by_id = {p.id: p for p in players}
    n = sum(1 for a, b in pairs if b in by_id[a].opponents or a in by_id[b].opponents)
    return n + (1 if bye is not None and by_id[bye].had_bye else 0)


def fewest_defects(players: Sequence[SwissPlayer]) -> int:
    ids = [p.id for p in players]
    options = [None] if len(ids) % 2 == 0 else ids
    best = None
    for bye in options:
        rest = [i for i in ids if i != bye]
        for m in perfect_matchings(rest):
            d = defects(players, m, bye)
            best = d if best is None else min(best, d)
            if best == 0:
                return 0
    assert best is not None
    return best


def clean_rest_exists(players: Sequence[SwissPlayer], bye: int) -> bool:
    rest = [p.id for p in players if p.id != bye]
    return any(defects(players, m, None) == 0 for m in perfect_matchings(rest))


# -- Swiss -------------------------------------------------------------------------

@st.composite
def swiss_fields(draw: st.DrawFn) -> list[SwissPlayer]:
    n = draw(st.integers(2, 9))
    ids = list(range(10, 10 + n))
    met = {(a, b) for a in ids for b in ids if a < b and draw(st.booleans())} if draw(st.booleans()) else {
        (a, b) for a in ids for b in ids if a < b and draw(st.integers(0, 3)) == 0}
    players = []
    for pid in ids:
        opponents = frozenset(b if a == pid else a for a, b in met if pid in (a, b))
        players.append(SwissPlayer(
            id=pid,
            score=Fraction(draw(st.integers(0, 8)), 2),
            opponents=opponents,
            sides=tuple(draw(st.lists(st.sampled_from([1, -1]), max_size=4))),
            had_bye=draw(st.booleans()),
        ))
    players.sort(key=lambda p: (-p.score, p.id))
    return players


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swiss_fields())
def test_swiss_makes_the_fewest_rematches(players: list[SwissPlayer]) -> None:
    plan = swiss_round(players)
    paired = [pid for pair in plan.pairs for pid in pair] + ([plan.bye] if plan.bye is not None else [])
    assert sorted(paired) == sorted(p.id for p in players)  # everyone exactly once
    assert (plan.bye is not None) == (len(players) % 2 == 1)
    assert defects(players, plan.pairs, plan.bye) == fewest_defects(players)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swiss_fields())
def test_swiss_bye_goes_to_the_lowest_player_without_one(players: list[SwissPlayer]) -> None:
    if len(players) % 2 == 0 or fewest_defects(players) != 0:
        return
    plan = swiss_round(players)
    eligible = [p.id for p in players if not p.had_bye and clean_rest_exists(players, p.id)]
    assert plan.bye == eligible[-1]  # ``players`` is ranked best first


def spread(players: Sequence[SwissPlayer], pairs: Sequence[tuple[int, int]]) -> Fraction:
    score = {p.id: p.score for p in players}
    return sum(((score[a] - score[b]) ** 2 for a, b in pairs), Fraction(0))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swiss_fields())
def test_swiss_keeps_score_groups_together(players: list[SwissPlayer]) -> None:
    """Among the pairings as good on rematches and with the same bye, none has a smaller
    sum of squared score differences."""
    plan = swiss_round(players)
    best = defects(players, plan.pairs, plan.bye)
    rest = [p.id for p in players if p.id != plan.bye]
    least = min(spread(players, m) for m in perfect_matchings(rest) if defects(players, m, plan.bye) == best)
    assert spread(players, plan.pairs) == least


@settings(max_examples=60, deadline=None)
@given(swiss_fields())
def test_swiss_is_deterministic(players: list[SwissPlayer]) -> None:
    assert swiss_round(players) == swiss_round([SwissPlayer(p.id, p.score, p.opponents, p.sides, p.had_bye)
                                                for p in players])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 16).map(lambda n: n * 2))
def test_swiss_round_one_pairs_top_half_against_bottom_half(n: int) -> None:
    players = [SwissPlayer(pid, Fraction(0)) for pid in range(1, n + 1)]
    plan = swiss_round(players)
    half = n // 2
    expected = [(k, k + half) if k % 2 == 1 else (k + half, k) for k in range(1, half + 1)]
    assert list(plan.pairs) == expected


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 8), st.data())
def test_whole_swiss_leagues_never_rematch_while_avoidable(n: int, data: st.DataObject) -> None:
    league = new_league([f"p{k}" for k in range(1, n + 1)], rounds=max_swiss_rounds(n))
    league = start(league, by=ORGANISER, now=T0)
    results = list(Result)
    while True:
        rnd = league.current
        assert rnd is not None
        before = league
        for p in rnd.open_pairings:
            league = record_result(league, rnd.number, p.board, data.draw(st.sampled_from(results)))
        if data.draw(st.integers(0, 9)) == 0 and len(league.active_players) > 2:
            victim = data.draw(st.sampled_from([p.id for p in league.active_players]))
            league = drop_player(league, victim, by=ORGANISER)
        if len(league.paired) == league.rounds:
            break
        field = swiss_players(league)
        league = next_round(league, now=T0 + timedelta(days=7 * rnd.number))
        new = league.current
        assert new is not None and new.number == rnd.number + 1 and before.rounds == league.rounds
        assert defects(field, [p.players for p in new.pairings], new.bye.player if new.bye else None) \
            == fewest_defects(field)
        assert league.format is Format.SWISS


# -- round-robin ---------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(2, 17), st.booleans())
def test_round_robin_meets_everyone_once_with_balanced_sides(n: int, double: bool) -> None:
    seeds = [100 + k for k in range(n)]
    total = round_robin_length(n, double=double)
    per_cycle = total // (2 if double else 1)
    meetings: dict[frozenset[int], list[tuple[int, int]]] = {}
    byes: list[int] = []
    sides: dict[int, list[int]] = {pid: [] for pid in seeds}
    for number in range(1, total + 1):
        plan = round_robin_round(seeds, number, double=double)
        in_round = [pid for pair in plan.pairs for pid in pair] + ([plan.bye] if plan.bye is not None else [])
        assert sorted(in_round) == seeds
        if plan.bye is not None:
            byes.append(plan.bye)
        for a, b in plan.pairs:
            meetings.setdefault(frozenset((a, b)), []).append((a, b))
            if number <= per_cycle:
                sides[a].append(FIRST)
                sides[b].append(-FIRST)
    assert len(meetings) == n * (n - 1) // 2
    for games in meetings.values():
        if double:
            assert len(games) == 2 and games[1] == (games[0][1], games[0][0])  # sides swapped
        else:
            assert len(games) == 1
    assert sorted(byes) == (sorted(seeds * (2 if double else 1)) if n % 2 else [])
    for history in sides.values():
        assert abs(sum(history)) <= 1
        assert not any(history[k] == history[k + 1] == history[k + 2] for k in range(len(history) - 2))


def test_round_robin_schedule_of_four() -> None:
    """Slots 0..3 (slot 3 fixed): round t pairs i + j ≡ t (mod 3)."""
    seeds = [1, 2, 3, 4]
    rounds = [round_robin_round(seeds, r).pairs for r in (1, 2, 3)]
    assert rounds == [((1, 4), (2, 3)), ((1, 2), (4, 3)), ((3, 1), (2, 4))]
