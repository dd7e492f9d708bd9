"""The memoir front writes engine orders as the slash commands a player types, and those
lines read back (bot/command_line.py) to the same option values."""

from __future__ import annotations

import pytest

from bot.command_line import tokenize
from bot.front import option_value
from bot.memoir.front import FRONT
from engine.memoir.legal import pending
from tests.memoir.helpers import do, game, ready, rolls, run, scenario


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


def _decision(state: object) -> str:
    (p,) = pending(state)  # type: ignore[arg-type]
    return FRONT.decision(state, p)


def test_each_battle_decision_says_the_commands_that_answer_it() -> None:
    """E-19.3 (ambush), E-19.4 (flags, retreat), E-15 (take ground), E-16 (overrun)."""
    sc = scenario("allies infantry G5, axis infantry G4, axis infantry A1")
    st = game(sc, allies=["probe-centre", "probe-left", "probe-right"], axis=["ambush", "attack-left"],
              standing=("ask", "pass"))
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, _ = do(st, "allies", "battle G5 G4")
    assert _decision(st) == ("Ambush? G5 close-assaults your unit on G4 (E-6.4) — `/memoir decide ambush` or"
                             " `/memoir decide pass`")
    flags = ready("allies infantry G5, axis infantry G4, axis infantry M1", "G5", obstacles={"G4": "sandbags"})
    flags, _ = do(flags, "allies", "battle G5 G4", rolls("FF"))
    assert _decision(flags) == "G4 takes 2 flag(s); it may ignore up to 1 (E-14.6) — `/memoir decide ignore flags:N`"
    flags, _ = do(flags, "axis", "ignore 0")
    assert _decision(flags) == ("G4 retreats 2 hex(es): choose where it ends (E-14) —"
                                " `/memoir decide retreat to:HEX`")
    took = ready("allies armor G5, axis infantry/1 G4, axis infantry G2", "G5")
    took, _ = do(took, "allies", "battle G5 G4", rolls("GSS"))
    assert _decision(took) == ("Take Ground: move into G4? (E-15) — `/memoir decide take-ground` or"
                               " `/memoir decide hold`")
    took, _ = do(took, "allies", "take-ground")
    assert _decision(took) == ("Armor Overrun: battle again, or hold (E-16) — `/memoir battle unit:… target:…` or"
                               " `/memoir decide hold`")
