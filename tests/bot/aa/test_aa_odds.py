"""/odds aa battle:… reads a battle of this channel's A&A game (engine/odds/aa_game.py, wired by bot/aa/odds_link.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.aa.odds_link import odds_options
from engine.odds.aa_game import odds_battle
from engine.aa.game import new_game
from engine.aa.state import AAState, Settings
from engine.core.dice import seeded_dice
from engine.core.errors import IllegalOrder
from engine.odds.aa import AABattle, aa_odds
from engine.odds.aa_units import format_army
from tests.aa.helpers import add, empty, turn
from tests.bot.aa.scripts import OPEN, TO_COMBAT_MOVE, run
from tests.bot.local_scripts import public, replies_to
from tests.odds.helpers import battles_computed

ODDS_HEAD = "2 inf, 1 fig attack 2 inf (land battle) — attacker loses its last land unit last\n"


def _wins(ool_attacker: str) -> str:
    """The attacker's line for 2 inf, 1 fig against 2 inf, keeping a land unit (A-10.10)."""
    odds = aa_odds(AABattle.parse("2 inf, 1 fig", "2 inf", ool_attacker=ool_attacker, keep_land_unit=1))
    return f"**Attacker wins {100 * odds.attacker_win:.1f}%**"


async def test_odds_of_a_planned_and_of_a_running_battle(tmp_path: Path) -> None:
    code, out = await run(OPEN + "carol: /odds aa battle:current\n"
                          + TO_COMBAT_MOVE.removeprefix(OPEN)
                          + 'alice: /aa move units:"2 inf, 1 fig" from:Manchuria to:Suiyuan\n'
                          + "carol: !complete /odds aa battle:\n"
                          + "carol: /odds aa battle:Suiyuan\n"
                          + "carol: /odds aa battle:Germany\n"
                          + "!dice 6 6 6 6 6\nalice: /aa done\n"
                          + "carol: /odds aa battle:current\n"
                          + 'carol: /odds aa battle:current ool_attacker:"fig, inf"\n'
                          + 'carol: /odds aa battle:current attacker:"1 inf, 1 fig"\n'
                          + "carol: /odds aa\n"
                          + 'carol: /odds aa attacker:"1 inf" defender:"1 inf"\n', tmp_path)
    assert code == 0, out
    mine = replies_to(out, "carol")
    assert "⚠️ There is no battle in this game now" in mine
    assert "choices for battle: Suiyuan" in mine
    assert "⚠️ There is no battle in Germany now. Legal: /odds aa battle:Suiyuan." in mine
    assert "⚠️ Name both sides, or a battle of this channel's A&A game." in mine
    pub = public(out)
    # Planned in the combat move, then again after a round with no hits: same armies. A
    # battle of the game is the asker's plan: answered to them alone (issue 9), while the
    # usual form with typed units stays public.
    # The game's default casualties: cheapest first, the last land unit kept.
    assert mine.count(ODDS_HEAD + "           " + _wins("inf, fig")) == 2 and ODDS_HEAD not in pub
    # An order of loss the asker types is theirs ("what if I lose the fighter first").
    assert mine.count(ODDS_HEAD + "           " + _wins("fig, inf")) == 1
    assert _wins("fig, inf") != _wins("inf, fig")
    # So are the forces ("what if I attack with fewer"; a refusal's example names them).
    fewer = aa_odds(AABattle.parse("1 inf, 1 fig", "2 inf", ool_attacker="inf, fig", keep_land_unit=1))
    assert ("1 inf, 1 fig attack 2 inf (land battle) — attacker loses its last land unit last\n           "
            f"**Attacker wins {100 * fewer.attacker_win:.1f}%**") in mine
    assert "1 inf, 1 fig attack" not in pub
    assert "1 inf attack 1 inf (land battle)\n         **Attacker wins 25.0%**" in pub


