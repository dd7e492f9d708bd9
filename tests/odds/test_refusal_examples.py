"""A refused /odds question says what would be legal, and what it offers *is* legal:
each example, applied to the refused question, gets an answer.  The examples are in the
slash syntax players type (``/odds aa … kind:sea``); the command line shows them as its
flags (``tests/odds/test_odds_cli.py``)."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Callable

import pytest

from engine.core.errors import PlayerError
from engine.odds.aa import AABattle, aa_odds
from engine.odds.aa_battle import TooBig
from engine.odds.memoir import MemoirRoll, close_assault, memoir_battle, memoir_odds
from engine.odds.minis import MinisAttack, minis_odds

_OPTION = re.compile(r'([a-z_][a-z0-9_]*):("[^"]*"|\S+)')


def _options(example: str, game: str) -> dict[str, Any]:
    """The options an example sets: ``/odds aa … kind:sea defender:"1 car, 2 fig"``."""
    assert example.startswith(f"/odds {game} "), example
    out: dict[str, Any] = {}
    for name, raw in _OPTION.findall(example):
        value: Any = raw.strip('"')
        if value in ("true", "false"):
            value = value == "true"
        elif re.fullmatch(r"-?\d+", value):
            value = int(value)
        out[name] = value
    assert out, example
    return out


def _examples(ask: Callable[[], object]) -> tuple[str, ...]:
    with pytest.raises(PlayerError) as err:
        ask()
    assert err.value.legal, f"no example of what would be legal: {err.value.message}"
    return err.value.legal


# ------------------------------------------------------------------ /odds aa

# The slash options of /odds aa as AABattle.parse takes them.
_AA = {"kind": "mode", "keep_land": "keep_land_unit", "keep_land_units": "keep_land_unit"}


def _aa(question: dict[str, Any]) -> object:
    return aa_odds(AABattle.parse(**{_AA.get(k, k): v for k, v in question.items()}))


AA_REFUSED: list[dict[str, Any]] = [
    dict(attacker="", defender="2 inf"),  # no attacker
    dict(attacker="1 tiger, 2 inf", defender="2 inf"),  # the Global-1940 house rules' tanks (G-7)
    dict(attacker="2 inf", defender="1 sherman", rules="1942se"),
    dict(attacker="1 aa, 2 inf", defender="2 inf"),  # AA guns never attack
    dict(attacker="1 aa", defender="2 inf"),
    dict(attacker="1 aa, 1 des", defender="1 des", kind="sea"),
    dict(attacker="2 inf", defender="1 des", kind="sea"),  # land units at sea
    dict(attacker="2 des, 1 inf", defender="1 des, 1 tank", kind="sea"),
    dict(attacker="2 inf, 1 fig", defender="2 inf", kind="sea"),
    dict(attacker="2 des, 1 inf", defender="1 car, 5 fig, 1 bom", kind="sea"),
    dict(attacker="1 des", defender="1 bom, 1 des", kind="sea"),  # bombers never defend at sea
    dict(attacker="1 des", defender="1 bom, 2 fig, 1 car", kind="sea"),
    dict(attacker="1 des", defender="1 fig, 1 bom", kind="sea"),
    dict(attacker="1 des", defender="2 bom", kind="sea"),
    dict(attacker="1 des", defender="1 car, 3 fig", kind="sea"),  # fighters need carrier room
    dict(attacker="1 des", defender="1 fig, 1 sub", kind="sea"),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", bombard="1 des, 1 bat"),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", bombard="1 tra"),
    dict(attacker="3 inf", defender="3 inf", bombard="1 bat"),  # bombardment only in an amphibious assault
    dict(attacker="3 inf", defender="3 inf", rounds=0),
    dict(attacker="3 inf", defender="3 inf", retreat_below=-1),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_below=2),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_chance=30),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_after=1),
    dict(attacker="2 inf, 1 fig", defender="2 inf", kind="amphibious", bombard="1 cru", rounds=3,
         retreat_chance=40),
    dict(attacker="2 inf, 1 fig", defender="2 inf", kind="amphibious", overland="1 inf", rounds=2,
         retreat_after=1),
    dict(attacker="2 inf", defender="2 inf", overland="1 inf"),  # overland only in an amphibious assault
    # A second wave with units that cannot attack here (A-14.1 ships ashore, A-10.4 land
    # units at sea, A-14 AA guns): the example mends the wave.
    dict(attacker="2 inf", defender="1 inf", wave2="1 des, 2 inf"),
    dict(attacker="5 sub", defender="1 cru", kind="sea", bombard="2 cru"),  # bombardment only in a landing
    dict(attacker="5 bom", defender="2 tank", kind="amphibious", bombard="1 bat"),  # nothing lands to bombard for
    dict(attacker="3 bom", defender="4 art", kind="amphibious", bombard="1 des"),  # and a ship that may not
    dict(attacker="4 art", defender="4 art", bombard="1 des"),  # a land battle: the landing with ships that may
    dict(attacker="1 fig", defender="2 inf", overland="1 inf"),  # overland units the attacker lacks, not a landing
    dict(attacker="1 fig, 2 inf", defender="2 inf", overland="3 inf"),
    dict(attacker="2 sub", defender="1 des", kind="sea", wave2="2 inf, 1 des"),
    dict(attacker="2 inf", defender="1 inf", wave2="1 aa, 1 tank"),
    dict(attacker="2 inf", defender="1 inf", kind="amphibious", wave2="1 bat"),
    dict(attacker="2 des", defender="1 des", kind="sea", overland="1 inf"),
    dict(attacker="2 inf", defender="2 inf", kind="amphibious", overland="3 inf"),
    dict(attacker="1 inf", defender="2 inf", kind="amphibious", bombard="1 bat", overland="1 tank"),
    dict(attacker="1 inf, 1 tank", defender="2 inf", kind="amphibious", bombard="1 bat",
         overland="1 inf, 1 tank"),  # nothing lands: nothing bombards
    dict(attacker="3 inf", defender="3 inf", retreat_after=0),
    dict(attacker="3 inf", defender="3 inf", rounds=1, retreat_after=2),
    dict(attacker="3 inf", defender="3 inf", retreat_chance=0),
    dict(attacker="3 inf", defender="3 inf", retreat_left=2, retreat_below=2),
    dict(attacker="3 inf", defender="3 inf", retreat_left=0, retreat_below=2),  # its own value first
    # Two round or retreat options out of range, or one beside a landing's retreat
    # one example mends them all.
    dict(attacker="3 inf", defender="3 inf", retreat_after=0, retreat_chance=0),
    dict(attacker="3 inf", defender="3 inf", rounds=0, retreat_after=3),
    dict(attacker="3 inf", defender="3 inf", rounds=0, retreat_left=0),
    dict(attacker="3 inf", defender="3 inf", retreat_after=101, rounds=4),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_after=0, rounds=2),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_left=0),
    dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_below=-1),
    dict(attacker="3 inf, 1 fig", defender="3 inf", kind="amphibious", retreat_after=99, rounds=2),
    dict(attacker="3 inf, 1 fig", defender="3 inf", kind="amphibious", bombard="1 bat", retreat_below=-1,
         rounds=0),
    dict(attacker="3 inf, 1 tank", defender="3 inf", kind="amphibious", overland="1 tank", retreat_left=0,
         rounds=2),
    dict(attacker="1 bat", defender="3 inf"),  # ships in a land battle
    dict(attacker="3 inf, 1 bat, 1 cru", defender="3 inf"),
    dict(attacker="3 inf, 1 fig", defender="2 inf, 1 car, 3 fig, 1 bom"),
    dict(attacker="3 inf, 1 des", defender="3 inf", kind="amphibious"),
]  # fmt: skip


@pytest.mark.parametrize("question", AA_REFUSED, ids=[str(i) for i in range(len(AA_REFUSED))])
def test_aa_refusals_offer_examples_that_are_answered(question: dict[str, Any]) -> None:
    for example in _examples(lambda: _aa(question)):
        fixed = {**question, **_options(example, "aa")}
        if "retreat_below" in _options(example, "aa"):
            fixed.pop("retreat_left", None)
        if "retreat_left" in _options(example, "aa"):
            fixed.pop("retreat_below", None)
        assert _aa(fixed) is not None, example


def test_aa_refusal_examples_fit_the_battle() -> None:
    # Computed from the question, not canned: the fighters that fit, the carriers they need.
    assert _examples(lambda: _aa(dict(attacker="1 des", defender="1 car, 5 fig", kind="sea"))) == (
        '/odds aa … defender:"5 fig, 3 car"', '/odds aa … defender:"2 fig, 1 car"')
    assert _examples(lambda: _aa(dict(attacker="3 inf, 1 bat", defender="3 inf"))) == (
        '/odds aa … kind:sea attacker:"1 bat" defender:""',
        '/odds aa … kind:amphibious attacker:"3 inf" bombard:"1 bat"',
        '/odds aa … attacker:"3 inf" defender:"3 inf"')
    assert _examples(lambda: _aa(dict(attacker="3 inf", defender="3 inf", kind="air"))) == tuple(
        f"/odds aa … kind:{kind}" for kind in ("land", "sea", "amphibious"))
    assert _examples(lambda: _aa(dict(attacker="2 fig, 1 aa", defender="3 inf"))) == (
        '/odds aa … attacker:"2 fig" defender:"3 inf, 1 aa"',)
    assert _examples(lambda: _aa(dict(attacker="5 sub", defender="1 cru", kind="sea", bombard="2 cru"))) == (
        '/odds aa … bombard:""',)  # a fleet is no landing (it offered kind:amphibious)
    # The second wave's own units are mended, not the first wave's (it said attacker:"1 des").
    assert _examples(lambda: _aa(dict(attacker="2 inf", defender="1 inf", wave2="1 des, 2 inf"))) == (
        '/odds aa … wave2:"2 inf"',)
    # Bombers dropped: the fighters the carriers hold, or all of them with the
    # carriers they need.
    assert _examples(lambda: _aa(dict(attacker="1 des", defender="1 fig, 1 bom", kind="sea"))) == (
        '/odds aa … defender:""', '/odds aa … defender:"1 fig, 1 car"')
    assert _examples(lambda: _aa(dict(attacker="1 des", defender="3 fig, 1 car, 1 bom", kind="sea"))) == (
        '/odds aa … defender:"2 fig, 1 car"', '/odds aa … defender:"3 fig, 2 car"')
    assert _examples(lambda: _aa(dict(attacker="1 des", defender="2 bom", kind="sea"))) == ('/odds aa … defender:""',)
    with pytest.raises(PlayerError) as err:
        _aa(dict(attacker="1 des", defender="1 fig", kind="sea"))
    assert err.value.message.startswith("1 defending fighter needs carriers")
    with pytest.raises(PlayerError) as err:
        _aa(dict(attacker="3 inf", defender="3 inf", kind="amphibious", bombard="2 inf"))
    assert err.value.message.startswith("'inf' cannot bombard")
    assert err.value.legal == ('/odds aa … kind:amphibious bombard:"1 bat"',)


def test_faults_of_several_round_and_retreat_options_are_told_at_once() -> None:
    with pytest.raises(PlayerError) as err:
        _aa(dict(attacker="3 inf", defender="3 inf", retreat_after=0, retreat_chance=0, retreat_left=0))
    assert err.value.message == (
        "The attacker can retreat after round 1 at the earliest. The win chance to retreat below is a "
        "percentage above 0 and at most 100. retreat_left counts the units left after a round: at least 1.")
    assert err.value.legal == ("/odds aa … retreat_after:1 retreat_chance:30 retreat_left:2",)
    # A mended round limit makes room for the strafe given; a mended strafe stays within it.
    assert _examples(lambda: _aa(dict(attacker="3 inf", defender="3 inf", rounds=0, retreat_after=3))) == (
        "/odds aa … rounds:3",)
    assert _examples(lambda: _aa(dict(attacker="3 inf", defender="3 inf", rounds=4, retreat_after=101))) == (
        "/odds aa … retreat_after:4",)
    # A landing's retreat is refused first, its examples mending the values.
    with pytest.raises(PlayerError) as err:
        _aa(dict(attacker="3 inf", defender="3 inf", kind="amphibious", retreat_left=0))
    assert err.value.message.startswith("Land units from the sea never retreat (A-10.3)")
    assert err.value.legal == ('/odds aa … kind:amphibious retreat_left:2 overland:"1 inf"',
                               "/odds aa … kind:land retreat_left:2")
    assert _examples(lambda: _aa(dict(attacker="3 inf, 1 fig", defender="3 inf", kind="amphibious",
                                      retreat_after=99, rounds=2))) == (
        "/odds aa … kind:land rounds:2 retreat_after:2",)  # fmt: skip


@pytest.mark.parametrize("limit", [{"max_states": 40}, {"max_work": 2_000}, {"max_naval_table": 1_000}])
def test_a_battle_past_a_work_limit_is_offered_a_quarter_of_its_size(limit: dict[str, int]) -> None:
    # The engines that refuse it do not know the armies; aa_odds names the battle with a
    # quarter of every force (rounded up, no type left out, the second wave too) and its
    # other options kept, and that battle is answered under the same limit.
    question = dict(attacker="12 sub, 4 cru, 2 bom", defender="8 cru, 4 car, 6 fig", kind="sea",
                    retreat_after=2, wave2="5 des")  # fmt: skip
    with pytest.raises(PlayerError) as err:
        aa_odds(AABattle.parse(**{_AA.get(k, k): v for k, v in question.items()}), **limit)  # type: ignore[arg-type]
    assert "too big to compute exactly here" in err.value.message
    quarter = dict(attacker="1 bom, 3 sub, 1 cru", defender="2 fig, 2 cru, 1 car", wave2="2 des")
    assert err.value.legal == (
        f'/odds aa … attacker:"{quarter["attacker"]}" defender:"{quarter["defender"]}" wave2:"{quarter["wave2"]}"',)
    fixed = {**question, **_options(err.value.legal[0], "aa")}
    assert fixed == {**question, **quarter}
    assert aa_odds(AABattle.parse(**{_AA.get(k, k): v for k, v in fixed.items()}), **limit).attacker_win > 0  # type: ignore[arg-type]


def test_a_battle_past_a_work_limit_is_offered_the_biggest_battle_found_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # offer_biggest (Discord's): each force scaled down (rounded up, no type left out),
    # tried in full under the same limits, a quarter first, then aimed from the work a
    # try measured; the biggest answered is offered, with its odds.
    from engine.odds import aa

    question = dict(attacker="12 sub, 6 cru, 3 bat, 9 fig", defender="12 sub, 6 car, 3 bat, 9 fig", kind="sea")
    battle = AABattle.parse(**{_AA.get(k, k): v for k, v in question.items()})  # type: ignore[arg-type]
    sizes: list[int] = []
    real = aa._run

    def counted(b: AABattle, *args: Any, **kwargs: Any) -> Any:
        sizes.append(sum(b.attacker.values()))
        return real(b, *args, **kwargs)

    monkeypatch.setattr(aa, "_run", counted)
    full = aa_odds(battle)
    limit = 12_000_000  # about a quarter of the battle's work in full (~4.9e7)
    sizes.clear()
    with pytest.raises(TooBig) as err:
        aa_odds(battle, max_work=limit, offer_biggest=True)
    assert sizes[0] == 30 and sizes[1] == 9 and len(sizes) <= 1 + aa.OFFER_TRIES  # the battle, then its quarter
    assert err.value.offered is not None
    offered, odds = err.value.offered
    (example,) = err.value.legal
    fixed = {**question, **_options(example, "aa")}
    assert AABattle.parse(**{_AA.get(k, k): v for k, v in fixed.items()}) == offered  # type: ignore[arg-type]
    assert 9 < sum(offered.attacker.values()) < 30 and sum(offered.defender.values()) < 30
    assert set(offered.attacker) == set(battle.attacker) and all(
        offered.attacker[n] <= c for n, c in battle.attacker.items())
    again = aa_odds(offered, max_work=limit)  # answered under the same limit, as offered
    assert (again.attacker_win, again.defender_win, again.expected_survivors) == (
        odds.attacker_win, odds.defender_win, odds.expected_survivors)
    assert again.attacker_win != full.attacker_win
    # Where every try is refused too, the quarter is named, as without offer_biggest.
    sizes.clear()
    with pytest.raises(TooBig) as err:
        aa_odds(battle, max_work=1, offer_biggest=True)
    assert err.value.offered is None and sizes == [30, 9, 6, 4]
    assert err.value.legal == ('/odds aa … attacker:"3 fig, 3 sub, 2 cru, 1 bat" defender:"3 fig, 3 sub, 2 car, 1 bat"',)


def test_an_offer_scales_the_options_that_count_units_with_the_forces() -> None:
    # "Retreat with 8 units left" of 30 is not the same plan at 21 units: the offer
    # (and the quarter) scale retreat_left and keep_land_units as they scale the forces,
    # rounded up, and name them; the example asks exactly the battle offered.
    question = dict(attacker="12 sub, 6 cru, 3 bat, 9 fig", defender="12 sub, 6 car, 3 bat, 9 fig", kind="sea",
                    retreat_left=8)  # fmt: skip
    battle = AABattle.parse(**{_AA.get(k, k): v for k, v in question.items()})  # type: ignore[arg-type]
    with pytest.raises(TooBig) as err:
        aa_odds(battle, max_work=12_000_000, offer_biggest=True)
    assert err.value.offered is not None
    offered = err.value.offered[0]
    (example,) = err.value.legal
    fixed = {**question, **_options(example, "aa")}
    assert AABattle.parse(**{_AA.get(k, k): v for k, v in fixed.items()}) == offered  # type: ignore[arg-type]
    assert 2 < fixed["retreat_left"] < 8 and 9 < sum(offered.attacker.values()) < 30  # past the quarter's 2
    with pytest.raises(TooBig) as err:  # the quarter, untried
        aa_odds(battle, max_work=12_000_000)
    assert err.value.legal[0].startswith("/odds aa … retreat_left:2 attacker:")
    with pytest.raises(TooBig) as err:
        aa_odds(AABattle.parse("40 inf, 8 tank", "40 inf", keep_land_unit=9), max_cells=600)
    assert err.value.legal == ('/odds aa … keep_land_units:3 attacker:"10 inf, 2 tank" defender:"10 inf"',)
    # A landing's units that came over land stay a part of the attacker's: the
    # example would be refused in turn with the 4 tanks of the question.
    landing = dict(attacker="12 inf, 4 tank, 4 fig", defender="12 inf", kind="amphibious", overland="4 tank",
                   retreat_after=1, wave2="8 inf, 4 tank")  # fmt: skip
    with pytest.raises(TooBig) as err:
        aa_odds(AABattle.parse(**{_AA.get(k, k): v for k, v in landing.items()}), max_cells=50,  # type: ignore[arg-type]
                offer_biggest=True)  # fmt: skip
    (example,) = err.value.legal
    assert example.endswith(' overland:"1 tank"'), example
    fixed = {**landing, **_options(example, "aa")}
    assert aa_odds(AABattle.parse(**{_AA.get(k, k): v for k, v in fixed.items()})).attacker_win > 0  # type: ignore[arg-type]


def test_random_battles_past_random_limits_are_offered_the_same_forces_answered() -> None:
    # Land and sea, round limits, retreats by win chance, second waves, low luck, under
    # random small limits (work, states, the submarine table, a joined wave's starts and
    # table): each is answered or refused (never a crash); an offer is the same forces
    # (attacker, defender, second wave), none bigger, answered under the same limits
    # with the odds it came with, and named by the refusal's first example.
    import random

    from engine.odds.aa import _forces
    from engine.odds.aa_battle import OverLimit
    from engine.odds.aa_units import parse_army

    rng = random.Random(19)
    sea_kinds, land_kinds = ["sub", "des", "cru", "car", "bat", "fig", "bom", "tra"], ["inf", "art", "tank", "fig", "bom"]

    def army(kinds: list[str], most: int) -> str:
        return ", ".join(f"{rng.randint(1, most)} {k}" for k in rng.sample(kinds, rng.randint(1, 4)))

    offers = 0
    for _ in range(150):
        sea = rng.random() < 0.6
        kinds = sea_kinds if sea else land_kinds
        options: dict[str, Any] = {}
        if rng.random() < 0.3:
            options["rounds"] = rng.randint(1, 4)
        if rng.random() < 0.3:
            options["retreat_chance"] = rng.choice([20.0, 40.0, 60.0])
        if rng.random() < 0.2:
            options["wave2"] = army(kinds, 6)
        if rng.random() < 0.2:
            options["low_luck"] = True
        limits: dict[str, Any] = dict(
            max_work=rng.choice([None, 200, 2000, 20000, 200000]), max_states=rng.choice([None, 50, 500, 5000]),
            max_naval_table=rng.choice([None, 500, 5000]), max_starts=rng.choice([None, 5, 50, 500]),
            max_table=rng.choice([None, 500, 5000]))  # fmt: skip
        defending = [k for k in kinds if k != "bom"] if sea else [*kinds, "aa"]
        try:
            battle = AABattle.parse(army(kinds, 12), army(defending, 12), mode="sea" if sea else "land", **options)
            aa_odds(battle, **limits, offer_biggest=True)
        except OverLimit as err:
            if err.offered is None:
                continue
            offers += 1
            offered, odds = err.offered
            named = _options(err.legal[0], "aa")
            assert set(named) == set(_forces(offered))
            for name, force in _forces(offered).items():
                whole = _forces(battle)[name]
                assert set(force) == set(whole) and all(force[n] <= whole[n] for n in force), (name, force, whole)
                assert parse_army(named[name]) == force
            again = aa_odds(offered, **limits)
            # To rounding: a battle answered before numba is loaded (a later try, or an
            # earlier battle, may load it) sums in another order than after.
            assert (again.attacker_win, again.defender_win) == pytest.approx((odds.attacker_win, odds.defender_win),
                                                                             abs=1e-12)  # fmt: skip
        except PlayerError:
            continue
    assert offers >= 20


def test_a_battle_past_the_table_engines_cell_cap_is_offered_a_quarter_of_its_size() -> None:
    # aa_odds' max_cells (an API cap; Discord has none), refused by each table engine
    # before any work: the fast engine's, the numpy table's, the merged engine's (AA
    # blocks).
    for question, cap in ((dict(attacker="12 inf, 4 tank", defender="12 inf"), 50),
                          (dict(attacker="40 inf, 8 tank", defender="40 inf"), 600),
                          (dict(attacker="20 inf, 8 fig, 8 bom", defender="30 inf, 1 aa"), 5_000)):  # fmt: skip
        with pytest.raises(PlayerError) as err:
            aa_odds(AABattle.parse(**question), max_cells=cap)
        assert "too big for a quick answer" in err.value.message
        (example,) = err.value.legal
        fixed = {**question, **_options(example, "aa")}
        assert sum(int(n.split()[0]) for n in fixed["attacker"].split(", ")) * 3 <= sum(
            int(n.split()[0]) for n in question["attacker"].split(", "))
        assert aa_odds(AABattle.parse(**fixed), max_cells=cap).attacker_win > 0


# ------------------------------------------------------------------ /odds minis

_MINIS = {"target_type": "target", "double_shot": "attacks"}


def _minis(question: dict[str, Any]) -> object:
    fields = {_MINIS.get(k, k): v for k, v in question.items()}
    if "attacks" in fields and isinstance(fields["attacks"], bool):
        fields["attacks"] = 2 if fields["attacks"] else 1
    return minis_odds(MinisAttack(**fields))


MINIS_REFUSED: list[dict[str, Any]] = [
    dict(dice=0, defense=4), dict(dice=61, defense=4), dict(dice=4, defense=0),
    dict(dice=4, defense=4, target="tank"), dict(dice=4, defense=4, target="soldier", target_damaged=True),
    dict(dice=4, defense=4, cover=9), dict(dice=4, defense=4, target="soldier", shrapnel=0), dict(dice=4, defense=4, shrapnel=0),
    dict(dice=4, defense=4, superior_armor=-1), dict(dice=4, defense=4, attacks=3),
    dict(dice=4, defense=4, target="soldier", heavy_armor=True),
    dict(dice=4, defense=4, shrapnel=2),  # Shrapnel against a Vehicle changes nothing
    dict(dice=4, defense=4, same_hex=True),
    dict(dice=6, defense=8, target_damaged=True, shrapnel=2),  # a damaged target is a Vehicle: no Soldier example
    dict(dice=11, defense=3, heavy_armor=True, shrapnel=2),
]  # fmt: skip


@pytest.mark.parametrize("question", MINIS_REFUSED, ids=[str(i) for i in range(len(MINIS_REFUSED))])
def test_minis_refusals_offer_examples_that_are_answered(question: dict[str, Any]) -> None:
    for example in _examples(lambda: _minis(question)):
        assert _minis({**question, **_options(example, "minis")}) is not None, example


# ------------------------------------------------------------------ /odds memoir

_ROLL = ("dice", "target", "figures", "retreat_room", "ignore_flags", "blocked")


def _memoir(question: dict[str, Any]) -> object:
    roll = MemoirRoll(**{k: v for k, v in question.items() if k in _ROLL})
    battle = close_assault(roll, **{k: v for k, v in question.items() if k not in _ROLL})
    return memoir_odds(roll) if battle is None else memoir_battle(battle)


MEMOIR_REFUSED: list[dict[str, Any]] = [
    dict(dice=0, target="infantry"), dict(dice=13, target="infantry"), dict(dice=2, target="tank"),
    dict(dice=2, target="infantry", figures=7), dict(dice=2, target="infantry", retreat_room=-1),
    dict(dice=2, target="infantry", ignore_flags=-1), dict(dice=2, target="infantry", blocked=True),
    dict(dice=2, target="infantry", retreat_room=2), dict(dice=2, target="infantry", ignore_flags=1),
    dict(dice=2, target="infantry", figures=3, blocked=True, retreat_room=2),
    dict(dice=2, target="infantry", figures=4, ambush_dice=14, attacker_figures=3),
    dict(dice=2, target="infantry", figures=4, ambush_dice=2, attacker_figures=9),
    dict(dice=2, target="infantry", figures=4, ambush_dice=2, attacker_figures=3, attacker_retreat_room=-2),
    dict(dice=2, target="infantry", figures=4, ambush_dice=2, attacker_figures=3, attacker="artillery"),
    dict(dice=2, target="infantry", figures=4, attacker="armor", overrun_dice=0, overrun_figures=3),
    dict(dice=2, target="infantry", figures=4, attacker="armor", overrun_dice=3, overrun_target="boat",
         overrun_figures=3),
    dict(dice=2, target="infantry", figures=4, attacker="armor", overrun_dice=3),
    dict(dice=2, target="infantry", figures=4, attacker="infantry", overrun_dice=3, overrun_figures=3),
    dict(dice=2, target="infantry", figures=4, ambush_dice=2),
    dict(dice=2, target="infantry", figures=4, attacker="tank", ambush_dice=2, attacker_figures=3),
    # Examples that keep the rest of the question (a fuzz found them refused in turn):
    dict(dice=1, target="infantry", figures=3, attacker="infantry", overrun_dice=3),  # needs figures too
    dict(dice=2, target="infantry", figures=4, overrun_dice=-1),  # dice first would need armor next
    dict(dice=2, target="infantry", figures=4, ambush_dice=-1),  # and the attacker's figures
    dict(dice=5, target="infantry", figures=2, attacker_retreat_room=-1),
    dict(dice=1, target="armor", figures=1, attacker="artillery", attacker_figures=-1),
    dict(dice=3, target="infantry", figures=1, attacker="artillery", ambush_dice=1),
    dict(dice=4, target="armor", figures=3, attacker="artillery", overrun_retreat_room=-1),
]  # fmt: skip


@pytest.mark.parametrize("question", MEMOIR_REFUSED, ids=[str(i) for i in range(len(MEMOIR_REFUSED))])
def test_memoir_refusals_offer_examples_that_are_answered(question: dict[str, Any]) -> None:
    for example in _examples(lambda: _memoir(question)):
        assert _memoir({**question, **_options(example, "memoir")}) is not None, example


def test_random_battles_past_the_units_cap_are_offered_the_same_battle_scaled_to_fit() -> None:
    # A side past max_units (Discord's 120; 12 here, so the battles stay quick): the
    # example is every force scaled alike (attacker, defender, second wave, a
    # landing's units that came over land, the counts of units kept and left), as big
    # as fits (one unit more of the biggest type would not), answered under the cap;
    # with offer_biggest it is the battle offered, with its odds.
    import random

    from engine.odds.aa import _forces, _sizes
    from engine.odds.aa_battle import TooManyUnits

    rng = random.Random(120)
    cap = 12

    def army(kinds: list[str]) -> str:
        return ", ".join(f"{rng.randint(1, 14)} {k}" for k in rng.sample(kinds, rng.randint(1, min(3, len(kinds)))))

    refused = 0
    for _ in range(60):
        mode = rng.choice(["land", "sea", "amphibious"])
        options: dict[str, Any] = {}
        if mode == "sea":
            attacker, defender = army(["sub", "des", "cru", "bat"]), army(["sub", "des", "cru", "bat"])
        else:
            attacker, defender = army(["inf", "art", "tank"]), army(["inf", "art", "tank", "aa"])
            if mode == "amphibious" and rng.random() < 0.5:
                first = attacker.split(", ")[0]
                options["overland"] = f"{rng.randint(1, int(first.split()[0]))} {first.split()[1]}"
            elif mode == "land":
                options["keep_land_unit"] = rng.choice([1, 2, 5, 9])
                options["retreat_left"] = rng.choice([None, 1, 4, 10])
        if mode != "amphibious" and rng.random() < 0.3:
            options["wave2"] = army(["des", "cru"] if mode == "sea" else ["inf", "tank"])
        battle = AABattle.parse(attacker, defender, mode=mode, **options)
        if max(_sizes(battle).values()) <= cap:
            continue
        refused += 1
        with pytest.raises(TooManyUnits) as err:
            aa_odds(battle, max_units=cap)
        (example,) = err.value.legal
        named = _options(example, "aa")
        fixed = AABattle.parse(**{**{"attacker": attacker, "defender": defender, "mode": mode}, **options,
                                  **{_AA.get(k, k): v for k, v in named.items()}})  # fmt: skip
        sizes = _sizes(fixed)
        assert max(sizes.values()) <= cap, (example, sizes)
        whole, scaled = _forces(battle), _forces(fixed)
        assert set(whole) == set(scaled)
        # Alike: one share s gives every count as max(1, ceil(count * s)), i.e. each
        # count k of c is in (k - 1, k] / c (k = 1: at most 1 / c), and so for the
        # units kept and the retreat's units left.
        pairs = [(whole[name][n], k) for name, force in scaled.items() for n, k in force.items()]
        if battle.retreat_below > 1:
            pairs.append((battle.retreat_below - 1, fixed.retreat_below - 1))
        if battle.keep_land_unit > 1:
            pairs.append((battle.keep_land_unit, fixed.keep_land_unit))
        lowest = max(Fraction(k - 1, c) for c, k in pairs)
        highest = min(Fraction(k, c) for c, k in pairs)
        assert lowest < highest, (example, pairs)
        assert all(set(force) == set(whole[name]) for name, force in scaled.items())
        # As big as fits: any share above ``highest`` makes some side bigger than the cap.
        above = highest + Fraction(1, 10**6)
        bigger = {name: {n: max(1, math.ceil(c * above)) for n, c in force.items()} for name, force in whole.items()}
        wave = sum(bigger.get("wave2", {}).values())
        assert max(sum(bigger["attacker"].values()), sum(bigger["defender"].values()), wave) > cap, example
        answered = aa_odds(fixed, max_units=cap)
        with pytest.raises(TooManyUnits) as offering:
            aa_odds(battle, max_units=cap, offer_biggest=True)
        assert offering.value.legal == (example,) and offering.value.offered is not None
        offered, odds = offering.value.offered
        assert offered.key() == fixed.key() and odds.attacker_win == pytest.approx(answered.attacker_win, abs=1e-12)
    assert refused >= 30


@pytest.mark.parametrize("offer_biggest", [False, True])
def test_a_battle_past_the_units_cap_with_a_fault_of_the_rules_is_told_that_fault(offer_biggest: bool) -> None:
    # The fault as the player typed it (5 fighters, A-14), not the battle scaled to fit
    # (it named 3 fighters, the example 3 fig and 1 car refused in turn).
    battle = AABattle.parse("200 des", "1 car, 5 fig", mode="sea")
    with pytest.raises(PlayerError) as err:
        aa_odds(battle, max_units=120, offer_biggest=offer_biggest)
    assert err.value.message.startswith("5 defending fighters need carriers")
    assert err.value.legal == ('/odds aa … defender:"5 fig, 3 car"', '/odds aa … defender:"2 fig, 1 car"')
