"""The memoir front writes engine orders as the slash commands a player types, and those
lines read back (bot/command_line.py) to the same option values."""

from __future__ import annotations

import pytest

from bot.command_line import tokenize
from bot.front import option_value
from bot.memoir.front import FRONT


@pytest.mark.parametrize(("order", "line"), [
    ("play probe-left", "/memoir play card:probe-left"),
    ("play infantry-assault right", "/memoir play card:infantry-assault section:right"),
    ("order c6 d7", '/memoir order units:"C6 D7"'),
    ("order none", "/memoir order units:none"),
    ("target g4", "/memoir target hexes:G4"),
    ("move c6 d5", "/memoir move unit:C6 to:D5"),
    ("move c6 e5 via d5", "/memoir move unit:C6 to:E5 path:D5"),
    ("move c6 f5 via d5 e5", '/memoir move unit:C6 to:F5 path:"D5 E5"'),
    ("battle g5 g4", "/memoir battle unit:G5 target:G4"),
    ("retreat f4", "/memoir decide retreat to:F4"),
    ("ignore 1", "/memoir decide ignore flags:1"),
    ("take-ground", "/memoir decide take-ground"),
    ("discard 2", "/memoir decide discard card:2"),
    ("concede", "/memoir concede"),
    ("fly away", None),
])
def test_slash_writes_orders_as_commands(order: str, line: str | None) -> None:
    assert FRONT.slash(order) == line


@pytest.mark.parametrize(("value", "typed"), [
    ("G4", "G4"), ("C6 D7", '"C6 D7"'), ("a,b", '"a,b"'), ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash and space", '"back\\\\slash and space"'),
])
def test_option_value_reads_back_through_the_command_line(value: str, typed: str) -> None:
    assert option_value(value) == typed
    assert tokenize(f"/memoir x units:{typed} done") == ["/memoir", "x", f"units:{value}", "done"]
