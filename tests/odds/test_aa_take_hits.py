"""Side.take_hits (A-10.6, A-10.14) against a brute force: of every set of steps of the
loss order the hits can be assigned to (a submarine's hit never on an aircraft, an
aircraft's hit without a friendly destroyer never on a submarine), the owner loses the
biggest and, among those, the one with the earliest units of the order."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.odds.aa import AABattle, aa_odds, setup_battle
from engine.odds.aa_side import CAT_AIR, CAT_SUB, Side, State, _apply


def _assignable(cats: list[int], hits: list[int]) -> bool:
    """Whether steps of categories ``cats`` can each get one of ``hits`` (classes:
    0 submarine, 1 aircraft, 2 unrestricted), by augmenting paths."""
    legal = [[h for h, cls in enumerate(hits) if not (cls == 0 and c == CAT_AIR) and not (cls == 1 and c == CAT_SUB)]
             for c in cats]  # fmt: skip
    owner: dict[int, int] = {}

    def place(k: int, seen: set[int]) -> bool:
        for h in legal[k]:
            if h not in seen:
                seen.add(h)
                if h not in owner or place(owner[h], seen):
                    owner[h] = k
                    return True
        return False

    return all(place(k, set()) for k in range(len(cats)))


def _reference(side: Side, st: State, sub_hits: int, air_hits: int, any_hits: int) -> State:
    steps = side.steps(st)
    hits = [0] * sub_hits + [1] * air_hits + [2] * any_hits
    for size in range(min(len(steps), len(hits)), -1, -1):
        # combinations come in lexicographic order: the first assignable one loses
        # the earliest units
        chosen = next((c for c in itertools.combinations(range(len(steps)), size)
                       if _assignable([steps[k].category for k in c], hits)), None)  # fmt: skip
        if chosen is not None:
            out = list(st)
            for k in chosen:
                _apply(out, steps[k])
            return tuple(out)
    raise AssertionError("the empty set is always assignable")


def _random_defender(rng: random.Random, attacker: str, most: dict[str, int], most_fig: int,
                     orders: list[str]) -> tuple[str, Side] | None:
    """A random defending fleet (up to ``most`` of each ship, fighters up to ``most_fig``
    as its carriers allow) against ``attacker``, with one of ``orders`` of loss: its
    text and side; None when it drew no unit."""
    units = {unit: rng.randint(0, n) for unit, n in most.items()}
    units["fig"] = min(rng.randint(0, most_fig), 2 * units["car"])
    if not sum(units.values()):
        return None
    army = ", ".join(f"{c} {u}" for u, c in units.items() if c)
    battle = AABattle.parse(attacker, army, mode="sea", ool_defender=rng.choice(orders))
    return army, setup_battle(battle, 1.0)[0].defender


def test_take_hits_loses_the_earliest_units_it_can() -> None:
    rng = random.Random(1914)
    checked = changed = 0
    for _ in range(60):
        got = _random_defender(rng, "1 sub, 2 fig", {"sub": 3, "des": 2, "cru": 1, "car": 1, "bat": 1, "tra": 1}, 2,
                               ["", "fig", "sub,fig", "bat,fig,sub", "car,fig", "des,sub,fig"])  # fmt: skip
        if got is None:
            continue
        army, side = got
        st = side.start
        for _ in range(2):
            hp = side.hp(st)
            for hs in range(min(hp, 3) + 1):
                for ha in range(min(hp, 3) + 1):
                    for hy in sorted({0, 1, hp // 2}):
                        got = side._take_hits(st, hs, ha, hy)
                        assert got == _reference(side, st, hs, ha, hy), (army, st, hs, ha, hy)
                        # the restricted hits first, then the unrestricted ones on the
                        # first steps left: how the engines use it
                        seq = side.sequence(side._take_hits(st, hs, ha, 0))
                        assert got == seq[min(hy, len(seq) - 1)], (army, st, hs, ha, hy)
                        checked += 1
                        changed += got != side.take(st, hs + ha + hy)
            st = side.take_hits(st, rng.randint(0, 1), rng.randint(0, 1), 0)
    assert checked > 2_000 and changed > 100, (checked, changed)


def test_a_submarine_is_lost_before_a_fighter_later_in_the_order() -> None:
    """The order of loss destroyer, submarine, fighter, carrier; one submarine hit and
    one bomber hit (no attacking destroyer: the bomber may not hit the submarine, the
    submarine may not hit the fighter, A-10.6).  Bomber on the destroyer, submarine on
    the submarine loses the destroyer and the submarine: earlier in the order than the
    destroyer and the fighter, which taking the submarine's hit first would give."""
    battle = AABattle.parse("1 sub, 1 bom", "1 des, 1 sub, 1 fig, 1 car", mode="sea",
                            ool_defender="des,sub,fig,car", rounds=1)  # fmt: skip
    setup, _ = setup_battle(battle, 1.0)
    side = setup.defender
    after = side.take_hits(side.start, 1, 1, 0)
    assert (side.count(after, "destroyer"), side.count(after, "submarine"), side.count(after, "fighter")) == (0, 0, 1)
    # Round 1, A-10.6: the defender's submarine strikes first (no attacking destroyer)
    # and sinks the attacking one on a 1; otherwise that submarine hits on 1-2 and the
    # bomber on 1-4.  Both hit: 5/6 * 2/6 * 4/6 = 5/27, the defender left with its
    # fighter and carrier.  Every engine alike.
    for engine in ("auto", "general"):
        got = dict((tuple(sorted(army.items())), p) for army, p in aa_odds(battle, engine=engine).survivors["defender"])
        assert abs(got[(("carrier", 1), ("fighter", 1))] - 5 / 27) < 1e-12, (engine, got)
        assert (("carrier", 1), ("submarine", 1)) not in got


