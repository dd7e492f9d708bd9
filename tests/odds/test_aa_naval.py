"""The numpy solve of battles with submarines (engine.odds.aa_naval, issue 19 speed)
agrees with the general engine's dict-based solve and with exact fractions: the same
chain (A-10.6 surprise strikes and hit restrictions, A-10.7 defenceless transports,
A-10.15 retreat, submerging), only computed differently."""

from __future__ import annotations

import random
from typing import Any, Iterator
from fractions import Fraction

import pytest

from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_battle import OUTCOMES, BattleSetup, Tally
from engine.odds.aa_general import GeneralEngine
from engine.odds.aa_side import Side, State
from tests.odds.helpers import ODDS_KEYS, assert_floats_match_fractions, assert_same_odds, close, fleet, strike_fleet


@pytest.fixture(autouse=True)
def _naval_solve_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # This file tests engine.odds.aa_naval.  Battles where one side's submarines strike
    # every round go to the compiled pass of engine.odds.aa_strike unless it is off
    # (tests/odds/test_aa_strike.py checks that one against these solves).
    from engine.odds import aa_strike

    monkeypatch.setattr(aa_strike, "ENABLED", False)


def _both(battle: AABattle) -> tuple[Tally[float], Tally[float]]:
    tallies = []
    for vectorised in (True, False):
        setup, _ = setup_battle(battle, 1.0)
        tallies.append(GeneralEngine(setup, vectorised=vectorised).run())
    return tallies[0], tallies[1]


def _assert_solves_agree(battle: AABattle) -> None:
    """The numpy solve and the dict solve of ``battle``: every outcome, the takes, the
    expected rounds and both sides' final states, to 1e-12."""
    new, old = _both(battle)
    for outcome in OUTCOMES:
        assert new.outcome[outcome] == pytest.approx(old.outcome[outcome], abs=1e-12), (battle, outcome)
    assert new.takes == pytest.approx(old.takes, abs=1e-12)
    assert new.rounds == pytest.approx(old.rounds, rel=1e-12)
    close(new.attacker_end, old.attacker_end)
    close(new.defender_end, old.defender_end)
    assert new.dropped < 1e-12


def test_numpy_solve_matches_the_dict_solve_on_random_fleets() -> None:
    rng = random.Random(1906)
    checked = 0
    for _ in range(60):
        options: dict[str, object] = {}
        pick = rng.random()
        if pick < 0.2:
            options["submerge_attacker"] = True
        elif pick < 0.4:
            options["submerge_defender"] = True
        elif pick < 0.55:
            options["retreat_below"] = rng.randint(1, 3)
        battle = AABattle.parse(fleet(rng, False), fleet(rng, True), mode="sea",
                                ool_attacker=rng.choice(["", "fig,sub", "bat,des"]),
                                ool_defender=rng.choice(["", "fig", "sub,fig"]), **options)  # type: ignore[arg-type]  # fmt: skip
        _assert_solves_agree(battle)
        checked += 1
    assert checked == 60


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("4 sub, 1 des, 1 car, 2 fig", "3 sub, 1 cru, 1 car, 2 fig", {}),
        ("3 sub, 2 fig", "2 sub, 1 des, 1 tra", {}),  # aircraft facing a destroyer
        ("3 sub", "2 fig, 1 car", {}),  # submarines and aircraft that cannot hit each other
        ("2 sub, 1 bat", "3 sub, 1 des", {"submerge_attacker": True, "submerge_defender": True}),
        ("4 sub, 1 des", "2 sub, 2 des, 1 tra", {"retreat_below": 2}),
    ],
)
def test_numpy_solve_matches_exact_fractions(attacker: str, defender: str, options: dict[str, object]) -> None:
    exact = assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))  # type: ignore[arg-type]
    assert exact.exact is not None and sum(exact.exact.values(), Fraction(0)) >= 1


def test_numpy_solve_counts_states_against_the_cap() -> None:
    from engine.core.errors import PlayerError

    battle = AABattle.parse("6 sub, 2 des, 1 car, 2 fig", "6 sub, 2 des, 1 car, 2 fig", mode="sea")
    with pytest.raises(PlayerError, match="too big"):
        aa_odds(battle, max_states=50)
    assert aa_odds(battle, max_states=100_000).attacker_win > 0


def _work_seen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every count an answer's work limit (engine.odds.aa_battle.Work) is checked at."""
    from engine.odds.aa_battle import Work

    seen: list[int] = []
    add = Work.add

    def counting(self: Work, n: int) -> None:
        seen.append(self.done + n)
        add(self, n)

    monkeypatch.setattr(Work, "add", counting)
    return seen


