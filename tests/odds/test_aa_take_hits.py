"""Side.take_hits (A-10.6, A-10.14) against the plain greedy it shortcuts: every hit
tries the first unused step of each legal category in loss order and takes the first
that keeps the most hits absorbable.  The shortcut (a restricted hit's own category is
always safe; unrestricted hits take the first steps left) must give the same states."""

from __future__ import annotations

import random

from engine.odds.aa import AABattle, setup_battle
from engine.odds.aa_side import Side, State, _apply, _legal, _max_absorbed


def _reference(side: Side, st: State, sub_hits: int, air_hits: int, any_hits: int) -> State:
    steps = side.steps(st)
    by_cat: tuple[list[int], list[int], list[int]] = ([], [], [])
    for k, step in enumerate(steps):
        by_cat[step.category].append(k)
    ptr = [0, 0, 0]
    pools = [len(by_cat[0]), len(by_cat[1]), len(by_cat[2])]
    hits = [sub_hits, air_hits, any_hits]
    out = list(st)
    for cls in (0, 1, 2):
        while hits[cls] > 0:
            best = _max_absorbed(pools, hits)
            hits[cls] -= 1
            candidates = sorted(
                (by_cat[c][ptr[c]], c) for c in (0, 1, 2) if ptr[c] < len(by_cat[c]) and _legal(cls, c)
            )
            for k, c in candidates:
                pools[c] -= 1
                if _max_absorbed(pools, hits) == best - 1:
                    ptr[c] += 1
                    _apply(out, steps[k])
                    break
                pools[c] += 1
    return tuple(out)


def test_take_hits_matches_the_plain_greedy() -> None:
    rng = random.Random(1914)
    checked = 0
    for _ in range(40):
        units = {"sub": rng.randint(0, 5), "des": rng.randint(0, 3), "cru": rng.randint(0, 2),
                 "car": rng.randint(0, 2), "bat": rng.randint(0, 3), "tra": rng.randint(0, 2)}  # fmt: skip
        units["fig"] = min(rng.randint(0, 5), 2 * units["car"])
        if not sum(units.values()):
            continue
        army = ", ".join(f"{c} {u}" for u, c in units.items() if c)
        battle = AABattle.parse("1 sub, 2 fig", army, mode="sea",
                                ool_defender=rng.choice(["", "fig", "sub,fig", "bat,fig,sub", "car,fig"]))  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        side = setup.defender
        st = side.start
        for _ in range(3):
            hp = side.hp(st)
            for hs in range(hp + 2):
                for ha in range(hp + 2):
                    for hy in (0, 1, hp // 2, hp + 1):
                        got = side._take_hits(st, hs, ha, hy)
                        assert got == _reference(side, st, hs, ha, hy), (army, st, hs, ha, hy)
                        checked += 1
            st = side.take_hits(st, rng.randint(0, 2), rng.randint(0, 2), 0)
    assert checked > 5_000, checked


def test_the_numpy_solve_places_restricted_hits_as_take_hits() -> None:
    """engine.odds.aa_naval shortcuts take_hits: one restricted class alone follows a
    fixed sequence (submarine hits skip aircraft, aircraft hits skip submarines), and
    with both classes the submarine hits' share of the shared steps is decided once
    per need of the aircraft hits (:meth:`_Numbered.table`, the unrestricted hits
    following on).  Same states, on both sides' loss orders."""
    from engine.odds.aa_naval import _Numbered
    from engine.odds.aa_side import CAT_AIR, CAT_SUB

    rng = random.Random(1915)
    checked = 0
    for _ in range(40):
        units = {"sub": rng.randint(0, 5), "des": rng.randint(0, 2), "cru": rng.randint(0, 2),
                 "car": rng.randint(0, 2), "bat": rng.randint(0, 3)}  # fmt: skip
        attacker = dict(units, fig=rng.randint(0, 4), bom=rng.randint(0, 2))
        defender = dict(units, fig=min(rng.randint(0, 5), 2 * units["car"]), tra=rng.randint(0, 2))
        armies = [", ".join(f"{c} {u}" for u, c in army.items() if c) or "1 sub" for army in (attacker, defender)]
        battle = AABattle.parse(*armies, mode="sea",
                                ool_attacker=rng.choice(["", "fig,sub", "bat,des", "bom,sub,cru"]),
                                ool_defender=rng.choice(["", "fig", "sub,fig", "bat,fig,sub", "car,fig"]))  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        for side, attacking in ((setup.attacker, True), (setup.defender, False)):
            numbered = _Numbered(side, setup, attacking)
            st = side.start
            for _ in range(3):
                t = numbered.number(st)
                hp = side.hp(st)
                subs_only = numbered.restricted_seq(t, CAT_AIR)
                air_only = numbered.restricted_seq(t, CAT_SUB)
                aircraft = CAT_AIR in side.fighting_categories(st)
                numbers, local = numbered.table(t, hp + 2, hp + 2)  # hs, ha: one past hp
                for hs in range(hp + 2):
                    for ha in range(hp + 2):
                        # The general engine's rule (GeneralEngine._casualties): with no
                        # aircraft to spare, submarine hits are taken as unrestricted ones.
                        base = side.take_hits(st, hs, ha, 0) if aircraft else side.take_hits(st, 0, ha, 0)
                        seq = side.sequence(base)
                        for hy in sorted({0, min(1, hp), hp // 2, hp}):
                            expected = seq[min(hy + (0 if aircraft else hs), len(seq) - 1)]
                            got = numbered.states[int(numbers[local[hs, ha, hy]])]
                            assert got == expected, (armies, st, hs, ha, hy)
                            checked += 1
                        expected = side.take_hits(st, hs, ha, 0)
                        if not ha:
                            assert numbered.states[subs_only[min(hs, len(subs_only) - 1)]] == expected
                        if not hs:
                            assert numbered.states[air_only[min(ha, len(air_only) - 1)]] == expected
                st = side.take_hits(st, rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1))
    assert checked > 5_000, checked


def test_loss_order_chains_are_the_sides_sequences() -> None:
    """engine.odds.aa_naval builds a state's loss-order chain from the next state's
    (the order from the state after a step is the rest of this one): the same states
    as Side.sequence, on land (keeping a land unit last, A-10.10) and at sea."""
    from engine.odds.aa_naval import _Numbered

    rng = random.Random(1916)
    checked = 0
    for _ in range(30):
        if rng.random() < 0.5:
            battle = AABattle.parse(f"{rng.randint(1, 4)} inf, {rng.randint(0, 2)} art, {rng.randint(0, 2)} tank, "
                                    f"{rng.randint(0, 2)} fig, {rng.randint(0, 1)} bom", "3 inf, 1 tank",
                                    keep_land_unit=rng.random() < 0.7,
                                    ool_attacker=rng.choice(["", "fig,inf", "tank,bom,inf"]))  # fmt: skip
        else:
            battle = AABattle.parse(f"{rng.randint(0, 3)} sub, {rng.randint(0, 2)} bat, {rng.randint(0, 2)} fig, "
                                    f"{rng.randint(1, 2)} cru", "2 sub", mode="sea",
                                    ool_attacker=rng.choice(["", "fig,sub", "bat,cru"]))  # fmt: skip
        setup, _ = setup_battle(battle, 1.0)
        side = setup.attacker
        numbered = _Numbered(side, setup, True)
        st = side.start
        for _ in range(4):
            chain = numbered.seq(numbered.number(st))
            assert [numbered.states[n] for n in chain.tolist()] == list(side.sequence(st)), (battle, st)
            checked += 1
            st = side.take_hits(st, rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 2))
    assert checked == 120
