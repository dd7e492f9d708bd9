"""The two exact engines against each other, float against exact, and the result's
bookkeeping (probabilities add up, survivors and IPC losses are consistent)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.core.errors import IllegalOrder, PlayerError
from engine.odds.aa import AABattle, aa_odds
from engine.odds.aa_units import catalogue

LAND_ATT = ["infantry", "artillery", "tank", "fighter", "bomber"]
LAND_DEF = LAND_ATT + ["aa gun"]
SEA_ATT = ["submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter", "bomber", "transport"]
SEA_DEF = ["submarine", "destroyer", "cruiser", "carrier", "battleship", "transport"]


def army(kinds: list[str], most: int) -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(kinds), st.integers(1, most), min_size=1, max_size=3)


@st.composite
def land_battles(draw: st.DrawFn) -> AABattle:
    mode = draw(st.sampled_from(["land", "amphibious"]))
    attacker = draw(army(LAND_ATT, 3))
    if mode == "amphibious" and not any(k in attacker for k in ("infantry", "artillery", "tank")):
        attacker["infantry"] = 1
    return AABattle(
        attacker=attacker,
        defender=draw(army(LAND_DEF, 3)),
        mode=mode,
        bombard=draw(st.dictionaries(st.sampled_from(["battleship", "cruiser"]), st.integers(0, 2)))
        if mode == "amphibious" else {},
        rounds=draw(st.none() | st.integers(1, 3)),
        retreat_below=0 if mode == "amphibious" else draw(st.integers(0, 3)),
        keep_land_unit=draw(st.integers(0, 2)),
        ool_attacker=tuple(draw(st.permutations(LAND_ATT))[: draw(st.integers(0, 2))]),
    )  # fmt: skip


@st.composite
def sea_battles(draw: st.DrawFn) -> AABattle:
    defender = draw(army(SEA_DEF, 2))
    if defender.get("carrier"):
        defender["fighter"] = draw(st.integers(0, 2 * defender["carrier"]))
    return AABattle(
        attacker=draw(army(SEA_ATT, 2)),
        defender={k: v for k, v in defender.items() if v},
        mode="sea",
        rounds=draw(st.none() | st.integers(1, 3)),
        retreat_below=draw(st.integers(0, 2)),
        submerge_attacker=draw(st.booleans()),
        submerge_defender=draw(st.booleans()),
    )


def check_bookkeeping(battle: AABattle) -> None:
    odds = aa_odds(battle, exact=True)
    assert odds.exact is not None
    assert odds.exact["attacker_win"] + odds.exact["defender_win"] + odds.exact["draw"] == 1
    assert 0 <= odds.exact["attacker_takes"] <= odds.exact["attacker_win"]
    for side, start in (("attacker", battle.attacker), ("defender", battle.defender)):
        for unit, expected in odds.expected_survivors[side].items():
            assert -1e-12 <= expected <= start[unit] + 1e-12
        assert math.fsum(p for _, p in odds.survivors[side]) == pytest.approx(1.0, abs=1e-12)
        assert math.fsum(odds.survivor_count[side].values()) == pytest.approx(1.0, abs=1e-12)
        # IPC lost = starting cost - expected surviving cost
        cost = {n: catalogue().profile(n).cost for n in start}
        kept = sum(cost[n] * v for n, v in odds.expected_survivors[side].items())
        assert odds.expected_ipc_loss[side] == pytest.approx(
            sum(cost[n] * c for n, c in start.items()) - kept, abs=1e-9
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(land_battles())
def test_fast_and_general_engines_agree_exactly_on_land(battle: AABattle) -> None:
    fast = aa_odds(battle, exact=True, engine="fast")
    general = aa_odds(battle, exact=True, engine="general")
    assert fast.exact == general.exact
    assert fast.expected_survivors == general.expected_survivors
    assert fast.survivors == general.survivors
    assert fast.retreat == general.retreat and fast.unfinished == general.unfinished
    floats = aa_odds(battle)  # the packed float solver, with or without a round limit
    assert fast.exact is not None
    for key, value in fast.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)
    for side in ("attacker", "defender"):
        for unit, v in fast.expected_survivors[side].items():
            assert floats.expected_survivors[side][unit] == pytest.approx(v, abs=1e-11)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sea_battles())
def test_sea_battles_float_matches_exact_and_books_balance(battle: AABattle) -> None:
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert exact.exact is not None
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)
    check_bookkeeping(battle)


def _walk_rounds(battle: AABattle) -> dict[str, object]:
    """A plain reference for a round limit: every round expanded pair by pair
    (``GeneralEngine.round``), the end-of-round rules on each pair, in fractions."""
    from fractions import Fraction

    from engine.odds.aa import setup_battle
    from engine.odds.aa_general import GeneralEngine

    setup, _ = setup_battle(battle, Fraction(1))
    engine = GeneralEngine(setup)
    State = tuple[int, ...]
    ended: dict[tuple[str, State, State], Fraction] = {}
    live: dict[tuple[State, State], Fraction] = {}
    for start in setup.starts:
        fires = start.defender_fires_as if start.defender_fires_as != start.defender else None
        outcome, a, d = setup.settle(start.attacker, start.defender, after_round=False)
        if outcome is not None:
            ended[(outcome, a, d)] = ended.get((outcome, a, d), Fraction(0)) + start.weight
            continue
        for (a2, d2), p in engine.round(a, d, fires).items():  # round 1
            o, a3, d3 = setup.settle(a2, d2)
            if o is None:
                live[(a3, d3)] = live.get((a3, d3), Fraction(0)) + start.weight * p
            else:
                ended[(o, a3, d3)] = ended.get((o, a3, d3), Fraction(0)) + start.weight * p
    assert battle.rounds is not None
    for _ in range(battle.rounds - 1):
        nxt: dict[tuple[State, State], Fraction] = {}
        for (a, d), m in live.items():
            dist = engine.round(a, d)
            if len(dist) == 1 and (a, d) in dist:
                ended[("stalemate", a, d)] = ended.get(("stalemate", a, d), Fraction(0)) + m
                continue
            for (a2, d2), p in dist.items():
                o, a3, d3 = setup.settle(a2, d2)
                if o is None:
                    nxt[(a3, d3)] = nxt.get((a3, d3), Fraction(0)) + m * p
                else:
                    ended[(o, a3, d3)] = ended.get((o, a3, d3), Fraction(0)) + m * p
        live = nxt
    for (a, d), m in live.items():
        ended[("unfinished", a, d)] = ended.get(("unfinished", a, d), Fraction(0)) + m
    out: dict[str, Fraction] = {}
    expected: dict[str, Fraction] = {}
    for (o, a, _d), m in ended.items():
        out[o] = out.get(o, Fraction(0)) + m
        for unit, n in setup.attacker.counts(a).items():
            expected[unit] = expected.get(unit, Fraction(0)) + m * n
    return {"outcomes": {k: v for k, v in out.items() if v}, "survivors": expected}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sea_battles(), st.integers(2, 3))
def test_a_round_limit_at_sea_matches_a_plain_walk(battle: AABattle, rounds: int) -> None:
    # The last round is recorded side by side where both sides are left quiet
    # (GeneralEngine._last_round); the plain walk expands every pair.
    from dataclasses import replace

    battle = replace(battle, rounds=rounds)
    ref = _walk_rounds(battle)
    odds = aa_odds(battle, exact=True)
    assert odds.exact is not None
    outcomes = ref["outcomes"]
    assert isinstance(outcomes, dict)
    won = outcomes.get("attacker", 0)
    assert odds.exact["attacker_win"] == won
    assert odds.exact["draw"] == outcomes.get("draw", 0)
    assert odds.unfinished == pytest.approx(float(outcomes.get("unfinished", 0)), abs=1e-15)
    assert odds.retreat == pytest.approx(float(outcomes.get("retreat", 0)), abs=1e-15)
    survivors = ref["survivors"]
    assert isinstance(survivors, dict)
    for unit, n in odds.expected_survivors["attacker"].items():
        assert n == pytest.approx(float(survivors.get(unit, 0)), abs=1e-12), unit


@settings(max_examples=40, deadline=None)
@given(land_battles())
def test_land_books_balance(battle: AABattle) -> None:
    check_bookkeeping(battle)


def test_sea_battle_without_submarines_uses_the_fast_engine_and_agrees() -> None:
    battle = AABattle.parse("2 des, 1 cru, 2 fig", "1 bat, 1 car, 2 fig, 1 tra", mode="sea")
    fast = aa_odds(battle, exact=True)
    assert fast.engine == "fast"
    assert fast.exact == aa_odds(battle, exact=True, engine="general").exact


def test_float_mode_large_battle_reports_a_tiny_error_bound() -> None:
    odds = aa_odds(AABattle.parse("30 inf, 10 art, 10 tank, 5 fig", "40 inf, 5 art, 5 tank, 3 fig"))
    assert odds.engine == "fast"
    assert odds.error_bound < 1e-10
    assert odds.attacker_win + odds.defender_win + odds.draw == pytest.approx(1.0, abs=1e-10)


@pytest.mark.parametrize("rounds", [None, 1, 3])
def test_float_and_exact_agree_on_a_medium_battle_with_aa_and_bombardment(rounds: int | None) -> None:
    battle = AABattle.parse("4 inf, 2 art, 2 tank, 2 fig, 1 bom", "6 inf, 1 tank, 1 fig, 1 aa",
                            mode="amphibious", bombard="1 bat, 1 cru", rounds=rounds)  # fmt: skip
    exact = aa_odds(battle, exact=True)
    floats = aa_odds(battle)
    assert exact.exact is not None
    for key, value in exact.exact.items():
        assert getattr(floats, key) == pytest.approx(float(value), abs=1e-12)


def test_limits_refuse_big_battles_with_a_player_error() -> None:
    big = AABattle.parse("60 inf, 10 fig", "60 inf, 1 aa")
    with pytest.raises(PlayerError) as err:
        aa_odds(big, max_cells=10_000)
    assert "too big" in err.value.message
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse("130 inf", "1 inf"), max_units=120)
    assert "the attacker has 130" in err.value.message and "warroom odds aa" in err.value.message
    subs = AABattle.parse("8 sub, 4 des, 2 bat", "6 sub, 4 des, 3 cru, 3 car, 6 fig", mode="sea")
    with pytest.raises(PlayerError):
        aa_odds(subs, max_states=200)


@pytest.mark.parametrize(
    ("attacker", "defender", "options", "fragment"),
    [
        ("", "1 inf", {}, "no units"),
        ("1 aa", "1 inf", {}, "AA guns never attack"),
        ("1 bat", "1 inf", {}, "Ships"),
        ("1 inf", "1 des", {}, "Ships"),
        ("1 inf", "1 des", {"mode": "sea"}, "Land units"),
        ("1 des", "1 bom", {"mode": "sea"}, "Bombers never defend at sea"),
        ("1 des", "1 car, 3 fig", {"mode": "sea"}, "carriers"),
        ("1 inf", "1 inf", {"bombard": "1 bat"}, "amphibious"),
        ("1 inf", "1 inf", {"mode": "amphibious", "bombard": "1 des"}, "cannot bombard"),
        ("1 inf", "1 inf", {"mode": "amphibious", "retreat_below": 1}, "never retreat"),
        ("1 des", "1 des", {"mode": "sea", "keep_land_unit": True}, "land battle"),
        ("1 inf", "1 inf", {"submerge_attacker": True}, "sea battles"),
        ("1 inf", "1 inf", {"rounds": 0}, "at least 1"),
        ("1 inf", "1 inf", {"mode": "air"}, "Unknown battle kind"),
    ],
)
def test_illegal_battles_are_explained(attacker: str, defender: str, options: dict[str, object],
                                       fragment: str) -> None:  # fmt: skip
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse(attacker, defender, **options))  # type: ignore[arg-type]
    assert fragment in err.value.text()


def test_exact_fractions_only_for_small_battles() -> None:
    with pytest.raises(IllegalOrder) as err:
        aa_odds(AABattle.parse("21 inf", "20 inf"), exact=True)
    assert "small battles" in err.value.message
