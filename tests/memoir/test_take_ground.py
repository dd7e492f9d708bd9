"""E-15 Take Ground and E-16 Armor Overrun."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.memoir.legal import pending

from .helpers import at, do, figures, ordered, ready, rolls, types

KILL3 = rolls("GGG")


def declared(events: list) -> list[tuple[str, str, int, bool]]:  # type: ignore[type-arg]
    return [(e.attacker, e.target, e.dice, e.overrun) for e in events if type(e).__name__ == "BattleDeclared"]


def test_e15_1_take_ground_after_a_successful_close_assault() -> None:
    st = ready("allies infantry G5, axis infantry/1 G4, axis infantry M1", "G5")
    st, _ = do(st, "allies", "battle G5 G4", rolls("ISS"))
    (p,) = pending(st)
    assert (p.player, p.choices, p.reaction) == ("allies", ("take-ground", "hold"), False)
    st, ev = do(st, "allies", "take-ground")
    assert at(st, "G4") is not None and at(st, "G5") is None
    assert types(ev)[0] == "TookGround"


def test_e15_1_also_after_the_defender_retreated_but_never_after_firing() -> None:
    st = ready("allies infantry G5, axis infantry G4, axis infantry M1", "G5")
    st, _ = do(st, "allies", "battle G5 G4", rolls("FSS"))
    st, _ = do(st, "axis", "retreat G3")
    assert pending(st)[0].choices == ("take-ground", "hold")
    fire = ready("allies infantry G6, axis infantry/1 G4, axis infantry M1", "G6")
    fire, _ = do(fire, "allies", "battle G6 G4", rolls("IS"))
    assert at(fire, "G4") is None and fire.fight is None


def test_e15_1_artillery_never_takes_ground() -> None:
    st = ready("allies artillery G5, axis infantry/1 G4, axis infantry M1", "G5")
    st, _ = do(st, "allies", "battle G5 G4", rolls("GSS"))
    assert st.fight is None and at(st, "G5") is not None


def test_e15_2_not_into_a_hex_it_could_not_enter_nor_after_entering_wire() -> None:
    """E-15.2, E-9.3: after entering a move-ending hex the unit moves no further, Take Ground included."""
    bunker = {"G4": {"type": "bunker", "owner": "axis"}}
    st = ready("allies armor G5, axis infantry/1 G4, axis infantry M1", "G5", obstacles=bunker)
    st, _ = do(st, "allies", "battle G5 G4", rolls("G"))  # 3 - 2 for the owner's bunker
    assert at(st, "G4") is None and st.fight is None
    st = ordered("allies infantry G6, axis infantry/1 G4, axis infantry M1", "G6", obstacles={"G5": "wire"})
    st, _ = do(st, "allies", "move G6 G5")
    assert st.step == "battle"  # nothing else could move: the step closed by itself
    st, _ = do(st, "allies", "battle G5 G4", rolls("GS"))  # 3 - 1 from wire
    assert at(st, "G4") is None and st.fight is None


def test_e15_3_hedgerow_only_for_a_unit_that_has_not_moved() -> None:
    units = "allies infantry G6, allies infantry E5, axis infantry/1 G4, axis infantry/1 E4, axis infantry M1"
    st = ordered(units, "G6 E5", terrain={"G4": "hedgerow", "E4": "hedgerow"})
    st, _ = do(st, "allies", "move G6 G5")
    st, _ = do(st, "allies", "done")
    st, _ = do(st, "allies", "battle G5 G4", rolls("GS"))  # 3 - 1 for the hedgerow
    assert st.fight is None  # it moved: no Take Ground into the hedgerow
    st, _ = do(st, "allies", "battle E5 E4", rolls("GS"))
    assert pending(st)[0].choices == ("take-ground", "hold")


def test_e16_overrun_once_with_the_close_assault_obligation() -> None:
    units = "allies armor G6, axis infantry/1 G5, axis infantry/1 G4, axis infantry F2, axis infantry M1"
    st = ready(units, "G6")
    st, _ = do(st, "allies", "battle G6 G5", KILL3)
    st, _ = do(st, "allies", "take-ground")
    (p,) = pending(st)
    assert p.choices == ("battle G5 G4", "hold")  # adjacent to G4: no firing at F2 (E-16.1)
    with pytest.raises(IllegalOrder):
        do(st, "allies", "battle G5 F2")
    st, ev = do(st, "allies", "battle G5 G4", KILL3)
    assert declared(ev) == [("G5", "G4", 3, True)]
    st, _ = do(st, "allies", "take-ground")
    assert at(st, "G4") is not None and st.fight is None  # one Overrun per turn (E-16.2)
    assert st.active == "axis"


def test_e16_3_no_overrun_after_taking_ground_into_a_town() -> None:
    units = "allies armor G6, axis infantry/1 G5, axis infantry G4, axis infantry M1"
    st = ready(units, "G6", terrain={"G5": "town"})
    st, _ = do(st, "allies", "battle G6 G5", rolls("G"))  # armor: 3 - 2 against a town
    st, _ = do(st, "allies", "take-ground")
    assert at(st, "G5") is not None and st.fight is None  # it may not battle after entering a town


def test_e6_8_bonus_dice_in_the_overrun() -> None:
    units = "allies armor G6, axis infantry/1 G5, axis infantry/1 G4, axis infantry M1"
    st = ready(units, "G6", card="armor-assault")
    st, ev = do(st, "allies", "battle G6 G5", rolls("GGGG"))
    assert declared(ev) == [("G6", "G5", 4, False)]
    st, _ = do(st, "allies", "take-ground")
    st, ev = do(st, "allies", "battle G5 G4", rolls("GGGG"))
    assert declared(ev) == [("G5", "G4", 4, True)]  # Armor Assault's +1 applies to the Overrun
    st = ready(units, "G6", card="close-assault")
    st, ev = do(st, "allies", "battle G6 G5", rolls("GGGG"))
    assert declared(ev) == [("G6", "G5", 4, False)]
    st, _ = do(st, "allies", "take-ground")
    st, ev = do(st, "allies", "battle G5 G4", KILL3)
    assert declared(ev) == [("G5", "G4", 3, True)]  # Close Assault's +1 does not
    assert figures(st).get("G4") is None