@pytest.mark.parametrize("options", [{}, {"rounds": 3}, {"retreat_chance": 40}])
def test_work_limit_refuses_as_soon_as_it_is_passed(monkeypatch: pytest.MonkeyPatch, options: dict[str, object]) -> None:
    # Discord's limit on the numpy solve (bot.commands.odds.MAX_WORK): outer product
    # terms and casualty cells are counted before each batch of products is spread (or,
    # backward, mixed: a retreat by win chance), in the solve, the round walk and the
    # backward pass.  A battle of submarines striking every round (no defending
    # destroyer, A-10.6) against aircraft that cannot hit them.
    from engine.core.errors import PlayerError

    battle = AABattle.parse("6 sub, 2 cru, 1 bom", "4 cru, 2 car, 3 fig", mode="sea", **options)  # type: ignore[arg-type]
    seen = _work_seen(monkeypatch)
    free = aa_odds(battle)
    whole, batches = max(seen), len(seen)
    assert whole > 1000 and batches > 5
    assert aa_odds(battle, max_work=whole) == free  # exactly its work: answered, the same
    seen.clear()
    with pytest.raises(PlayerError, match="too big") as err:
        aa_odds(battle, max_work=whole // 3)
    assert "/odds aa" in err.value.text() and "--" not in err.value.text()
    # Refused at the first batch past the limit, not at the end.
    assert len(seen) < batches and seen[-1] > whole // 3 >= seen[-2]


def test_backward_pass_work_is_counted_by_the_traced_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # A retreat by win chance: the backward pass (NavalSolver.win_chances) mixes the
    # general fire of every node the traced solve kept; that work is counted as the
    # traced solve meets them, so a battle whose two passes pass the limit is refused
    # during the first (the 100-a-side strike battle at 40 %: after ~11 s instead of
    # ~28 s), and the backward pass counts nothing more.
    from engine.core.errors import PlayerError
    from engine.odds import aa_naval

    battle = AABattle.parse("6 sub, 2 cru, 1 bom", "4 cru, 2 car, 3 fig", mode="sea", retreat_chance=40)
    seen = _work_seen(monkeypatch)
    at: list[tuple[int, int]] = []
    chances = aa_naval.NavalSolver.win_chances

    def recorded(self: aa_naval.NavalSolver) -> Any:
        before = self.work.done
        got = chances(self)
        at.append((before, self.work.done))
        return got

    monkeypatch.setattr(aa_naval.NavalSolver, "win_chances", recorded)
    free = aa_odds(battle)
    (before, after), whole = at[0], max(seen)
    assert before == after and 0 < before < whole
    assert aa_odds(battle, max_work=whole) == free
    at.clear()
    with pytest.raises(PlayerError, match="too big"):
        aa_odds(battle, max_work=before - 1)
    assert not at  # refused before the backward pass began


def test_work_limit_holds_every_solve_of_an_answer_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # A retreat by win chance solves the battle twice (and goes back once), a second
    # wave adds a battle: one answer's solves count against one limit.
    from engine.core.errors import PlayerError
    from engine.odds import aa_naval

    seen = _work_seen(monkeypatch)
    solvers: list[object] = []
    init = aa_naval.NavalSolver.__init__

    def counted(self: aa_naval.NavalSolver, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        solvers.append(self)

    monkeypatch.setattr(aa_naval.NavalSolver, "__init__", counted)
    for options in ({"retreat_chance": 40}, {"wave2": "3 sub, 1 cru"}):
        battle = AABattle.parse("6 sub, 2 cru, 1 bom", "4 cru, 2 car, 3 fig", mode="sea", **options)  # type: ignore[arg-type]
        seen.clear()
        solvers.clear()
        aa_odds(battle)
        whole = max(seen)
        assert len(solvers) == 2 and len({id(s.work) for s in solvers}) == 1  # type: ignore[attr-defined]
        assert aa_odds(battle, max_work=whole).attacker_win > 0
        with pytest.raises(PlayerError, match="too big"):
            aa_odds(battle, max_work=whole - 1)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("4 sub, 1 des, 2 fig", "3 sub, 1 car, 2 fig", {"mode": "sea", "low_luck": True}),
        ("3 sub, 1 bat", "2 sub, 1 des, 1 cru", {"mode": "sea", "rules": "1942se"}),
        # The general engine forced on land and amphibious battles (AA fire before
        # round 1, bombarded defenders firing back): the same solve, no submarines.
        ("3 inf, 1 art, 1 tank, 2 fig, 1 bom", "4 inf, 1 tank, 1 aa", {"engine": "general"}),
        ("3 inf, 1 tank", "3 inf, 1 art", {"mode": "amphibious", "bombard": "1 bat, 1 cru", "engine": "general"}),
    ],
)
def test_numpy_solve_other_battles_match_exact_fractions(
    attacker: str, defender: str, options: dict[str, object]
) -> None:
    engine = str(options.pop("engine", "auto"))
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    exact = aa_odds(battle, exact=True, engine=engine)
    floats = aa_odds(battle, engine=engine)
    assert floats.engine == "general"
    assert exact.exact is not None
    assert floats.error_bound < 1e-12
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)
    assert floats.expected_rounds == pytest.approx(exact.expected_rounds, abs=1e-12)
    for side in ("attacker", "defender"):
        for count, p in exact.survivor_count[side].items():
            assert floats.survivor_count[side].get(count, 0.0) == pytest.approx(p, abs=1e-12)


def test_numpy_solve_in_small_chunks_gives_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.odds.aa_naval as naval

    battle = AABattle.parse("5 sub, 2 des, 1 car, 2 fig, 1 bat", "4 sub, 2 des, 1 cru, 1 car, 2 fig", mode="sea")
    whole, _ = _both(battle)
    monkeypatch.setattr(naval, "CHUNK", 37)  # many chunks per level, parts bigger than one
    chunked, old = _both(battle)
    for outcome in OUTCOMES:
        assert chunked.outcome[outcome] == pytest.approx(whole.outcome[outcome], abs=1e-14)
        assert chunked.outcome[outcome] == pytest.approx(old.outcome[outcome], abs=1e-12)
    close(chunked.attacker_end, old.attacker_end)
    close(chunked.defender_end, old.defender_end)


def test_numpy_solve_matches_the_dict_solve_when_submarines_strike_every_round() -> None:
    """No destroyer on one side or both: surprise strikes every round, restricted hits
    on both sides, strikes reaching the same pair of states from many origins, with
    transports, submerging and the attacker's retreat."""
    rng = random.Random(1942)
    checked = 0
    for _ in range(50):
        who = rng.choice(["attacker", "defender", "both"])
        attacker = strike_fleet(rng, False, destroyers=who == "defender")
        defender = strike_fleet(rng, True, destroyers=who == "attacker")
        options: dict[str, object] = {}
        pick = rng.random()
        if pick < 0.2:
            options["submerge_attacker"] = True
        elif pick < 0.35:
            options["submerge_defender"] = True
        elif pick < 0.5:
            options["retreat_below"] = rng.randint(1, 3)
        battle = AABattle.parse(attacker, defender, mode="sea", ool_attacker=rng.choice(["", "sub", "bat,cru"]),
                                **options)  # type: ignore[arg-type]  # fmt: skip
        if not any(u == "submarine" for u in (*battle.attacker, *battle.defender)):
            continue
        _assert_solves_agree(battle)
        checked += 1
    assert checked >= 45


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("6 sub", "5 sub", {}),  # all submarines: strikes only, nothing fires after them
        ("4 sub", "3 sub, 2 tra", {}),  # lone transports sink without dice
        ("3 sub, 1 fig", "2 sub, 1 car, 2 fig", {}),  # aircraft without destroyers on either side
        ("3 sub, 2 fig, 1 des", "3 sub, 1 car, 1 fig", {}),  # the attacker's aircraft may hit subs
        ("4 sub, 1 bat", "3 sub, 1 bat, 1 cru", {"submerge_defender": True}),
        ("4 sub, 1 cru", "4 sub, 1 car, 2 fig", {"retreat_below": 2}),
        ("3 sub, 1 bom", "2 sub, 1 cru, 1 tra", {"submerge_attacker": True}),
        # Fewer attackers than the retreat threshold from the start: round 1 is still
        # fought (the order applies after a round), by the dict-based first round.
        ("2 sub, 1 fig", "3 sub", {"retreat_below": 4}),
    ],
)
def test_numpy_solve_with_strikes_every_round_matches_exact_fractions(
    attacker: str, defender: str, options: dict[str, object]
) -> None:
    assert_floats_match_fractions(AABattle.parse(attacker, defender, mode="sea", **options))  # type: ignore[arg-type]


