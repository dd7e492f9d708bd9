"""The compiled pass of sea battles where one side's submarines strike every round
(engine.odds.aa_strike, issue 19 speed): the same chain as the general engine's (A-10.6
surprise strikes, A-10.14 aircraft that cannot hit submarines and submarines that
cannot hit aircraft, A-10.8 battleships' first hits), only computed differently; checked
against the dict-based solve, exact fractions and the numpy solve it replaces here."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from engine.core.errors import PlayerError
from engine.odds import aa_strike
from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_battle import OUTCOMES, RETREAT, UNFINISHED, Tally
from engine.odds.aa_general import GeneralEngine
from engine.odds.aa_side import CAT_AIR
from engine.odds.aa_strike_kernel import aircraft, land, unrestricted
from tests.odds.helpers import ODDS_KEYS, assert_floats_match_fractions, assert_same_odds, close


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many battles the compiled pass solved (pairs processed, one per solve, or per
    traced solve corrected for a retreat by win chance)."""
    got: list[int] = []
    solve = aa_strike.StrikeSolver.solve
    corrected = aa_strike.StrikeSolver._corrected

    def counted(self: aa_strike.StrikeSolver, initial: Any, tally: Any, back: Any = None, **kw: Any) -> int | None:
        seen = solve(self, initial, tally, back, **kw)
        if seen is not None:
            got.append(seen)
        return seen

    def counted_correction(self: aa_strike.StrikeSolver, initial: Any, tally: Any, back: Any, traced: Any,
                           *sums: Any) -> bool:
        done = corrected(self, initial, tally, back, traced, *sums)
        if done:
            got.append(traced.seen)
        return done

    monkeypatch.setattr(aa_strike.StrikeSolver, "solve", counted)
    monkeypatch.setattr(aa_strike.StrikeSolver, "_corrected", counted_correction)
    return got


def _fleet(rng: random.Random, *, subs: bool, defender: bool) -> str:
    """A random fleet of the compiled pass's battles: the striking side has submarines
    (and sometimes a destroyer), the other neither submarines nor destroyers; transports
    on either side (A-10.7: a defender left with only transports, or only transports and
    submarines facing aircraft alone, loses them); a defender's fighters fit on its
    carriers."""
    units = {"sub": rng.randint(1, 4) if subs else 0, "des": rng.choice([0, 0, 1]) if subs else 0,
             "cru": rng.randint(0, 2), "car": rng.randint(0, 2), "bat": rng.randint(0, 2)}  # fmt: skip
    units["fig"] = min(rng.randint(0, 3), 2 * units["car"]) if defender else rng.randint(0, 2)
    if not defender:
        units["bom"] = rng.choice([0, 0, 1])
    units["tra"] = rng.choice([0, 0, 1, 2])
    if not subs and not any(units.values()):
        units["cru"] = 1
    return ", ".join(f"{c} {u}" for u, c in units.items() if c)


def _tallies(battle: AABattle, monkeypatch: pytest.MonkeyPatch, rounds: int | None = None) -> tuple[Tally[float], ...]:
    """The battle (or its first ``rounds``) through GeneralEngine.run (the compiled
    pass), the numpy solve and the dict solve."""
    out = []
    for vectorised, compiled in ((True, True), (True, False), (False, False)):
        monkeypatch.setattr(aa_strike, "ENABLED", compiled)
        setup, _ = setup_battle(battle, 1.0)
        out.append(GeneralEngine(setup, vectorised=vectorised).run(rounds))
    monkeypatch.setattr(aa_strike, "ENABLED", True)
    return tuple(out)


# Rules sets and technologies whose unit profiles change these battles: two-hit carriers
# (1942 Second Edition), two-dice battleships and stronger submarines (Global 1940),
# super submarines, jet fighters and heavy bombers.
OPTIONS: list[dict[str, Any]] = [
    {}, {"rules": "1942se"}, {"rules": "global1940"}, {"tech_attacker": "super subs, heavy bombers"},
    {"tech_defender": "jets, super subs", "rules": "1942se"},
    # Submarines alone submerge when their side asked.
    {"submerge_attacker": True}, {"submerge_defender": True, "rules": "global1940"},
]


def _battles(seed: int, count: int, **options: Any) -> list[AABattle]:
    """Random battles of the compiled pass, the striking side the attacker in every
    other one, under the rules sets and technologies of ``OPTIONS`` in turn."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        striker_attacks = n % 2 == 0
        attacker = _fleet(rng, subs=striker_attacks, defender=False)
        defender = _fleet(rng, subs=not striker_attacks, defender=True)
        battle = AABattle.parse(attacker, defender, mode="sea", **{**OPTIONS[n % len(OPTIONS)], **options})
        assert aa_strike.applies(setup_battle(battle, 1.0)[0]), battle
        out.append(battle)
    return out


def _assert_agree(new: Tally[float], old: Tally[float], note: object) -> None:
    """Every outcome and both sides' final states, to 1e-12."""
    for outcome in OUTCOMES:
        assert new.outcome[outcome] == pytest.approx(old.outcome[outcome], abs=1e-12), (note, outcome)
    close(new.attacker_end, old.attacker_end)
    close(new.defender_end, old.defender_end)


@pytest.mark.parametrize("both", [False, True])
def test_compiled_pass_matches_the_dict_solve_on_random_strike_battles(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], both: bool
) -> None:
    # Where both sides strike (A-10.6: from the state at the start of the round), the
    # pass takes Y's strike first and lets the submarines of X it sinks strike back.
    for battle in _both_battles(44, 40) if both else _battles(19, 60):
        before = len(passes)
        new, numpy_solve, old = _tallies(battle, monkeypatch)
        assert len(passes) == before + 1, battle
        _assert_agree(new, old, battle)
        _assert_agree(new, numpy_solve, battle)
        assert new.takes == pytest.approx(old.takes, abs=1e-12)
        # Rounds as the numpy solve counts them: the dict solve counts a first round
        # where nothing can ever be hit (a stalemate from the start), the solves none.
        assert new.rounds == pytest.approx(numpy_solve.rounds, rel=1e-12)
        if old.outcome["stalemate"] < 1.0 - 1e-9:
            assert new.rounds == pytest.approx(old.rounds, rel=1e-12)
        assert new.dropped < 1e-12


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        # Battleships' first hits come before the submarines in the loss order (A-10.8):
        # the defender's aircraft hits take them, then the cruiser, never a submarine.
        ("3 sub, 2 bat, 1 bom", "2 cru, 1 car, 2 fig"),
        # The defender's submarines strike; the attacker's aircraft cannot hit them.
        ("2 cru, 1 bat, 2 fig, 1 bom", "3 sub, 1 cru"),
        # A stalemate: aircraft left against submarines left.
        ("2 fig", "3 sub, 1 cru"),
        # Both sides can be destroyed in the same round: a draw.
        ("2 sub, 1 cru", "2 cru"),
        # A defender left with only transports loses them while the attacker can fire
        # the cruiser gone, the battle is won.
        ("3 sub, 1 bom", "1 cru, 2 tra"),
        # The striking defender's own transports: lost once its submarines are
        # gone, or once only the attacker's aircraft are left beside its submarines (then
        # a stalemate, or its submarines submerge when it asked).
        ("2 cru, 2 fig", "2 sub, 2 tra"),
        ("1 cru, 1 bat, 1 fig, 1 bom", "3 sub, 1 des, 1 tra"),
    ],
)
@pytest.mark.parametrize("submerge", [False, True])
def test_compiled_pass_matches_exact_fractions(attacker: str, defender: str, submerge: bool,
                                               passes: list[int]) -> None:
    # With submerging asked, a side's submarines left alone submerge: the
    # attacker's retreat, the defender's are lost, and no stalemate is left.
    options = {"submerge_attacker": True, "submerge_defender": True} if submerge else {}
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))
    assert passes
    if attacker == "2 fig":
        assert (exact.stalemate > 0.5) is not submerge
    if attacker == "2 sub, 1 cru":
        assert exact.draw > 0.01
    if defender == "1 cru, 2 tra":  # won once the cruiser is gone: no round for the transports
        assert exact.expected_rounds < 1.5  # ~2.2 if the transports had to be sunk
    if defender == "2 sub, 2 tra":  # the fighters alone against the submarines: never a win
        assert (exact.stalemate > 0.05) is not submerge
    if "tra" in defender:  # the striking defender's transports: the pass's rule can act
        assert bool((_numbered(AABattle.parse(attacker, defender, mode="sea")).shed >= 0).any()) is ("sub" in defender)


def test_a_stalemate_pair_still_ends_the_rounds_begun_before_it(passes: list[int]) -> None:
    # The attacker's heavy bomber (two dice, A-7) sinks the carrier and the fighter in
    # one round while the fighter, firing at the same time, sinks the last
    # attacking ship but a transport: that round ends at a pair where neither side can
    # hit (a transport each), but the fighter's hits of that round still land there.
    # Found by the random battles: the pass once left that mass out.
    battle = AABattle.parse("1 sub, 1 bom, 1 tra", "1 car, 1 fig, 1 tra", mode="sea", tech_attacker="heavy bombers")
    exact = assert_floats_match_fractions(battle)
    assert passes and exact.stalemate > 0.2


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig"),  # the bench's strike battle
        # Both sides strike: the battle Discord refused after ~24 s of the numpy solve.
        ("8 sub, 4 cru, 2 bat, 6 fig", "12 sub, 6 cru, 2 bat"),
    ],
)
def test_compiled_pass_agrees_with_the_numpy_solve_within_both_error_bounds(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], attacker: str, defender: str
) -> None:
    # A bench battle, a fifth of the size: every chance and the survivors within the
    # two answers' error bounds (masses below 1e-19 left out).
    battle = AABattle.parse(attacker, defender, mode="sea")
    new = aa_odds(battle)
    assert passes
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert len(passes) == 1
    assert 0.0 < new.error_bound < 1e-13
    keys = tuple(k for k in ODDS_KEYS if k != "expected_rounds")
    assert_same_odds(new, old, new.error_bound + old.error_bound, keys=keys, same_states=False)
    assert new.expected_rounds == pytest.approx(old.expected_rounds, rel=1e-11)


