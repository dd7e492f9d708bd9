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
