"""The Memoir '44 odds calculator (engine/odds/memoir.py) against the game engine itself.

Each situation is a small close assault built in the engine (engine/memoir/) and played
through the real order path (``battle``, then the pending decisions: flags to ignore,
where to retreat, Take Ground, the Overrun) for EVERY sequence of die rolls the engine
asks for.  The sequences are enumerated exactly: a prefix of scripted dice that runs out
is extended by each of the six values of the next die, so every sequence ends where the
engine stops rolling and weighs (1/6)^(its length).  The summed outcomes must EQUAL the
calculator's fractions for the same close assault (E-10.6): attack cancelled by the
Ambush (E-6.4), attacker eliminated, target eliminated (E-13.3, E-14.5), success (the
target eliminated or out of its hex, E-15.1), Overrun made and its elimination (E-16)
and the expected medals of each side (E-17.1).

The choices made in the engine are those the calculator assumes: a flag the unit may
ignore is ignored (E-14.6, the E-19.4 default), the retreat ends where the fewest
figures are lost (E-14.2, E-19.4 default: as far as the room allows), the attacker takes
ground whenever it may (E-15) and armor then makes its Overrun at the named second
target (E-16); after the Overrun it holds.

Die values map to faces as in engine/memoir/data/units.json (E-13.1): 1-2 infantry,
3 armor, 4 grenade, 5 star, 6 flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import DiceExhausted
from engine.core.events import Event
from engine.memoir.board import label, parse_hex
from engine.memoir.combat import faces
from engine.memoir.events import BattleCancelled, Rolled
from engine.memoir.game import apply_text
from engine.memoir.legal import pending
from engine.memoir.state import MemoirState
from engine.memoir.turn import default_retreat, medals, retreat_options
from engine.odds.memoir import (
    ARMOR, ARTILLERY, INFANTRY, MemoirBattle, MemoirBattleOdds, MemoirRoll, memoir_battle,
)
from tests.memoir.helpers import at, do, game, run, scenario

SIXTH = Fraction(1, 6)
HAND = ["direct-from-hq", "probe-left", "probe-right", "attack-left"]  # Direct from HQ: no bonus die (E-6)


@dataclass(frozen=True)
class Situation:
    """A close assault by the Allies (bottom side) at an Axis unit (top side, E-1.1)."""

    name: str
    units: str  # tests/memoir/helpers.scenario format
    attacker: str  # hex of the attacking Allied unit
    target: str  # hex of the Axis unit it close-assaults
    battle: MemoirBattle  # the same close assault, as the calculator is asked it
    overrun: str | None = None  # hex of the Overrun's second target (E-16)
    ambush: bool = False  # the Axis holds Ambush and plays it (standing "ambush", E-19.3)
    terrain: Mapping[str, str] = field(default_factory=dict)
    obstacles: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """What one dice sequence did, read from the events and the final state."""

    dice: tuple[int, ...]
    ambush_dice: int  # dice rolled by the Ambush (0: none)
    attack_dice: int  # dice rolled by the attack (0: cancelled)
    overrun_dice: int  # dice rolled by the Overrun (0: none)
    cancelled: bool
    attacker_eliminated: bool
    target_eliminated: bool
    success: bool
    overrun_made: bool
    overrun_eliminated: bool
    medals_attacker: int
    medals_defender: int


SITUATIONS = [
    # (a) Plain close assault, infantry at infantry (2 figures), retreat open: 3 dice (E-8, E-10.6).
    Situation(
        "plain", "allies infantry G5, axis infantry/2 G4, axis infantry M1", "G5", "G4",
        MemoirBattle(attack=MemoirRoll(3, INFANTRY, figures=2), attacker=INFANTRY),
    ),
    # (b) The target on its own baseline (row 1): no retreat hex at all, every flag costs a
    # figure (E-14.5, off the board).  Infantry at armor (2 figures): 3 dice, hits on the armor
    # symbol and the grenade (E-13.1).
    Situation(
        "blocked", "allies infantry G2, axis armor/2 G1, axis infantry M1", "G2", "G1",
        MemoirBattle(attack=MemoirRoll(3, ARMOR, figures=2, blocked=True), attacker=INFANTRY),
    ),
    # (b) The target on row 2: one hex back to row 1, then the board ends, so 2 flags move it
    # 1 hex and cost 1 figure, 3 flags cost 2 (E-14.5): retreat room 1.
    Situation(
        "partly-blocked", "allies infantry G3, axis infantry/2 G2, axis infantry M1", "G3", "G2",
        MemoirBattle(attack=MemoirRoll(3, INFANTRY, figures=2, retreat_room=1), attacker=INFANTRY),
    ),
    # (c) Ambush (E-6.4) at an attacker whose retreat is open: driven back, its battle is
    # cancelled.  Both stand in forests: 3 - 1 = 2 dice each way (E-12, E-18).
    Situation(
        "ambush-open", "allies infantry/2 G5, axis infantry/2 G4, axis infantry M1", "G5", "G4",
        MemoirBattle(attack=MemoirRoll(2, INFANTRY, figures=2), attacker=INFANTRY,
                     ambush=MemoirRoll(2, INFANTRY, figures=2)),
        ambush=True, terrain={"G5": "forest", "G4": "forest"},
    ),
    # (c) Ambush at armor on the Allied baseline (row 9): it cannot retreat, so a flag costs
    # a figure and it stays and attacks (E-14.5, E-6.4).  Infantry at armor in a forest:
    # 3 - 1 = 2 dice; armor at infantry on a hill, from below: 3 - 1 = 2 dice (E-12.3, E-18).
    # No second target is named: when a retreated target offers an Overrun, the armor holds.
    Situation(
        "ambush-blocked", "allies armor/2 G9, axis infantry/2 G8, axis infantry M1", "G9", "G8",
        MemoirBattle(attack=MemoirRoll(2, INFANTRY, figures=2), attacker=ARMOR,
                     ambush=MemoirRoll(2, ARMOR, figures=2, blocked=True)),
        ambush=True, terrain={"G9": "forest", "G8": "hill"},
    ),
    # (d) Armor takes ground after a success and makes its Overrun (E-15, E-16) at artillery
    # (hit only by the grenade, E-13.2).  The first target is on a hill, from below: 2 dice;
    # from the hill the Overrun has no hill reduction to fear and artillery's hex is clear:
    # 3 dice.  The first target retreats only through F4 (G4 is held); two flags end on F3
    # (the E-19.4 default), off the artillery's way back (G3/H3 and on), so its retreat stays open.
    Situation(
        "overrun", "allies armor G6, axis infantry/2 G5, axis artillery/1 G4, axis infantry M1", "G6", "G5",
        MemoirBattle(attack=MemoirRoll(2, INFANTRY, figures=2), attacker=ARMOR,
                     overrun=MemoirRoll(3, ARTILLERY, figures=1)),
        overrun="G4", terrain={"G5": "hill"},
    ),
    # (d) The same with retreats that cost figures: armor at armor (1 figure) on a hill, from
    # below: 2 dice; it can retreat only to H1 (G1 is held), then the board ends: retreat room
    # 1 (E-14.5).  The Overrun from the hill at infantry on its baseline behind sandbags:
    # 3 - 1 = 2 dice, no retreat hex at all, one flag may be ignored (E-14.6).  A first target
    # driven to H1 is adjacent too; the Overrun is made at G1, the target named (E-16.1).
    Situation(
        "overrun-blocked", "allies armor G3, axis armor/1 G2, axis infantry/2 G1, axis infantry M1", "G3", "G2",
        MemoirBattle(attack=MemoirRoll(2, ARMOR, figures=1, retreat_room=1), attacker=ARMOR,
                     overrun=MemoirRoll(2, INFANTRY, figures=2, blocked=True, ignore_flags=1)),
        overrun="G1", terrain={"G2": "hill"}, obstacles={"G1": "sandbags"},
    ),
    # (c)+(d) The whole close assault: Ambush, attack, Take Ground, Overrun.  Axis armor on a
    # hill ambushes Allied armor in a forest: 3 - 2 = 1 die (E-6.4, E-18); the attack from
    # below: 3 - 1 = 2 dice at armor; the Overrun from the hill at infantry in a forest:
    # 3 - 2 = 1 die (Ambush, now discarded, cannot answer it: E-19.3).  Every retreat is open.
    Situation(
        "ambush-overrun", "allies armor/2 G6, axis armor/2 G5, axis infantry/1 G4, axis infantry M1", "G6", "G5",
        MemoirBattle(attack=MemoirRoll(2, ARMOR, figures=2), attacker=ARMOR, ambush=MemoirRoll(1, ARMOR, figures=2),
                     overrun=MemoirRoll(1, INFANTRY, figures=1)),
        ambush=True, overrun="G4", terrain={"G6": "forest", "G5": "hill", "G4": "forest"},
    ),
]


@lru_cache(maxsize=None)
def _start(name: str) -> MemoirState:
    """The Allies have played Direct from HQ, ordered the attacker and closed the move."""
    sit = next(s for s in SITUATIONS if s.name == name)
    sc = scenario(sit.units, terrain=sit.terrain, obstacles=sit.obstacles)
    axis = ["ambush", "probe-centre", "probe-centre", "probe-centre"] if sit.ambush else ["probe-centre"] * 4
    st = game(sc, allies=HAND, axis=axis, standing=("ambush" if sit.ambush else "pass", "pass"))
    st = run(st, "allies", "play direct-from-hq", f"order {sit.attacker}")
    if st.step == "move":
        st, _ = do(st, "allies", "done")
    assert st.step == "battle" and st.fight is None
    return st


def _answer(state: MemoirState, sit: Situation) -> tuple[str, str]:
    """The decision the engine waits for, answered as the calculator assumes."""
    f = state.fight
    assert f is not None
    (p,) = pending(state)
    if f.stage == "ignore":  # E-14.6, E-19.4: ignore every flag the unit may
        return p.player, f"ignore {f.ignorable}"
    if f.stage == "retreat":  # E-14.2, E-19.4: the end that loses the fewest figures
        return p.player, f"retreat {label(default_retreat(retreat_options(state)))}"
    if f.stage == "take-ground":  # E-15.1: take ground after the first battle, hold after the Overrun
        return p.player, "hold" if f.overrun else "take-ground"
    if f.stage == "overrun":  # E-16.1: battle the named second target (or hold without one)
        return p.player, "hold" if sit.overrun is None else f"battle {sit.target} {sit.overrun}"
    raise AssertionError(f"unexpected decision {f.stage}: {p}")


def play(sit: Situation, values: tuple[int, ...]) -> Outcome:
    """Play the close assault with exactly these dice (DiceExhausted if it needs more)."""
    start = _start(sit.name)
    attacker = at(start, sit.attacker)
    target = at(start, sit.target)
    second = at(start, sit.overrun) if sit.overrun else None
    assert attacker is not None and target is not None
    dice = scripted_dice(values)
    st, ev = apply_text(start, "allies", f"battle {sit.attacker} {sit.target}", dice)
    events: list[Event] = list(ev)
    while st.fight is not None and not st.over:
        seat, text = _answer(st, sit)
        st, ev = apply_text(st, seat, text, dice)
        events += ev
    assert dice.remaining == (), f"dice left over: {dice.remaining}"
    rolled = {r.why: r for r in events if isinstance(r, Rolled)}
    left = st.unit(target.id)
    return Outcome(
        dice=values,
        ambush_dice=len(rolled["ambush"].faces) if "ambush" in rolled else 0,
        attack_dice=len(rolled["battle"].faces) if "battle" in rolled else 0,
        overrun_dice=len(rolled["overrun"].faces) if "overrun" in rolled else 0,
        cancelled=any(isinstance(e, BattleCancelled) for e in events),
        attacker_eliminated=st.unit(attacker.id) is None,
        target_eliminated=left is None,
        success=left is None or left.hex != parse_hex(sit.target),
        overrun_made="overrun" in rolled,
        overrun_eliminated=second is not None and st.unit(second.id) is None,
        medals_attacker=medals(st, "allies") - medals(start, "allies"),
        medals_defender=medals(st, "axis") - medals(start, "axis"),
    )


def every_sequence(sit: Situation) -> list[Outcome]:
    """Every sequence of die values the close assault can roll, each played to its end."""
    out: list[Outcome] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        try:
            out.append(play(sit, prefix))
        except DiceExhausted:
            stack.extend(prefix + (v,) for v in range(6, 0, -1))
    return out


def tally(outcomes: list[Outcome]) -> dict[str, Fraction]:
    """The engine's probabilities: each sequence weighs (1/6)^(dice rolled)."""
    keys = ("cancelled", "attacker_eliminated", "target_eliminated", "success", "overrun_made",
            "overrun_eliminated", "medals_attacker", "medals_defender")
    total = dict.fromkeys(keys, Fraction(0))
    for o in outcomes:
        w = SIXTH ** len(o.dice)
        for k in keys:
            total[k] += w * int(getattr(o, k))
    total["weight"] = sum((SIXTH ** len(o.dice) for o in outcomes), Fraction(0))
    return total


