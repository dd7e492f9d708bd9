"""Exact A&A odds against the separately written reference of
:mod:`tests.odds.mc_reference` (``exact_outcomes``: the die-by-die simulator's own
battle walked over every roll, and ``exact_win_from_start``; the casualties placed by
A-10.14's ruling by brute force): random small fleets fought to the end, with submarines, destroyers, carriers,
aircraft, battleships and transports, and random battles with every option of
``/odds aa``, in the three rules sets, with low luck and the players' own orders of
loss.  Every number compared must agree to rounding: any rule placed differently (a
surprise strike, a hit that may not land on a submarine or an aircraft, a battleship's
or a carrier's two hits, defenceless transports, a stalemate, a retreat, a second
wave) shows at once, where the Monte Carlo tests would see only a big difference."""

from __future__ import annotations

import random
from typing import Any

from engine.core.errors import PlayerError
from engine.odds.aa import AABattle, AAOdds, aa_odds

from .mc_reference import Unit, exact_outcomes, exact_win_from_start, left_units, take_hits

LAND_ATTACK = ("infantry", "artillery", "tank", "fighter", "bomber")
LAND_DEFENCE = (*LAND_ATTACK, "aa gun")
SEA_ATTACK = ("submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter", "bomber")
SEA_DEFENCE = ("submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter", "transport")
TECH_ATTACK = ["jet fighters", "heavy bombers", "advanced artillery", "super submarines"]
TECH_DEFENCE = ["radar", "jet fighters", "super submarines"]
SHIPS = ("submarine", "destroyer", "cruiser", "carrier", "battleship", "fighter", "bomber", "transport")
SHORT = {"submarine": "sub", "destroyer": "des", "cruiser": "cru", "carrier": "car", "battleship": "bat",
         "fighter": "fig", "bomber": "bom", "transport": "tra", "infantry": "inf", "artillery": "art", "tank": "tank",
         "aa gun": "aa"}  # fmt: skip
CASES = 400


def _force(rng: random.Random, kinds: tuple[str, ...], most: int = 4,
           given: dict[str, int] | None = None) -> dict[str, int]:
    """``given`` and more units of ``kinds``, ``most`` in all."""
    force = dict(given or {})
    for _ in range(rng.randint(1, most - len(force))):
        kind = rng.choice(kinds)
        force[kind] = force.get(kind, 0) + 1
    return force


def _text(fleet: dict[str, int]) -> str:
    return ", ".join(f"{n} {SHORT[kind]}" for kind, n in fleet.items())


def test_random_fleets_agree_with_the_exact_reference() -> None:
    rng = random.Random(20261204)
    compared = strikes_and_aircraft = 0
    for _ in range(CASES * 4):
        if compared == CASES:
            break
        # Half with a submarine and an aircraft on both sides (the defender's fighter with
        # its carrier), where the restricted hits of matter most.
        mixed = rng.random() < 0.5
        attacker = _force(rng, SHIPS, 5, {"submarine": 1, rng.choice(("fighter", "bomber")): 1} if mixed else None)
        defender = _force(rng, SHIPS, 5, {"submarine": 1, "fighter": 1, "carrier": 1} if mixed else None)
        rules = rng.choice(("anniversary", "1942se", "global1940"))
        low_luck = rng.random() < 0.2
        ool_a = tuple(rng.sample(sorted(attacker), len(attacker))) if rng.random() < 0.5 else ()
        ool_d = tuple(rng.sample(sorted(defender), len(defender))) if rng.random() < 0.5 else ()
        try:
            odds = aa_odds(AABattle.parse(_text(attacker), _text(defender), mode="sea", rules=rules,
                                          low_luck=low_luck, ool_attacker=",".join(SHORT[k] for k in ool_a),
                                          ool_defender=",".join(SHORT[k] for k in ool_d)))  # fmt: skip
        except PlayerError:  # e.g. bombers defending at sea: refused, as the bot does
            continue
        want = exact_win_from_start(attacker, defender, rules=rules, low_luck=low_luck, ool_attacker=ool_a,
                                    ool_defender=ool_d)  # fmt: skip
        if want is None:
            continue
        compared += 1
        subs = "submarine" in attacker or "submarine" in defender
        air = any(k in side for side in (attacker, defender) for k in ("fighter", "bomber"))
        strikes_and_aircraft += subs and air
        assert abs(odds.attacker_win - want) < 1e-12, (_text(attacker), _text(defender), rules, low_luck, ool_a,
                                                       ool_d, odds.attacker_win, want)  # fmt: skip
    assert compared == CASES
    assert strikes_and_aircraft >= CASES // 4  # where A-10.14's restricted hits matter


def test_the_reference_places_a_bombers_hit_away_from_the_submarine_it_may_not_take() -> None:
    """A-10.14's example (docs/odds.md): order of loss destroyer, submarine, fighter,
    carrier, hit once by a submarine and once by a bomber: the destroyer and the
    submarine are lost (the bomber's hit on the destroyer, the submarine's on the
    submarine), not the destroyer and the fighter."""
    fleet = [Unit("destroyer"), Unit("submarine"), Unit("fighter"), Unit("carrier")]
    left = take_hits(fleet, {"sub": 1, "air": 1, "any": 0}, ["destroyer", "submarine", "fighter", "carrier"], False)
    assert sorted(u.name for u in left) == ["carrier", "fighter"]