def test_all_submarine_battle_is_solved_pair_by_pair() -> None:
    """100 submarines a side: each pair of states is one node (its strikes, then no
    general fire at all), so the solve visits at most 101 x 101 of them."""
    battle = AABattle.parse("100 sub", "100 sub", mode="sea")
    with pytest.raises(Exception, match="too big"):
        aa_odds(battle, max_states=1_000)
    odds = aa_odds(battle, max_states=101 * 101)
    assert odds.attacker_win + odds.defender_win + odds.draw == pytest.approx(1.0, abs=1e-12)
    assert odds.error_bound < 1e-12
    # Attacking submarines hit on 2, defending ones on 1: the attacker nearly always wins.
    assert odds.attacker_win == pytest.approx(0.99999976865569, abs=1e-12)


def test_restrictions_that_cannot_bind_are_skipped_exactly() -> None:
    """Where _restricted says no restriction can bind (every restricted hit lands
    before the first step it may not take), the casualties along the plain loss order
    are those of the restricted table, state for state."""
    import numpy as np

    from engine.odds.aa_naval import _chain_batch, _Numbered, _restricted, _restricted_casualties

    rng = random.Random(1943)
    skipped = 0
    for _ in range(30):
        battle = AABattle.parse(strike_fleet(rng, False, rng.random() < 0.5), strike_fleet(rng, True, rng.random() < 0.5),
                                mode="sea", ool_attacker=rng.choice(["", "sub", "fig,cru", "bom,sub"]),
                                ool_defender=rng.choice(["", "fig", "sub,fig", "car"]))  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        for target_side, shooter_side, attacking in ((setup.attacker, setup.defender, True),
                                                     (setup.defender, setup.attacker, False)):  # fmt: skip
            target = _Numbered(target_side, setup, attacking)
            shooter = _Numbered(shooter_side, setup, not attacking)
            targets = [target_side.start]
            for _ in range(3):
                targets.append(target_side.take_hits(targets[-1], rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 1)))
            shooters = [shooter_side.start, shooter_side.take(shooter_side.start, rng.randint(0, 3))]
            for st in targets:
                t = target.number(st)
                for ss in shooters:
                    s = shooter.number(ss)
                    for variant in range(4):
                        fire = shooter.fire(s, variant >= 2, bool(variant & 1))
                        ts, fks = np.array([t]), np.array([fire[0]])
                        fmeta = target.fire_meta(shooter, fks)
                        if _restricted(target, ts, fmeta)[0] or (len(fire[1]) == 1 and len(fire[2]) == 1):
                            continue
                        c_off, n_c = target.seq_meta(ts, False)
                        d_off, n_d = target.conv_meta(shooter, fks)
                        plain = _chain_batch(target, ts, c_off, n_c, d_off, n_d, 0)
                        table = _restricted_casualties(target, ts, fmeta)
                        p_idx, p_p, _ = target.gather(plain)
                        t_idx, t_p, _ = target.gather(table)
                        got = dict(zip(p_idx.tolist(), p_p.tolist()))
                        want = dict(zip(t_idx.tolist(), t_p.tolist()))
                        assert got.keys() == want.keys(), (battle, st, ss, variant)
                        for k, p in want.items():
                            assert got[k] == pytest.approx(p, abs=1e-15)
                        assert target.stay[plain[0]] == pytest.approx(target.stay[table[0]], abs=1e-15)
                        skipped += 1
    assert skipped > 100, skipped


