"""Pictures of real engine states: a Standard battle on configuration 1 played through
the engine's public API (new_game, legal_orders, apply) with seeded dice and a simple
aggressive policy, rendered at every phase change.  Each picture must agree with its
state: every deployed unit in its hex with its number and counters, the title with the
turn and phase, the objective holder of the rules, no overlapping labels, readable
text — and the state must be untouched."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from engine.core.dice import seeded_dice
from engine.core.events import Event
from engine.minis.events import Attacked, Moved
from engine.minis.game import apply, apply_text, legal_orders, new_game, pending
from engine.minis.model import ALLIES, AXIS
from engine.minis.orders import Attack, Deploy, Done, Fire, Move, Order
from engine.minis.state import Hit, MinisState, Phase
from engine.minis.victory import controller
from engine.minis.visibility import public_units
from render.minis import render_board
from render.minis.from_events import overlays_from_events
from render.minis.tokens import unit_number
from render.minis.theme import theme
from test_render_legibility import HEX_MIN_CAP, PANEL_MIN_CAP, displayed_cap
from test_render_overlap import readable_overlaps


def _nearest_enemy(state: MinisState, side: str, h: object) -> int:
    ds = [u.hex.distance(h) for u in state.units  # type: ignore[arg-type]
          if u.side != side and u.on_map and u.hex is not None]
    return min(ds) if ds else 0


def choose(state: MinisState, player: str, orders: list[Order], rng: random.Random) -> Order:
    """Attack or fire when possible, otherwise close in on the enemy; deploy toward the
    middle; 'done' when nothing useful is left."""
    attacks = [o for o in orders if isinstance(o, (Attack, Fire))]
    if attacks:
        return rng.choice(attacks)
    moves = [o for o in orders if isinstance(o, Move)]
    acted = set(getattr(getattr(state, "flags", None), "acted", frozenset()))
    moves = [o for o in moves if o.unit not in acted]
    if moves and rng.random() < 0.9:
        best = min(_nearest_enemy(state, player, o.path[-1]) for o in moves)
        return rng.choice([o for o in moves if _nearest_enemy(state, player, o.path[-1]) == best])
    deploys = [o for o in orders if isinstance(o, Deploy)]
    if deploys:
        return rng.choice(deploys)
    done = [o for o in orders if isinstance(o, Done)]
    others = [o for o in orders if type(o).__name__ not in ("Concede", "Timeout", "Standing")]
    return done[0] if done else rng.choice(others)


@dataclass
class Played:
    snapshots: list[tuple[MinisState, list[Event]]] = field(default_factory=list)


def play_battle(seed: int = 7, max_turn: int = 3) -> Played:
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s, _ = new_game({"map": 1}, dice)
    s, _ = apply_text(s, AXIS, "army panzer iv, sd kfz 251, 3 kar 98k, mg 42, ss-hauptsturmfuhrer, pak 38", dice)
    s, _ = apply_text(s, AXIS, "ready", dice)
    s, _ = apply_text(s, ALLIES, "army sherman, easy eight, 3 garand, bazooka, red devil, 6-pounder", dice)
    s, _ = apply_text(s, ALLIES, "ready", dice)
    out = Played()
    since: list[Event] = []
    last = (s.turn, s.phase, s.active)
    for _ in range(900):
        if s.phase is Phase.OVER or s.turn > max_turn:
            break
        todo = pending(s)
        assert todo, s.phase
        player = todo[0].player
        orders = [o for o in legal_orders(s, player) if type(o).__name__ not in ("Concede", "Timeout")]
        s, events = apply(s, choose(s, player, orders, rng), dice)
        since.extend(events)
        now = (s.turn, s.phase, s.active)
        if now != last:
            out.snapshots.append((s, since))
            since = []
            last = now
    return out


@pytest.fixture(scope="module")
def battle() -> Played:
    return play_battle()


def test_the_battle_reaches_combat(battle: Played) -> None:
    """The fixture is worth its name: deployment, movement, assaults with face-down
    counters and at least one casualty phase were rendered."""
    phases = Counter(s.phase for s, _ in battle.snapshots)
    assert phases[Phase.DEPLOYMENT] and phases[Phase.MOVEMENT] and phases[Phase.ASSAULT]
    assert any(u.hits for s, _ in battle.snapshots for u in s.units)
    assert any(isinstance(e, Attacked) for _, evs in battle.snapshots for e in evs)
    assert any(isinstance(e, Moved) for _, evs in battle.snapshots for e in evs)


def test_every_phase_picture_matches_its_state(battle: Played) -> None:
    th = theme()
    for state, events in battle.snapshots:
        before = (state.units, state.turn, state.phase, state.active)
        overlays = overlays_from_events(state, events)
        assert overlays_from_events(state, [e.to_dict() for e in events]) == overlays  # order-log form
        out = render_board(state, overlays=overlays)
        assert (state.units, state.turn, state.phase, state.active) == before
        ids = {it.owner: it for it in out.items if it.kind == "unit-id"}
        public = {u.id for u in public_units(state)}
        for u in state.units:
            drawn = u.id in ids
            if u.on_map and u.carried_by is None:
                assert drawn and u.id in public
                it = ids[u.id]
                assert it.text == unit_number(u, th)
                assert it.hex == u.hex and out.layout.pixel_to_hex((it.box[0] + it.box[2]) / 2,
                                                                   (it.box[1] + it.box[3]) / 2) == u.hex
                pips = Counter(p.kind for p in out.items if p.owner == u.id and p.hex is not None
                               and p.kind.startswith("pip-"))
                # one black square per face-down counter, or one stack saying how many
                hits = sum(int(p.text or 1) for p in out.items if p.owner == u.id and p.hex is not None
                           and p.kind == "pip-hit")
                assert hits == len(u.hits)
                assert pips["pip-disrupted"] == int(u.disrupted)
                assert pips["pip-damaged"] == int(u.damaged)
                assert pips["pip-passenger"] == int(bool(state.passengers(u.id)))
                greyed = Hit.DESTROYED in u.hits
                assert greyed == u.pending_destroyed
            else:
                assert not drawn
        titles = " · ".join(it.text for it in out.items if it.kind == "title")
        if state.phase not in (Phase.ARMIES, Phase.DEPLOYMENT):
            assert titles.startswith(f"Turn {state.turn} · ")
        for obj in state.objectives:
            who = controller(state, obj)
            label = state.map.label(obj)
            if who is not None:
                assert f"Objective {label} held by {th.sides[who].name}" in titles
        assert readable_overlaps(out.items) == []
        width = out.image.width
        for it in out.items:
            if it.face is not None and it.text:
                need = HEX_MIN_CAP if it.tier == "hex" else PANEL_MIN_CAP
                assert displayed_cap(it, width) >= need, it
        # the overlays of the phase are on the picture
        assert sum(it.kind == "overlay-path" for it in out.items) == sum(
            1 for ov in overlays if type(ov).__name__ == "MovedPath")
        assert sum(it.kind == "overlay-attack" for it in out.items) == sum(
            1 for ov in overlays if type(ov).__name__ == "AttackLine")


def test_deployment_pictures_show_zones_by_side_and_hide_undeployed_units(battle: Played) -> None:
    deployment = [s for s, _ in battle.snapshots if s.phase is Phase.DEPLOYMENT]
    assert deployment
    for s in deployment:
        out = render_board(s)
        legend = [it.text for it in out.items if it.kind == "legend"]
        assert any(t.startswith("West zone") for t in legend) and any(t.startswith("East zone") for t in legend)
        for side, zone in s.ends.items():
            assert f"{zone.title()} zone: {theme().sides[side].name}" in legend
        roster = " ".join(it.text for it in out.items if it.kind == "roster")
        for u in s.units:
            if u.hex is None:
                assert f"{u.id} " not in roster + " "