@pytest.mark.parametrize("both", [False, True])
def test_compiled_rounds_match_the_dict_walk_on_random_strike_battles(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], both: bool
) -> None:
    # A round limit (and so a strafe, A-10.15: what still fights after it retreats):
    # every pair each round, what still fights after the last one unfinished (with
    # step 0 every round where both sides strike).
    walks: list[tuple[int, bool, bool]] = []
    walk = aa_strike.StrikeSolver.walk

    def counted(self: aa_strike.StrikeSolver, initial: Any, rounds: int, tally: Any, **kw: Any) -> bool:
        done = walk(self, initial, rounds, tally, **kw)
        walks.append((rounds, done, self.ys))
        return done

    monkeypatch.setattr(aa_strike.StrikeSolver, "walk", counted)
    for n, battle in enumerate(_both_battles(7, 24) if both else _battles(1942, 40)):
        rounds = 1 + n % 3
        new, numpy_walk, old = _tallies(battle, monkeypatch, rounds)
        assert walks[-1] == (rounds, True, both) and len(walks) == n + 1, battle
        _assert_agree(new, old, battle)
        _assert_agree(new, numpy_walk, battle)
        assert new.rounds == pytest.approx(old.rounds, abs=1e-12)
    assert not passes


@pytest.mark.parametrize("both", [False, True])
def test_the_last_rounds_shares_added_up_by_side_are_those_of_its_pairs(
    monkeypatch: pytest.MonkeyPatch, both: bool
) -> None:
    # With no second wave to join them, only each side's share of what still fights
    # after the last round is wanted: the round walk adds Y's aircraft hits up by side
    # there instead of into the table (every outcome kept). The same shares and outcomes
    # as the walk that keeps every pair; a strafe's (A-10.15: what still fights after
    # it retreats) counts the pairs the battle's retreat rule takes back with them, a
    # retreat either way.
    from engine.odds import aa_strike_kernel

    added: list[float] = []
    kernel = aa_strike_kernel.walk

    def counted(*args: Any) -> Any:
        got = kernel(*args)
        added.append(float(got[5].sum()))
        return got

    monkeypatch.setattr(aa_strike_kernel, "walk", counted)
    moved = walked = 0
    battles = _both_battles(8, 16) if both else _battles(77, 28)
    for n, battle in enumerate(battles):
        battle = replace(battle, retreat_below=2 + n % 4)  # the attacker's own retreat rule
        setup, _ = setup_battle(battle, 1.0)
        rounds = 1 + n % 3
        before = len(added)
        kept, apart, strafe = (GeneralEngine(setup).run(rounds, pairs=pairs, strafe=strafes)
                               for pairs, strafes in ((True, False), (False, False), (False, True)))  # fmt: skip
        if len(added) == before:  # settled before any round walk (its starts below the rule)
            continue
        walked += 1
        assert len(added) == before + 3 and added[-3] == 0.0, battle  # the pairs kept: none added up
        assert kept.pairs is not None and apart.pairs is None, battle
        _assert_agree(apart, kept, battle)
        for outcome in OUTCOMES:
            if outcome not in (RETREAT, UNFINISHED):
                assert strafe.outcome[outcome] == pytest.approx(kept.outcome[outcome], abs=1e-12), (battle, outcome)
        both_ways = strafe.outcome[RETREAT] + strafe.outcome[UNFINISHED]
        assert both_ways == pytest.approx(kept.outcome[RETREAT] + kept.outcome[UNFINISHED], abs=1e-12), battle
        close(strafe.attacker_end, kept.attacker_end)
        close(strafe.defender_end, kept.defender_end)
        moved += strafe.outcome[RETREAT] < kept.outcome[RETREAT] - 1e-9
    assert walked >= len(battles) // 2 and sum(added) > 0.5 and moved >= 3, (walked, moved)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("3 sub, 2 bat, 1 bom", "2 cru, 1 car, 2 fig", {"rounds": 2}),
        ("2 cru, 1 bat, 2 fig, 1 bom", "3 sub, 1 cru", {"retreat_after": 1}),
        ("4 sub, 1 cru", "2 cru, 1 car, 2 fig", {"rounds": 3}),
    ],
)
def test_compiled_rounds_match_exact_fractions(attacker: str, defender: str, options: dict[str, Any]) -> None:
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))
    assert exact.unfinished > 0 or exact.retreat > 0


def test_units_still_fighting_join_the_second_wave_from_the_compiled_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # After rounds:N without a strafe the first wave's units still fighting join the
    # second wave: the pairs the compiled walk leaves are those of the numpy walk.
    battle = AABattle.parse("6 sub, 2 cru, 1 bom", "4 cru, 2 car, 3 fig", mode="sea", rounds=2, wave2="2 sub, 1 bat")
    new = aa_odds(battle)
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert new.second_wave is not None and old.second_wave is not None
    for key, value in old.second_wave.items():
        if isinstance(value, float):
            assert new.second_wave[key] == pytest.approx(value, abs=1e-12), key
    assert_same_odds(new, old, 1e-12)


@pytest.mark.parametrize("rounds", [None, 2])
@pytest.mark.parametrize("both", [False, True])
def test_retreats_in_the_compiled_pass_match_the_dict_solve(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], rounds: int | None, both: bool
) -> None:
    # the attacker retreats after a round that leaves it fewer than K units
    # (retreat_left), from either side's strikes; what arrives at such a pair retreats,
    # what was there before round 1 fights it (step 0 included where both sides strike).
    for battle in _both_battles(8, 20) if both else _battles(15, 24):
        size = sum(battle.attacker.values())
        battle = replace(battle, retreat_below=max(2, size - 1))
        assert aa_strike.applies(setup_battle(battle, 1.0)[0]), battle
        before = len(passes)
        new, _, old = _tallies(battle, monkeypatch, rounds)
        assert rounds is not None or len(passes) == before + 1, battle  # the compiled solve took it
        _assert_agree(new, old, battle)
        if old.outcome["retreat"] > 0:
            assert new.rounds == pytest.approx(old.rounds, rel=1e-12)


@pytest.mark.parametrize("both", [False, True])
def test_retreat_by_win_chance_in_the_compiled_pass_matches_the_numpy_passes(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], both: bool
) -> None:
    # the ruling of engine.odds.aa_retreat (the chance of fighting on to the
    # end, decided from an interval): the compiled pass's chances backward (with each
    # pair's value after step 0 where both sides strike) and the numpy passes' give the
    # same answer, within both error bounds (a decision an interval leaves open counts
    # there), on random battles of both kinds.
    # Every fourth battle retreats below K units as well: either rule retreats (the
    # compiled pass once decided by the chance alone there, found by fuzzing).
    retreated = 0
    for n, battle in enumerate(_both_battles(9, 16) if both else _battles(40, 16)):
        battle = replace(battle, retreat_chance=(30, 45, 60)[n % 3])
        if n % 4 == 3:
            battle = replace(battle, retreat_below=max(2, sum(battle.attacker.values()) - 2))
        monkeypatch.setattr(aa_strike, "ENABLED", True)
        before = len(passes)
        new = aa_odds(battle)
        assert len(passes) == before + 1, battle
        monkeypatch.setattr(aa_strike, "ENABLED", False)
        old = aa_odds(battle)
        assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-12, same_states=False, note=battle)
        retreated += new.retreat > 0.01
    assert retreated >= 4


@pytest.mark.parametrize("both", [False, True])
def test_a_retreat_by_win_chance_answers_the_same_on_tables_an_earlier_pass_left(
    monkeypatch: pytest.MonkeyPatch, both: bool
) -> None:
    # by win chance: the chances backward and the solve with the retreats take
    # the tables the passes before them are done with (StrikeSolver._table, each
    # filled again); the answers are those of new tables, to the last bit, where both
    # sides strike too (A-10.6: step 0's tables).
    made: list[int] = []
    table = aa_strike.StrikeSolver._table

    def counted(self: aa_strike.StrikeSolver, shape: tuple[int, ...], fill: float = 0.0) -> Any:
        made.append(len(self._spare))
        return table(self, shape, fill)

    def new(self: aa_strike.StrikeSolver, shape: tuple[int, ...], fill: float = 0.0) -> Any:
        return np.full(shape, fill)

    for n, battle in enumerate(_both_battles(3, 12) if both else _battles(3, 12)):
        battle = replace(battle, retreat_chance=(35, 50, 65)[n % 3])
        monkeypatch.setattr(aa_strike.StrikeSolver, "_table", counted)
        made.clear()
        again = aa_odds(battle).to_dict()
        assert sum(m > 0 for m in made) >= (6 if both else 4), battle  # spares taken
        monkeypatch.setattr(aa_strike.StrikeSolver, "_table", new)
        assert aa_odds(battle).to_dict() == again, battle


@pytest.mark.parametrize(("attacker", "defender", "options"), [
    ("1 bat, 1 sub", "1 cru, 1 tra", {"retreat_chance": 90}),
    ("1 bat, 1 sub", "1 bat, 1 tra", {"ool_attacker": "bat", "retreat_chance": 60}),
    ("1 bat, 3 sub, 1 fig", "2 cru, 2 tra, 1 car, 1 fig", {"retreat_chance": 50}),
    ("1 bat, 2 sub", "1 cru, 2 tra", {"retreat_chance": 70, "retreat_below": 2}),
])  # fmt: skip
def test_retreat_by_win_chance_against_transports_is_decided_exactly(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], attacker: str, defender: str, options: dict[str, Any]
) -> None:
    # in a row before the striking side's submarines (its battleship's first hit):
    # a strike leaving the defender its lone transports ends the battle there, and the
    # round passing through that pair was read as "anything" by the chances backward, so
    # every decision was a guess: 87.5 % with an error bound of 1 (100 points) where the
    # exact answer is 63/64 (found by fuzzing against an independent solver).
    battle = AABattle.parse(attacker, defender, mode="sea", **options)
    monkeypatch.setattr(aa_strike, "ENABLED", True)
    new = aa_odds(battle)
    assert passes, battle  # the compiled pass took it
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert new.error_bound < 1e-12 and old.error_bound < 1e-12
    assert_same_odds(new, old, 1e-12, same_states=False, note=battle)