def test_levels_results_dropped_after_them_give_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A side whose casualty distributions are nearly all new drops each level's after
    it (their memory used again, their memo cells forgotten): forced from the first
    level on, on fleets where strikes happen every round, the answer is unchanged."""
    import engine.odds.aa_naval as naval

    rng = random.Random(1942)
    for _ in range(8):
        battle = AABattle.parse(strike_fleet(rng, False, rng.random() < 0.5), strike_fleet(rng, True, rng.random() < 0.5),
                                mode="sea")  # fmt: skip
        kept = aa_odds(battle)
        with monkeypatch.context() as patch:
            patch.setattr(naval, "TRANSIENT_AFTER", 0)
            patch.setattr(naval, "TRANSIENT_SHARE", 0.0)
            dropped = aa_odds(battle)
        assert_same_odds(dropped, kept, 1e-14, keys=(*ODDS_KEYS, "error_bound"), note=battle)


@pytest.mark.parametrize(
    ("attacker", "defender", "held"),
    [
        ("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig", True),  # the attacker's submarines strike
        ("8 sub, 4 cru, 2 bat, 6 fig", "8 sub, 4 car, 2 bat, 6 fig", True),  # both sides' (A-10.6)
        ("8 cru, 4 car, 2 bat, 6 fig", "12 sub, 4 cru, 2 bat, 1 car, 2 fig", False),  # only the defender's
        ("6 sub, 4 des, 2 cru", "6 sub, 2 des, 2 car, 4 fig", False),  # only once destroyers are lost
    ],
)
def test_general_fire_held_back_is_merged_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, held: bool
) -> None:
    """Where the attacker's submarines strike every round (no defending destroyer, A-10.6),
    its states that differ only in submarines roll the same general fire: held back
    (engine.odds.aa_naval._Deferred), their products are made once per merged entry.
    Its casualties are then split (_Deferred.add_split: its submarines lead its loss
    order, the defender's general fire has no submarine dice): the unrestricted hits
    first, the aircraft's hits (which may not take submarines, A-10.14) from the states
    they leave, merged, instead of a stored distribution per pair of states.  The
    answer is the same to 1e-13, survivors included, for a fraction of the products;
    the products counted against Discord's limit are the same (the products the held
    entries stand for), so the limit takes and refuses the same battles (the split
    counts the casualty cells it enumerates: fewer where nearly every distribution was
    new, more where they were reused).  Other battles are
    solved as they were."""
    import engine.odds.aa_naval as naval

    battle = AABattle.parse(attacker, defender, mode="sea")
    spread = naval._spread
    made = [0]
    charged = [0]
    splits = [0]

    def counted(table: object, a_idx: object, a_val: object, la: Any, d_idx: object, d_val: object, ld: Any) -> None:
        made[0] += int(la @ ld)
        spread(table, a_idx, a_val, la, d_idx, d_val, ld)  # type: ignore[arg-type]

    charge = naval.NavalSolver._charge

    def charging(self: naval.NavalSolver, products: int) -> None:
        charged[0] += products
        charge(self, products)

    add_split = naval._Deferred.add_split

    def splitting(self: naval._Deferred, *args: Any) -> float:
        splits[0] += 1
        return add_split(self, *args)

    monkeypatch.setattr(naval, "_spread", counted)
    # the products counted where numpy makes them (not the compiled loop numba brings)
    monkeypatch.setattr(naval.compiled, "numba_loaded", lambda: False)
    monkeypatch.setattr(naval, "COMPILED_PRODUCTS", 10**18)
    monkeypatch.setattr(naval.NavalSolver, "_charge", charging)
    monkeypatch.setattr(naval._Deferred, "add_split", splitting)
    answers, work, products, products_charged, split_calls = [], [], [], [], []
    for hold, split in ((False, True), (True, False), (True, True)):
        monkeypatch.setattr(naval, "HOLD_BACK", hold)
        monkeypatch.setattr(naval, "SPLIT", split)
        seen = _work_seen(monkeypatch)
        made[0] = charged[0] = splits[0] = 0
        answers.append(aa_odds(battle))
        work.append(max(seen))
        products.append(made[0])
        products_charged.append(charged[0])
        split_calls.append(splits[0])
    plain = answers[0]
    for merged in answers[1:]:
        assert_same_odds(merged, plain, 1e-13)
        assert merged.error_bound < 1e-13
        for side in ("attacker", "defender"):
            assert merged.expected_ipc_loss[side] == pytest.approx(plain.expected_ipc_loss[side], abs=1e-11)
    if held:
        assert products[1] < 0.6 * products[0], products
        assert products[2] < 0.6 * products[0], products
        assert work[1] == pytest.approx(work[0], rel=1e-3)  # the nodes kept may differ by a few
        assert products_charged[2] == pytest.approx(products_charged[1], rel=1e-3)
        assert split_calls[1] == 0 < split_calls[2]
        # What else is counted is the casualty cells enumerated: here up to a tenth of
        # the work (products grow faster than cells with the battle).
        assert work[2] == pytest.approx(work[1], rel=0.15)
    else:
        assert products[1] == products[2] == products[0] and work[1] == work[2] == work[0]
        assert split_calls == [0, 0, 0]


def test_split_casualties_are_the_stored_distributions() -> None:
    """Held-back general fire on an attacker whose submarines lead its loss order, under
    fire with no submarine dice, takes its casualties in two steps
    (engine.odds.aa_naval._Deferred.add_split): the unrestricted hits along its loss
    order, then the aircraft's hits, which may not take submarines (A-10.14), along the
    steps that are not submarines.  Computed here that way by hand, it is the stored
    distribution of the table of where hits land (the aircraft's hits first, then the
    others); and NavalSolver._split_facts gives that distribution's chance of no change
    and its number of states."""
    import numpy as np

    from engine.odds.aa_naval import NavalSolver, _cas_ids
    from engine.odds.aa_side import CAT_SUB

    rng = random.Random(1942)
    checked = 0
    for _ in range(40):
        attacker = strike_fleet(rng, False, False)
        if "sub" not in attacker:
            attacker += ", 2 sub"
        battle = AABattle.parse(attacker, strike_fleet(rng, True, False) + ", 2 fig, 1 car", mode="sea")
        setup, _ = setup_battle(battle, 1.0)
        solver = NavalSolver(setup)
        A, D = solver.A, solver.D
        for _ in range(6):
            st = setup.attacker.take_hits(setup.attacker.start, rng.randint(0, 2), 0, rng.randint(0, 2))
            i = A.number(st)
            if not A.sub[i] or not A.subs_lead(np.array([i]))[0]:
                continue
            j = D.number(setup.defender.take_hits(setup.defender.start, rng.randint(0, 1), 0, rng.randint(0, 2)))
            fk, sub_d, air_d, any_d = D.fire(j, False, rng.random() < 0.3)
            assert len(sub_d) == 1
            ca = _cas_ids(A, np.array([i]), np.array([fk]), D)
            rows, p, _ = A.gather(ca)
            stored = {A.slot_state[r]: float(q) for r, q in zip(rows.tolist(), p.tolist())}
            by_hand: dict[int, float] = {}
            plain = A.seq(i)
            for hy, py in enumerate(any_d.tolist()):
                c = int(plain[min(hy, len(plain) - 1)])
                chain = A.restricted_seq(c, CAT_SUB)
                for ha, pa in enumerate(air_d.tolist()):
                    r = int(chain[min(ha, len(chain) - 1)])
                    by_hand[r] = by_hand.get(r, 0.0) + py * pa
            assert stored.keys() == by_hand.keys()
            for r, q in stored.items():
                assert q == pytest.approx(by_hand[r], abs=1e-15)
            fmeta = A.fire_meta(D, np.array([fk]))
            stay, sure, lens = solver._split_facts(np.array([i]), fmeta)
            assert stay[0] == pytest.approx(A.stay[ca[0]], abs=1e-15) and lens[0] == A.res_len[ca[0]]
            assert sure[0] == A.still[ca[0]]
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize("options", [{}, {"retreat_after": 2}])
def test_restricted_casualties_in_batches_change_nothing(monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]) -> None:
    """The casualty distributions under restricted hits (A-10.14: aircraft that may not
    hit submarines) that a step needs are computed in batches of at most CELLS_AT_ONCE
    cells, so a round walk's big last round (a strafe after 2 rounds of 100 a side with
    submarines striking every round: ~1.7e8 cells at once, a peak of 4.8 GB) stays
    within a fraction of that memory.  Batches of a few items give the same answer (the
    states' table slots are numbered in another order: sums may differ in the last
    bit).  The split of held-back fire (SPLIT) is off here: it needs none of them."""
    import engine.odds.aa_naval as naval

    battle = AABattle.parse("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig", mode="sea", **options)
    calls = [0]
    restricted = naval._restricted_casualties

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return restricted(*args)

    monkeypatch.setattr(naval, "_restricted_casualties", counting)
    monkeypatch.setattr(naval, "SPLIT", False)
    whole = aa_odds(battle)
    once = calls[0]
    monkeypatch.setattr(naval, "CELLS_AT_ONCE", 200)
    calls[0] = 0
    batched = aa_odds(battle)
    assert calls[0] > 3 * once > 0
    assert_same_odds(batched, whole, 1e-15, keys=(*ODDS_KEYS, "error_bound"))


@pytest.mark.parametrize("options", [{"retreat_after": 2}, {"rounds": 3}])
def test_round_walk_in_batches_of_pairs_changes_nothing(monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]) -> None:
    """A round walk (a round limit, a strafe) spreads a round's general fire by batches
    of at most WALK_PAIRS pairs of states, a side whose casualty distributions are
    nearly all new dropping each batch's once spread (engine.odds.aa_naval._Numbered
    .release), so the distributions of a big round are never all in memory (a strafe
    after 2 rounds of 100 a side with submarines striking every round: 3 GB -> 0.6 GB).
    Batches of a few pairs, dropped every time, give the same answer."""
    import engine.odds.aa_naval as naval

    battle = AABattle.parse("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig, 1 sub", mode="sea", **options)
    released = [0]
    release = naval._Numbered.release

    def counting(self: naval._Numbered) -> None:
        released[0] += self._written is not None
        release(self)

    monkeypatch.setattr(naval._Numbered, "release", counting)
    whole = aa_odds(battle)
    assert released[0] == 0
    monkeypatch.setattr(naval, "WALK_PAIRS", 7)
    monkeypatch.setattr(naval, "TRANSIENT_AFTER", 10)
    batched = aa_odds(battle)
    assert released[0] > 10
    assert_same_odds(batched, whole, 1e-15, keys=(*ODDS_KEYS, "error_bound"))


@pytest.mark.parametrize("options", [{"retreat_after": 2}, {"rounds": 3}])
def test_round_walk_splits_casualties_where_submarines_strike(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]
) -> None:
    """A round walk (a round limit, a strafe) splits the casualties of an attacker whose
    submarines strike every round (no defending destroyer, A-10.6) and lead its loss
    order, as the solve does (engine.odds.aa_naval._Deferred.add_split, each round's
    spread at once, the last round's by its shortcut): the same answer, survivors
    included, as with a stored distribution per pair (the 100-a-side strike battle's
    strafe after 2 rounds: ~7 s -> ~1.2 s)."""
    import engine.odds.aa_naval as naval

    battle = AABattle.parse("12 sub, 4 cru, 2 bat, 2 bom", "8 cru, 4 car, 2 bat, 6 fig", mode="sea", **options)
    splits = [0]
    add_split = naval._Deferred.add_split

    def splitting(self: naval._Deferred, *args: Any) -> float:
        splits[0] += 1
        return add_split(self, *args)

    monkeypatch.setattr(naval._Deferred, "add_split", splitting)
    answers, charged = [], []
    charge = naval.NavalSolver._charge
    products = [0]

    def charging(self: naval.NavalSolver, n: int) -> None:
        products[0] += n
        charge(self, n)

    monkeypatch.setattr(naval.NavalSolver, "_charge", charging)
    for split in (False, True):
        monkeypatch.setattr(naval, "SPLIT", split)
        splits[0] = products[0] = 0
        answers.append(aa_odds(battle))
        charged.append(products[0])
        assert (splits[0] > 0) == split
    plain, merged = answers
    assert_same_odds(merged, plain, 1e-14)
    assert merged.error_bound < 1e-13
    # Counted: the products a round's split casualties stand for, in the last round too,
    # where the shortcut (each side's share where both are left alone) spread fewer of a
    # distribution per pair and counted only those: never less.
    assert charged[1] >= charged[0] * (1 - 1e-3) > 0


def test_split_casualties_on_random_strike_battles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random fleets whose submarines strike (A-10.6) against aircraft that cannot hit
    them (A-10.14), with round limits, strafes, retreats by win chance and low luck:
    the split casualties (engine.odds.aa_naval.SPLIT) give every chance and the
    survivors as a stored distribution per pair does, within the two answers' error
    bounds (and the rounding of a few sums)."""
    import engine.odds.aa_naval as naval

    splits = [0]
    add_split = naval._Deferred.add_split

    def splitting(self: naval._Deferred, *args: Any) -> float:
        splits[0] += 1
        return add_split(self, *args)

    monkeypatch.setattr(naval._Deferred, "add_split", splitting)
    rng = random.Random(1943)
    choices: list[dict[str, Any]] = [{}, {}, {"rounds": 2}, {"retreat_after": 3}, {"retreat_chance": 50}, {"low_luck": True}]
    split_battles = 0
    for _ in range(30):
        attacker = strike_fleet(rng, False, False) + f", {rng.randint(2, 8)} sub"
        defender = strike_fleet(rng, True, rng.random() < 0.2) + f", {rng.randint(1, 4)} fig, 2 car"
        battle = AABattle.parse(attacker, defender, mode="sea", **rng.choice(choices))
        monkeypatch.setattr(naval, "SPLIT", False)
        plain = aa_odds(battle)
        monkeypatch.setattr(naval, "SPLIT", True)
        splits[0] = 0
        split = aa_odds(battle)
        split_battles += splits[0] > 0
        tol = plain.error_bound + split.error_bound + 1e-14
        assert_same_odds(split, plain, tol, same_states=False, note=(attacker, defender))
    assert split_battles >= 15


def _random_targets(rng: random.Random, battles: int) -> Iterator[tuple[BattleSetup[float], Side, bool, State]]:
    """Both sides of ``battles`` random fleets whose submarines may strike, each in a
    state after a few hits of each class: ``(setup, side, attacking, state)``."""
    for _ in range(battles):
        battle = AABattle.parse(strike_fleet(rng, False, rng.random() < 0.5), strike_fleet(rng, True, rng.random() < 0.5),
                                mode="sea")  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        for side, attacking in ((setup.attacker, True), (setup.defender, False)):
            yield setup, side, attacking, side.take_hits(side.start, rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 1))