async def test_a_refusals_example_is_answered_with_the_battle_still_named(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # A battle of the game past Discord's units cap (lowered here to 2, so that 2 inf and
    # 1 fig against 2 inf passes it) is refused with the same battle scaled to fit; its
    # example, typed with battle: still there, is that battle (answered from the reply
    # kept in refusing, the game's order of loss and kept land unit with it).
    import weakref

    from bot.commands import odds

    monkeypatch.setattr(odds, "MAX_UNITS", 2)
    monkeypatch.setattr(odds, "_turns", weakref.WeakKeyDictionary())
    computed = battles_computed(monkeypatch)
    code, out = await run(TO_COMBAT_MOVE + 'alice: /aa move units:"2 inf, 1 fig" from:Manchuria to:Suiyuan\n'
                          + "carol: /odds aa battle:Suiyuan\n"
                          + 'carol: /odds aa battle:Suiyuan attacker:"1 inf, 1 fig" defender:"1 inf"\n', tmp_path)
    assert code == 0, out
    mine = replies_to(out, "carol")
    assert ('⚠️ At most 2 units per side here (the attacker has 3); the command line (warroom odds aa) takes up to'
            ' 9999 of each kind. Legal: /odds aa … attacker:"1 inf, 1 fig" defender:"1 inf".') in mine
    smaller = aa_odds(AABattle.parse("1 inf, 1 fig", "1 inf", ool_attacker="inf, fig", keep_land_unit=1))
    assert ("1 inf, 1 fig attack 1 inf (land battle) — attacker loses its last land unit last\n           "
            f"**Attacker wins {100 * smaller.attacker_win:.1f}%**") in mine
    assert [format_army(b.attacker) for b in computed] == ["2 inf, 1 fig"]  # the second: the reply kept


def test_conversion_reads_orders_of_loss_and_aa_guns() -> None:
    s = empty("1941")
    s = add(s, "Germany", "infantry", "Ukraine", 2, p3=True, moved=1, came_from="Bulgaria Romania")
    s = add(s, "Germany", "fighter", "Ukraine", 1, p3=True, moved=2, came_from="Bulgaria Romania")
    s = add(s, "Soviet Union", "infantry", "Ukraine", 3)
    s = add(s, "Soviet Union", "tank", "Ukraine", 1)
    s = add(s, "Soviet Union", "aa gun", "Ukraine", 1)
    s = replace(s, settings={"Soviet Union": Settings(defense_order=("tank", "infantry"))})
    s = turn(s, "Germany", "combat move")
    battle = odds_battle(s, "Ukraine")
    assert dict(battle.attacker) == {"infantry": 2, "fighter": 1}
    assert dict(battle.defender) == {"infantry": 3, "tank": 1, "aa gun": 1}  # AA fire
    assert battle.mode == "land" and battle.ool_defender[:2] == ("tank", "infantry")
    assert odds_options(battle)["kind"] == "land"
    # What the asker typed wins over the game's: the forces and the orders of loss.
    typed = {"attacker": "1 inf", "defender": "", "ool_defender": "inf, tank", "overland": None}
    options = odds_options(battle, typed)
    assert "attacker" not in options and "ool_defender" not in options
    assert options["defender"] == "3 inf, 1 tank, 1 aa" and options["ool_attacker"] == ", ".join(battle.ool_attacker)
    # The same numbers as asking with the units typed out.
    assert aa_odds(battle).attacker_win > 0


def test_a_planned_battle_without_aircraft_leaves_the_aa_gun_out() -> None:
    """A-10.4/A-14: the AA gun only fires at aircraft and is never a casualty, so a land
    attack without aircraft does not put it among the defenders (planned or running alike)."""
    s = empty("1941")
    s = add(s, "Germany", "tank", "Ukraine", 2, p3=True, moved=1, came_from="Bulgaria Romania")
    s = add(s, "Soviet Union", "infantry", "Ukraine", 1)
    s = add(s, "Soviet Union", "aa gun", "Ukraine", 2)
    s = turn(s, "Germany", "combat move")
    battle = odds_battle(s, "Ukraine")
    assert dict(battle.attacker) == {"tank": 2}
    assert dict(battle.defender) == {"infantry": 1}


def test_a_fresh_game_has_no_battle() -> None:
    state, _ = new_game({"setup": "1942"}, seeded_dice(0))
    with pytest.raises(IllegalOrder, match="There is no battle in this game now") as err:
        odds_battle(state)
    assert err.value.legal


def _landing(infantry: int) -> AAState:
    """Germany's transport in 4 Sea Zone with ``infantry`` aboard, bound for Soviet
    Karelia (A-10.3: they land from the sea)."""
    s = empty("1941")
    s = replace(s, control={**s.control, "Karelia S.S.R.": "Soviet Union"})
    s = add(s, "Germany", "transport", "4 Sea Zone", 1, p3=True, moved=1, stop=True, target="Karelia S.S.R.")
    boat = max(s.units)
    return add(s, "Germany", "infantry", "4 Sea Zone", infantry, aboard=boat, target="Karelia S.S.R.", p3=True,
               came_from="4 Sea Zone", moved=1, boarded=5)


def test_cargo_landing_from_transports_makes_it_amphibious() -> None:
    s = _landing(2)
    s = add(s, "Germany", "battleship", "4 Sea Zone", 1, p3=True, moved=1)
    s = add(s, "Soviet Union", "infantry", "Karelia S.S.R.", 2)
    s = turn(s, "Germany", "combat move")
    battle = odds_battle(s, "Karelia S.S.R.")
    assert battle.mode == "amphibious"
    assert dict(battle.attacker) == {"infantry": 2}
    assert dict(battle.bombard) == {"battleship": 1}
    assert dict(battle.defender) == {"infantry": 2}


def test_the_units_that_came_over_land_are_named_for_a_landings_retreat() -> None:
    """A-10.3: the tank from Finland may retreat with the fighter; the infantry landed
    from the sea fights on. /odds aa battle:… with retreat_after:1 computes exactly that."""
    s = _landing(2)
    s = add(s, "Germany", "tank", "Karelia S.S.R.", 1, p3=True, moved=1, came_from="Finland")
    s = add(s, "Germany", "fighter", "Karelia S.S.R.", 1, p3=True, moved=2, came_from="Finland")
    s = add(s, "Soviet Union", "infantry", "Karelia S.S.R.", 3)
    battle = odds_battle(turn(s, "Germany", "combat move"), "Karelia S.S.R.")
    assert battle.mode == "amphibious" and dict(battle.overland) == {"tank": 1}
    options = odds_options(battle, {"retreat_after": 1})
    assert options["overland"] == "1 tank" and options["kind"] == "amphibious"
    odds = aa_odds(replace(battle, retreat_after=1))
    assert odds.fight_on is not None and odds.retreat > 0
    # And a second wave planned after it attacks what the whole assault left.
    wave = aa_odds(replace(battle, retreat_after=1, wave2={"infantry": 3, "tank": 1}))
    assert wave.fight_on == odds.fight_on and wave.second_wave is not None
    assert wave.second_wave["attacker_takes"] > odds.fight_on["attacker_takes"]


def test_a_retreat_from_a_landing_of_an_older_game_is_refused_as_the_game_refuses_it() -> None:
    """A-10.3: games opened before 2026-12-04 let no aircraft retreat from a landing
    whose land units all came from the sea; the live odds do not assume they do."""
    from engine.odds.aa_game import check_retreat

    s = add(_landing(2), "Germany", "fighter", "Karelia S.S.R.", 1, p3=True, moved=2, came_from="Finland")
    s = turn(add(s, "Soviet Union", "infantry", "Karelia S.S.R.", 3), "Germany", "combat move")
    battle = odds_battle(s, "Karelia S.S.R.")
    with pytest.raises(IllegalOrder, match="opened before 2026-12-04") as err:
        check_retreat(s, battle, True, "Karelia")
    assert err.value.legal == ("/odds aa battle:Karelia",)  # the battle asked about, without the retreat
    check_retreat(s, battle, False)  # no retreat asked: the battle as it is
    new = replace(s, options=replace(s.options, landing_retreat=True))
    check_retreat(new, odds_battle(new, "Karelia S.S.R."), True)  # games opened now: the fighter may leave
    assert aa_odds(replace(battle, retreat_after=1)).fight_on is not None


def test_a14_5_bombardment_is_one_ship_per_unit_landing_the_strongest_first() -> None:
    """A-10.3 step 2 / A-14.5: one infantry landing lets one warship bombard (the battleship,
    not the cruiser), as the engine will fire it."""
    s = _landing(1)
    s = add(s, "Germany", "cruiser", "4 Sea Zone", 1, p3=True, moved=1)
    s = add(s, "Germany", "battleship", "4 Sea Zone", 1, p3=True, moved=1)
    s = add(s, "Soviet Union", "infantry", "Karelia S.S.R.", 1)
    battle = odds_battle(turn(s, "Germany", "combat move"), "Karelia S.S.R.")
    assert battle.mode == "amphibious" and dict(battle.bombard) == {"battleship": 1}