def calculator(odds: MemoirBattleOdds) -> dict[str, Fraction]:
    return {"cancelled": odds.cancelled, "attacker_eliminated": odds.attacker_eliminated,
            "target_eliminated": odds.target_eliminated, "success": odds.success,
            "overrun_made": odds.overrun_made, "overrun_eliminated": odds.overrun_eliminated,
            "medals_attacker": odds.medals_attacker, "medals_defender": odds.medals_defender,
            "weight": Fraction(1)}


def _check_position(sit: Situation) -> None:
    """The engine position is the close assault the calculator is asked (figures, types)."""
    st = _start(sit.name)
    attacker, target = at(st, sit.attacker), at(st, sit.target)
    assert attacker is not None and target is not None
    b = sit.battle
    assert (attacker.type, target.type, target.figures) == (b.attacker, b.attack.target, b.attack.figures)
    if b.ambush is not None:
        assert (attacker.type, attacker.figures) == (b.ambush.target, b.ambush.figures)
    if b.overrun is not None:
        assert sit.overrun is not None
        second = at(st, sit.overrun)
        assert second is not None and (second.type, second.figures) == (b.overrun.target, b.overrun.figures)


@pytest.mark.parametrize("sit", SITUATIONS, ids=lambda s: s.name)
def test_engine_and_calculator_agree_exactly(sit: Situation) -> None:
    _check_position(sit)
    outcomes = every_sequence(sit)
    b = sit.battle
    # every roll had the calculator's number of dice (E-10.5, E-6.4, E-16.1)
    for o in outcomes:
        assert o.ambush_dice in ((b.ambush.dice,) if b.ambush else (0,)), o
        assert o.attack_dice in ((b.attack.dice, 0) if b.ambush else (b.attack.dice,)), o
        assert o.overrun_dice in ((b.overrun.dice, 0) if b.overrun else (0,)), o
        assert o.cancelled == (o.attack_dice == 0), o  # E-6.4: cancelled exactly when it did not roll
        assert len(o.dice) == o.ambush_dice + o.attack_dice + o.overrun_dice, o
    assert tally(outcomes) == calculator(memoir_battle(b))


def test_faces_as_the_enumeration_assumes() -> None:
    """E-13.1: the die values the enumeration scripts show these faces."""
    assert faces(range(1, 7)) == ("infantry", "infantry", "armor", "grenade", "star", "flag")