@pytest.mark.parametrize("limit", [{"rounds": 2}, {"retreat_after": 3}, {"rounds": 1, "wave2": "1 des, 1 fig"}])
def test_retreat_by_win_chance_with_a_round_limit_in_the_compiled_pass_matches_the_numpy_passes(
    monkeypatch: pytest.MonkeyPatch, limit: dict[str, int]
) -> None:
    # with a round limit or a strafe: the compiled pass decides where the
    # attacker retreats (the chance of fighting on to the end, as without a limit) and
    # its round walk takes the battle, a start it retreats from included (the rule acts
    # after round 1 only), and keeps the pairs a joined second wave meets; the numpy
    # passes and walk give the same answer, within both error bounds.
    used: list[str] = []
    for name in ("decide", "walk"):
        method = getattr(aa_strike.StrikeSolver, name)

        def counted(self: Any, *args: Any, _method: Any = method, _name: str = name, **kw: Any) -> Any:
            got = _method(self, *args, **kw)
            if got:
                used.append(_name)
            return got

        monkeypatch.setattr(aa_strike.StrikeSolver, name, counted)
    retreated = from_start = 0
    for n, battle in enumerate(_battles(41, 12, **limit)):
        battle = replace(battle, retreat_chance=(30, 45, 60)[n % 3])
        monkeypatch.setattr(aa_strike, "ENABLED", True)
        used.clear()
        new = aa_odds(battle)
        assert used == ["decide", "walk"], battle
        setup, _ = setup_battle(battle, 1.0)
        pairs = aa_strike.retreat_pairs(setup, battle.retreat_chance / 100)
        assert pairs is not None
        from_start += (setup.attacker.start, setup.defender.start) in pairs[0]
        # The walk reads the decisions' own table: the same as numbering the pairs again.
        assert isinstance(pairs[0], aa_strike.Decided)
        table = aa_strike.StrikeSolver(replace(setup, retreat_at=pairs[0]))._back()
        numbered = aa_strike.StrikeSolver(replace(setup, retreat_at=frozenset(pairs[0])))._back()
        assert table is not None and numbered is not None and (table == numbered).all()
        monkeypatch.setattr(aa_strike, "ENABLED", False)
        old = aa_odds(battle)
        tol = new.error_bound + old.error_bound + 1e-12
        assert_same_odds(new, old, tol, same_states=False, note=battle)
        assert (new.second_wave is None) == (old.second_wave is None) == (not battle.wave2)
        for key, value in (old.second_wave or {}).items():
            assert new.second_wave is not None and new.second_wave[key] == pytest.approx(value, abs=tol), (battle, key)
        retreated += new.retreat > 0.01
    assert retreated >= 4 and from_start >= 1


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("4 sub, 1 bat, 1 bom", "2 cru, 1 car, 2 fig"),
        # Eight of X's other steps (A-10.8: the battleships' first hits too): the
        # backward pass's rows in three blocks of p (aa_strike_kernel.backward_rows).
        ("3 sub, 2 bat, 2 cru, 1 bom", "2 cru, 1 car, 2 fig"),
        # Both sides strike: the value after step 0 kept per pair.
        ("3 sub, 1 cru, 2 fig", "3 sub, 1 bat"),
        # The other side's destroyer: no strike of X's while it lasts.
        ("3 sub, 1 bat, 1 bom", "1 des, 2 cru, 1 car, 2 fig"),
        # ... and its submarines strike too, X's sunk by them not striking back.
        ("3 sub, 1 cru", "2 sub, 1 des, 1 car, 2 fig"),
        # Six of Y's aircraft: pairs holding several tags (gate 0: taken from the tag
        # before, aa_strike_kernel._owed_back, beside pairs left out).
        ("4 sub, 1 cru, 1 bat", "1 cru, 3 car, 6 fig"),
    ],
)
@pytest.mark.parametrize("least", [1e-19, 1e-3])
@pytest.mark.parametrize("gate", [aa_strike.TRACED_SPLIT_TAGS, 0])
def test_win_chances_backward_are_the_exact_chances(monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str,
                                                     least: float, gate: int) -> None:
    # Every pair's chance to win by fighting on, from the backward pass, against the
    # battle solved exactly (fractions) from that pair: inside its interval, which is
    # narrow where the forward pass met the pair with at least ``least`` of mass in all
    # (aa_strike.CHANCE_LEAST; the pairs with less are anything, and so wider are the
    # intervals of the pairs whose rounds reach them, but they still hold the chance).
    # ``gate`` 0: the traced solve splits step 4 at every pair holding a tag, and the
    # backward pass takes those tags from the tag before (aa_strike_kernel._owed_back).
    from fractions import Fraction

    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_TAGS", gate)
    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_WIDTH", 0 if gate == 0 else aa_strike.TRACED_SPLIT_WIDTH)
    battle = AABattle.parse(attacker, defender, mode="sea")
    solver, low, high, visits, tagb, _ = _traced_chances(battle, least)
    assert solver.ys is ("sub" in defender)
    exact_setup, _ = setup_battle(battle, Fraction(1))
    met = list(zip(*visits.nonzero()))
    assert len(met) > 20
    for c, r in met[:: max(1, len(met) // 40)]:
        xs, ys = solver.x_states[r], solver.y_states[c]
        a, d = (xs, ys) if solver.x_attacks else (ys, xs)
        from engine.odds.aa_battle import Start

        one = replace(exact_setup, starts=[Start(Fraction(1), a, d, d)])
        win = float(GeneralEngine(one).run().outcome["attacker"])
        assert low[c, r] - 1e-12 <= win <= high[c, r] + 1e-12, (a, d)
        if least < 1e-18:
            assert high[c, r] - low[c, r] < 1e-9
    # The pairs the traced solve never processed are not worked out: anything.
    never = tagb.T == 0
    assert never.any() and (low[never] == 0.0).all() and (high[never] == 1.0).all()
    if least > 1e-18:  # among them pairs where rounds started (with less than least coming in)
        assert (never & (visits > 0)).any()


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("12 cru, 4 car, 4 bat, 6 fig", "16 sub, 6 cru, 2 bat, 2 car, 4 fig"),  # the defender's submarines strike
        ("30 sub, 10 cru, 6 bat, 8 bom", "18 cru, 10 car, 6 bat, 16 fig"),  # the attacker's
        ("12 sub, 6 cru, 3 bat", "10 sub, 4 cru, 3 car, 6 fig"),  # both sides'
    ],
)
def test_chances_backward_pulls_steps_1_to_3_over_the_rungs_the_solve_noted(attacker: str, defender: str) -> None:
    # The chances backward pulls X's strike, Y's unrestricted hits and X's
    # general fire over the outcomes the traced solve spread there: fewer
    # products than over every outcome, each left out anything (a loss in the low, a win
    # in the high), so every interval holds the one pulled over every outcome, and stays
    # as narrow where the battle's mass went.
    battle = AABattle.parse(attacker, defender, mode="sea")
    _, low, high, visits, _, work = _traced_chances(battle, 1e-19)
    _, low_all, high_all, _, _, work_all = _traced_chances(battle, 1e-19, noted=False)
    assert work < work_all
    assert (low <= low_all + 1e-15).all() and (high >= high_all - 1e-15).all()
    assert ((low < low_all - 1e-15) | (high > high_all + 1e-15)).any()  # some outcome left out somewhere
    massive = visits >= 1e-6
    assert massive.sum() > 20 and (high - low)[massive].max() < 1e-9


@pytest.mark.parametrize(("S", "P", "block"), [(0, 0, 3), (4, 7, 3), (5, 2, 3), (3, 6, 1), (2, 5, 6), (6, 9, 4)])
def test_the_backward_pass_works_out_every_row_after_the_rows_it_reads(S: int, P: int, block: int) -> None:
    # Every move of a round takes X's submarines (A-10.6 strikes aside, hits take them
    # first once the steps before them are gone) or its other steps (A-10.14: aircraft
    # hits never take submarines), never gives one back: a row (s, p) reads the rows
    # (s' <= s, p' >= p), so each must be worked out before it, and every row once.
    from engine.odds.aa_strike_kernel import backward_rows

    W = P + 1
    rows = backward_rows(S, P, block).tolist()
    assert sorted(rows) == list(range((S + 1) * W))
    at = {r: n for n, r in enumerate(rows)}
    for r in rows:
        s, p = S - r // W, r % W
        for s2 in range(s + 1):
            for p2 in range(p, W):
                if (s2, p2) != (s, p):
                    assert at[(S - s2) * W + p2] < at[r], ((s, p), (s2, p2))


def _numbered(battle: AABattle) -> aa_strike.StrikeSolver:
    setup, _ = setup_battle(battle, 1.0)
    assert aa_strike.applies(setup)
    return aa_strike.StrikeSolver(setup)


