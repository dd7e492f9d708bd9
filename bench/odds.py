"""Exact A&A odds against simulation (``python -m bench odds``).

- ``odds-aa-exact-over-mc-40v40``: the exact calculation's time divided by the time of
  a 10,000-battle Monte Carlo of the same 40-vs-40 land battle, both measured here
  (goal < 0.5).  The simulator below is a plain one, written for this benchmark only.
- ``odds-aa-100v100-seconds``: the exact calculation of a 100-vs-100 land battle
  (goal < 1).
- ``odds-aa-10v10-ms``, ``odds-aa-40v40-ms``, ``odds-aa-100v100-ms``: in-process time of
  ``aa_odds`` on mixed land battles (best of several runs; issue 19's peer figures on
  this machine class: ~0.2, ~3.5 and ~45 ms).
- ``odds-aa-100v100-aa-gun-ms``: 100 vs 100 on land, 10 attacking fighters and 10
  bombers, one AA gun (11 x 11 = 121 AA outcomes before round 1; goal < 1 s);
  ``odds-aa-100v100-aa-gun-fighters-ms``: the same with 20 fighters (21 outcomes).
- ``odds-aa-sea-30v30-subs-ms``: a 30-vs-30 sea battle with submarines, destroyers,
  cruisers, carriers with fighters and battleships on both sides (~75 ms on a quiet
  machine; ~300 ms before the strike phase, ~590 ms before the numpy solve of
  ``engine.odds.aa_naval``).
- ``odds-aa-sea-40v40-subs-ms``: the same kinds of ships at 40 a side (goal < 1 s:
  ~130 ms; ~400 ms before the strike phase, ~1450 ms before the numpy solve).
- ``odds-aa-sea-100v100-subs-ms``: the same kinds of ships at 100 a side, one run, the
  first time asked (~0.5-0.6 s since masses below 1e-19 are left out, ~0.75-0.9 s with
  those down to 1e-24 kept; ~1.4 s before phase results were stored flat, ~5.5 s before
  the strike phase, ~16 s before the numpy solve; see docs/odds.md).
- ``odds-aa-sea-100-subs-vs-100-subs-ms``: 100 submarines against 100 submarines (every
  round two surprise strikes and nothing else; ~0.15 s, ~9 s before the strike phase).
- ``odds-aa-sea-100v100-strikes-ms``: 100 vs 100 at sea with no defending destroyer
  (submarines strike every round, aircraft on both sides cannot hit them), best of three
  in-process runs: the compiled pass of ``engine.odds.aa_strike`` (~0.45-0.6 s on the
  slow machine of 2026-12-01, 33-35 GFLOP/s and 43-71 ns a loop turn, where the numpy
  solve took ~5.6-5.9 s; that solve took ~3.5 s and 0.18 GB on 2026-11-25's machine,
  ~13.6 s before its casualties were split, well over 60 s before the strike phase).
- ``odds-aa-sea-100v100-defender-strikes-ms``: the defender's submarines strike instead:
  60 cru, 20 car, 10 bat, 30 fig against 60 sub, 20 cru, 10 bat, 5 car, 10 fig (the
  attacker's aircraft cannot hit them; 2,231 attacker states, 1.2 million pairs of
  states met), best of three (~1.2-1.8 s on 2026-12-01's slow machine; ~55-63 s in the
  numpy solve).
- ``odds-aa-sea-100v100-strikes-strafe-2-ms``, ``odds-aa-sea-100v100-strikes-strafe-3-ms``:
  the strike battle, the attacker retreating after round 2 or 3 (a strafe: the strike
  pass's round walk, every pair each round), best of three (~0.42 and ~1.0 s on
  2026-12-01's slow machine, where the numpy walk took ~2.3 and ~13.4 s; that walk ~1.2-1.4
  s and ~5.4 s on 2026-11-25's machine once its casualties were split, ~17 s and 4.8 GB
  for 2 rounds before its rounds were batched).
- ``odds-aa-sea-100v100-strikes-retreat-chance-ms``: the strike battle, the attacker
  retreating when its chance to win falls below 40 % (the strike pass traced, its
  chances backward, the solve with the retreats), best of three (~3.6 s on 2026-12-01's
  slow machine; ~36 s in the numpy passes).
- ``odds-aa-sea-100v100-defender-strikes-retreat-chance-ms``: the same retreat where the
  defender's submarines strike (the battle of ``odds-aa-sea-100v100-defender-strikes-ms``),
  one run: ~9-13 s on 2026-12-02's slow machine (~3 times that battle without the retreat
  in the same run), ~29 s (~15 times) before the chances backward skipped
  the pairs its traced pass never processed (~5/6 of 7.6 million; ~20-30 s of it).
- ``odds-aa-sea-100v100-both-strike-ms``: submarines on both sides, aircraft on the
  attacker's only, no destroyer (40 sub, 20 cru, 10 bat, 30 fig against 60 sub, 30 cru,
  10 bat), best of three: the strike pass with Y's strike as a move of its own (~4-5.3 s on
  2026-12-02's slow machine; Discord refused the numpy solve after ~24 s before).
- ``odds-aa-sea-100v100-striker-transports-ms``: the defender's submarines strike beside
  its transports (30 bom, 40 cru, 30 fig against 10 tra, 25 sub, 30 car, 25 des, 10 fig),
  best of three: the strike pass with A-10.7's transports rule (~1.1-1.5 s on 2026-12-03's
  busy machine; ~120 s in the numpy solve, which Discord refused).
- ``odds-aa-sea-100v100-one-side-destroyers-ms``: submarines on both sides, destroyers on
  the attacker's only (40 sub, 40 des, 20 cru against 15 tra, 14 cru, 25 sub, 24 bat, 8
  car, 14 fig), best of three: the strike pass, the defender's submarines firing with its
  ships until the last destroyer is sunk (~0.36 s on that machine; ~16 s in the numpy
  solve).
- ``odds-aa-sea-100v100-other-destroyers-ms``: the attacker's submarines against a fleet
  with destroyers and fighters (40 sub, 20 cru, 20 bat, 20 car against 10 des, 20 cru, 20
  car, 10 bat, 40 fig), best of three: the strike pass, the submarines firing with the
  other ships and the fighters hitting them until the last destroyer is sunk, then
  striking (A-10.6; ~0.58 s on 2026-12-03's machine at 38.6 GFLOP/s; ~5 s in the numpy
  solve). ``odds-aa-sea-100v100-other-destroyers-retreat-chance-ms``: the same, the
  attacker retreating once its chance to win falls below 40 %, one run (~2.3 s there;
  ~18 s in the numpy passes).
- ``odds-aa-sea-100v100-strikes-strafe-3-retreat-chance-ms``: the strike battle, the
  attacker retreating after round 3 or once its chance to win falls below 40 %, one run:
  the strike pass's decisions, then its round walk (~4-6.5 s on 2026-12-02's slow
  machine; Discord refused it after ~22 s of work in the numpy passes before).
- ``odds-cli-strikes-process-ms``: a whole ``warroom odds aa --sea`` process of the strike
  battle: start-up, numba's import (~0.4-0.5 s) and its compiled pass loaded from
  numba's cache (~0.3 s; ``make bench`` compiles it first), best of three.
- ``odds-cli-process-ms``: a whole ``warroom odds aa`` process (10 vs 10), start-up
  included (best of five).
- Battles a timing survey of random 40-100-ship fleets found over 1 s (2026-12-04,
  the thirteenth stop's night; docs/odds.md, *Speed*), in-process:
  ``odds-aa-sea-100v100-full-fleets-ms``: submarines, destroyers and aircraft on both
  sides, the defender's transports (25 sub, 15 des, 15 fig, 15 bom, 10 car, 13 cru, 7
  bat against 25 sub, 15 des, 15 car, 30 fig, 10 tra, 3 cru, 2 bat), best of three
  (~4.1 s before a defender's transports stopped sending every pair through the
  end-of-round rules one by one, ~1.6 s after), and
  ``odds-aa-sea-100v100-full-fleets-retreat-chance-ms`` the same retreating when its
  chance to win falls below 40 %, one run (the numpy passes: ~2.95 s before their
  chances backward was compiled on 2026-12-07, ~1.95 s after, ~1.6 s once the solve
  with the retreats became the traced solve's correction); ``odds-aa-sea-100v100-defender-
  destroyers-air-ms``: the same without the attacker's destroyers, one run (~10.9 ->
  ~7.2 s); ``odds-aa-sea-100v100-attacker-destroyers-air-ms``: without the defender's,
  one run (~7.2 -> ~4 s); ``odds-aa-sea-defending-transports-ms``: 17 sub, 17 car, 10
  bom against 18 sub, 4 des, 20 car, 15 fig, 20 tra, best of three (~1.57 -> ~0.7 s);
  ``odds-aa-sea-retreat-left-ms``: 11 sub, 8 cru, 23 bom, 32 tra against 17 sub, 16 des,
  2 cru, 14 car, 22 fig, 7 tra, retreating with 40 units left, best of three (~3.4 ->
  ~1.2 s: the retreats recorded at once); ``odds-aa-sea-100v100-struck-aircraft-ms``: 12
  bat, 68 fig, 17 bom against 23 sub, 19 des, 28 car, 20 bat, 9 tra (the defender's
  submarines strike at a fleet of 85 aircraft), best of three (~1.5 s, ~0.95 s after
  the strike pass's rungs, ~0.8 s est. after its step 4 split of 2026-12-06), and
  ``odds-aa-sea-100v100-struck-aircraft-retreat-chance-ms`` the same retreating below
  20 %, one run (~6.4 s; ~3.0-3.5 s est. after the split backward of 2026-12-06, ~2.6-3.0 s
  after its solve with the retreats became the traced solve's correction that afternoon).
- ``odds-aa-sea-100v100-no-destroyer-air-ms``: the slowest kind there is, submarines and
  aircraft on both sides and no destroyer anywhere (40 sub, 20 cru, 10 bat, 30 fig against
  40 sub, 20 car, 10 bat, 30 fig: the battle of ``odds-aa-discord-refusal-ms``), in
  full, one run, measured last (~1.5 GB): ~20-23 s on 2026-12-06's and 2026-12-07's
  machines, not met (README, *Speed*; timed by hand before 2026-12-07's evening);
  ``odds-aa-sea-60v60-no-destroyer-air-retreat-chance-ms``: the same kind at 60 a side
  (24 sub, 12 cru, 6 bat, 18 fig against 24 sub, 12 car, 6 bat, 18 fig) retreating when
  its chance to win falls below 40 %, one run, just before it: ~20 s at first, ~15.3 s
  once the correction looked its stale retreat pairs up sorted, ~9.5 s once the traced
  solve held general fire back and the chances backward mirrored it (2026-12-07, night).
- ``odds-machine-gemm-gflops-1-core``, ``odds-machine-python-loop-ns``: how fast this
  machine is (one core's 600 x 600 matrix products; a plain Python loop, ns per turn),
  to read the other figures by: machines of one class differ from day to day (on
  2026-11-24 every odds figure came ~1.25-1.6x the README's, the slowest the most).
- ``odds-machine-memory-latency-ns``: how long this machine waits for a read from memory
  (dependent random reads over 256 MB, ns each), which the two figures above do not see:
  the strike pass, the retreats by win chance and the merged engine's big tables wait on
  such reads, so on a machine near the reference speed by the other two these rows can
  still run up to ~2x slower (the last hours of 2026-12-06: 63-66 GFLOP/s, 28-30 ns,
  174-198 ns).
- ``odds-aa-100v100-all-air-aa-gun-ms``: 50 fighters and 50 bombers against 90 infantry,
  9 tanks and an AA gun (51 x 51 = 2,601 AA outcomes, which share their attacker states:
  ``engine.odds.aa_merged``; ~19 s before it, ~0.3 s after, goal < 1 s);
  ``odds-aa-100v100-mixed-air-aa-gun-ms``: 40 infantry, 30 fighters and 30 bombers
  against the same (961 outcomes that share nothing until the infantry is gone: ~9.7 s
  before the merged engine, ~1.1-1.3 s with it, ~0.7-0.8 s since its ground rows were
  reworked (a fresh process's first run ~0.1-0.6 s more); with 3 rounds ~0.5-0.55 s
  (~1.4 s before);
  ``odds-aa-100v100-mixed-air-retreat-chance-ms``: the same, the attacker retreating when
  its chance to win falls below 40 % (~0.9-1.05 s, at the 1 s goal: its backward pass
  ~0.5 s, most of it products at ~35 GFLOP/s; ~4 s, then ~2.0-2.2 s, then ~1.1-1.2 s,
  before);
  ``odds-aa-100v100-fighters-aa-gun-ms``: 100 fighters against 99 infantry and an AA gun
  (~0.9 s before, ~0.06 s after).
- ``odds-aa-sea-100v100-strafe-2-ms``: the 100-a-side mixed fleets of
  ``odds-aa-sea-100v100-subs-ms``, the attacker retreating after round 2 (a strafe), one
  run (~7.4 s in the dict walk of ``engine.odds.aa_general``, ~0.35 s in the numpy round
  walk of ``engine.odds.aa_naval``).
- ``odds-aa-sea-40v40-retreat-chance-ms``, ``odds-aa-sea-100v100-retreat-chance-ms``:
  the mixed fleets of ``odds-aa-sea-40v40-subs-ms`` and ``odds-aa-sea-100v100-subs-ms``,
  the attacker retreating when its chance to win falls below 40 % (a traced numpy
  solve, its backward pass, the solve with the retreats; best of three runs, each the
  whole computation: ~0.16 s and ~0.8-0.9 s; ~6 s at 40 a side in the pure-Python pass
  before, ~2 s at 100 a side while the backward pass took every product, ~1.3-1.5 s
  with masses down to 1e-24 kept).
- ``odds-aa-sea-second-wave-100-ms``: 20 destroyers against the 100-ship fleet of
  ``odds-aa-sea-100v100-subs-ms``, that fleet as a second wave against every state the
  first leaves, best of three (~0.55 s as one battle with a start per state; ~22 s as a
  battle per state);
  ``odds-aa-second-wave-aa-gun-ms``: 30 infantry against 60 inf, 20 art, 10 tanks, 9
  fighters and an AA gun, then the 100 units with 20 aircraft of
  ``odds-aa-100v100-aa-gun-ms`` as the second wave (~0.5 s; ~13 s before).
- ``odds-aa-joined-wave-aa-gun-ms``: 25 inf, 10 art, 5 tanks, 5 fighters and 5 bombers
  against ``DEFENSE_WAVE`` for 2 rounds, then 15 inf, 5 art, 5 tanks and 5 fighters
  joined by the first wave's units still fighting, best of three (~76,000 starts, ~0.23 s
  since the far states that carry less than 1e-19 spread nothing, the levels' states are
  ordered so that their products are summed where they stand and the pairs are arrays;
  ~0.85 s before that, ~1.6 s before the starts were arrays, ~5 s with a start per force
  and AA outcome, ~945,000 of them).
- ``odds-aa-amphibious-100-strafe-ms`` / ``odds-aa-amphibious-100-retreat-left-ms``:
  ``LANDING_100`` (10 of its tanks came over land) assaults ``LANDING_DEFENSE`` from the
  sea with 3 battleships bombarding; the fighters and those tanks retreat after round 2
  / with 40 units left, and the landed units fight on (A-10.3), best of three (~0.2-0.4
  s: the merged table engine keeps the pairs retreated from; ~6-8 s in the general
  engine's pass, where round 1 from every AA and bombardment outcome is Python).
- ``odds-aa-joined-wave-100-ms``: 100 attacking units in all, 20 of them aircraft: 30
  inf, 10 art, 10 tanks, 10 fighters and 10 bombers against 60 inf, 15 art, 10 tanks,
  5 fighters and an AA gun for 1 round, then 10 inf, 5 art, 5 tanks, 5 fighters and 5
  bombers joined by the first wave's units still fighting (an even fight: the whole
  attack wins ~50 %), best of two (~1.5-1.6 s on 2026-12-06's slow machine, ~0.85-0.95
  s at the reference speed, est.; ~2.0-2.2 s there that morning, before the merged
  engine's bookkeeping went into compiled loops; ~80,000 attacker states, each level's
  products and their scatter into the next levels most of it; the scatter a compiled
  loop since 2026-12-02: ~14 % less).
- ``odds-aa-discord-refusal-ms``: how long Discord's limits (``bot.commands.odds``) take
  to refuse 40 sub, 20 cru, 10 bat, 30 fig against 40 sub, 20 car, 10 bat, 30 fig (~0.35 s
  with the work limit since the attacker's casualties are split, ~0.6 s before, ~3 s
  before general fire was held back; in full ~81 s and 1.5 GB of work on 2026-12-02's slow
  machine, ~20-23 s since: ``odds-aa-sea-100v100-no-destroyer-air-ms``; ~2.3 minutes and
  5 GB before the split, ~9 minutes before that).
Every battle kind must answer within 1 s up to 100 units a side (issue 19).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any, Iterable

from engine.odds.aa import AABattle, aa_odds

if TYPE_CHECKING:
    import numpy as np

ATTACK_40 = "20 inf, 8 art, 8 tank, 4 fig"
DEFENSE_40 = "24 inf, 8 art, 4 tank, 4 fig"
ATTACK_100 = "50 inf, 20 art, 20 tank, 10 fig"
DEFENSE_100 = "60 inf, 20 art, 10 tank, 10 fig"

# Monte Carlo: units as (type, attack, defense) lists in order of loss, first lost first.
_VALUES = {"inf": (1, 2), "art": (2, 2), "tank": (3, 3), "fig": (3, 4)}
_ORDER_ATT = ["inf", "art", "tank", "fig"]
_ORDER_DEF = ["inf", "art", "tank", "fig"]


def _units(text: str, order: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for item in text.split(","):
        n, name = item.split()
        counts[name] = int(n)
    return [name for name in order for _ in range(counts.get(name, 0))]


def monte_carlo(attacker: str, defender: str, battles: int, seed: int = 1) -> tuple[float, float, float]:
    """A straightforward simulation: every unit rolls one die a round (infantry paired
    with artillery attack at 2), casualties in order of loss, until a side is gone."""
    rng = random.Random(seed).random
    a0 = _units(attacker, _ORDER_ATT)
    d0 = _units(defender, _ORDER_DEF)
    wins = losses = draws = 0
    for _ in range(battles):
        a, d = a0, d0
        while a and d:
            arts = a.count("art")
            hits_a = 0
            for u in a:
                value = _VALUES[u][0]
                if u == "inf" and arts > 0:
                    arts -= 1
                    value = 2
                if rng() * 6 < value:
                    hits_a += 1
            hits_d = sum(1 for u in d if rng() * 6 < _VALUES[u][1])
            a, d = a[hits_d:], d[hits_a:]
        if a:
            wins += 1
        elif d:
            losses += 1
        else:
            draws += 1
    return wins / battles, losses / battles, draws / battles


ATTACK_10 = "5 inf, 2 art, 2 tank, 1 fig"
DEFENSE_10 = "6 inf, 2 art, 1 tank, 1 fig"
ATTACK_AA = "50 inf, 15 art, 15 tank, 10 fig, 10 bom"
ATTACK_AA_FIGHTERS = "50 inf, 15 art, 15 tank, 20 fig"
DEFENSE_AA = "60 inf, 20 art, 10 tank, 9 fig, 1 aa"
ATTACK_ALL_AIR = "50 fig, 50 bom"
ATTACK_MIXED_AIR = "40 inf, 30 fig, 30 bom"
# An amphibious assault of 100: 10 tanks came over land, 30 fighters fly in, 3
# battleships bombard; the retreat takes those two away, the landed units fight on.
LANDING_100 = "50 inf, 20 tank, 30 fig"
LANDING_DEFENSE = "70 inf, 20 art, 10 tank, 1 aa"
LANDING_OPTIONS: dict[str, object] = dict(mode="amphibious", bombard="3 bat", overland="10 tank", keep_land_unit=1)
DEFENSE_AIR = "90 inf, 9 tank, 1 aa"
SEA_ATTACK_30 = "10 sub, 6 des, 6 cru, 2 car, 2 bat, 4 fig"
SEA_DEFENSE_30 = "10 sub, 6 des, 6 cru, 2 car, 2 bat, 4 fig"
SEA_40 = "14 sub, 8 des, 8 cru, 3 car, 2 bat, 5 fig"
SEA_100 = "35 sub, 20 des, 20 cru, 7 car, 5 bat, 13 fig"
SEA_STRIKES_ATTACK = "60 sub, 20 cru, 10 bat, 10 bom"
SEA_STRIKES_DEFENSE = "40 cru, 20 car, 10 bat, 30 fig"
SEA_STRUCK_ATTACK = "60 cru, 20 car, 10 bat, 30 fig"
SEA_STRUCK_DEFENSE = "60 sub, 20 cru, 10 bat, 5 car, 10 fig"
SEA_BOTH_ATTACK = "40 sub, 20 cru, 10 bat, 30 fig"
SEA_BOTH_DEFENSE = "60 sub, 30 cru, 10 bat"
# The defender's submarines strike beside its transports (A-10.7: lost once only they, or
# only they and submarines facing aircraft alone, are left): the strike pass since
# 2026-12-03 (the numpy solve ~120 s on that day's busy machine).
SEA_SHED_ATTACK = "30 bom, 40 cru, 30 fig"
SEA_SHED_DEFENSE = "10 tra, 25 sub, 30 car, 25 des, 10 fig"
# Submarines on both sides, destroyers on the attacker's only: the defender's submarines
# fire with its ships until the last destroyer is sunk, then strike.
SEA_ONE_DES_ATTACK = "40 sub, 40 des, 20 cru"
SEA_ONE_DES_DEFENSE = "15 tra, 14 cru, 25 sub, 24 bat, 8 car, 14 fig"
SEA_OTHER_DES_ATTACK = "40 sub, 20 cru, 20 bat, 20 car"
SEA_OTHER_DES_DEFENSE = "10 des, 20 cru, 20 car, 10 bat, 40 fig"
# Found by timing random fleets (2026-12-04): subs and aircraft on both sides,
# destroyers on both, the defender's only or the attacker's only.
SEA_FULL_ATTACK = "25 sub, 15 des, 15 fig, 15 bom, 10 car, 13 cru, 7 bat"
SEA_FULL_DEFENSE = "25 sub, 15 des, 15 car, 30 fig, 10 tra, 3 cru, 2 bat"
SEA_FULL_NO_DES_ATTACK = "25 sub, 15 fig, 15 bom, 10 car, 23 cru, 12 bat"
SEA_FULL_NO_DES_DEFENSE = "25 sub, 15 car, 30 fig, 10 tra, 13 cru, 7 bat"
SEA_STRUCK_AIR_ATTACK = "12 bat, 68 fig, 17 bom"
SEA_STRUCK_AIR_DEFENSE = "23 sub, 19 des, 28 car, 20 bat, 9 tra"
SEA_WORST_ATTACK = "40 sub, 20 cru, 10 bat, 30 fig"
SEA_WORST_DEFENSE = "40 sub, 20 car, 10 bat, 30 fig"
SEA_WORST_60_ATTACK = "24 sub, 12 cru, 6 bat, 18 fig"
SEA_WORST_60_DEFENSE = "24 sub, 12 car, 6 bat, 18 fig"
DEFENSE_WAVE = "60 inf, 20 art, 10 tank, 9 fig, 1 aa"
ATTACK_JOINED = "25 inf, 10 art, 5 tank, 5 fig, 5 bom"
WAVE2_JOINED = "15 inf, 5 art, 5 tank, 5 fig"
ATTACK_JOINED_100 = "30 inf, 10 art, 10 tank, 10 fig, 10 bom"
DEFENSE_JOINED_100 = "60 inf, 15 art, 10 tank, 5 fig, 1 aa"
WAVE2_JOINED_100 = "10 inf, 5 art, 5 tank, 5 fig, 5 bom"


def _seconds(attacker: str, defender: str, repeat: int = 5, **options: object) -> float:
    """Best of ``repeat`` in-process runs of ``aa_odds`` (one run when it takes over 5 s)."""
    battle = AABattle.parse(attacker, defender, **options)  # type: ignore[arg-type]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        aa_odds(battle)
        best = min(best, time.perf_counter() - start)
        if best > 5:
            break
    return best


def _ms(attacker: str, defender: str, repeat: int = 5, **options: object) -> float:
    return round(_seconds(attacker, defender, repeat, **options) * 1000, 3)


def _machine() -> tuple[float, float]:
    """How fast this machine is at what the odds engines do, to read their figures by
    (machines of one class differ by tens of percent from day to day): one core's
    double-precision matrix products (GFLOP/s, best of five 600 x 600 products) and a
    plain Python loop (nanoseconds per turn, best of five million-turn loops)."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    a = np.random.default_rng(1).random((600, 600))
    with threadpool_limits(1):
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            a @ a
            best = min(best, time.perf_counter() - start)
    gflops = 2 * 600**3 / best / 1e9
    best_loop = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i & 7
        best_loop = min(best_loop, time.perf_counter() - start)
    return round(gflops, 1), round(best_loop * 1000, 1)


