"""The numpy table engine (engine/odds/aa_table.py) against exact fractions (issue 19):
every battle kind it handles (land, AA fire, amphibious with bombardment, sea without
submarines, round limits, retreat), up to 20 units a side.  Agreement is required within
the engine's own reported error bound (plus float rounding)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from engine.core.errors import IllegalOrder
from engine.odds.aa import AABattle, _result, aa_odds, catalogue, setup_battle
from engine.odds.aa_fast import FastEngine, LineTally
from engine.odds import aa_table
from engine.odds.aa_table import TableEngine, rows_compiled
from tests.odds.helpers import random_army

KEYS = ("attacker", "defender", "draw", "retreat", "stalemate", "unfinished")


@pytest.fixture(params=["numpy rows", "compiled rows"])
def rows(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each test twice: the table engine's rows in numpy, and in its compiled loop
    (engine/odds/aa_table_kernel.py, taken where numba is loaded).  The calls of the
    compiled loop, counted."""
    calls: list[int] = []
    if request.param == "numpy rows":
        monkeypatch.setattr(aa_table, "ROWS_COMPILED", False)
        return calls
    import numba  # noqa: F401  (loaded: the engines take their compiled loops)

    real = TableEngine._compiled_rows

    def counted(self: TableEngine, M: Any) -> None:
        calls.append(1)
        real(self, M)

    monkeypatch.setattr(TableEngine, "_compiled_rows", counted)
    return calls


def _compare(battle: AABattle) -> None:
    exact_setup, _ = setup_battle(battle, Fraction(1))
    exact = FastEngine(exact_setup).run(battle.rounds)
    setup, _ = setup_battle(battle, 1.0)
    table = TableEngine(setup).run(battle.rounds)
    bound = table.dropped + 1e-13
    assert table.dropped < 1e-12
    for key in KEYS:
        assert table.outcome[key] == pytest.approx(float(exact.outcome[key]), abs=bound), key
    assert table.takes == pytest.approx(float(exact.takes or 0), abs=bound)
    assert table.rounds == pytest.approx(float(exact.rounds or 0), abs=1e-10)
    for st, mass in exact.attacker_end.items():
        assert table.attacker_end.get(st, 0.0) == pytest.approx(float(mass), abs=bound)
    for st, mass in exact.defender_end.items():
        assert table.defender_end.get(st, 0.0) == pytest.approx(float(mass), abs=bound)


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("1 inf", "1 inf", {}),
        ("3 inf, 1 art, 2 tank", "4 inf", {}),
        ("2 inf, 2 art, 1 tank, 2 fig, 1 bom", "5 inf, 1 tank, 1 fig, 1 aa", {}),  # AA: 6 blocks
        ("4 inf, 2 art, 2 tank, 2 fig", "6 inf, 1 tank, 1 fig, 1 aa",
         {"mode": "amphibious", "bombard": "1 bat, 1 cru"}),
        ("2 bat, 2 cru, 2 des, 1 car, 2 fig", "1 bat, 2 cru, 2 des, 2 tra", {"mode": "sea"}),
        ("1 des", "3 tra", {"mode": "sea"}),  # defenceless transports (A-10.7)
        ("1 tra, 1 cru", "1 car", {"mode": "sea"}),  # a carrier alone vs a cruiser
        # Transports left against a transport left (A-10.7): a stalemate, neither side can hit; its
        # cells' "nobody is hit" loop was 1 / 0 (the expected rounds and the error bound NaN).
        ("12 fig, 1 tra", "1 tra, 10 bat", {"mode": "sea"}),
        ("6 inf, 2 art, 2 tank", "8 inf, 1 art", {"rounds": 3}),
        ("6 inf, 2 art, 2 tank", "8 inf, 1 art", {"retreat_below": 4}),
        ("6 inf, 2 tank, 2 fig", "8 inf", {"keep_land_unit": True, "ool_attacker": "tank,inf,fig"}),
        ("3 inf, 2 fig, 1 bom", "5 inf, 1 aa", {"rounds": 2}),
    ],
)
def test_table_engine_matches_fractions(attacker: str, defender: str, options: dict[str, object],
                                       rows: list[int]) -> None:
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    _compare(battle)
    setup, _ = setup_battle(battle, 1.0)
    # The compiled rows take a battle fought to the end (AA fire's blocks too).
    compiled = rows_compiled() and battle.rounds is None
    assert len(rows) == (1 if compiled else 0)


