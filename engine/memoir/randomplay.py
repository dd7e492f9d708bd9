"""Random legal play, for the soak test and the benchmark (not for the bot).

:func:`random_order` picks, for whoever the game waits for, an order ``apply`` accepts.
It plays with some purpose so games end: it orders as many units as it may, moves
them toward the enemy and battles whenever it can, but it reaches every kind of order
(every card, Ambush answers, flags, retreats, Take Ground, Overrun, Recon choices,
standing settings, timeouts).  Randomness comes only from the caller's ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.memoir import legal, turn
from engine.memoir.board import hex_key
from engine.memoir.orders import (
    SYSTEM, Battle, ClearWire, Done, Move, Order, OrderUnits, Standing, Target, Timeout,
)
from engine.memoir.state import AMBUSH_STANDING, MemoirState, Unit


@dataclass(frozen=True)
class Policy:
    p_timeout: float = 0.01
    p_standing: float = 0.01
    p_move: float = 0.8  # chance an ordered unit moves
    p_stop_early: float = 0.05  # chance to close a step while units could still act


def random_order(state: MemoirState, rng: random.Random, policy: Policy = Policy()) -> tuple[str, Order]:
    """(seat, order) for the seat the game waits for."""
    seat = turn.waiting_seat(state)
    if seat is None:
        raise ValueError("the game is over")
    if rng.random() < policy.p_timeout:
        return SYSTEM, Timeout(SYSTEM, "done")
    if rng.random() < policy.p_standing:
        current = state.standing[0 if seat == "axis" else 1]
        return seat, Standing(seat, rng.choice([s for s in AMBUSH_STANDING if s != current]))
    answers = legal.decision_orders(state, seat)
    if answers:
        return seat, _decide(state, seat, answers, rng)
    if state.step == "play":
        return seat, rng.choice(legal.play_orders(state, seat))
    if state.step == "order":
        return seat, _order(state, seat, rng)
    if state.step == "recon":
        return seat, rng.choice(list(legal.legal_orders(state, seat))[:2])
    if rng.random() < policy.p_stop_early:
        return seat, Done(seat)
    return seat, _act(state, seat, rng, policy)


def _decide(state: MemoirState, seat: str, answers: list[Order], rng: random.Random) -> Order:
    f = state.fight
    assert f is not None
    if f.stage in ("take-ground", "overrun") and rng.random() < 0.8:
        return answers[0]
    return rng.choice(answers)


def _order(state: MemoirState, seat: str, rng: random.Random) -> Order:
    p = state.played
    assert p is not None
    if p.effect in ("air-power", "barrage"):
        enemies = [u for u in state.units if u.side != seat]
        if not enemies or rng.random() < 0.05:
            return Target(seat, ())
        first = rng.choice(enemies)
        chosen = [first.hex]
        if p.effect == "air-power":
            want = rng.randint(1, 4)
            while len(chosen) < want:
                near = [u.hex for u in enemies if u.hex not in chosen and any(u.hex.distance(c) == 1 for c in chosen)]
                if not near:
                    break
                chosen.append(rng.choice(near))
        return Target(seat, tuple(chosen))
    pool, _ = turn.eligible(state, seat, p)
    rng.shuffle(pool)
    picked: list[Unit] = []
    for u in pool:
        if turn.check_order(state, seat, p, picked + [u]) is None:
            picked.append(u)
    if picked and rng.random() < 0.1:
        picked = picked[: rng.randint(0, len(picked) - 1)]
    return OrderUnits(seat, tuple(u.hex for u in picked))


def _act(state: MemoirState, seat: str, rng: random.Random, policy: Policy) -> Order:
    units = turn._acting_units(state)
    rng.shuffle(units)
    enemies = [u.hex for u in state.units if u.side != seat]
    if state.step == "battle":
        for u in units:
            options = turn.battle_targets(state, u)
            if options:
                best = max(n for _, n in options)
                target = rng.choice([t for t, n in options if n == best])
                return Battle(seat, u.hex, target.hex)
            if turn.may_clear_wire(state, u) and rng.random() < 0.5:
                return ClearWire(seat, u.hex)
    for u in units:
        reach = turn.move_options(state, u.hex)
        if reach is None or not reach.paths or rng.random() > policy.p_move:
            continue
        dests = sorted(reach.paths, key=hex_key)
        if enemies and rng.random() < 0.7:
            def gap(h: object) -> int:
                return min(e.distance(h) for e in enemies)  # type: ignore[arg-type]
            best = min(gap(h) for h in dests)
            dests = [h for h in dests if gap(h) == best]
        h = rng.choice(dests)
        return Move(seat, (u.hex, *reach.paths[h]))
    return Done(seat)