def _traced_chances(battle: AABattle, least: float, noted: bool = True) -> tuple[Any, ...]:
    """The traced solve of ``battle`` from round 1's starts (the pairs met with less
    than ``least`` of mass in all left out) and the chances backward after it, with the
    step 4 split the module's flags give and, unless not ``noted``, steps 1-3 pulled
    over the rungs the solve noted: ``(solver, low, high, visits, tagb, products of the
    backward pass)``."""
    from engine.odds.aa_strike_kernel import chances, solve

    setup, _ = setup_battle(battle, 1.0)
    solver = aa_strike.StrikeSolver(setup)
    initial = GeneralEngine(setup).plain_pairs(Tally.empty(1.0))
    ps = solver._place(initial, Tally.empty(1.0), tables=3)
    assert ps is not None
    visits = ps * 0.0
    tagb = np.zeros(ps.shape[::-1], dtype=np.int32)  # rows x columns
    reach = np.zeros(ps.shape[::-1], dtype=np.float32)  # rows x columns
    marks = np.zeros((*ps.shape[::-1], 3), dtype=np.int8)  # rows x columns x step
    none = ps[:0, :0] > 0
    gvis = visits[: max(solver.q, 1)] * 0.0
    z0 = ps * 0.0 if solver.ys else visits[:0, :0]
    split = solver.traced_split()
    solve(*solver._args(), ps, none, none, visits, tagb, reach, gvis, 1e-19, least, 1 << 62, 1 << 62, solver.yb, z0,
          solver._moved(ps), *solver._destroyers(), split, *aa_strike.NO_RULE_ENDS, marks)
    low, high, work = chances(*solver._args(), tagb, reach, gvis, visits, none, 1e-19, 1 << 62, solver.yb, solver.ys,
                              solver._values(ps), *solver._destroyers(), split,
                              marks if noted else aa_strike.NO_MARKS)
    return solver, low, high, visits, tagb, work


@pytest.mark.parametrize(
    ("attacker", "options"),
    [
        ("4 sub, 2 bat, 1 cru, 1 fig, 1 bom", {}),
        # Cruisers before the submarines: more steps before them.
        ("3 sub, 1 bat, 2 cru, 1 bom", {"ool_attacker": "cru, sub, bom, bat"}),
        ("3 sub, 2 cru", {}),
    ],
)
def test_hits_land_on_the_striking_side_as_take_hits_places_them(attacker: str, options: dict[str, Any]) -> None:
    # the aircraft's hits take the first steps that are not submarines, the
    # unrestricted hits the first steps left; the kernel's land (and, past the steps
    # before the submarines, its two moves in either order) against Side.take_hits.
    solver = _numbered(AABattle.parse(attacker, "2 cru, 1 car, 2 fig", mode="sea", **options))
    x, S, P, q = solver.x, solver.S, solver.P, solver.q
    if "ool_attacker" in options:
        assert q == 3  # the battleship's first hit and two cruisers, then submarines
    checked = 0
    for s in range(S + 1):
        for p in range(P + 1):
            if s < S and p < q:
                continue  # not a state: the submarines come after those steps
            st = solver.x_states[(S - s) * (P + 1) + p]
            for u in range(S + P + 2):
                for f in range(P + 2):
                    s2, p2 = land(S, P, q, s, p, u, f)
                    assert solver.x_states[(S - s2) * (P + 1) + p2] == x.take_hits(st, 0, f, u), (s, p, u, f)
                    if p >= q:
                        s3, p3 = unrestricted(P, s, p, u)
                        assert (s3, aircraft(P, p3, f)) == (s2, p2)
                        assert unrestricted(P, s, aircraft(P, p, f), u) == (s2, p2)
                    checked += 1
    assert checked > 200


def test_hits_land_on_the_other_side_as_take_hits_places_them() -> None:
    # Submarine hits never land on aircraft; general fire takes the loss order.
    solver = _numbered(AABattle.parse("5 sub, 1 cru", "1 bat, 2 cru, 2 car, 4 fig", mode="sea",
                                      ool_defender="cru, fig, car, bat"))  # fmt: skip
    y = solver.y
    assert solver.y_index[y.start] == 0
    for d, st in enumerate(solver.y_states):
        for j in range(solver.nxt_strike.shape[1]):
            assert solver.y_states[solver.nxt_strike[d, j]] == y.take_hits(st, j, 0, 0)
        for h in range(solver.nxt_fire.shape[1]):
            after = solver.y_states[solver.nxt_fire[d, h]]
            assert after == y.take(st, h)
            lost = y.count(st, "fighter") - y.count(after, "fighter")
            assert solver.air_lost[d, h] == lost
    # Some states have lost fighters and kept ships: the states are two-dimensional.
    assert any(k and i < solver.n_i for i, k in zip(solver.yi.tolist(), solver.yk.tolist()))


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "taken"),
    [
        ("3 sub, 1 cru, 1 bom", "2 cru, 1 car, 2 fig", {}, True),
        ("2 cru, 2 fig", "3 sub, 1 bat", {}, True),
        # The other side's destroyer: no strike while it lasts, and its aircraft may hit
        # the submarines; the solve takes it by the other side's column (yd).
        ("3 sub", "1 des, 1 cru", {}, True),
        ("3 sub, 1 des", "2 cru, 1 car, 1 fig", {}, True),  # the striker's own destroyer changes nothing
        ("3 sub, 1 cru", "1 des, 1 car, 1 fig", {}, True),
        # Submarines that may submerge only where no enemy destroyer is (by Y's column).
        ("3 sub, 1 cru", "1 des, 1 car, 1 fig", {"submerge_attacker": True}, True),
        ("3 sub", "2 sub, 1 cru", {}, False),  # submarines on both sides, aircraft on neither
        ("3 sub", "1 cru, 1 tra", {}, True),  # a defender's lone transports lost
        ("2 cru, 1 tra", "3 sub", {}, True),  # an attacker's transports: plain units
        ("2 cru, 1 fig", "3 sub, 1 tra", {}, True),  # the striker's own (A-10.7 beside its submarines)
        ("3 sub, 1 cru", "2 cru", {"low_luck": True}, False),
        ("3 sub, 1 cru", "2 cru", {"submerge_attacker": True}, True),  # submerged: a retreat
        ("3 sub, 1 cru", "2 cru", {"retreat_below": 2}, True),  # retreats: flagged pairs
    ],
)
def test_which_battles_take_the_compiled_pass(attacker: str, defender: str, options: dict[str, Any], taken: bool) -> None:
    setup, _ = setup_battle(AABattle.parse(attacker, defender, mode="sea", **options), 1.0)
    assert aa_strike.applies(setup) is taken


def test_a_start_not_of_the_battles_shape_is_left_to_the_numpy_solve() -> None:
    setup, _ = setup_battle(AABattle.parse("3 sub, 1 cru", "2 cru, 1 car, 1 fig", mode="sea"), 1.0)
    solver = aa_strike.StrikeSolver(setup)
    a, d = setup.attacker.start, setup.defender.start
    odd = tuple(n + 1 for n in a)  # more units than the battle's attacker has
    tally: Tally[float] = Tally.empty(1.0)
    assert solver.solve({(a, d): 0.5, (odd, d): 0.5}, tally) is None
    assert tally == Tally.empty(1.0)
    assert solver.solve({(a, d): 1.0}, tally) is not None
    assert sum(tally.outcome.values()) == pytest.approx(1.0, abs=1e-12)
    # A retreat pair not of the battle's shape: nothing recorded either, not even a
    # start that the end-of-round rules settle at once (the numpy solve records it).
    odd_retreat = aa_strike.StrikeSolver(replace(setup, retreat_at=frozenset({(odd, d)})))
    won = (a, tuple(0 for _ in d))
    for fought in (odd_retreat.solve({won: 1.0}, tally), odd_retreat.walk({won: 1.0}, 2, tally)):
        assert not fought
        assert sum(tally.outcome.values()) == pytest.approx(1.0, abs=1e-12)


def test_limits_are_checked_by_the_compiled_pass(passes: list[int]) -> None:
    # Discord's limits (bot.commands.odds): pairs of states processed, products made
    # (counted as the pass goes, refused once past the limit) and the mass tables'
    # cells (checked before they are made), each refused in the player's terms, and the
    # battle answered at exactly the limit.
    battle = AABattle.parse("6 sub, 2 cru, 1 bom", "4 cru, 2 car, 3 fig", mode="sea")
    free = aa_odds(battle)
    assert len(passes) == 1
    seen = passes[0]
    setup, _ = setup_battle(battle, 1.0)
    solver = aa_strike.StrikeSolver(setup)
    solver.solve(GeneralEngine(setup).plain_pairs(Tally.empty(1.0)), Tally.empty(1.0))
    work, cells = solver.work.done, 3 * solver.cells()
    assert work > 10 * seen
    assert aa_odds(battle, max_states=seen) == free
    assert aa_odds(battle, max_work=work) == free
    assert aa_odds(battle, max_naval_table=cells) == free
    for limits in ({"max_states": seen - 1}, {"max_work": work - 1}, {"max_naval_table": cells - 1}):
        with pytest.raises(PlayerError, match="too big"):
            aa_odds(battle, **limits)  # type: ignore[arg-type]


# -- both sides' submarines strike (the side without aircraft is X) ------------------------------------


def _both_fleets(rng: random.Random, x_attacks: bool) -> tuple[str, str]:
    """A random battle where both sides have submarines, one side (Y) aircraft too (a
    defender's fighters on its carriers) and no destroyer, the other (X) no aircraft
    (and more than submarines when it attacks), a destroyer in every third battle
    (A-10.6: Y's submarines then strike only once it is sunk), transports sometimes
    (A-10.7: a defender left with only them loses them)."""
    x = {"sub": rng.randint(1, 4), "cru": rng.randint(0, 2), "bat": rng.randint(0, 1), "car": rng.randint(0, 1),
         "des": rng.choice([0, 0, 1])}  # fmt: skip
    if x_attacks:  # not submarines alone: a defender's aircraft would stay out
        x["cru"] = max(x["cru"], 1)
    x["tra"] = rng.choice([0, 0, 1])
    y = {"sub": rng.randint(1, 3), "cru": rng.randint(0, 2), "bat": rng.choice([0, 0, 1]), "car": rng.randint(1, 2)}
    y["fig"] = rng.randint(1, 2 * y["car"]) if x_attacks else rng.randint(1, 3)
    if not x_attacks:
        y["bom"] = rng.choice([0, 0, 1])
    # A defending Y left with only transports loses them.
    y["tra"] = rng.choice([0, 0, 1])
    text = [", ".join(f"{c} {u}" for u, c in side.items() if c) for side in (x, y)]
    return (text[0], text[1]) if x_attacks else (text[1], text[0])