def _answer(odds: AAOdds) -> dict[str, float]:
    """``odds`` in :func:`exact_outcomes`' keys: every outcome (and the shares the
    defender's holding includes), the whole assault's after a landing's retreat and the
    whole attack's with a second wave, the chance of each set of survivors (the chart's)
    and each side's expected survivors of each type (a side's AA guns not among them)."""
    got = {"attacker": odds.attacker_win, "defender": odds.defender_win, "draw": odds.draw,
           "takes": odds.attacker_takes, "retreat": odds.retreat, "unfinished": odds.unfinished,
           "stalemate": odds.stalemate}  # fmt: skip
    for name, whole in (("whole", odds.fight_on), ("wave", odds.second_wave)):
        if whole is not None:
            got.update({f"{name} attacker": whole["attacker_win"], f"{name} defender": whole["defender_win"],
                        f"{name} draw": whole["draw"], f"{name} takes": whole["attacker_takes"]})
    for side, chances in odds.survivors.items():
        for units, chance in chances:
            key = f"left {side} {left_units(units)}"
            got[key] = got.get(key, 0.0) + chance
    for side, expected in odds.expected_survivors.items():
        got.update((f"survivor {side} {name}", n) for name, n in expected.items() if name != "aa gun")
    return got


def _options(rng: random.Random, mode: str, attacker: dict[str, int]) -> dict[str, Any]:
    """Random options of ``mode``'s battle as :func:`exact_outcomes` takes them.  A
    landing has either a round limit or retreats (the two are refused together), the
    land units that came over land among them retreating with the aircraft."""
    landing = mode == "amphibious"
    retreats = not (landing and rng.random() < 0.5)
    lands = [k for k in attacker if k in ("infantry", "artillery", "tank")]
    return dict(
        rules=rng.choice(("anniversary", "1942se", "global1940")), low_luck=rng.random() < 0.2,
        rounds=None if landing and retreats else rng.choice((None, None, 1, 2, 3)),
        retreat_below=rng.choice((0, 0, 2, 3)) if retreats else 0,
        retreat_after=rng.choice((None, None, None, 1, 2)) if retreats else None,
        # (exact_win, which a retreat by win chance reads, knows no submerging)
        retreat_chance=rng.choice((None, None, 25.0, 50.0, 70.0)) if retreats and mode != "sea" else None,
        overland={k: rng.randint(1, attacker[k]) for k in rng.sample(lands, rng.randint(0, len(lands)))}
        if landing else None,
        keep_land=mode != "sea" and rng.random() < 0.3,
        bombard=_force(rng, ("battleship", "cruiser")) if landing and rng.random() < 0.8 else None,
        tech_attacker=frozenset(rng.sample(TECH_ATTACK, rng.randint(0, 2))) if rng.random() < 0.3 else frozenset(),
        tech_defender=frozenset(rng.sample(TECH_DEFENCE, rng.randint(0, 2))) if rng.random() < 0.3 else frozenset(),
        wave2=_force(rng, SEA_ATTACK if mode == "sea" else LAND_ATTACK) if rng.random() < 0.3 else None,
        submerge=(rng.random() < 0.5, rng.random() < 0.5) if mode == "sea" else (False, False),
    )


