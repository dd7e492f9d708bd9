"""Seats of several words (``United States``) in ``side:`` — the lifecycle's seat_list."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.lifecycle import seat_list
from engine.aa.state import POWERS
from engine.core.errors import UnknownName
from tests.bot.aa.scripts import run
from tests.bot.local_scripts import replies_to


def test_seat_list_reads_names_of_several_words() -> None:
    assert seat_list(POWERS, "United States, China") == ["United States", "China"]
    assert seat_list(POWERS, "china united states") == ["United States", "China"]
    assert seat_list(POWERS, "Soviet Union,United Kingdom") == ["Soviet Union", "United Kingdom"]
    assert seat_list(POWERS, "germany italy") == ["Germany", "Italy"]
    assert seat_list(("axis", "allies"), "Allies") == ["allies"]
    with pytest.raises(UnknownName):
        seat_list(POWERS, "United States, Narnia")
    with pytest.raises(UnknownName):
        seat_list(POWERS, "United")


async def test_a_taken_power_is_refused(tmp_path: Path) -> None:
    code, out = await run('alice: /aa new setup:1941 side:"United States, China"\n'
                          'bob: /aa join side:"United States"\n'
                          'bob: /aa join side:"Soviet Union"\n', tmp_path)
    assert code == 0, out
    assert "⚠️ The United States seat is taken." in replies_to(out, "bob")
    assert "@bob joins as **Soviet Union**." in out


async def test_china_comes_with_the_united_states_unless_someone_took_it_first(tmp_path: Path) -> None:
    """China is usually played by the United States player: joining the United States
    brings China along while nobody has it; a player who took China keeps it."""
    code, out = await run('alice: /aa new setup:1942 side:"Germany, Italy, Japan"\n'
                          'bob: /aa join side:"United States"\n', tmp_path / "a")
    assert code == 0, out
    assert "@bob joins as **China, United States**." in out
    code, out = await run('alice: /aa new setup:1942 side:China\n'
                          'bob: /aa join side:"United States"\n', tmp_path / "b")
    assert code == 0, out
    assert "@alice plays **China**." in out and "@bob joins as **United States**." in out


async def test_a1_2_one_player_holds_powers_of_one_side_only(tmp_path: Path) -> None:
    """A-1.2: several powers per player, but never an Axis and an Allied one — refused
    when opening, joining and replacing, each time naming what would be legal; nothing
    changes (bob keeps Japan alone, Soviet Union stays free)."""
    code, out = await run('alice: /aa new setup:1941 side:"Germany, United States"\n', tmp_path / "a")
    assert code == 0, out
    assert replies_to(out, "alice").strip().endswith(
        "⚠️ One player may hold the seats of one side only: Germany is Axis; United States, China"
        ' are Allies. Legal: /aa new side:Germany, /aa new side:"United States, China".')
    assert "opened" not in out
    code, out = await run('alice: /aa new setup:1941 side:Germany\n'
                          'carol: /aa join side:"Japan, United Kingdom"\n'
                          'bob: /aa join side:Japan\n'
                          'bob: /aa join side:"United Kingdom"\n'
                          'alice: /aa replace side:"Soviet Union" user:@bob\n'
                          'alice: /aa status\n', tmp_path / "b")
    assert code == 0, out
    # a newcomer asking for both sides at once is refused too
    assert "⚠️ You may hold the seats of one side only: Japan is Axis; United Kingdom is Allies."\
           " Legal: /aa join side:Japan, /aa join side:Italy." in replies_to(out, "carol")
    assert "carol joins" not in out
    assert "⚠️ You may hold the seats of one side only: Japan is Axis; United Kingdom is Allies."\
           " Legal: /aa join side:Italy." in replies_to(out, "bob")
    assert '⚠️ bob may hold the seats of one side only: Japan is Axis; Soviet Union is Allies.'\
           ' Legal: /aa replace side:"Soviet Union" user:@… (someone with no Axis seat),'\
           ' /aa replace side:Italy user:@bob.' in replies_to(out, "alice")
    assert "@bob joins as **Japan**." in out and "joins as **Japan, United Kingdom**" not in out
    assert "now plays" not in out
    assert "status open. Seats: Germany: @alice, Japan: @bob." in out


async def test_a1_2_a_player_may_take_several_powers_of_their_side(tmp_path: Path) -> None:
    code, out = await run('alice: /aa new setup:1941 side:Germany\n'
                          'alice: /aa join side:"Japan, Italy"\n'
                          'bob: /aa join side:"Soviet Union, United Kingdom, United States"\n', tmp_path)
    assert code == 0, out
    assert "@alice joins as **Germany, Italy, Japan**." in out
    assert "@bob joins as **China, Soviet Union, United Kingdom, United States**. Every seat is taken" in out