def one_cycle(n: int, seed: int = 1) -> np.ndarray[Any, np.dtype[np.int64]]:
    """``after[i]``: the index after ``i`` on one random cycle through all ``n`` indices
    (followed from any index, it meets every other before coming back), built with two
    tables of ``n`` at the peak."""
    import numpy as np

    order = np.random.default_rng(seed).permutation(n)
    after = np.empty(n, dtype=np.int64)
    after[order[:-1]] = order[1:]
    after[order[-1]] = order[0]
    return after


def _memory_ns(megabytes: int = 256, steps: int = 2_000_000) -> float:
    """How long this machine waits on memory: nanoseconds per read, best of three runs of
    ``steps`` reads of a table of ``megabytes`` (8-byte indices forming one random cycle,
    so each read's address comes from the read before; the table allocated as numpy
    allocates the odds engines' big tables).  The strike pass, the retreats by win chance
    and the merged engine's big tables wait on such reads, which neither of the other two
    machine figures sees."""
    import numba

    after = one_cycle(megabytes * (1 << 20) // 8)

    @numba.njit(cache=False)
    def chase(after: np.ndarray, steps: int) -> int:
        at = 0
        for _ in range(steps):
            at = after[at]
        return int(at)

    chase(after, 1000)  # compiled, and the first pages touched
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        chase(after, steps)
        best = min(best, time.perf_counter() - start)
    return round(best / steps * 1e9, 1)


def _refusal_ms() -> float:
    """How long Discord's limits take to refuse the biggest battle there is (100 a side
    with submarines, aircraft on both sides, no destroyer: ~81 s in full)."""
    from bot.commands.odds import MAX_STATES, MAX_UNITS, MAX_WORK
    from engine.core.errors import PlayerError

    battle = AABattle.parse(SEA_WORST_ATTACK, SEA_WORST_DEFENSE, mode="sea")
    start = time.perf_counter()
    try:
        aa_odds(battle, max_units=MAX_UNITS, max_states=MAX_STATES, max_work=MAX_WORK)
    except PlayerError:
        return round((time.perf_counter() - start) * 1000, 1)
    raise AssertionError("the biggest battle was answered within Discord's limits")


def _cli_ms(repeat: int = 5, *args: str) -> float:
    cmd = [sys.executable, "-m", "bot.cli", "odds", "aa", *(args or ("--attacker", ATTACK_10, "--defender", DEFENSE_10))]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 1)