def test_tables_number_states_fewest_hits_first() -> None:
    """A target's table of where hits land numbers its states fewest hits from the
    target first, with how many are within h hits (what a batch of casualty
    distributions reads: engine.odds.aa_naval._restricted_casualties)."""
    import numpy as np

    from engine.odds.aa_naval import _Numbered

    rng = random.Random(1944)
    checked = 0
    for setup, side, attacking, st in _random_targets(rng, 20):
        target = _Numbered(side, setup, attacking)
        t = target.number(st)
        numbers, local = target.table(t, rng.randint(1, 4), rng.randint(1, 4))
        lost = target.hp_arr[t] - target.hp_arr[numbers]
        assert lost[0] == 0 and numbers[0] == t and (np.diff(lost) >= 0).all()
        meta = target.tmeta[t]
        within = target._pstore.data[meta[5] : meta[5] + target.hp_arr[t] + 1]
        assert within.tolist() == [int((lost <= h).sum()) for h in range(int(target.hp_arr[t]) + 1)]
        # Every cell's state is at most its hits from t.
        hs, ha, hy = np.indices(local.shape)
        assert (lost[local] <= hs + ha + hy).all()
        checked += 1
    assert checked == 40


def test_defeats_recorded_at_once_are_those_the_rules_end() -> None:
    """A-10.7: the pairs the sea solve records at once as the attacker's win (a
    defender with nothing left, or transports alone, which sink without dice when the
    attacker can still fire; NavalSolver._won) are exactly those where the end-of-round
    rules (BattleSetup.settle) end the battle so, among quiet attacker states; and the
    defender's state recorded is the one settle leaves.  Attackers with transports too,
    so that some quiet attacker states cannot fire (then nothing sinks: a stalemate)."""
    import numpy as np

    from engine.odds.aa_battle import ATTACKER
    from engine.odds.aa_naval import NavalSolver

    rng = random.Random(1907)
    won_seen = cannot_fire = 0
    for _ in range(25):
        attacker = fleet(rng, False) + (f", {rng.randint(1, 2)} tra" if rng.random() < 0.5 else "")
        defender = fleet(rng, True)
        if "tra" not in defender:
            defender += f", {rng.randint(1, 3)} tra"
        battle = AABattle.parse(attacker, defender, mode="sea")
        setup, _ = setup_battle(battle, 1.0)
        solver = NavalSolver(setup)
        sides = []
        for side, numbered in ((setup.attacker, solver.A), (setup.defender, solver.D)):
            states = {side.start}
            for _ in range(60):  # states after random hits of each class
                states.add(side.take_hits(side.start, rng.randint(0, 6), rng.randint(0, 3), rng.randint(0, 3)))
            states.add(tuple(n if side.profiles[s.unit].transport else 0 for s, n in zip(side.slots, side.start)))
            states.add(tuple(0 for _ in side.start))
            sides.append(np.array(sorted(numbered.number(st) for st in states), dtype=np.int64))
        ii, jj = (a.ravel() for a in np.meshgrid(*sides, indexing="ij"))
        won, to = solver._won(ii, jj)
        for k in range(len(ii)):
            i, j = int(ii[k]), int(jj[k])
            a, d = solver.A.states[i], solver.D.states[j]
            outcome, a3, d3 = setup.settle(a, d)
            quiet = setup.quiet(a, True)
            doomed = setup.defender.alive(d) == 0 or setup.defender.only(d, ("transport",))
            if won[k]:
                assert (outcome, a3, d3) == (ATTACKER, a, solver.D.states[int(to[k])]), (attacker, defender, a, d)
                won_seen += 1
            elif quiet and doomed:
                assert outcome != ATTACKER, (attacker, defender, a, d)
                cannot_fire += 1
            else:
                assert not (quiet and doomed)
    assert won_seen > 500 and cannot_fire > 0, (won_seen, cannot_fire)