def test_many_aa_blocks_processed_together_match_fractions(rows: list[int]) -> None:
    # 4 x 3 = 12 AA blocks, too many live states for the dense solve: the batched rows
    # (numpy), or every block's rows in the compiled loop.
    _compare(AABattle.parse("6 inf, 2 tank, 3 fig, 2 bom", "8 inf, 1 art, 1 aa"))
    _compare(AABattle.parse("5 inf, 2 art, 3 fig", "7 inf, 1 fig, 1 aa", retreat_below=3))
    assert len(rows) == (2 if aa_table.ROWS_COMPILED else 0)


def test_twenty_a_side_matches_fractions(rows: list[int]) -> None:
    _compare(AABattle.parse("10 inf, 4 art, 4 tank, 2 fig", "12 inf, 4 art, 2 tank, 2 fig"))
    _compare(AABattle.parse("10 inf, 4 art, 4 tank, 2 fig", "12 inf, 4 art, 2 tank, 2 fig", retreat_below=6))
    _compare(AABattle.parse("6 des, 4 cru, 4 bat, 2 car, 4 fig", "8 cru, 6 bat, 2 tra, 4 des", mode="sea"))
    assert len(rows) == (0 if not aa_table.ROWS_COMPILED else 3)


def test_small_battles_take_the_compiled_rows_where_numba_is_loaded(rows: list[int]) -> None:
    # Below aa.SMALL_CELLS the fast engine answered every battle; where numba is loaded,
    # the table engine's compiled rows do (several times faster), with the same answer.
    battle = AABattle.parse("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig")
    odds = aa_odds(battle)
    exact = aa_odds(battle, exact=True)
    assert exact.exact is not None
    for key, value in exact.exact.items():
        assert getattr(odds, key) == pytest.approx(float(value), abs=odds.error_bound + 1e-15)
    assert odds.error_bound < 1e-14
    assert len(rows) == (1 if aa_table.ROWS_COMPILED else 0)


def test_exact_mode_reaches_twenty_a_side_and_agrees_with_the_float_answer() -> None:
    battle = AABattle.parse("12 inf, 4 art, 4 tank", "14 inf, 4 art, 2 tank")
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert exact.exact is not None
    assert sum(exact.exact[k] for k in ("attacker_win", "defender_win", "draw")) == 1
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=floats.error_bound + 1e-13)


def test_hundred_a_side_every_kind_without_submarines(rows: list[int]) -> None:
    cases = [
        AABattle.parse("50 inf, 20 art, 20 tank, 10 fig", "60 inf, 20 art, 10 tank, 10 fig"),
        AABattle.parse("60 inf, 20 tank, 20 fig", "90 inf, 9 art, 1 aa"),
        AABattle.parse("60 inf, 20 art, 20 tank", "80 inf, 10 tank, 10 fig", mode="amphibious",
                       bombard="4 bat, 6 cru"),  # fmt: skip
        AABattle.parse("30 des, 30 cru, 20 car, 20 bat", "30 des, 30 cru, 20 car, 10 bat, 10 fig", mode="sea"),
    ]
    for battle in cases:
        odds = aa_odds(battle)
        total = odds.attacker_win + odds.defender_win + odds.draw
        assert total == pytest.approx(1.0, abs=1e-12)
        assert odds.error_bound < 1e-12