@pytest.mark.parametrize("loops", [False, True])
def test_the_numpy_solve_places_restricted_hits_as_take_hits(monkeypatch: pytest.MonkeyPatch, loops: bool) -> None:
    """engine.odds.aa_naval shortcuts take_hits: one restricted class alone follows a
    fixed sequence (submarine hits skip aircraft, aircraft hits skip submarines), and
    with both classes the steps of each kind lost are counted where the hits run out
    (:meth:`_Numbered.both_classes`, the unrestricted hits following on).  Same
    states, on both sides' loss orders, by numpy's steps and by the compiled loops
    (``loops``: aa_naval_kernel.both_taken, table_cells)."""
    from engine.odds import aa_naval
    from engine.odds.aa_naval import _Numbered

    monkeypatch.setattr(aa_naval.compiled, "numba_loaded", lambda: loops)

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


def test_the_first_step_of_a_kind_is_the_loss_orders() -> None:
    # Side.first_step (read from the runs of the loss order) is the first step of
    # Side.steps not of the excluded category, in every state met along the way, with
    # battleships' first hits (A-10.8), transports last (A-10.7), orders of loss chosen
    # by the player, and land units kept back (A-10.10: read from the steps then).
    rng = random.Random(1942)
    met = {CAT_SUB: 0, CAT_AIR: 0, 3: 0}
    for k in range(40):
        got = _random_defender(rng, "2 sub, 1 bat", {"sub": 3, "des": 2, "cru": 1, "car": 2, "bat": 2, "tra": 2}, 3,
                               ["", "fig", "sub,fig", "bat,fig,sub", "tra,car"])  # fmt: skip
        if got is None:
            continue
        army, side = got
        if k % 4 == 0:  # the same units, two kept back as if land units (the steps' path)
            side = Side(side.role, side.army, side.profiles, order=side.order, keep_land=2)
        st = side.start
        while side.steps(st):
            for excluded in (CAT_SUB, CAT_AIR, 3):
                want = next((x for x in side.steps(st) if x.category != excluded), None)
                assert side.first_step(st, excluded) == want, (army, st, excluded)
                met[excluded] += want is not None
            st = side.take_hits(st, rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 1) or 1)
    assert min(met.values()) > 100, met
