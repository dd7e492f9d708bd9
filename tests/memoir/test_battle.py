"""E-8 units, E-10 battle, E-12 terrain dice, E-13 resolving the dice."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.memoir import lookups
from engine.memoir.turn import medals, start_state

from .helpers import at, do, figures, ready, rolls, scenario, types


def battles(units: str, side: str = "allies", **kw: object) -> list[dict[str, object]]:
    return lookups.battles(start_state(scenario(units, **kw)), side)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- E-8 / E-10 dice by range


def test_e8_dice_by_range_for_each_unit_type() -> None:
    for d, target in ((1, "G4"), (2, "G3"), (3, "G2")):
        inf = battles(f"allies infantry G5, axis infantry {target}")
        assert inf == [{"attacker": "G5", "target": target, "dice": (3, 2, 1)[d - 1]}]
        arm = battles(f"allies armor G5, axis infantry {target}")
        assert arm == [{"attacker": "G5", "target": target, "dice": 3}]
    assert battles("allies infantry G5, axis infantry G1") == []  # out of range
    art = [(t, battles(f"allies artillery G9, axis infantry {t}")) for t in ("G8", "G7", "G6", "G5", "G4", "G3", "G2")]
    assert [b[0]["dice"] if b else 0 for _, b in art] == [3, 3, 2, 2, 1, 1, 0]


def test_e10_4_adjacent_enemy_must_be_the_target() -> None:
    assert battles("allies infantry G5, axis infantry H5, axis infantry E5") == [
        {"attacker": "G5", "target": "H5", "dice": 3}]
    # ruling: an adjacent enemy it cannot hurt (0 dice) means no battle at all
    assert battles("allies armor G5, axis infantry H5, axis infantry E5", terrain={"G5": "town", "H5": "forest"}) == []


def test_e11_infantry_needs_sight_artillery_does_not() -> None:
    """E-11.1, E-8.1: artillery ignores line of sight."""
    assert battles("allies infantry G5, axis infantry G3", terrain={"F4": "forest", "G4": "forest"}) == []
    assert battles("allies artillery G5, axis infantry G3", terrain={"F4": "forest", "G4": "forest"}) == [
        {"attacker": "G5", "target": "G3", "dice": 3}]


def test_e12_terrain_reductions_by_attacker_type() -> None:
    """E-12.1: the target hex removes dice by attacker type; artillery never loses any."""
    for attacker, dice in (("infantry", 2), ("armor", 1), ("artillery", 3)):
        assert battles(f"allies {attacker} G5, axis infantry G4", terrain={"G4": "forest"})[0]["dice"] == dice
        assert battles(f"allies {attacker} G5, axis infantry G4", terrain={"G4": "town"})[0]["dice"] == dice
    assert battles("allies infantry G5, axis infantry G4", obstacles={"G4": "sandbags"})[0]["dice"] == 2
    assert battles("allies armor G5, axis infantry G4", obstacles={"G4": "sandbags"})[0]["dice"] == 2


def test_e12_3_hills_reduce_only_from_below() -> None:
    assert battles("allies armor G5, axis infantry G4", terrain={"G4": "hill"})[0]["dice"] == 2
    assert battles("allies armor G5, axis infantry G4", terrain={"G4": "hill", "G5": "hill"})[0]["dice"] == 3


def test_e12_2_reductions_do_not_add_up() -> None:
    bunker_on_hill = {"terrain": {"G4": "hill"}, "obstacles": {"G4": {"type": "bunker", "owner": "axis"}}}
    assert battles("allies armor G5, axis infantry G4", **bunker_on_hill)[0]["dice"] == 1
    assert battles("allies infantry G5, axis infantry G4", **bunker_on_hill)[0]["dice"] == 2


def test_e12_4_a_bunker_protects_only_its_owners_units() -> None:
    bunker = {"obstacles": {"G4": {"type": "bunker", "owner": "axis"}}}
    assert battles("allies infantry G5, axis infantry G4", **bunker)[0]["dice"] == 2
    assert battles("axis infantry G5, allies infantry G4", side="axis", **bunker)[0]["dice"] == 3


def test_e10_5_battle_out_penalties() -> None:
    assert battles("allies armor G5, axis infantry G4", terrain={"G5": "town"})[0]["dice"] == 1
    assert battles("allies infantry G5, axis infantry G4", obstacles={"G5": "wire"})[0]["dice"] == 2


def test_e10_2_units_in_the_ocean_cannot_battle() -> None:
    assert battles("allies infantry G8, axis infantry G7", face="beach") == []
    assert battles("allies infantry G7, axis infantry G6", face="beach") == [
        {"attacker": "G7", "target": "G6", "dice": 3}]


# --------------------------------------------------------------------------- E-13 resolving


def test_e13_hits_per_target_type() -> None:
    """E-13.1, E-13.2: each face hits its own type; only grenades hit artillery."""
    st = ready("allies infantry G6, allies armor I6, allies infantry D6, axis infantry G4, axis armor I5, "
               "axis artillery D5", "G6 I6 D6")
    st, ev = do(st, "allies", "battle G6 G4", rolls("AS"))  # range 2: 2 dice, an armor symbol and a star
    assert at(st, "G4").figures == 4  # type: ignore[union-attr]
    st, ev = do(st, "allies", "battle I6 I5", rolls("AIG"))
    assert at(st, "I5").figures == 1  # type: ignore[union-attr]  # armor symbol + grenade
    st, ev = do(st, "allies", "battle D6 D5", rolls("IAG"))
    assert at(st, "D5").figures == 1  # type: ignore[union-attr]  # only the grenade hits artillery
    rolled = [e for e in ev if type(e).__name__ == "Rolled"][0]
    assert rolled.to_dict()["faces"] == ["infantry", "armor", "grenade"]
    assert rolled.to_dict()["hits"] == 1


def test_e13_3_elimination_gives_a_medal_and_can_win_at_once() -> None:
    """E-13.3, E-17.1: the last figure gone gives the attacker a medal."""
    st = ready("allies infantry G6, allies infantry I6, axis infantry/1 G5, axis infantry F1", "G6 I6", medals=(4, 1))
    st, ev = do(st, "allies", "battle G6 G5", rolls("ISS"))
    assert at(st, "G5") is None
    assert st.outcome is not None and st.outcome.winner == "allies"
    assert "reached 1 medals" in st.outcome.reason
    assert types(ev)[-2:] == ["MedalsChanged", "Victory"]
    assert st.fight is None  # no Take Ground after the victory (E-17.4)


def test_e13_hits_before_flags_and_a_unit_at_its_edge_loses_a_figure_per_flag() -> None:
    from engine.memoir.legal import pending

    # two flags on G2 (axis, top): one step to row 1, the second is off the board (E-14.5)
    st = ready("allies infantry G3, axis infantry G2, axis infantry A1", "G3")
    st, ev = do(st, "allies", "battle G3 G2", rolls("IFF"))
    assert figures(st)["G2"] == ("axis", "infantry", 3)  # the hit first
    (p,) = pending(st)
    assert (p.player, p.choices, p.reaction) == ("axis", ("retreat G1", "retreat H1"), True)
    st, ev = do(st, "axis", "retreat H1")
    assert figures(st)["H1"] == ("axis", "infantry", 2)
    # on row 1 already: both flags cost a figure
    st2 = ready("allies infantry G2, axis infantry G1, axis infantry A1", "G2")
    st2, ev = do(st2, "allies", "battle G2 G1", rolls("IFF"))
    assert figures(st2)["G1"] == ("axis", "infantry", 1)
    assert medals(st2, "allies") == 0


def test_e10_battle_refusals_say_what_is_legal() -> None:
    st = ready("allies infantry G6, axis infantry G4, axis infantry A1", "G6")
    with pytest.raises(IllegalOrder, match="battle G6 G4"):
        do(st, "allies", "battle G6 A1")
    with pytest.raises(IllegalOrder, match="no unit"):
        do(st, "allies", "battle C6 G4")
    st, _ = do(st, "allies", "battle G6 G4", rolls("SS"))
    assert st.active == "axis"  # its only unit battled: the turn ended by itself (E-4.8)