def test_the_result_keeps_its_shape_with_the_table_engine() -> None:
    battle = AABattle.parse("20 inf, 5 fig", "22 inf, 1 aa")
    setup, aside = setup_battle(battle, 1.0)
    tally = TableEngine(setup).run(None)
    odds = _result(battle, setup, aside, tally, "fast", catalogue())
    assert sum(odds.survivor_count["attacker"].values()) == pytest.approx(1.0, abs=1e-12)
    assert odds.expected_survivors["defender"]["aa gun"] == pytest.approx(1.0)


def test_aa_blocks_split_ground_and_aircraft_hits_match_fractions() -> None:
    # Two aircraft types against an AA gun: 3 x 3 blocks.  While no aircraft is lost the
    # ground units' spread is shared by every block and the aircraft hits are convolved
    # per block afterwards (TableEngine._split_init); answers must not change.
    battle = AABattle.parse("6 inf, 1 art, 2 tank, 2 fig, 2 bom", "8 inf, 1 art, 1 aa")
    setup, _ = setup_battle(battle, 1.0)
    assert TableEngine(setup).n0 == 9  # the 9 ground units' casualty steps
    _compare(battle)
    _compare(AABattle.parse("6 inf, 1 art, 2 tank, 2 fig, 2 bom", "8 inf, 1 art, 1 aa",
                            mode="amphibious", bombard="1 bat, 1 cru"))
    _compare(AABattle.parse("5 inf, 2 fig, 2 bom", "7 inf, 1 aa", tech_attacker="heavy bombers"))


def test_sides_memoised_across_battles_keep_rules_and_technologies_apart() -> None:
    # The same armies under two rules sets / with a technology are different sides.
    plain = aa_odds(AABattle.parse("4 inf, 2 fig", "5 inf, 1 aa"))
    again = aa_odds(AABattle.parse("4 inf, 2 fig", "5 inf, 1 aa"))
    jets = aa_odds(AABattle.parse("4 inf, 2 fig", "5 inf, 1 aa", tech_attacker="jet fighters"))
    assert again.attacker_win == plain.attacker_win
    assert jets.attacker_win != plain.attacker_win
    exact = aa_odds(AABattle.parse("4 inf, 2 fig", "5 inf, 1 aa"), exact=True)
    assert exact.exact is not None
    assert plain.attacker_win == pytest.approx(float(exact.exact["attacker_win"]), abs=1e-13)


def test_a_span_holds_every_mass_of_at_least_tiny_and_drops_the_rest() -> None:
    """TableEngine._span: the first and last cells of at least TINY (1e-19) bound the
    span; what lies outside it is added to the mass left out; an empty or all-tiny
    array has no span (its mass left out)."""
    import numpy as np

    setup, _ = setup_battle(AABattle.parse("2 inf", "2 inf"), 1.0)
    engine = TableEngine(setup)
    engine.dropped = 0.0
    assert engine._span(np.zeros(0)) is None and engine.dropped == 0.0
    assert engine._span(np.array([0.0, 1e-20, 5e-21])) is None
    assert engine.dropped == pytest.approx(1.5e-20, rel=1e-12)
    engine.dropped = 0.0
    assert engine._span(np.array([3e-20, 0.25, 0.0, 0.5, 1e-19, 2e-20])) == (1, 5)
    assert engine.dropped == pytest.approx(5e-20, rel=1e-12)
    engine.dropped = 0.0
    assert engine._span(np.array([0.5])) == (0, 1) and engine.dropped == 0.0