BOTH_OPTIONS: list[dict[str, Any]] = [
    {}, {"rules": "1942se"}, {"rules": "global1940"}, {"tech_attacker": "super subs, heavy bombers"},
    {"tech_defender": "jets, super subs", "rules": "1942se"},
]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        # The defender's aircraft: the attacker's submarines strike, the defender's too.
        ("3 sub, 1 bat", "2 sub, 1 car, 2 fig"),
        # The attacker's aircraft; the defender's battleship's first hit before its
        # submarines: the attacker's strike takes it first.
        ("2 sub, 1 fig, 1 bom", "2 sub, 1 bat, 1 cru"),
        # Aircraft left against submarines left: a stalemate unless
        # the submarines strike each other out first.
        ("1 sub, 2 fig", "2 sub"),
        # X's destroyer cancels Y's strike while it lasts: Y's submarines fire with its
        # ships until then.
        ("2 sub, 1 des, 1 cru", "2 sub, 1 car, 2 fig"),
        # Y's strike can leave the defending X its lone transport while Y's carrier and
        # bomber still fire that round; they are lost at its end.
        ("1 car, 2 sub, 1 bom", "1 sub, 1 tra"),
    ],
)
def test_both_sides_striking_match_exact_fractions(attacker: str, defender: str, passes: list[int]) -> None:
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea"))
    assert passes
    if attacker == "1 sub, 2 fig":
        assert 0.01 < exact.stalemate < 0.99


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "taken"),
    [
        ("3 sub, 1 cru, 2 fig", "2 sub, 1 cru", {}, True),
        ("3 sub, 2 fig", "2 sub, 1 cru", {"retreat_below": 2}, True),  # retreats: flagged pairs
        ("2 sub, 1 cru", "2 sub, 1 car, 2 fig", {}, True),
        ("3 sub, 1 cru", "2 sub, 1 cru", {}, False),  # no aircraft: which side would be X
        ("3 sub, 2 fig", "2 sub, 1 car, 2 fig", {}, False),  # aircraft on both sides
        # The destroyer side has aircraft: the other side is X (Y's strike may hit any of
        # X's steps), and Y's destroyer cancels X's strike while it lasts.
        ("3 sub, 1 des, 2 fig", "2 sub, 1 cru", {}, True),
        ("3 sub, 1 des, 2 fig", "2 sub, 1 car, 1 fig", {}, False),  # aircraft on both sides
        # X's destroyer: Y's submarines strike once it is sunk, fire before that.
        ("3 sub, 2 fig", "2 sub, 1 des", {}, True),
        ("3 sub, 1 cru", "2 sub, 1 des, 1 tra", {}, True),
        ("3 sub, 1 des", "2 sub, 1 des", {}, False),  # destroyers on both sides, no aircraft
        ("3 sub, 1 des, 1 bom", "2 sub, 1 des", {}, True),  # and aircraft on one: that side is Y
        ("3 sub, 2 fig", "2 sub, 1 cru", {"submerge_defender": True}, False),
    ],
)
def test_which_battles_with_both_sides_striking_take_the_compiled_pass(
    attacker: str, defender: str, options: dict[str, Any], taken: bool
) -> None:
    setup, _ = setup_battle(AABattle.parse(attacker, defender, mode="sea", **options), 1.0)
    assert aa_strike.applies(setup) is taken