def figures() -> Iterable[tuple[str, object]]:
    from bot.commands.odds import warm
    from bot.memory import keep_freed, settle_heap

    # As the bot does when it starts: what the process frees kept for its next
    # allocations (keep_freed: the bot's default, WARROOM_ODDS_KEEP_S), numba and the
    # compiled loops loaded (the odds engines use them where numba is loaded, or where a
    # battle is big enough to pay for loading it), then what start-up built kept out of
    # the cycle collector's full collections (settle_heap).
    keep_freed()
    warm()
    settle_heap()
    gflops, loop_ns = _machine()
    yield "odds-machine-gemm-gflops-1-core", gflops
    yield "odds-machine-python-loop-ns", loop_ns
    yield "odds-machine-memory-latency-ns", _memory_ns()
    exact_40 = _seconds(ATTACK_40, DEFENSE_40, 10)
    exact_100 = _seconds(ATTACK_100, DEFENSE_100)
    yield "odds-aa-10v10-ms", _ms(ATTACK_10, DEFENSE_10, 20)
    yield "odds-aa-40v40-ms", round(exact_40 * 1000, 3)
    yield "odds-aa-100v100-ms", round(exact_100 * 1000, 3)
    yield "odds-aa-100v100-aa-gun-ms", _ms(ATTACK_AA, DEFENSE_AA, 3)
    yield "odds-aa-100v100-aa-gun-fighters-ms", _ms(ATTACK_AA_FIGHTERS, DEFENSE_AA, 3)
    yield "odds-aa-sea-30v30-subs-ms", _ms(SEA_ATTACK_30, SEA_DEFENSE_30, 3, mode="sea")
    yield "odds-aa-sea-40v40-subs-ms", _ms(SEA_40, SEA_40, 3, mode="sea")
    yield "odds-aa-sea-100v100-subs-ms", _ms(SEA_100, SEA_100, 1, mode="sea")
    yield "odds-cli-process-ms", _cli_ms()
    start = time.perf_counter()
    monte_carlo(ATTACK_40, DEFENSE_40, 10_000)
    mc_40 = time.perf_counter() - start
    yield "odds-aa-exact-over-mc-40v40", round(exact_40 / mc_40, 4)
    yield "odds-aa-40v40-exact-seconds", round(exact_40, 4)
    yield "odds-aa-40v40-mc-10000-seconds", round(mc_40, 3)
    yield "odds-aa-100v100-seconds", round(exact_100, 3)
    yield "odds-aa-sea-100-subs-vs-100-subs-ms", _ms("100 sub", "100 sub", 3, mode="sea")
    yield "odds-aa-100v100-all-air-aa-gun-ms", _ms(ATTACK_ALL_AIR, DEFENSE_AIR, 3)
    yield "odds-aa-100v100-mixed-air-aa-gun-ms", _ms(ATTACK_MIXED_AIR, DEFENSE_AIR, 3)
    yield "odds-aa-100v100-mixed-air-retreat-chance-ms", _ms(ATTACK_MIXED_AIR, DEFENSE_AIR, 3, retreat_chance=40)
    yield "odds-aa-100v100-fighters-aa-gun-ms", _ms("100 fig", "99 inf, 1 aa", 3)
    yield "odds-aa-sea-100v100-strafe-2-ms", _ms(SEA_100, SEA_100, 1, mode="sea", retreat_after=2)
    yield "odds-aa-sea-40v40-retreat-chance-ms", _ms(SEA_40, SEA_40, 3, mode="sea", retreat_chance=40)
    yield "odds-aa-sea-100v100-retreat-chance-ms", _ms(SEA_100, SEA_100, 3, mode="sea", retreat_chance=40)
    yield "odds-aa-sea-second-wave-100-ms", _ms("20 des", SEA_100, 3, mode="sea", wave2=SEA_100)
    yield "odds-aa-second-wave-aa-gun-ms", _ms("30 inf", DEFENSE_WAVE, 1, wave2=ATTACK_AA)
    yield "odds-aa-joined-wave-aa-gun-ms", _ms(ATTACK_JOINED, DEFENSE_WAVE, 3, rounds=2, wave2=WAVE2_JOINED)
    yield "odds-aa-joined-wave-100-ms", _ms(ATTACK_JOINED_100, DEFENSE_JOINED_100, 2, rounds=1, wave2=WAVE2_JOINED_100)
    yield "odds-aa-amphibious-100-strafe-ms", _ms(LANDING_100, LANDING_DEFENSE, 3, retreat_after=2, **LANDING_OPTIONS)
    yield "odds-aa-amphibious-100-retreat-left-ms", _ms(LANDING_100, LANDING_DEFENSE, 3, retreat_left=40,
                                                        **LANDING_OPTIONS)  # fmt: skip
    # The biggest battles last: a process that ran them is slower at the others for a
    # while (the mixed-air retreat ~10-20 % after the strike battle's 0.76 GB before its
    # casualties were split; docs/odds.md), which would blur the figures measured after.
    yield "odds-aa-discord-refusal-ms", _refusal_ms()
    yield "odds-aa-sea-100v100-strikes-ms", _ms(SEA_STRIKES_ATTACK, SEA_STRIKES_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-defender-strikes-ms", _ms(SEA_STRUCK_ATTACK, SEA_STRUCK_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-both-strike-ms", _ms(SEA_BOTH_ATTACK, SEA_BOTH_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-striker-transports-ms", _ms(SEA_SHED_ATTACK, SEA_SHED_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-one-side-destroyers-ms", _ms(SEA_ONE_DES_ATTACK, SEA_ONE_DES_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-other-destroyers-ms", _ms(SEA_OTHER_DES_ATTACK, SEA_OTHER_DES_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-other-destroyers-retreat-chance-ms", _ms(SEA_OTHER_DES_ATTACK, SEA_OTHER_DES_DEFENSE, 1,
                                                                      mode="sea", retreat_chance=40)  # fmt: skip
    yield "odds-cli-strikes-process-ms", _cli_ms(3, "--attacker", SEA_STRIKES_ATTACK, "--defender", SEA_STRIKES_DEFENSE, "--sea")
    yield "odds-aa-sea-100v100-strikes-strafe-2-ms", _ms(SEA_STRIKES_ATTACK, SEA_STRIKES_DEFENSE, 3, mode="sea", retreat_after=2)
    yield "odds-aa-sea-100v100-strikes-strafe-3-ms", _ms(SEA_STRIKES_ATTACK, SEA_STRIKES_DEFENSE, 3, mode="sea", retreat_after=3)
    yield "odds-aa-sea-100v100-strikes-retreat-chance-ms", _ms(SEA_STRIKES_ATTACK, SEA_STRIKES_DEFENSE, 3, mode="sea",
                                                             retreat_chance=40)  # fmt: skip
    yield "odds-aa-sea-100v100-defender-strikes-retreat-chance-ms", _ms(SEA_STRUCK_ATTACK, SEA_STRUCK_DEFENSE, 1,
                                                                      mode="sea", retreat_chance=40)  # fmt: skip
    yield "odds-aa-sea-100v100-strikes-strafe-3-retreat-chance-ms", _ms(SEA_STRIKES_ATTACK, SEA_STRIKES_DEFENSE, 1,
                                                                      mode="sea", retreat_after=3,
                                                                      retreat_chance=40)  # fmt: skip
    yield "odds-aa-sea-defending-transports-ms", _ms("17 sub, 17 car, 10 bom", "18 sub, 4 des, 20 car, 15 fig, 20 tra",
                                                   3, mode="sea")  # fmt: skip
    yield "odds-aa-sea-retreat-left-ms", _ms("11 sub, 8 cru, 23 bom, 32 tra", "17 sub, 16 des, 2 cru, 14 car, 22 fig, 7 tra",
                                           3, mode="sea", retreat_left=40)  # fmt: skip
    yield "odds-aa-sea-100v100-full-fleets-ms", _ms(SEA_FULL_ATTACK, SEA_FULL_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-full-fleets-retreat-chance-ms", _ms(SEA_FULL_ATTACK, SEA_FULL_DEFENSE, 1, mode="sea",
                                                                 retreat_chance=40)  # fmt: skip
    yield "odds-aa-sea-100v100-struck-aircraft-ms", _ms(SEA_STRUCK_AIR_ATTACK, SEA_STRUCK_AIR_DEFENSE, 3, mode="sea")
    yield "odds-aa-sea-100v100-struck-aircraft-retreat-chance-ms", _ms(SEA_STRUCK_AIR_ATTACK, SEA_STRUCK_AIR_DEFENSE, 1,
                                                                     mode="sea", retreat_chance=20)  # fmt: skip
    yield "odds-aa-sea-100v100-attacker-destroyers-air-ms", _ms(SEA_FULL_ATTACK, SEA_FULL_NO_DES_DEFENSE, 1, mode="sea")
    yield "odds-aa-sea-100v100-defender-destroyers-air-ms", _ms(SEA_FULL_NO_DES_ATTACK, SEA_FULL_DEFENSE, 1, mode="sea")
    yield "odds-aa-sea-60v60-no-destroyer-air-retreat-chance-ms", _ms(SEA_WORST_60_ATTACK, SEA_WORST_60_DEFENSE, 1,
                                                                     mode="sea", retreat_chance=40)  # fmt: skip
    yield "odds-aa-sea-100v100-no-destroyer-air-ms", _ms(SEA_WORST_ATTACK, SEA_WORST_DEFENSE, 1, mode="sea")
