"""The fast engine's packed float solver (``engine.odds.aa_fast._solve_packed``) against
exact fractions, and the report's per-line sums against the state-by-state ones.

Float mode for small battles goes through the packed solver (big-integer rows, the
row's own chain pulled column by column, each defender score packed only where it is
possible); exact mode walks the same chain state by state in fractions.  Every number
of the report must agree to 1e-12, and the reported error bound must stay tiny."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.odds.aa import SMALL_CELLS, AABattle, AAOdds, _result, aa_odds, setup_battle
from engine.odds.aa_battle import table_cells
from engine.odds.aa_fast import FastEngine, LineTally
from engine.odds.aa_units import catalogue
from engine.odds.dist import N

LAND_ATT = ["infantry", "artillery", "tank", "fighter", "bomber"]
LAND_DEF = ["infantry", "artillery", "tank", "fighter", "aa gun"]
TOL = 1e-12


def assert_float_matches_exact(floats: AAOdds, exact: AAOdds) -> None:
    """Every number of the float report equals the exact report's to ``TOL``."""
    assert exact.exact is not None
    assert floats.error_bound < 1e-13
    tol = TOL + floats.error_bound
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=tol), key
    for key in ("retreat", "stalemate", "unfinished"):
        assert getattr(floats, key) == pytest.approx(getattr(exact, key), abs=tol), key
    assert floats.expected_rounds == pytest.approx(exact.expected_rounds, abs=1e-11)
    for side in ("attacker", "defender"):
        assert list(floats.expected_survivors[side]) == list(exact.expected_survivors[side])
        for unit, v in exact.expected_survivors[side].items():
            assert floats.expected_survivors[side][unit] == pytest.approx(v, abs=1e-11)
        assert floats.expected_ipc_loss[side] == pytest.approx(exact.expected_ipc_loss[side], abs=1e-10)
        # Final states less likely than the fixed point's resolution (2**-60) may be
        # missing from the float report: compare every state either report has.
        got = {tuple(sorted(k.items())): p for k, p in floats.survivors[side]}
        want = {tuple(sorted(k.items())): p for k, p in exact.survivors[side]}
        assert len(got) <= len(want)
        for k in want.keys() | got.keys():
            assert got.get(k, 0.0) == pytest.approx(want.get(k, 0.0), abs=tol), k
        counts = floats.survivor_count[side]
        for n, p in exact.survivor_count[side].items():
            assert counts.get(n, 0.0) == pytest.approx(p, abs=tol), n
        assert counts.keys() <= exact.survivor_count[side].keys()


def army(kinds: list[str], most: int) -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(kinds), st.integers(1, most), min_size=1, max_size=4)


@st.composite
def small_battles(draw: st.DrawFn) -> AABattle:
    """Battles small enough for the pure-Python engine (at most ``SMALL_CELLS`` cells)."""
    mode = draw(st.sampled_from(["land", "land", "amphibious"]))
    attacker = draw(army(LAND_ATT, 4))
    defender = draw(army(LAND_DEF, 4))
    if defender.get("aa gun"):
        defender["aa gun"] = 1
        if mode == "land" and not any(k in defender for k in ("infantry", "artillery", "tank", "fighter")):
            defender["infantry"] = 1
    if mode == "amphibious":
        attacker = {k: v for k, v in attacker.items() if k not in ("fighter", "bomber")} or {"tank": 2}
    return AABattle(
        attacker=attacker,
        defender=defender,
        mode=mode,
        bombard=draw(st.dictionaries(st.sampled_from(["battleship", "cruiser"]), st.integers(1, 2)))
        if mode == "amphibious" else {},
        retreat_below=0 if mode == "amphibious" else draw(st.sampled_from([0, 0, 2, 3])),
        keep_land_unit=draw(st.booleans()),
        low_luck=draw(st.booleans()),
        ool_attacker=tuple(draw(st.permutations(LAND_ATT))[: draw(st.integers(0, 2))]),
    )  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_battles())
