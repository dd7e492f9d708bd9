"""The live form of /odds memoir (bot/memoir/odds.py): the roll a battle would make,
read from the position."""

from __future__ import annotations

import pytest

from bot.memoir.odds import live_odds, live_roll
from engine.core.errors import PlayerError
from engine.memoir.board import parse_hex
from engine.memoir.lookups import position, with_unit_moved
from engine.memoir.scenario import find_shipped
from engine.memoir.state import MemoirState
from engine.odds.memoir import MemoirRoll


def pegasus_with_c6_on(hex_name: str) -> MemoirState:
    s = position(find_shipped("pegasus-bridge"))
    unit = s.unit_at(parse_hex("C6"))
    assert unit is not None
    return with_unit_moved(s, unit.id, parse_hex(hex_name))


def test_terrain_and_sandbags_count() -> None:
    # D5 (wire) close-assaults D4 (sandbags): 3 dice, 1 less for the sandbags, 1 less out of
    # the wire; the sandbags let D4 ignore a flag (E-14.6), and it has room to retreat.
    roll, odds = live_odds(pegasus_with_c6_on("D5"), "D5", "D4")
    assert roll == MemoirRoll(dice=1, target="infantry", figures=4, blocked=False, retreat_room=None,
                              ignore_flags=1)
    assert odds.eliminate == 0


def test_a_blocked_retreat_is_read_from_the_position() -> None:
    s = pegasus_with_c6_on("E2")
    # E3's retreat toward the Axis edge: E2 is taken by the Allied unit, D2 is river.
    assert live_roll(s, "E2", "E3") == MemoirRoll(dice=3, target="infantry", figures=4, blocked=True,
                                                  retreat_room=0, ignore_flags=0)
    assert live_roll(s, "E3", "E2").blocked is False
    assert live_odds(s, "E2", "E3")[1].eliminate is not None


def test_impossible_battles_say_what_is_legal() -> None:
    s = pegasus_with_c6_on("D5")
    with pytest.raises(PlayerError, match="There is no unit on G5") as err:
        live_roll(s, "G5", "D4")
    assert "/odds memoir unit:D5 enemy:D4" in err.value.legal
    with pytest.raises(PlayerError, match="There is no enemy of D5 on C7") as err:
        live_roll(s, "D5", "C7")
    assert "/odds memoir unit:D5 enemy:D4" in err.value.legal
    with pytest.raises(PlayerError, match="D5 cannot battle A1") as err:
        live_roll(s, "D5", "A1")
    # Adjacent to an enemy: only adjacent targets; the slash command's own options
    # (unit: and enemy:, not target:, which names a unit type in /odds memoir).
    assert err.value.legal == ("/odds memoir unit:D5 enemy:D4",)
    for example in err.value.legal:
        unit, enemy = (part.split(":")[1] for part in example.split()[2:])
        assert live_roll(s, unit, enemy).dice >= 1