def test_tables_of_where_hits_land_are_take_hits_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A-10.6, A-10.14: every cell (hs submarine hits, ha aircraft hits, hy others) of a
    target's table of where hits land is the state Side.take_hits leaves, whether the
    table is read along its chains by numpy or by the compiled loop
    (aa_naval_kernel.tables_cells, every table asked for at once in one call, each
    read by table_cells); both give the same table, number for number, its
    states ordered by the hit points they lost, and the same counts of the states a
    fire of at most h hits reaches."""
    import numpy as np

    from engine.odds import aa_naval, aa_naval_kernel
    from engine.odds.aa_naval import _Numbered

    aa_naval_kernel.warm()
    calls: list[int] = []
    loop = aa_naval_kernel.tables_cells

    def counted(*args: Any) -> Any:
        calls.append(1)
        return loop(*args)

    monkeypatch.setattr(aa_naval_kernel, "tables_cells", counted)
    rng = random.Random(1941)
    cells = 0
    for setup, side, attacking, st in _random_targets(rng, 40):
        ns, na = rng.randint(1, 5), rng.randint(1, 5)
        tables = []
        for loaded in (False, True):
            monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
            target = _Numbered(side, setup, attacking)
            t = target.number(st)
            numbers, local = target.table(t, ns, na)
            meta = target.tmeta[t]
            upto = target._pstore.data[meta[5] : meta[5] + meta[3]].copy()
            tables.append((numbers, local, upto))
            for hs, ha, hy in np.ndindex(*local.shape):
                assert target.states[int(numbers[local[hs, ha, hy]])] == side.take_hits(st, hs, ha, hy)
                cells += 1
            lost = [side.hp(st) - side.hp(target.states[int(n)]) for n in numbers]
            assert lost == sorted(lost) and len(set(numbers.tolist())) == len(numbers)
            assert upto.tolist() == [sum(x <= h for x in lost) for h in range(side.hp(st) + 1)]
        (n0, l0, u0), (n1, l1, u1) = tables
        assert np.array_equal(n0, n1) and np.array_equal(l0, l1) and np.array_equal(u0, u1)
        assert l0.dtype == l1.dtype == np.int32
    assert len(calls) == 80 and cells > 4000, (len(calls), cells)


def test_tables_asked_for_together_are_each_tables_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A-10.6, A-10.14: many targets' tables made in one compiled call
    (aa_naval_kernel.tables_cells, as _restricted_casualties asks for them), some of
    them widened later in another, are each the table Side.take_hits gives, cell by
    cell, with its own counts of the states within h hits; and the same tables as
    numpy makes them, kept in the stores the same way."""
    import numpy as np

    from engine.odds import aa_naval, aa_naval_kernel
    from engine.odds.aa_naval import _Numbered

    aa_naval_kernel.warm()
    rng = random.Random(1945)
    cells = batches = 0
    for _ in range(12):
        battle = AABattle.parse(strike_fleet(rng, False, rng.random() < 0.5), strike_fleet(rng, True, rng.random() < 0.5),
                                mode="sea")  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        for side, attacking in ((setup.attacker, True), (setup.defender, False)):
            starts = {side.take_hits(side.start, rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 2)) for _ in range(6)}
            wanted = [(st, rng.randint(1, 4), rng.randint(1, 4)) for st in sorted(starts)]
            wider = [(st, ns + rng.randint(0, 2), na + rng.randint(0, 2)) for st, ns, na in wanted[::2]]
            got = []
            for loaded in (True, False):
                monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loaded)
                target = _Numbered(side, setup, attacking)
                for ask in (wanted, wider):
                    target.tables({target.number(st): (ns, na) for st, ns, na in ask})
                    batches += loaded
                tables = {}
                for st, ns, na in wanted + wider:
                    t = target.number(st)
                    meta = target.tmeta[t]
                    assert meta[6] >= ns and meta[7] >= na
                    numbers, local = target.table(t, ns, na)  # made already: read back
                    assert np.array_equal(target.tmeta[t], meta)
                    upto = target._pstore.data[meta[5] : meta[5] + meta[3]]
                    lost = [side.hp(st) - side.hp(target.states[int(n)]) for n in numbers]
                    assert lost == sorted(lost) and upto.tolist() == [sum(x <= h for x in lost) for h in range(side.hp(st) + 1)]
                    for hs, ha, hy in np.ndindex(*local.shape):
                        assert target.states[int(numbers[local[hs, ha, hy]])] == side.take_hits(st, hs, ha, hy)
                        cells += 1
                    tables[st] = ([target.states[int(n)] for n in numbers], local)
                got.append(tables)
            compiled_tables, numpy_tables = got
            for st, (states, local) in compiled_tables.items():
                assert states == numpy_tables[st][0] and np.array_equal(local, numpy_tables[st][1])
    assert batches == 48 and cells > 12000, (batches, cells)