def test_random_battles_with_options_agree_with_the_exact_reference() -> None:
    """Land battles with AA guns, landings with bombardment and sea battles, with round
    limits, strafes, retreats below K units and by win chance, a kept land unit, low
    luck, technologies, orders of loss, the three rules sets, submerging (A-10.6), a
    landing's retreat (its landed units fighting on, A-10.3) and second waves (joined
    by the first wave's units after a round limit): every outcome's chance (and the
    retreats, unfinished battles and stalemates the defender's holding includes), the
    whole assault's and the whole attack's with the second wave, each side's expected
    survivors of each type and the chance of each set of survivors equal
    :func:`exact_outcomes`', with AA fire's and bombardment's every outcome and every
    roll of every round of the reference's own rules."""
    rng = random.Random(4122026)
    seen: dict[str, int] = {}
    compared = 0
    for _ in range(CASES * 2):
        if compared == CASES:
            break
        mode = rng.choice(("land", "sea", "amphibious"))
        attacker = _force(rng, SEA_ATTACK if mode == "sea" else LAND_ATTACK)
        defender = _force(rng, SEA_DEFENCE if mode == "sea" else LAND_DEFENCE)
        chosen = _options(rng, mode, attacker)
        ool_a = tuple(rng.sample(sorted(attacker), len(attacker))) if rng.random() < 0.4 else ()
        ool_d = tuple(k for k in rng.sample(sorted(defender), len(defender)) if k != "aa gun") if rng.random() < 0.4 else ()
        try:
            odds = aa_odds(AABattle.parse(
                _text(attacker), _text(defender), mode=mode, rules=chosen["rules"], low_luck=chosen["low_luck"],
                rounds=chosen["rounds"], retreat_below=chosen["retreat_below"], retreat_after=chosen["retreat_after"],
                retreat_chance=chosen["retreat_chance"], keep_land_unit=chosen["keep_land"],
                bombard=_text(chosen["bombard"] or {}), tech_attacker=", ".join(sorted(chosen["tech_attacker"])),
                tech_defender=", ".join(sorted(chosen["tech_defender"])), wave2=_text(chosen["wave2"] or {}),
                submerge_attacker=chosen["submerge"][0], submerge_defender=chosen["submerge"][1],
                overland=_text(chosen["overland"] or {}),
                ool_attacker=",".join(SHORT[k] for k in ool_a),
                ool_defender=",".join(SHORT[k] for k in ool_d)))  # fmt: skip
        except PlayerError:
            continue
        want = exact_outcomes(attacker, defender, mode=mode, ool_attacker=ool_a, ool_defender=ool_d, **chosen)
        got = _answer(odds)
        assert {k for k, n in got.items() if n > 1e-12} <= set(want), (got, want)
        compared += 1
        for name, chance in want.items():
            assert abs(got.get(name, 0.0) - chance) < 1e-12, (name, mode, _text(attacker), _text(defender), chosen, ool_a,
                                                     ool_d, got, want)  # fmt: skip
        for kind, met in (
            ("options", any(chosen[k] for k in ("rounds", "retreat_below", "retreat_after", "keep_land"))),
            ("retreat by chance", chosen["retreat_chance"] is not None and got["retreat"] > 0),
            ("AA fire", "aa gun" in defender and ("fighter" in attacker or "bomber" in attacker)),
            ("bombardment", bool(chosen["bombard"])),
            ("technologies", bool(chosen["tech_attacker"] or chosen["tech_defender"])),
            ("second wave", bool(chosen["wave2"])),
            ("a landing's retreat", odds.fight_on is not None and got["retreat"] > 0),
            ("submerging", any(chosen["submerge"]) and any(u == "submarine" for u in (*attacker, *defender))),
            ("joined second wave", bool(chosen["wave2"]) and got["unfinished"] > 0 and not chosen["retreat_after"]),
        ):
            seen[kind] = seen.get(kind, 0) + met
    assert compared == CASES
    assert min(seen.values()) >= CASES // 40, seen  # every kind met, ten times at least


def test_defending_transports_beside_submarines_agree_with_the_exact_reference() -> None:
    """A defender's transports are lost without dice once it has only them left, or
    only them and submarines against aircraft alone (A-10.7).  The sea solve settles a
    pair of states one by one only where that (or another end-of-round rule) may act;
    a defender holding transports beside another ship, or beside submarines against an
    attacker that is not aircraft alone, fights on untouched.  Random fleets where it
    matters (the attacker's aircraft outliving its ships or not, the defender's
    submarines beside its transports), with retreats, round limits and submerging: every
    outcome and the chance of each set of survivors equal :func:`exact_outcomes`'."""
    rng = random.Random(20261205)
    compared = lost_to_aircraft = 0
    for _ in range(300):
        if compared == 120:
            break
        attacker = _force(rng, ("submarine", "destroyer", "cruiser", "fighter", "bomber"), 5,
                          {rng.choice(("fighter", "bomber")): 1})  # fmt: skip
        defender = _force(rng, ("submarine", "transport", "destroyer", "cruiser"), 6,
                          {"transport": 1, "submarine": 1})  # fmt: skip
        if rng.random() < 0.3:
            defender.update(carrier=1, fighter=1)
        submerge = (rng.random() < 0.25, rng.random() < 0.25)
        chosen: dict[str, Any] = dict(
            rounds=rng.choice((None, None, None, 2)), retreat_below=rng.choice((0, 0, 2)),
            # (exact_win, which a retreat by win chance reads, knows no submerging)
            retreat_chance=rng.choice((None, 30.0, 60.0)) if not any(submerge) else None, submerge=submerge,
        )  # fmt: skip
        try:
            odds = aa_odds(AABattle.parse(
                _text(attacker), _text(defender), mode="sea", rounds=chosen["rounds"],
                retreat_below=chosen["retreat_below"], retreat_chance=chosen["retreat_chance"],
                submerge_attacker=submerge[0], submerge_defender=submerge[1]))  # fmt: skip
        except PlayerError:
            continue
        want = exact_outcomes(attacker, defender, mode="sea", **chosen)
        got = _answer(odds)
        compared += 1
        # The defender's submarines left without its transports against aircraft alone.
        lost_to_aircraft += any(k.startswith("left attacker") and "submarine" not in k and "destroyer" not in k
                                and "cruiser" not in k and p > 1e-6 for k, p in want.items()) and any(
            k.startswith("left defender") and "submarine" in k and "transport" not in k and p > 1e-6
            for k, p in want.items())  # fmt: skip
        for name, chance in want.items():
            assert abs(got.get(name, 0.0) - chance) < 1e-12, (name, _text(attacker), _text(defender), chosen, got,
                                                             want)  # fmt: skip
    assert compared == 120
    assert lost_to_aircraft >= 10
