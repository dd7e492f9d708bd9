"""Commander abilities (M-5.1, M-14.4, M-14.5) and the abilities that depend on a
Commander nearby: Coordinated Fire, Bravery Enforcement, Tally-Ho!, Pinpointer, Exert
Will, Banzai Charge, Command Dependent; Fanatic.  Real card values from the catalogue."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import IllegalOrder
from engine.minis.catalogue import load_catalogue
from engine.minis.events import Attacked, CountersCleared, CoverRoll, Moved
from engine.minis.model import ALLIES, AXIS
from engine.minis.movement import reachable
from engine.minis.sequence import begin_phase
from engine.minis.state import Phase

from .helpers import ascii_map, battle, hx, make_card, of_type, open_map, play

CAT = load_catalogue()
GARAND, MOSIN, COMMISSAR = CAT["m1-garand-rifle"], CAT["mosin-nagant-1891-30"], CAT["commissar"]
LIEUTENANT, RED_DEVIL, CAPTAIN_SS = CAT["inspiring-lieutenant"], CAT["red-devil-captain"], CAT["ss-hauptsturmfuhrer"]
SERGEANT, KAR98, SIXPDR = CAT["imperial-sergeant"], CAT["mauser-kar-98k"], CAT["6-pounder-antitank-gun"]
ARISAKA = make_card("arisaka-rifle", subtype=None, cost=3, vs_s=(8, 6, None), nation="Japan")


def test_coordinated_fire_adds_a_die_next_to_a_friendly_commander() -> None:
    s = battle(open_map(), [("al1", GARAND, "E4"), ("al2", RED_DEVIL, "E3"), ("ax1", KAR98, "E5")],
               phase=Phase.ASSAULT, active=ALLIES)
    s2, events = play(s, ALLIES, "attack al1 ax1", [1] * 9)
    a = of_type(events, Attacked)[0]
    assert len(a.dice) == 9 and "Coordinated Fire" in a.special
    far = battle(open_map(), [("al1", GARAND, "E4"), ("al2", RED_DEVIL, "E1"), ("ax1", KAR98, "E5")],
                 phase=Phase.ASSAULT, active=ALLIES)
    _, events = play(far, ALLIES, "attack al1 ax1", [1] * 8)
    assert len(of_type(events, Attacked)[0].dice) == 8


@pytest.mark.parametrize("commissar_at, commissar_disrupted, modifier", [
    ("E3", False, 0),   # adjacent, working: the disruption penalty is ignored
    ("E1", False, -1),  # too far
    ("E3", True, -1),   # a disrupted Commander commands nothing (M-14.5)
])
def test_bravery_enforcement_m14_5(commissar_at: str, commissar_disrupted: bool, modifier: int) -> None:
    s = battle(open_map(), [("al1", MOSIN, "E4"), ("al2", COMMISSAR, commissar_at), ("ax1", KAR98, "E5")],
               phase=Phase.ASSAULT, active=ALLIES, al1={"disrupted": True},
               al2={"disrupted": commissar_disrupted})
    _, events = play(s, ALLIES, "attack al1 ax1", [1] * 8)
    assert of_type(events, Attacked)[0].modifier == modifier


def test_tally_ho_gives_plus_1_speed_in_the_movement_phase_to_non_artillery_soldiers() -> None:
    s = battle(open_map(), [("al1", GARAND, "E4"), ("al2", LIEUTENANT, "E5"), ("al3", SIXPDR, "E3"),
                            ("ax1", KAR98, "L10")], active=ALLIES)
    s2, _ = play(s, ALLIES, "move al1 E2 via E3")  # two hexes with speed 1 + 1
    assert s2.unit("al1").hex == hx("E2")
    assert max(hx("E5").distance(h) for h in reachable(s, s.unit("al2"))) == 2  # itself too (M-14.5)
    assault = battle(open_map(), [("al1", GARAND, "E4"), ("al2", LIEUTENANT, "E5"), ("ax1", KAR98, "L10")],
                     active=ALLIES, phase=Phase.ASSAULT)
    with pytest.raises(IllegalOrder):
        play(assault, ALLIES, "move al1 E2 via E3")


def test_pinpointer_gives_minus_1_to_cover_against_soldiers_next_to_it() -> None:
    m = ascii_map("""
    . . . . . .
    . . . . . .
    . . . . F .
    . . . . . .
    . . . . . .
    """)
    s = battle(m, [("al1", GARAND, "E4"), ("al2", RED_DEVIL, "D4"), ("ax1", KAR98, "E3")],
               phase=Phase.ASSAULT, active=ALLIES)
    _, events = play(s, ALLIES, "attack al1 ax1", [6] * 5 + [1] * 4 + [4])  # 9 dice (Coordinated Fire)
    assert of_type(events, CoverRoll) == [CoverRoll("ax1", 4, -1, 4, False)]


def test_exert_will_clears_disrupted_soldiers_at_the_start_of_its_movement_phase() -> None:
    s = battle(open_map(), [("ax1", CAPTAIN_SS, "C3"), ("ax2", KAR98, "C4"), ("ax3", KAR98, "C8"),
                            ("al1", GARAND, "L10")], phase=Phase.ASSAULT, first=ALLIES, active=AXIS,
               ax1={"disrupted": True}, ax2={"disrupted": True}, ax3={"disrupted": True})
    # Counters that survived into this turn (e.g. from defensive fire, or Overheat): the
    # Axis movement phase starts and the Hauptsturmführer (Fanatic, so working) acts.
    s2, events = begin_phase(replace(s, phase=Phase.MOVEMENT), Phase.MOVEMENT, AXIS)
    assert of_type(events, CountersCleared) == [CountersCleared("ax1", ("ax1", "ax2"))]
    assert not s2.unit("ax2").disrupted and s2.unit("ax3").disrupted  # C8 is not adjacent


def test_fanatic_ignores_its_disrupted_counter() -> None:
    s = battle(open_map(), [("ax1", CAPTAIN_SS, "E4"), ("al1", GARAND, "E5")], phase=Phase.ASSAULT,
               ax1={"disrupted": True})
    _, events = play(s, AXIS, "attack ax1 al1", [1] * 6)
    assert of_type(events, Attacked)[0].modifier == 0
    s2, _ = play(battle(open_map(), [("ax1", CAPTAIN_SS, "E4"), ("al1", GARAND, "J5")],
                        ax1={"disrupted": True}), AXIS, "move ax1 E3")
    assert s2.unit("ax1").hex == hx("E3")


def test_banzai_charge_moves_into_the_enemy_hex_then_attacks_with_plus_1() -> None:
    s = battle(open_map(), [("ax1", SERGEANT, "E3"), ("ax2", ARISAKA, "E4"), ("al1", GARAND, "E5")],
               phase=Phase.ASSAULT, standing="hold")
    s, events = play(s, AXIS, "move ax2 E5")
    assert s.flags.activation is not None and s.flags.activation.banzai_hex == hx("E5")
    s, events = play(s, AXIS, "attack ax2 al1", [3] * 8)
    a = of_type(events, Attacked)[0]
    assert a.kind == "banzai" and a.modifier == 1 and a.successes == 8
    with pytest.raises(IllegalOrder):
        play(s, AXIS, "attack ax2 al1")


def test_without_a_sergeant_a_soldier_that_moved_cannot_attack() -> None:
    s = battle(open_map(), [("ax2", ARISAKA, "E4"), ("al1", GARAND, "E5")], phase=Phase.ASSAULT, standing="hold")
    s, _ = play(s, AXIS, "move ax2 E5")
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s, AXIS, "attack ax2 al1")


def test_hand_to_hand_uses_its_own_dice_against_soldiers_in_its_hex_without_cover() -> None:
    m = ascii_map("""
    . . . .
    . F . .
    . . . .
    """)
    s = battle(m, [("ax1", SERGEANT, "B2"), ("al1", GARAND, "B2")], phase=Phase.ASSAULT)
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 10)
    a = of_type(events, Attacked)[0]
    assert len(a.dice) == 10 and "Hand to Hand" in a.special and not of_type(events, CoverRoll)


def test_command_dependent_moves_in_the_movement_phase_only_next_to_a_commander() -> None:
    alone = battle(open_map(), [("al1", MOSIN, "E4"), ("ax1", KAR98, "L10")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="Command Dependent"):
        play(alone, ALLIES, "move al1 E3")
    led = battle(open_map(), [("al1", MOSIN, "E4"), ("al2", COMMISSAR, "E5"), ("ax1", KAR98, "L10")], active=ALLIES)
    led, _ = play(led, ALLIES, "move al1 E3")
    assert led.unit("al1").hex == hx("E3")
    assault = battle(open_map(), [("al1", MOSIN, "E4"), ("ax1", KAR98, "L10")], active=ALLIES, phase=Phase.ASSAULT)
    assault, events = play(assault, ALLIES, "move al1 E3")
    assert of_type(events, Moved)[0].path[-1] == hx("E3")