def test_packed_float_solver_matches_exact_fractions(battle: AABattle) -> None:
    setup, _ = setup_battle(battle, 1.0)
    if table_cells(setup) > SMALL_CELLS:
        return  # the numpy table engine's battle: tested in test_aa_table.py
    floats = aa_odds(battle)
    assert floats.engine == "fast"
    assert_float_matches_exact(floats, aa_odds(battle, exact=True))


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig", {}),  # the bench battle
        ("1 inf", "1 inf, 3 art, 4 fig", {}),  # final states below the fixed point's resolution
        ("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig", {"low_luck": True}),
        ("1 inf", "4 inf, 1 tank", {}),  # one attacking die: at most one hit a round
        ("3 inf, 1 bom", "2 inf, 1 fig", {"low_luck": True}),
        ("7 inf, 3 tank", "8 inf, 2 fig", {"retreat_below": 4}),
        ("6 inf, 2 art, 2 tank", "5 inf, 2 tank, 1 fig", {"keep_land_unit": True}),
        ("4 inf, 2 art, 2 tank", "6 inf, 1 tank, 1 fig", {"mode": "amphibious", "bombard": "1 bat, 1 cru"}),
        ("3 inf, 1 fig, 1 bom", "3 inf, 1 aa", {}),  # AA fire: several attacker blocks
        ("10 tank", "10 inf", {}),
        ("10 inf", "2 tank", {}),
        ("2 des, 1 cru, 2 fig", "1 bat, 1 car, 2 fig, 1 tra", {"mode": "sea"}),
        ("1 tra, 1 des", "2 tra, 1 cru", {"mode": "sea"}),  # defenceless transports
    ],
)
def test_chosen_battles_float_matches_exact(attacker: str, defender: str, options: dict[str, object]) -> None:
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    floats = aa_odds(battle)
    assert floats.engine == "fast"
    assert_float_matches_exact(floats, aa_odds(battle, exact=True))


def test_bench_battle_error_bound_stays_tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    # The error bound counts what rounding to fixed point can lose: as before the
    # packed solver's speed-ups (6.2e-16 then).  The fast engine answers it where numba
    # is not loaded (a one-shot warroom odds), or with the table engine's compiled rows
    # off.
    from engine.odds import aa_table

    battle = AABattle.parse("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig")
    monkeypatch.setattr(aa_table, "ROWS_COMPILED", False)
    odds = aa_odds(battle)
    assert 0 < odds.error_bound < 1e-15
    # Where numba is loaded (the bot, make bench), the compiled rows answer it in
    # decimals: their rounding drift is the bound, 1.6e-15 (6 decimal places of a
    # percentage are still exact by far).
    import numba  # noqa: F401

    monkeypatch.setattr(aa_table, "ROWS_COMPILED", True)
    table = aa_odds(battle)
    assert 0 < table.error_bound < 2e-15
    assert abs(table.attacker_win - odds.attacker_win) <= table.error_bound + odds.error_bound


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig", {}),
        ("3 inf, 1 bom", "2 inf, 1 fig", {"low_luck": True}),
        ("2 bat, 1 des", "1 bat, 1 car, 2 fig", {"mode": "sea"}),  # damaged battleships share keys
        ("4 inf, 1 tank", "3 inf, 1 aa", {"keep_land_unit": True}),
    ],
)
def test_report_line_sums_equal_state_sums(
    attacker: str, defender: str, options: dict[str, object], exact: bool
) -> None:
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    if exact:
        by_line, by_state = both_reports(battle, Fraction(1))
    else:
        by_line, by_state = both_reports(battle, 1.0)
    assert by_line == by_state


def both_reports(battle: AABattle, unit: N) -> tuple[AAOdds, AAOdds]:
    setup, aside = setup_battle(battle, unit)
    tally = FastEngine(setup).run(None)
    assert isinstance(tally, LineTally) and tally.lines is not None
    by_line = _result(battle, setup, aside, tally, "fast", catalogue())
    tally.lines = None  # the state-by-state sums
    by_state = _result(battle, setup, aside, tally, "fast", catalogue())
    return by_line, by_state


def test_memoised_side_tables_give_the_same_answer_again_and_across_battles() -> None:
    # Packed hit distributions, score blocks and report tables are memoised with the
    # sides (several AA blocks here): asking again, or another battle sharing a side,
    # must not change anything.
    battle = AABattle.parse("2 inf, 1 fig, 1 bom", "3 inf, 1 art, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    assert len({s.attacker for s in setup.starts}) == 4 and table_cells(setup) <= SMALL_CELLS
    first = aa_odds(battle)
    assert first.engine == "fast"
    other = AABattle.parse("1 inf, 1 tank, 1 fig, 1 bom", "3 inf, 1 art, 1 aa")
    assert_float_matches_exact(aa_odds(other), aa_odds(other, exact=True))
    again = aa_odds(battle)
    assert again == first
    assert_float_matches_exact(again, aa_odds(battle, exact=True))