@pytest.mark.parametrize(
    ("attacker", "defender", "options"),
    [
        ("5 inf, 2 art, 2 tank, 1 fig", "6 inf, 2 art, 1 tank, 1 fig", {}),
        ("6 inf, 2 tank, 2 fig", "8 inf, 1 aa", {"keep_land_unit": 2}),  # AA gun: several blocks, by state
        ("2 bat, 2 cru, 2 des, 1 car, 2 fig", "1 bat, 2 cru, 2 des, 2 tra", {"mode": "sea"}),  # damaged battleships
        ("4 inf, 2 tank", "5 inf", {"mode": "amphibious", "bombard": "1 bat"}),
        ("10 inf, 4 art, 4 tank, 2 fig", "12 inf, 4 art, 2 tank, 2 fig", {"retreat_below": 6}),
    ],
)
def test_the_report_by_line_positions_is_the_report_by_states(
    attacker: str, defender: str, options: dict[str, object], rows: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One attacker block: the table engine hands the report its final masses by position
    # on the loss sequences (the fast engine's per-line tables); the same report as
    # summed state by state.
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    setup, aside = setup_battle(battle, 1.0)
    tally = TableEngine(setup).run(None)
    one_block = len({s.attacker for s in setup.starts}) == 1
    assert isinstance(tally, LineTally) == one_block
    if not options:  # the per-line tables answer (damaged battleships share survivors: by state)
        assert isinstance(tally, LineTally) and tally.side_report("attacker", tuple(battle.attacker)) is not None
    by_line = _result(battle, setup, aside, tally, "fast", catalogue())
    monkeypatch.setattr(TableEngine, "rows_are_lines", False)
    by_state = _result(battle, setup, aside, TableEngine(setup).run(None), "fast", catalogue())
    for who in ("attacker", "defender"):
        assert by_line.expected_survivors[who] == pytest.approx(by_state.expected_survivors[who], abs=1e-15)
        assert by_line.expected_ipc_loss[who] == pytest.approx(by_state.expected_ipc_loss[who], abs=1e-12)
        assert [k for k, _ in by_line.survivors[who]] == [k for k, _ in by_state.survivors[who]]
        assert [p for _, p in by_line.survivors[who]] == pytest.approx([p for _, p in by_state.survivors[who]], abs=1e-15)
        assert by_line.survivor_count[who] == pytest.approx(by_state.survivor_count[who], abs=1e-15)
    assert by_line.survivors["attacker"]  # something to compare


def _random_battle(rng: random.Random) -> AABattle:
    """A random battle the table engine takes: land or amphibious (an AA gun firing at
    attacking aircraft likely: several blocks) or at sea without submarines, 1-12 units
    a side, with random options a player may ask for."""
    options: dict[str, object] = {"low_luck": rng.random() < 0.15,
                                  "rules": rng.choice(["anniversary", "1942se", "global1940"])}  # fmt: skip
    kind = rng.choice(["land", "land", "amphibious", "sea"])
    if kind == "sea":
        attacker = random_army(rng, ["des", "cru", "bat", "car", "fig", "bom", "tra"], rng.randint(1, 10))
        defender = random_army(rng, ["des", "cru", "bat", "car", "fig", "tra"], rng.randint(1, 10))
        options["mode"] = "sea"
    else:
        air = rng.random() < 0.5
        attacker = random_army(rng, ["inf", "art", "tank"] + (["fig", "bom"] if air else []), rng.randint(1, 12))
        defender = random_army(rng, ["inf", "art", "tank", "fig"], rng.randint(1, 12))
        defender += ", 1 aa" if rng.random() < 0.5 else ""
        if kind == "amphibious":
            options.update(mode="amphibious", bombard=rng.choice(["1 bat", "1 cru", "1 bat, 2 cru"]))
        elif rng.random() < 0.3:
            options["keep_land_unit"] = rng.randint(1, 2)
    if rng.random() < 0.3:
        options["retreat_below"] = rng.randint(1, 4)
    return AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]


def test_random_battles_in_the_compiled_rows_match_fractions(rows: list[int]) -> None:
    # 40 random battles, each against exact fractions (the fast engine), in the numpy
    # rows and in the compiled ones.
    rng = random.Random(1941)
    battles: list[AABattle] = []
    while len(battles) < 40:
        battle = _random_battle(rng)
        try:
            setup_battle(battle, 1.0)
        except IllegalOrder:  # e.g. fighters at sea without room on carriers: refused, as a player is
            continue
        battles.append(battle)
    for battle in battles:
        _compare(battle)
    assert len(rows) == (40 if aa_table.ROWS_COMPILED else 0)
