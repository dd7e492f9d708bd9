"""A-14 unit profiles: one source of truth with the odds calculator (A-10)."""

from __future__ import annotations

import pytest

from engine.aa.units import KINDS, MOVE, format_counts, move_of, parse_counts, profiles, resolve_kind
from engine.core.errors import UnknownName
from engine.odds.aa_units import catalogue


def test_a14_combat_values_and_costs_are_the_calculators_own_profiles() -> None:
    cat = catalogue()
    for unit in cat.units:
        assert profiles()[unit.name] is unit  # the very objects, not a copy
    # The game is Anniversary's: the calculator's Global-1940 tanks (G-7) are not its kinds.
    # Nor its damaged battleship (the game's battleships carry their damage).
    assert KINDS == tuple(n for n in cat.order if n not in ("sherman", "t-34", "tiger", "damaged battleship")) + (
        "factory",)
    assert len(KINDS) == 13
    for word in ("tiger", "sherman", "t-34"):
        with pytest.raises(UnknownName):
            resolve_kind(word)
    with pytest.raises(UnknownName):
        parse_counts("2 tiger")


def test_a14_movement_values() -> None:
    assert {k: MOVE[k] for k in ("infantry", "artillery", "tank", "aa gun", "fighter", "bomber")} == {
        "infantry": 1, "artillery": 1, "tank": 2, "aa gun": 1, "fighter": 4, "bomber": 6}
    assert all(MOVE[k] == 2 for k in ("submarine", "transport", "destroyer", "cruiser", "carrier", "battleship"))
    assert move_of("factory") == 0


def test_army_text_reads_and_prints_back() -> None:
    counts = parse_counts("3 infantry, 1 arm, 2 figs, 1 ic, 1 aa gun")
    assert counts == {"infantry": 3, "tank": 1, "aa gun": 1, "fighter": 2, "factory": 1}
    assert format_counts(counts) == "3 inf, 1 tank, 1 aa, 2 fig, 1 factory"
    assert parse_counts(format_counts(counts)) == counts