def _both_battles(seed: int, count: int) -> list[AABattle]:
    """Random battles of :func:`_both_fleets`, X the attacker in every other one."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        attacker, defender = _both_fleets(rng, x_attacks=n % 2 == 0)
        battle = AABattle.parse(attacker, defender, mode="sea", **BOTH_OPTIONS[n % len(BOTH_OPTIONS)])
        assert aa_strike.applies(setup_battle(battle, 1.0)[0]), battle
        out.append(battle)
    return out


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("3 sub, 1 bat", "2 sub, 1 car, 2 fig", {"rounds": 2}),
        ("2 sub, 1 fig, 1 bom", "2 sub, 1 bat, 1 cru", {"retreat_after": 1}),
        ("3 sub, 2 cru, 1 tra", "2 sub, 1 car, 2 fig", {"retreat_below": 4}),
    ],
)
def test_both_sides_striking_with_options_match_exact_fractions(
    attacker: str, defender: str, options: dict[str, Any]
) -> None:
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))
    assert exact.unfinished > 0 or exact.retreat > 0


# -- the other side's destroyers (Y's, by its column) ----------------------------------------------


def _destroyer_fleets(rng: random.Random, x_attacks: bool) -> tuple[str, str]:
    """A random battle where X has submarines and Y destroyers (A-10.6: X's submarines
    strike only once Y's last destroyer is sunk, and until then Y's aircraft may hit
    them), Y submarines and aircraft too in every other battle (then X has no aircraft:
    Y's strike may hit any of its steps), X a destroyer sometimes (Y's submarines then fire with
    its ships), transports on either side sometimes (A-10.7)."""
    ys = rng.random() < 0.5
    x = {"sub": rng.randint(1, 3), "cru": rng.randint(0, 2), "bat": rng.randint(0, 1), "car": rng.randint(0, 1),
         "des": rng.choice([0, 0, 1]), "tra": rng.choice([0, 0, 1])}  # fmt: skip
    if not ys:
        x["fig"] = min(rng.randint(0, 1), 2 * x["car"]) if not x_attacks else rng.randint(0, 1)
        if x_attacks:
            x["bom"] = rng.randint(0, 1)
    y = {"des": rng.randint(1, 2), "cru": rng.randint(0, 1), "bat": rng.choice([0, 0, 1]), "car": rng.randint(0, 1),
         "sub": rng.randint(1, 2) if ys else 0, "tra": rng.choice([0, 0, 1])}  # fmt: skip
    y["fig"] = min(rng.randint(0, 2), 2 * y["car"]) if x_attacks else rng.randint(0, 2)
    if not x_attacks:
        y["bom"] = rng.choice([0, 0, 1])
    if ys:  # Y's aircraft: else the destroyer side would be X (a strike passes it by)
        y["car"], y["fig"] = max(y["car"], 1), max(y["fig"], 1)
    text = [", ".join(f"{c} {u}" for u, c in side.items() if c) for side in (x, y)]
    return (text[0], text[1]) if x_attacks else (text[1], text[0])


DESTROYER_OPTIONS: list[dict[str, Any]] = [
    {}, {"rules": "1942se"}, {"rules": "global1940"}, {"tech_attacker": "super subs, heavy bombers"},
    {"tech_defender": "jets, super subs", "rules": "1942se"}, {"retreat_below": 3},
    # X's submarines alone submerge where Y has no destroyer left.
    {"submerge_attacker": True, "submerge_defender": True},
    # Orders of loss other than the default: aircraft before the defender's ships (the
    # restricted hits first, A-10.14), the attacker's submarines last.
    {"ool_attacker": "bat, cru, car, fig, bom, des, sub, tra", "ool_defender": "fig, car, bat, cru, des, sub, tra"},
]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        # The attacker's destroyer: the defender's submarines fire with its ships and the
        # attacker's fighter may hit them until the destroyer is sunk; then they strike
        # and the fighter cannot hit them.
        ("1 des, 1 car, 1 fig, 1 bat", "3 sub, 1 cru"),
        # The defender's destroyer against submarines and a bomber: the submarines' hits
        # never land on the fighter, the bomber's anywhere.
        ("3 sub, 1 bom", "1 des, 1 car, 2 fig"),
        # Submarines on both sides, destroyers on the attacker's, aircraft too: the
        # defender (no aircraft) is X; the attacker's submarines strike every round, the
        # defender's only once the attacker's destroyers are gone.
        ("2 sub, 2 des, 1 fig, 1 car", "3 sub, 1 bat"),
        # Destroyers on both sides and aircraft on the attacker's: nobody strikes until a
        # side's destroyers are gone.
        ("2 sub, 1 des, 1 bom", "2 sub, 1 des, 1 cru"),
    ],
)
def test_the_other_sides_destroyers_match_exact_fractions(attacker: str, defender: str, passes: list[int]) -> None:
    battle = AABattle.parse(attacker, defender, mode="sea")
    solver = _numbered(battle)
    assert solver.yd.any() and not solver.yd.all()  # a destroyer at first, none once it is sunk
    assert_floats_match_fractions(battle)
    assert passes


def test_random_battles_against_the_other_sides_destroyers_match_exact_fractions(passes: list[int]) -> None:
    # 64 random battles (the pass was found exact on ~1,700 such battles when written),
    # under the rules sets, technologies, retreat rule, submerging and orders of loss of
    # DESTROYER_OPTIONS in turn.
    rng = random.Random(71)
    taken = 0
    for n in range(64):
        attacker, defender = _destroyer_fleets(rng, x_attacks=n % 2 == 0)
        options = DESTROYER_OPTIONS[n % len(DESTROYER_OPTIONS)]
        if "submerge_attacker" in options and "sub" in attacker and "sub" in defender:
            options = {}  # both sides' submarines: the pass leaves submerging to the numpy solve
        battle = AABattle.parse(attacker, defender, mode="sea", **options)
        solver = _numbered(battle)
        assert solver.yd.any(), battle
        before = len(passes)
        assert_floats_match_fractions(battle)
        taken += len(passes) > before
    assert taken == 64


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("3 sub, 1 cru", "1 des, 1 car, 1 fig", {"rounds": 2}),
        ("1 des, 1 car, 1 fig, 1 bat", "3 sub, 1 cru", {"retreat_after": 1}),
        ("2 sub, 2 des, 1 fig, 1 car", "3 sub, 1 bat", {"rounds": 3}),  # Y's strike too
        ("2 sub, 1 des, 1 bom", "2 sub, 1 des, 1 cru", {"rounds": 2, "retreat_below": 3}),
    ],
)
def test_the_other_sides_destroyers_in_the_compiled_rounds_match_exact_fractions(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, options: dict[str, Any]
) -> None:
    # The round walk takes Y's destroyers as the solve does (step 0, then both sides'
    # fire at once), each round to the next round's starts.
    walked: list[bool] = []
    walk = aa_strike.StrikeSolver.walk

    def counted(self: aa_strike.StrikeSolver, initial: Any, rounds: int, tally: Any, **kw: Any) -> bool:
        done = walk(self, initial, rounds, tally, **kw)
        walked.append(done and bool(self.yd.any()))
        return done

    monkeypatch.setattr(aa_strike.StrikeSolver, "walk", counted)
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))
    assert exact.unfinished > 0 or exact.retreat > 0
    assert walked == [True]


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [("4 sub, 1 cru", "1 des, 1 car, 2 fig"), ("2 sub, 2 des, 1 fig, 1 car", "3 sub, 1 bat, 1 cru")],
)
def test_the_other_sides_destroyers_with_a_retreat_by_chance_match_the_numpy_passes(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], attacker: str, defender: str
) -> None:
    # The chances backward take Y's destroyers too (the pull of the same move): the
    # pairs to retreat from and the battle with them, against the numpy passes'.
    decided: list[bool] = []
    decide = aa_strike.StrikeSolver.decide

    def counted(self: aa_strike.StrikeSolver, initial: Any, threshold: float) -> Any:
        got = decide(self, initial, threshold)
        decided.append(got is not None and bool(self.yd.any()))
        return got

    monkeypatch.setattr(aa_strike.StrikeSolver, "decide", counted)
    battle = AABattle.parse(attacker, defender, mode="sea", retreat_chance=60)
    new = aa_odds(battle)
    assert decided == [True]  # the pass's own decisions, not the general backward pass's
    assert len(passes) == 1 and new.retreat > 0.01
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert len(passes) == 1
    assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, keys=ODDS_KEYS, same_states=False)


def test_the_other_sides_destroyers_agree_with_the_numpy_solve_within_both_error_bounds(
    monkeypatch: pytest.MonkeyPatch, passes: list[int]
) -> None:
    # A random 100-ship battle of the kind (the numpy solve ~6 s, the pass ~0.8 s) at a
    # fifth of its size.
    battle = AABattle.parse("1 sub, 1 des, 2 cru, 3 car, 1 bat, 7 fig", "5 sub, 4 car, 5 bat", mode="sea")
    new = aa_odds(battle)
    assert passes
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert len(passes) == 1
    keys = tuple(k for k in ODDS_KEYS if k != "expected_rounds")
    # (and float rounding: sums near 1 of many terms, added in two orders)
    assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, keys=keys, same_states=False)
    assert new.expected_rounds == pytest.approx(old.expected_rounds, rel=1e-11)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("2 cru, 2 car, 1 fig, 3 bom", "8 sub, 2 cru, 2 tra", {"retreat_chance": 30}),
        ("3 des, 2 cru, 2 car, 1 fig, 3 bom", "8 sub, 2 cru, 2 tra", {"rules": "1942se", "retreat_chance": 30}),
        # ... but where the defender's submarines submerge when alone, they do
        # so first (the end-of-round rules before a retreat by win chance): its loss.
        ("2 des, 3 cru, 3 bat, 2 fig, 1 bom", "1 sub, 2 des, 2 cru, 2 bat, 1 tra",
         {"submerge_defender": True, "retreat_chance": 60}),
    ],
)
def test_a_retreat_by_win_chance_leaves_submarines_facing_aircraft_alone(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], attacker: str, defender: str, options: dict[str, Any]
) -> None:
    # A round that leaves the defender only submarines and transports against aircraft
    # alone costs it the transports and leaves nothing that can hit: a chance
    # of 0 to win, so the attacker retreating by win chance retreats there,
    # as the numpy passes decide it; the pass once left those rounds a stalemate.
    battle = AABattle.parse(attacker, defender, mode="sea", **options)
    new = aa_odds(battle)
    assert passes
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    assert new.stalemate == old.stalemate == 0.0
    assert new.retreat > 0.0005
    assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, keys=ODDS_KEYS, same_states=False)


def test_submarines_submerge_once_the_other_sides_destroyers_are_sunk(passes: list[int]) -> None:
    # the attacker's submarines, left alone (its cruiser lost first, by its order
    # of loss), submerge (a retreat) only once the defender's destroyer is gone; while it
    # is there they fight on, and its fighter may sink them.  Without submerging they
    # would end against the fighter alone (neither can hit the other) in a stalemate.
    battle = AABattle.parse("3 sub, 1 cru", "1 des, 1 car, 1 fig", mode="sea", submerge_attacker=True,
                            ool_attacker="cru, sub")
    exact = assert_floats_match_fractions(battle)
    assert passes
    assert exact.retreat > 0.5 and exact.stalemate == 0.0
    fought_on = assert_floats_match_fractions(replace(battle, submerge_attacker=False))
    assert fought_on.retreat == 0.0 and fought_on.stalemate > 0.5
    # The destroyer's wins are the same either way: a dive while it is there would have
    # taken some of them away.
    assert exact.exact is not None and fought_on.exact is not None
    assert exact.exact["defender_win"] == fought_on.exact["defender_win"]


CHANCES = tuple(k for k in ODDS_KEYS if k != "expected_rounds")


def _rc_battles(kind: str, count: int) -> list[AABattle]:
    """Random battles of each kind the pass takes, a retreat by win chance at 30, 45 or
    60 % in turn."""
    if kind == "strike":
        battles = _battles(52, count)
    elif kind == "both":
        battles = _both_battles(53, count)
    else:
        rng = random.Random(54)
        battles = []
        for n in range(count):
            attacker, defender = _destroyer_fleets(rng, x_attacks=n % 2 == 0)
            options = DESTROYER_OPTIONS[n % len(DESTROYER_OPTIONS)]
            if "submerge_attacker" in options and "sub" in attacker and "sub" in defender:
                options = {}  # (the pass leaves that to the numpy solve)
            battles.append(AABattle.parse(attacker, defender, mode="sea", **options))
    return [replace(b, retreat_chance=(30, 45, 60)[n % 3]) for n, b in enumerate(battles)]


@pytest.mark.parametrize("kind", ["strike", "both", "destroyers"])
def test_the_traced_solve_corrected_for_the_retreats_matches_the_numpy_passes(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    # by win chance: the battle with the retreats is the traced solve's (no
    # retreat) corrected where a round ends at a retreat pair (StrikeSolver._corrected:
    # by linearity, a retreat of the round starts there, less a solve from them with the
    # retreats), or solved again with the retreats (StrikeSolver.solve).  Each forced in
    # turn on the same random battles (CORRECTION_MAX), both against the numpy passes
    # within both error bounds; where the retreats change what the end-of-round rules
    # end (a dive or a shed defender's submarines facing aircraft alone, A-10.6, A-10.7)
    # the traced solve's ends there are relabelled retreats first (aa_strike_kernel.
    # relabel), so the correction is taken there too.
    ways: list[str] = []
    corrected, solve = aa_strike.StrikeSolver._corrected, aa_strike.StrikeSolver.solve

    def by_correction(self: aa_strike.StrikeSolver, initial: Any, tally: Any, back: Any, traced: Any,
                      *sums: Any) -> bool:
        ways.append("corrected" if back.any() else "none")
        return corrected(self, initial, tally, back, traced, *sums)

    def by_solve(self: aa_strike.StrikeSolver, initial: Any, tally: Any, back: Any = None, **kw: Any) -> int | None:
        ways.append("solved")
        return solve(self, initial, tally, back, **kw)

    monkeypatch.setattr(aa_strike.StrikeSolver, "_corrected", by_correction)
    monkeypatch.setattr(aa_strike.StrikeSolver, "solve", by_solve)
    taken: dict[str, int] = {"corrected": 0, "solved": 0}
    for battle in _rc_battles(kind, 14):
        monkeypatch.setattr(aa_strike, "ENABLED", False)
        old = aa_odds(battle)
        monkeypatch.setattr(aa_strike, "ENABLED", True)
        got = []
        for most in (float("inf"), -1.0):
            monkeypatch.setattr(aa_strike, "CORRECTION_MAX", most)
            ways.clear()
            new = aa_odds(battle)
            assert len(ways) == 1, (battle, ways)
            taken[ways[0]] = taken.get(ways[0], 0) + 1
            if most < 0:
                assert ways[0] != "corrected", battle  # any retreat at all: solved
            # (expected rounds to float rounding: sums of many terms, in other orders)
            assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, keys=CHANCES, same_states=False,
                             note=(battle, most))  # fmt: skip
            assert new.expected_rounds == pytest.approx(old.expected_rounds, rel=1e-12), (battle, most)
            got.append(new)
        # The two ways agree with each other as closely.
        assert_same_odds(got[0], got[1], got[0].error_bound + got[1].error_bound + 1e-15, keys=CHANCES,
                         same_states=False, note=battle)  # fmt: skip
    assert taken["corrected"] >= 5 and taken["solved"] >= 5, taken


def test_a_retreat_by_win_chance_leaves_no_stalemate_met_with_little_mass(monkeypatch: pytest.MonkeyPatch) -> None:
    # The attacker's submarines and transport against a lone fighter: once the
    # transport is lost neither side can hit the other (A-10.14, no destroyer), a
    # chance of 0 to win, so the attacker retreating by win chance retreats there
    # . The traced solve met such a pair with ~1e-17 of mass, below the
    # chances backward's CHANCE_LEAST: undecided, it was left a stalemate (1.2e-17, shown
    # as "<0.1%"); a stalemate pair is now worked out however little mass met it.
    battle = AABattle.parse("2 fig, 2 sub, 1 tra, 2 cru, 2 car, 2 bat", "1 fig, 1 car, 2 bat", mode="sea",
                            retreat_chance=45, rules="global1940")
    got = []
    for most in (float("inf"), -1.0):  # the correction, and the solve with the retreats
        monkeypatch.setattr(aa_strike, "CORRECTION_MAX", most)
        got.append(aa_odds(battle))
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    for new in got:
        assert new.engine == old.engine
        assert new.stalemate == old.stalemate == 0.0
        assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, keys=CHANCES, same_states=False)


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "corrects", "relabels"),
    [
        # Little of the battle retreats: the correction.
        ("3 sub, 2 cru, 1 bat", "1 cru, 1 car, 2 fig", {"retreat_chance": 20}, True, False),
        # Most of it: the solve with the retreats, which stops there.
        ("2 bat, 2 sub", "4 cru, 2 car, 3 fig", {"retreat_chance": 60}, False, False),
        # Little, but a defender left only submarines (and transports, A-10.7) facing
        # aircraft alone would sit in a stalemate there, where the attacker retreats
        # instead: the traced solve's stalemates there relabelled retreats
        # before the correction (aa_strike_kernel.relabel; the correction once left
        # 4e-8 of stalemate, and was not taken).
        ("2 cru, 2 car, 4 fig, 6 bom", "3 sub, 1 cru, 2 tra", {"retreat_chance": 30}, True, True),
        # ... and where the defender's submarines submerge when alone, a
        # retreat with 5 units left comes first where it acts: dives
        # relabelled retreats; so too the attacker's own submarines' dives.
        ("3 cru, 2 car, 4 fig", "4 sub, 1 cru", {"submerge_defender": True, "retreat_chance": 30, "retreat_left": 5},
         True, True),
        ("4 sub, 2 cru", "2 cru, 2 car, 3 fig", {"submerge_attacker": True, "retreat_chance": 40, "retreat_left": 3},
         True, True),
    ],
)
def test_which_retreats_by_win_chance_correct_the_traced_solve(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, options: dict[str, Any], corrects: bool,
    relabels: bool,
) -> None:
    from engine.odds import aa_strike_kernel

    chosen: list[bool] = []
    moved: list[float] = []
    corrects_fn, relabel = aa_strike.StrikeSolver._corrects, aa_strike_kernel.relabel

    def spied(self: aa_strike.StrikeSolver, back: Any, retreating: float) -> bool:
        got = corrects_fn(self, back, retreating)
        chosen.append(got and bool(back.any()))
        return got

    def relabelled(*args: Any) -> float:
        got: float = relabel(*args)
        moved.append(got)
        return got

    monkeypatch.setattr(aa_strike.StrikeSolver, "_corrects", spied)
    monkeypatch.setattr(aa_strike_kernel, "relabel", relabelled)
    battle = AABattle.parse(attacker, defender, mode="sea", **options)
    new = aa_odds(battle)
    assert chosen == [corrects]
    assert (sum(moved) > 0.0) is relabels, moved
    assert new.retreat > 1e-6
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    if relabels:
        assert new.stalemate == old.stalemate == 0.0  # (no leftover of the relabelled stalemates)
    assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-15, same_states=False)


@pytest.mark.parametrize("threshold", [0.0, 0.2, 0.4, 0.73])
def test_compiled_verdicts_are_the_rules_verdicts(threshold: float) -> None:
    # A-10.15 (the attacker may retreat after a round): the decisions of a retreat by
    # win chance from the backward pass's intervals, compiled, against the ruling's own
    # (aa_retreat._verdicts) on every pair with round starts: intervals wholly below,
    # wholly above, straddling the band and on its edges; pairs without round starts
    # never retreat here and count for nothing.
    from engine.odds.aa_battle import retreat_band
    from engine.odds.aa_retreat import _verdicts
    from engine.odds.aa_strike_kernel import verdicts

    rng = np.random.default_rng(int(threshold * 100))
    shape = (37, 53)
    below, at, above = retreat_band(threshold)
    edges = np.array([below, at, above, threshold, 0.0, 1.0])
    low = np.where(rng.random(shape) < 0.3, rng.choice(edges, shape), rng.random(shape))
    high = np.minimum(1.0, low + np.where(rng.random(shape) < 0.5, 0.0, rng.random(shape) * 1e-3))
    high = np.where(rng.random(shape) < 0.1, rng.choice(edges, shape), high)
    low = np.minimum(low, high)
    visits = np.where(rng.random(shape) < 0.6, rng.random(shape), 0.0)
    got, unsure = verdicts(low, high, visits, below, at, above)
    kept = visits > 0.0
    want, open_ = _verdicts(low[kept], high[kept], visits[kept], threshold)
    assert np.array_equal(got[kept], want)
    assert not got[~kept].any()
    assert unsure == pytest.approx(float(open_.sum()), rel=1e-12, abs=0.0)
    assert want.any() or threshold == 0.0  # (the random tables reach the rule's cases)
    assert open_.any() or threshold == 0.0


def test_retreat_starts_are_the_visits_at_retreat_pairs_but_round_ones() -> None:
    # The traced solve's round starts made those of the retreat pairs less round 1's,
    # in place, with their sums by X row, by Y column and in all, against numpy's
    # masks on the same tables.
    from engine.odds.aa_strike_kernel import retreat_starts

    rng = np.random.default_rng(5)
    shape = (29, 41)
    visits = np.where(rng.random(shape) < 0.5, rng.random(shape), 0.0)
    back = rng.random(shape) < 0.4
    start = np.sort(rng.choice(visits.size, 12, replace=False))
    start_m = visits.reshape(-1)[start] * rng.choice([0.5, 1.0, 1.5], start.size)  # (past the visits: 0)
    want = np.where(back, visits, 0.0).reshape(-1)
    on = back.reshape(-1)[start]
    want[start[on]] = np.maximum(want[start[on]] - start_m[on], 0.0)
    want = want.reshape(shape)
    by_x, by_y, total = retreat_starts(visits, back, start, start_m)
    assert np.array_equal(visits, want)
    assert np.allclose(by_x, want.sum(axis=0), rtol=1e-14, atol=0.0)
    assert np.allclose(by_y, want.sum(axis=1), rtol=1e-14, atol=0.0)
    assert total == pytest.approx(float(want.sum()), rel=1e-14)
    assert on.any() and (~on).any()

# -- step 4 split: the lost aircraft's dice one step at a time --------------------------------


@pytest.mark.parametrize(("tech", "lens"), [
    ("heavy bombers", {2, 3}),  # a fighter's die, a heavy bomber's two
    ("jets", {2}),  # jet fighters attack at 4, as bombers do: one value, two unit types
])
def test_lost_aircraft_dice_are_what_their_steps_take_away(monkeypatch: pytest.MonkeyPatch, tech: str,
                                                           lens: set[int]) -> None:
    # aircraft lost in a round fire in it all the same, so a mass whose round
    # began with t more aircraft rolls Y's aircraft at k and the dice of steps k - t + 1
    # .. k.  _lost_air's per-step dice, convolved onto the fire at k, must give the fire
    # at k - t exactly.  (SPLIT_WIDTH 0: the table is made for every battle.)
    monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", 0)
    battle = AABattle.parse("12 fig, 6 bom, 1 bat", "4 sub, 2 cru, 1 bat", mode="sea", tech_attacker=tech)
    solver = _numbered(battle)
    setup, _ = setup_battle(battle, 1.0)
    fire = GeneralEngine(setup).fire
    y = solver.y
    n_k = solver.f[0].shape[0] - 1
    air = [st for st in y.steps(y.start) if st.category == CAT_AIR]
    states = [tuple(row) for row in (np.array(y.start) + aa_strike._deltas(y, air)).tolist()]
    assert len(states) == n_k + 1 == 19
    units, steps, most, wide, _ = aa_strike._lost_air(y, states, n_k, solver.f)
    assert most == n_k and wide.all()
    assert set(steps[1:].tolist()) == lens
    exact = [np.array(fire(y, st, False, False)[1]) for st in states]
    for k in range(n_k + 1):
        got = exact[k]
        for t in range(1, k + 1):
            got = np.convolve(got, units[k - t + 1, : steps[k - t + 1]])
            assert got == pytest.approx(exact[k - t], abs=1e-15), (k, t)


def test_no_lost_aircraft_table_where_no_column_is_wide(monkeypatch: pytest.MonkeyPatch) -> None:
    # Y's aircraft fire no wider than SPLIT_WIDTH anywhere: the kernel keeps its one
    # spread per tag (the table is empty); wider: the table, flagged where it is wide.
    narrow = _numbered(AABattle.parse("3 fig, 1 cru", "4 sub, 2 cru", mode="sea"))
    assert narrow.lost_air[0].size == 0
    wide = _numbered(AABattle.parse("30 fig, 1 cru", "4 sub, 2 cru", mode="sea"))
    assert wide.lost_air[0].shape[0] == 31 and wide.lost_air[3][0] and not wide.lost_air[3][-1]
    monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", 0)
    assert _numbered(AABattle.parse("3 fig, 1 cru", "4 sub, 2 cru", mode="sea")).lost_air[3][:3].all()


@pytest.mark.parametrize("both", [False, True])
def test_step_4_split_matches_the_dict_solve_on_random_strike_battles(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], both: bool
) -> None:
    # The same random battles as test_compiled_pass_matches_the_dict_solve_on_random_
    # strike_battles, every pair with two tags or more taking the split (rules sets and
    # heavy bombers among them): the same answers as the dict solve and the numpy solve.
    monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", 0)
    monkeypatch.setattr(aa_strike, "SPLIT_TAGS", 1)
    split = 0
    for battle in _both_battles(44, 40) if both else _battles(19, 60):
        split += _numbered(battle).lost_air[0].size > 0
        new, numpy_solve, old = _tallies(battle, monkeypatch)
        _assert_agree(new, old, battle)
        _assert_agree(new, numpy_solve, battle)
        assert new.takes == pytest.approx(old.takes, abs=1e-12)
        assert new.rounds == pytest.approx(numpy_solve.rounds, rel=1e-12)
        assert new.dropped < 1e-12
    assert split >= 20  # most battles have aircraft on Y that can be lost


@pytest.mark.parametrize(("attacker", "defender", "options", "forced"), [
    ("5 sub, 2 des, 1 bat, 1 tra", "26 fig, 13 car", {}, True),  # Y defends with many aircraft
    ("26 fig, 4 bom, 1 bat", "4 sub, 2 des, 2 car, 1 bat", {"tech_attacker": "heavy bombers"}, True),
    ("26 fig, 4 bom, 1 bat", "4 sub, 2 des, 2 car, 1 bat", {"retreat_chance": 40}, True),  # the correction too
    ("20 fig, 10 bom, 1 cru", "4 sub, 20 cru, 6 bat", {"tech_attacker": "jets"}, True),  # fighters at 4, as bombers
    ("40 fig, 2 bat", "3 sub, 30 cru, 10 bat", {}, False),  # many tags a pair: taken as the engine chooses
])
def test_step_4_split_agrees_with_the_numpy_solve_within_both_error_bounds(
    monkeypatch: pytest.MonkeyPatch, passes: list[int], attacker: str, defender: str, options: dict[str, Any],
    forced: bool,
) -> None:
    # Y with ~30 aircraft, the split taken (forced at every pair with two tags, or as
    # the engine chooses): the answers within both error bounds of the numpy solve's and
    # of the pass without the split, and not bit for bit the latter's (it was taken).
    if forced:
        monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", 0)
        monkeypatch.setattr(aa_strike, "SPLIT_TAGS", 1)
    battle = AABattle.parse(attacker, defender, mode="sea", **options)
    assert _numbered(battle).lost_air[3].any()
    new = aa_odds(battle)
    assert passes
    monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", 10**6)
    plain = aa_odds(battle)
    assert new.to_dict() != plain.to_dict()
    monkeypatch.setattr(aa_strike, "ENABLED", False)
    old = aa_odds(battle)
    keys = tuple(k for k in ODDS_KEYS if k != "expected_rounds")
    for other in (plain, old):
        assert_same_odds(new, other, new.error_bound + other.error_bound, keys=keys, same_states=False)
        assert new.expected_rounds == pytest.approx(other.expected_rounds, rel=1e-11)
    assert new.error_bound < 1e-12


def test_step_4_split_makes_fewer_products(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the split is for: fewer products where Y's aircraft fire is wide (each tag
    # was spread over its own ~40 outcomes), taken as the engine chooses, everywhere,
    # and nowhere: here ~7 % and ~3x fewer; the bench's strike battle against 85
    # aircraft (~30 tags a pair, X's 96 other steps) ~5x fewer as the engine chooses.
    battle = AABattle.parse("40 fig, 2 bat", "3 sub, 30 cru, 10 bat", mode="sea")
    work = []
    for width, tags in ((aa_strike.SPLIT_WIDTH, aa_strike.SPLIT_TAGS), (0, 1), (10**6, 1)):
        monkeypatch.setattr(aa_strike, "SPLIT_WIDTH", width)
        monkeypatch.setattr(aa_strike, "SPLIT_TAGS", tags)
        setup, _ = setup_battle(battle, 1.0)
        solver = aa_strike.StrikeSolver(setup)
        assert solver.solve(GeneralEngine(setup).plain_pairs(Tally.empty(1.0)), Tally.empty(1.0)) is not None
        work.append(solver.work.done)
    natural, everywhere, never = work
    assert everywhere < 0.5 * never and natural < never, work


def _chances(battle: AABattle, back_split: bool, monkeypatch: pytest.MonkeyPatch, least: float) -> tuple[Any, ...]:
    """:func:`_traced_chances` with the backward split (every pair holding a tag) or
    without: ``(low, high, visits, products of the backward pass)``."""
    monkeypatch.setattr(aa_strike, "BACK_SPLIT", back_split)
    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_TAGS", 0)
    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_WIDTH", 0)
    solver, low, high, visits, _, work = _traced_chances(battle, least)
    assert (solver.traced_split()[0].size > 0) is back_split
    return low, high, visits, work


@pytest.mark.parametrize(("attacker", "defender", "fewer"), [
    ("6 sub, 2 cru, 2 bat", "3 cru, 4 car, 8 fig", 1.0),  # Y defends with 8 fighters (X's fire takes them in tags)
    ("14 fig, 4 bom, 2 bat", "5 sub, 3 des, 4 cru, 2 bat", 0.6),  # Y attacks with 18 aircraft
    ("6 sub, 3 cru", "1 des, 2 cru, 3 car, 6 fig", 1.0),  # Y's destroyer: its aircraft hit X's submarines
])
@pytest.mark.parametrize("least", [1e-17, 1e-4])
def test_chances_backward_split_matches_the_pulls(monkeypatch: pytest.MonkeyPatch, attacker: str,
                                                    defender: str, fewer: float, least: float) -> None:
    # The chances backward with each tag from the tag before (a lost aircraft's die: a
    # miss here, a hit at the row one of X's other steps further on, A-10.4) against
    # the same pass pulling every tag over its aircraft's whole fire: the same chances
    # wherever both intervals are narrow, overlapping everywhere, as narrow in all
    # (their widths weighted by the round starts there: what a decision can leave
    # unsure), for fewer products (~45 % fewer against 18 aircraft).  ``least`` 1e-4:
    # many pairs left out (anything), next to pairs whose tags are taken so (a tag
    # there is read from the row before only where that row kept its values).
    battle = AABattle.parse(attacker, defender, mode="sea")
    lo0, hi0, vis0, work0 = _chances(battle, False, monkeypatch, least)
    lo1, hi1, vis1, work1 = _chances(battle, True, monkeypatch, least)
    narrow = (vis0 > 0) & (vis1 > 0) & (hi0 - lo0 < 1e-12) & (hi1 - lo1 < 1e-12)
    assert narrow.sum() > (100 if least < 1e-10 else 20)
    assert np.abs(lo1[narrow] - lo0[narrow]).max() < 1e-12
    assert (lo1 <= hi0 + 1e-12).all() and (lo0 <= hi1 + 1e-12).all()
    assert ((hi1 - lo1) * vis1).sum() <= 1.5 * ((hi0 - lo0) * vis0).sum() + 1e-18
    assert work1 < fewer * work0, (work1, work0)


@pytest.mark.parametrize("options", [{"retreat_chance": 40}, {"retreat_chance": 60, "rounds": 4}])
def test_a_retreat_by_win_chance_with_the_backward_split_matches_without(monkeypatch: pytest.MonkeyPatch,
                                                                         options: dict[str, Any]) -> None:
    # The whole answer of a retreat by win chance (the traced solve split, the chances
    # backward taking tags from the tag before, then the solve with the retreats, or
    # the rounds walked with those decisions) and without either split: the same to
    # both error bounds, with pairs retreating.
    battle = AABattle.parse("6 sub, 2 cru, 2 bat", "3 cru, 4 car, 8 fig", mode="sea", **options)
    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_TAGS", 0)
    monkeypatch.setattr(aa_strike, "TRACED_SPLIT_WIDTH", 0)
    decided: list[object] = []
    decide = aa_strike.StrikeSolver.decide

    def counted(self: aa_strike.StrikeSolver, initial: Any, threshold: float) -> Any:
        decided.append(self.traced_split()[0].size > 0)  # the traced solve split step 4
        return decide(self, initial, threshold)

    monkeypatch.setattr(aa_strike.StrikeSolver, "decide", counted)
    new = aa_odds(battle)
    assert decided and all(decided)
    monkeypatch.setattr(aa_strike, "BACK_SPLIT", False)
    old = aa_odds(battle)
    assert new.retreat > 0.01
    assert_same_odds(new, old, new.error_bound + old.error_bound + 1e-13, same_states=False)
    assert new.error_bound < 1e-11


@pytest.mark.parametrize(("attacker", "tech", "split"), [
    ("40 fig, 1 bat", "", True),  # 40 fighters: their fire spans 41 outcomes
    ("30 fig, 1 bat", "", False),  # 30: 31, no more than TRACED_SPLIT_WIDTH (the traced solve as before)
    ("30 fig, 10 bom, 1 bat", "", True),
    ("30 fig, 10 bom, 1 bat", "heavy bombers", False),  # a heavy bomber's step takes two dice away
])
def test_which_retreats_by_win_chance_split_the_traced_solve(attacker: str, tech: str, split: bool) -> None:
    # The traced solve and the chances backward split step 4 only where Y's aircraft
    # fire is wide (it cost the battles of 30 fighters, gained against 40 and more) and
    # each aircraft step takes one die away (_owed_back mixes a miss and a hit).
    battle = AABattle.parse(attacker, "4 sub, 2 cru", mode="sea", tech_attacker=tech)
    got = _numbered(battle).traced_split()
    assert (got[0].size > 0) is split
    if split:
        assert got[0].shape[1] == 2 and got[3].all() and got[4] == aa_strike.TRACED_SPLIT_TAGS


def test_values_below_each_h_are_counted_as_the_plain_test_counts_them() -> None:
    # A-10.14 (hits taken down the order of loss): where general fire's h hits take Y
    # (nxt_fire) starts from how many places of the loss order have fewer than h steps
    # left before them: counted by value now, against the test of every value against
    # every h.
    rng = np.random.default_rng(11)
    for _ in range(200):
        rows, n, H = int(rng.integers(1, 20)), int(rng.integers(1, 30)), int(rng.integers(0, 40))
        left = rng.integers(0, 50, (rows, n))
        if rng.random() < 0.5:
            left = np.sort(left, axis=1)  # (as the set-up's: steps left only grow along the order)
        want = (left[:, :, None] < np.arange(H)[None, None, :]).sum(axis=1)
        assert np.array_equal(aa_strike._below_each(left, H), want), (rows, n, H)