# Retreats by win chance the numpy passes take (the strike pass is off in this file):
# destroyers on both sides or on one, K units left, submerging, low luck, a rules set,
# and a battle whose traced solve ends mostly in stalemates at retreat pairs (its
# submarines facing aircraft alone, no destroyer) that the retreats relabel.
NUMPY_RETREATS = [
    ("3 sub, 2 des, 2 cru, 1 bat, 2 fig", "2 sub, 2 des, 1 cru, 1 car, 2 fig", {"retreat_chance": 30}),
    ("4 sub, 1 des, 2 cru, 2 fig", "3 sub, 2 des, 2 cru, 1 car, 2 fig", {"retreat_chance": 60}),
    ("3 sub, 1 des, 1 bat, 2 car, 3 fig", "2 sub, 1 des, 2 cru, 1 car, 2 fig, 2 tra",
     {"retreat_chance": 40, "retreat_left": 3}),
    ("3 sub, 2 des, 2 cru", "3 sub, 1 des, 1 bat, 1 car, 2 fig",
     {"retreat_chance": 50, "submerge_defender": True, "low_luck": True}),
    ("4 sub, 2 cru", "1 des, 2 cru, 1 car, 2 fig", {"retreat_chance": 40, "submerge_attacker": True}),
    ("3 sub, 1 cru", "1 car, 2 fig", {"retreat_chance": 40}),
    ("5 sub, 2 des, 1 cru, 2 bom", "2 sub, 2 cru, 2 car, 4 fig", {"retreat_chance": 20, "rules": "1942se"}),
]
RETREAT_CHANCES = tuple(k for k in ODDS_KEYS if k != "expected_rounds")


def _corrections_seen(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each call of aa_naval.corrected from now on: whether it corrected (not None)."""
    from engine.odds import aa_naval

    ways: list[bool] = []
    corrected = aa_naval.corrected

    def spied(*args: Any, **kwargs: Any) -> Any:
        got = corrected(*args, **kwargs)
        ways.append(got is not None)
        return got

    monkeypatch.setattr(aa_naval, "corrected", spied)
    return ways


def test_numpy_retreats_corrected_agree_with_the_solve_with_the_retreats(monkeypatch: pytest.MonkeyPatch) -> None:
    # by win chance in the numpy passes: the battle with the retreats is the
    # traced solve's (no retreat) corrected where a round ends at a retreat pair
    # (aa_naval.corrected: by linearity, a retreat of the round starts there after a
    # round, less one solve from them that fights their round first, its strikes spread
    # into G cells at once, NavalSolver.solve's ``struck``), or solved again with the
    # retreats.  Each forced in turn (CORRECTION_MAX): every chance, the survivors, the
    # expected rounds and IPC losses agree within both error bounds; the traced solve's
    # stalemates at retreat pairs end as retreats.
    from engine.odds import aa_naval

    ways = _corrections_seen(monkeypatch)
    for attacker, defender, options in NUMPY_RETREATS:
        battle = AABattle.parse(attacker, defender, mode="sea", **options)  # type: ignore[arg-type]
        got = []
        for most in (float("inf"), -1.0):
            monkeypatch.setattr(aa_naval, "CORRECTION_MAX", most)
            ways.clear()
            got.append(aa_odds(battle))
            assert ways == [most > 0], (battle, ways)
        fixed, solved = got
        assert solved.retreat > 1e-6 and fixed.engine == solved.engine == "general"
        tol = fixed.error_bound + solved.error_bound + 1e-15
        assert fixed.error_bound < 1e-12
        assert_same_odds(fixed, solved, tol, keys=RETREAT_CHANCES, same_states=False, note=battle)
        assert fixed.expected_rounds == pytest.approx(solved.expected_rounds, rel=1e-12), battle
        for side in ("attacker", "defender"):
            assert fixed.expected_ipc_loss[side] == pytest.approx(solved.expected_ipc_loss[side], rel=1e-12), battle
    assert aa_odds(AABattle.parse("3 sub, 1 cru", "1 car, 2 fig", mode="sea")).stalemate > 0.9  # relabelled above


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "corrects"),
    [
        # ~5 % of the battle retreats: the correction.
        ("3 sub, 2 des, 2 cru, 1 bat, 2 fig", "2 sub, 2 des, 1 cru, 1 car, 2 fig", {"retreat_chance": 30}, True),
        # ~88 %: the solve with the retreats, which stops there.
        ("4 sub, 1 des, 2 cru, 2 fig", "3 sub, 2 des, 2 cru, 1 car, 2 fig", {"retreat_chance": 60}, False),
        # A round limit: never asked.
        ("3 sub, 2 des, 2 cru, 1 bat, 2 fig", "2 sub, 2 des, 1 cru, 1 car, 2 fig", {"retreat_chance": 30, "rounds": 3},
         None),
    ],
)
def test_which_numpy_retreats_correct_the_traced_solve(
    monkeypatch: pytest.MonkeyPatch, attacker: str, defender: str, options: dict[str, Any], corrects: bool | None
) -> None:
    ways = _corrections_seen(monkeypatch)
    aa_odds(AABattle.parse(attacker, defender, mode="sea", **options))
    assert ways == ([] if corrects is None else [corrects])


def test_a_corrections_rounding_leftovers_are_one_rule_for_floats_and_tables() -> None:
    # A retreat by win chance made as the traced solve's correction: an end the
    # subtraction took from and left at most RESIDUE of what it was (or RESIDUE_FLOOR),
    # or below 0, is rounding (set to 0, in the error bound); an end nothing was taken
    # from stays however small.  The strike pass asks it of tables, the numpy passes of
    # floats: the same answers either way.
    import numpy as np

    from engine.odds.aa_battle import RESIDUE, RESIDUE_FLOOR, rounding_leftover

    cases = [  # (got, took, scale, leftover)
        (-1e-18, 0.0, 1.0, True),  # below 0: rounding whatever was taken
        (1e-17, 0.0, 1.0, False),  # nothing taken: a real end, however small
        (0.5 * RESIDUE, 0.3, 1.0, True),
        (2.0 * RESIDUE, 0.3, 1.0, False),
        (0.5 * RESIDUE_FLOOR, 1e-20, 1e-20, True),  # the floor, where the scale is tiny
        (2.0 * RESIDUE_FLOOR, 1e-20, 1e-20, False),
        (0.5, 0.25, 0.75, False),
    ]
    for got, took, scale, leftover in cases:
        assert bool(rounding_leftover(got, took, scale)) is leftover, (got, took, scale)
    got, took, scale, want = (np.array(column) for column in zip(*cases))
    assert np.array_equal(rounding_leftover(got, took, scale), want)


def test_found_is_isin_by_a_binary_search() -> None:
    # The correction's stale retreat pairs, and the pairs a retreat by win chance acts at,
    # are looked up among the retreat pairs' keys sorted once (aa_naval._found), as
    # np.isin would: keys below, between, equal to and past the sorted ones, repeated, a
    # single sorted key, and none.
    import numpy as np

    from engine.odds.aa_naval import _found

    rng = np.random.default_rng(19)
    for size in (1, 2, 7, 500):
        sorted_keys = np.sort(rng.choice(10_000, size=size, replace=False)).astype(np.int64)
        keys = np.concatenate((rng.integers(-5, 10_010, size=300), sorted_keys[:3], [sorted_keys[-1] + 1, -1]))
        assert np.array_equal(_found(sorted_keys, keys), np.isin(keys, sorted_keys)), size
    nothing = _found(np.zeros(0, dtype=np.int64), np.arange(5))  # no retreat pair at all
    assert nothing.dtype == bool and len(nothing) == 5 and not nothing.any()


# Retreats by win chance where no side has a destroyer (both sides' submarines strike):
# with numba loaded the traced solve holds general fire back as the plain solve does
# (_Deferred, its casualties split where its submarines lead its loss order) and the
# chances backward mirrors it (_HeldValues), from HELD_TRACE_FROM units on (0 here).
# The slowest kind (submarines and aircraft on both sides), transports, K units left,
# submerging, low luck, a rules set.
HELD_RETREATS = [
    ("4 sub, 2 cru, 1 bat, 3 fig", "3 sub, 2 car, 1 bat, 3 fig", {"retreat_chance": 40}),
    ("5 sub, 2 fig, 1 bom, 1 cru", "3 sub, 2 car, 3 fig, 1 tra, 1 cru", {"retreat_chance": 30}),
    ("6 sub, 1 cru, 2 fig", "2 sub, 1 car, 2 fig, 1 bat", {"retreat_chance": 60, "retreat_left": 2}),
    ("4 sub, 1 bat, 2 fig", "3 sub, 1 cru, 1 car, 2 fig",
     {"retreat_chance": 50, "submerge_defender": True, "low_luck": True}),
    ("5 sub, 2 cru, 2 fig", "4 sub, 2 car, 2 fig", {"retreat_chance": 20, "rules": "1942se"}),
]


def _held_values_seen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The nodes aa_naval._HeldValues.values is asked for, call by call, from now on."""
    from engine.odds import aa_naval

    seen: list[int] = []
    values = aa_naval._HeldValues.values

    def spied(self: Any, ii: Any, *args: Any) -> Any:
        seen.append(len(ii))
        return values(self, ii, *args)

    monkeypatch.setattr(aa_naval._HeldValues, "values", spied)
    return seen


def test_held_back_retreats_agree_with_general_fire_not_held_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # by win chance, numba loaded: general fire held back in the traced solve
    # and in the chances backward (each entry's value worked out once for every node
    # that reaches it, every defender entry counted) against HOLD_BACK off (every
    # node's products, as the traced solve spread them): every chance, the survivors,
    # the expected rounds and IPC losses within both error bounds, on battles that
    # retreat; the held path was taken, split casualties included.
    import numba  # noqa: F401  (the held path needs the compiled loops)

    from engine.odds import aa_naval

    monkeypatch.setattr(aa_naval, "HELD_TRACE_FROM", 0)
    seen = _held_values_seen(monkeypatch)
    split = aa_naval._Deferred.add_split
    splits = [0]

    def splitting(self: Any, *args: Any) -> float:
        splits[0] += 1
        return split(self, *args)

    monkeypatch.setattr(aa_naval._Deferred, "add_split", splitting)
    for attacker, defender, options in HELD_RETREATS:
        battle = AABattle.parse(attacker, defender, mode="sea", **options)  # type: ignore[arg-type]
        seen.clear()
        held = aa_odds(battle)
        assert seen and sum(seen) > 0, battle
        monkeypatch.setattr(aa_naval, "HOLD_BACK", False)
        seen.clear()
        plain = aa_odds(battle)
        monkeypatch.setattr(aa_naval, "HOLD_BACK", True)
        assert not seen, battle
        assert held.retreat > 1e-6 and held.engine == plain.engine == "general", battle
        assert held.error_bound < 1e-12, battle
        tol = held.error_bound + plain.error_bound + 1e-15
        assert_same_odds(held, plain, tol, keys=RETREAT_CHANCES, same_states=False, note=battle)
        assert held.expected_rounds == pytest.approx(plain.expected_rounds, rel=1e-12), battle
        for side in ("attacker", "defender"):
            assert held.expected_ipc_loss[side] == pytest.approx(plain.expected_ipc_loss[side], rel=1e-12), battle
    assert splits[0] > 0
    # The attacker's destroyers (little merged there), or below HELD_TRACE_FROM units:
    # every node's products, as before.
    seen.clear()
    aa_odds(AABattle.parse("5 sub, 2 des, 2 fig", "3 sub, 2 car, 3 fig", mode="sea", retreat_chance=30))
    assert not seen
    monkeypatch.setattr(aa_naval, "HELD_TRACE_FROM", 26)
    aa_odds(AABattle.parse("6 sub, 2 cru, 2 bat, 2 fig", "6 sub, 2 car, 2 bat, 3 fig", mode="sea", retreat_chance=30))
    assert not seen  # 25 units
    aa_odds(AABattle.parse("6 sub, 2 cru, 2 bat, 2 fig", "6 sub, 2 car, 2 bat, 4 fig", mode="sea", retreat_chance=30))
    assert seen  # 26


def test_held_back_win_chances_are_intervals_that_meet_the_products_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    # The chances backward's intervals (the attacker's chance to win by fighting on,
    # ) with general fire held back and without: both hold the exact chance, so
    # at every pair both traced solves kept they meet, and the held one, which counts
    # every defender entry, is never much wider.
    import numba  # noqa: F401

    import numpy as np

    from engine.odds import aa_naval
    from engine.odds.aa_retreat import numpy_pass

    monkeypatch.setattr(aa_naval, "HELD_TRACE_FROM", 0)
    seen = _held_values_seen(monkeypatch)
    for attacker, defender, options in HELD_RETREATS[:3]:
        battle = AABattle.parse(attacker, defender, mode="sea", **options)  # type: ignore[arg-type]
        got = []
        for hold in (True, False):
            monkeypatch.setattr(aa_naval, "HOLD_BACK", hold)
            seen.clear()
            setup, _ = setup_battle(battle, 1.0)
            solver, (ii, jj, low, high, _) = numpy_pass(setup)
            assert bool(seen) == hold, battle
            states_a, states_d = solver.A.states, solver.D.states  # (each solve numbers its own states)
            got.append({(states_a[i], states_d[j]): (lo, hi) for i, j, lo, hi in zip(ii.tolist(), jj.tolist(), low, high)})
        held, plain = got
        common = held.keys() & plain.keys()
        assert len(common) > 20, battle
        lo_h, hi_h = np.array([held[k] for k in common]).T
        lo_p, hi_p = np.array([plain[k] for k in common]).T
        assert np.all(np.maximum(lo_h, lo_p) <= np.minimum(hi_h, hi_p) + 1e-12), battle
        assert np.all(hi_h - lo_h <= hi_p - lo_p + 1e-9), battle
