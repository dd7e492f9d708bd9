"""A-10 conduct combat, worked with scripted dice: every die is given, every result exact.

Dice order: AA fire per aircraft type; then each side's groups in unit order (supported
infantry before the others), attacker first; submarine strikes before general fire."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.aa.combat import plan_battles
from engine.aa.events import BattleEnded, BattleStarted, Bombed, Captured, Lost, Returned, RocketFired, Rolled
from engine.aa.game import apply_text, pending, timeout
from engine.aa.state import COMBAT, COMBAT_MOVE, AAState, Settings
from engine.core.dice import scripted_dice
from engine.core.errors import DataError, IllegalOrder, NotYourTurn, UnknownName

from .helpers import add, empty, ids, kinds_at, play, turn

G, R, UK, US = "Germany", "Soviet Union", "United Kingdom", "United States"


def combat(state: AAState, power: str = G) -> AAState:
    state = turn(state, power, COMBAT)
    return replace(state, sites=plan_battles(state))


def attack(state: AAState, power: str, kind: str, where: str, n: int = 1, came_from: str | None = None,
           **fields: object) -> AAState:
    return add(state, power, kind, where, n, p3=True, moved=1, came_from=came_from, **fields)  # type: ignore[arg-type]


def rolls(events: list) -> list[tuple[str, str, int, tuple[int, ...], int]]:  # type: ignore[type-arg]
    return [(e.side, e.what, e.target, tuple(e.dice), e.hits) for e in events if isinstance(e, Rolled)]


def test_a10_4_a_land_battle_round_by_round_with_a_casualty_choice() -> None:
    s = empty()
    for kind, n in (("infantry", 2), ("artillery", 1), ("fighter", 1)):
        s = attack(s, G, kind, "Ukraine", n, "Bulgaria Romania")
    s = add(add(s, R, "infantry", "Ukraine", 2), R, "aa gun", "Ukraine")
    s = combat(s)
    s, events = play(s, G, "battle Ukraine", dice=[3, 2, 5, 1, 4, 1, 3])
    assert rolls(events) == [
        ("defender", "aa gun vs fighter", 1, (3,), 0),
        ("attacker", "supported infantry", 2, (2,), 1), ("attacker", "infantry", 1, (5,), 0),
        ("attacker", "artillery", 2, (1,), 1), ("attacker", "fighter", 3, (4,), 0),
        ("defender", "infantry", 2, (1, 3), 1),
    ]
    p = pending(s)[0]
    assert p.player == G and set(p.choices) == {"casualties 1 inf", "casualties 1 art", "casualties 1 fig"}
    with pytest.raises(NotYourTurn):
        apply_text(s, R, "casualties 1 inf", scripted_dice([]))
    with pytest.raises(IllegalOrder, match="exactly 1"):
        apply_text(s, G, "casualties 1 inf, 1 art", scripted_dice([]))
    s, events = play(s, G, "casualties 1 art")
    assert BattleEnded("Ukraine", "attacker", True) in events
    assert s.control["Ukraine"] == G
    assert kinds_at(s, "Ukraine") == {"infantry": 2, "fighter": 1, "aa gun": 1}
    assert next(u for u in s.units_at("Ukraine") if u.kind == "aa gun").owner == G


def test_a10_15_retreat_after_a_round_to_where_an_attacker_came_from() -> None:
    s = attack(empty(), G, "tank", "Ukraine", 1, "Bulgaria Romania")
    s = combat(add(s, R, "infantry", "Ukraine", 2))
    s, _ = play(s, G, "battle Ukraine", dice=[6, 6, 6])
    p = pending(s)[0]
    assert (p.player, p.choices) == (G, ("continue", "retreat Bulgaria Romania"))
    with pytest.raises(IllegalOrder, match="adjacent friendly"):
        apply_text(s, G, "retreat Poland", scripted_dice([]))
    s, events = play(s, G, "retreat Bulgaria Romania")
    assert BattleEnded("Ukraine", "retreat", False) in events
    assert kinds_at(s, "Bulgaria Romania", G) == {"tank": 1} and s.control["Ukraine"] == R
    assert s.phase == "noncombat move"
    # the tank fought: it does not move again this turn
    with pytest.raises(IllegalOrder, match="fought"):
        apply_text(s, G, "move 1 tank: Bulgaria Romania -> Poland", scripted_dice([]))


def test_a10_5_aa_fire_and_a10_10_aircraft_alone_never_take_a_territory() -> None:
    s = attack(empty(), G, "bomber", "Ukraine", 2, "Poland")
    s = combat(add(s, R, "aa gun", "Ukraine"))
    s, events = play(s, G, "battle Ukraine", dice=[1, 4])
    assert rolls(events) == [("defender", "aa gun vs bomber", 1, (1, 4), 1)]
    assert BattleEnded("Ukraine", "defender", False) not in events  # no defender units: attacker "wins"
    assert BattleEnded("Ukraine", "attacker", False) in events
    assert s.control["Ukraine"] == R and kinds_at(s, "Ukraine", G) == {"bomber": 1}


def test_a7_radar_aa_guns_hit_on_1_or_2() -> None:
    s = attack(empty(), G, "fighter", "Ukraine", 1, "Poland")
    s = add(s, R, "aa gun", "Ukraine")
    s = combat(replace(s, techs={**s.techs, R: frozenset({"radar"})}))
    s, events = play(s, G, "battle Ukraine", dice=[2])
    assert rolls(events) == [("defender", "aa gun vs fighter", 2, (2,), 1)]


def test_a10_6_submarine_surprise_strike_and_defenceless_transports() -> None:
    s = attack(empty(), G, "submarine", "2 Sea Zone", 2, "3 Sea Zone")
    s = combat(add(add(s, UK, "cruiser", "2 Sea Zone"), UK, "transport", "2 Sea Zone"))
    assert pending(s)[0].choices == ("battle 2 Sea Zone",)
    s, events = play(s, G, "battle 2 Sea Zone", "submerge 0", dice=[2, 5])
    # the struck cruiser never fires back; the lone transport is lost without dice
    assert rolls(events) == [("attacker", "submarine", 2, (2, 5), 1)]
    lost = [e for e in events if isinstance(e, Lost)]
    assert [(e.units, e.why) for e in lost] == [("1 cru", "hit"), ("1 tra", "defenceless (A-10.7)")]
    assert BattleEnded("2 Sea Zone", "attacker", False) in events


def test_a10_6_a_destroyer_cancels_the_strike_so_both_fire_together() -> None:
    s = attack(empty(), G, "submarine", "2 Sea Zone", 1, "3 Sea Zone")
    s = combat(add(s, UK, "destroyer", "2 Sea Zone"))
    s, events = play(s, G, "battle 2 Sea Zone", dice=[1, 2])
    assert rolls(events) == [("attacker", "submarine", 2, (1,), 1), ("defender", "destroyer", 2, (2,), 1)]
    assert BattleEnded("2 Sea Zone", "draw", False) in events


def test_a10_6_submarine_hits_never_land_on_aircraft() -> None:
    s = attack(attack(empty(), G, "submarine", "2 Sea Zone", 1, "3 Sea Zone"), G, "cruiser", "2 Sea Zone", 1,
               "3 Sea Zone")
    s = add(add(s, UK, "carrier", "2 Sea Zone"), UK, "cruiser", "2 Sea Zone")
    car = ids(s, UK, "carrier", "2 Sea Zone")[0]
    s = combat(add(s, UK, "fighter", "2 Sea Zone", aboard=car))
    s, events = play(s, G, "battle 2 Sea Zone", "submerge 0", dice=[1])
    p = pending(s)[0]
    assert p.player == UK and p.reaction and set(p.choices) == {"casualties 1 cru", "casualties 1 car"}
    with pytest.raises(IllegalOrder, match="never hit aircraft"):
        apply_text(s, UK, "casualties 1 fig", scripted_dice([]))


def test_a10_6_submarines_may_submerge() -> None:
    s = attack(empty(), G, "cruiser", "2 Sea Zone", 1, "3 Sea Zone")
    s = combat(add(s, UK, "submarine", "2 Sea Zone"))
    s, _ = play(s, G, "battle 2 Sea Zone")
    p = pending(s)[0]
    assert (p.player, p.choices) == (UK, ("submerge 0", "submerge 1"))
    s, events = play(s, UK, "submerge 1")
    assert BattleEnded("2 Sea Zone", "attacker", False) in events
    assert not s.units[ids(s, UK, "submarine", "2 Sea Zone")[0]].submerged  # back after the battle


def test_a10_8_a_battleship_takes_two_hits_and_is_repaired_after_the_battle() -> None:
    s = attack(empty(), UK, "battleship", "5 Sea Zone", 1, "6 Sea Zone")
    s = combat(add(s, G, "cruiser", "5 Sea Zone"), UK)
    s, events = play(s, UK, "battle 5 Sea Zone", dice=[5, 3])
    bb = ids(s, UK, "battleship", "5 Sea Zone")[0]
    assert s.units[bb].damage == 1 and Lost("5 Sea Zone", "", "hit", (), 1) in events
    s, events = play(s, UK, "continue", dice=[1, 6])
    assert BattleEnded("5 Sea Zone", "attacker", False) in events
    assert s.units[bb].damage == 0


def test_a10_3_amphibious_assault_with_shore_bombardment() -> None:
    s = empty()
    s = attack(s, G, "transport", "5 Sea Zone", 2, "6 Sea Zone", stop=True, target="Karelia S.S.R.")
    boats = ids(s, G, "transport", "5 Sea Zone")
    for b in boats:
        s = add(s, G, "infantry", "5 Sea Zone", 1, aboard=b, target="Karelia S.S.R.", p3=True,
                came_from="5 Sea Zone", moved=1)
    s = attack(attack(s, G, "battleship", "5 Sea Zone", 1, "6 Sea Zone"), G, "cruiser", "5 Sea Zone", 1, "6 Sea Zone")
    s = combat(add(s, R, "infantry", "Karelia S.S.R.", 2))
    assert [(x.where, x.step) for x in s.sites] == [("Karelia S.S.R.", 2)]
    s, events = play(s, G, "battle Karelia S.S.R.", dice=[2, 6, 1, 6, 1, 6])
    assert rolls(events) == [
        ("attacker", "cruiser", 3, (2,), 1), ("attacker", "battleship", 4, (6,), 0),  # bombardment
        ("attacker", "infantry", 1, (1, 6), 1),
        ("defender", "infantry", 2, (1, 6), 1),  # the bombarded infantry still fires
    ]
    assert BattleEnded("Karelia S.S.R.", "attacker", True) in events
    assert s.control["Karelia S.S.R."] == G and kinds_at(s, "Karelia S.S.R.") == {"infantry": 1}
    assert all(u.fought for u in s.units.values() if u.kind in ("battleship", "cruiser"))


def test_a10_3_units_landed_from_the_sea_never_retreat() -> None:
    s = empty()
    s = attack(s, G, "transport", "5 Sea Zone", 1, "6 Sea Zone", stop=True, target="Karelia S.S.R.")
    t = ids(s, G, "transport", "5 Sea Zone")[0]
    s = add(s, G, "infantry", "5 Sea Zone", 1, aboard=t, target="Karelia S.S.R.", p3=True, came_from="5 Sea Zone")
    s = attack(s, G, "tank", "Karelia S.S.R.", 1, "Finland")
    s = combat(add(s, R, "infantry", "Karelia S.S.R.", 3))
    s, _ = play(s, G, "battle Karelia S.S.R.", dice=[6, 6, 6, 6, 6])
    assert pending(s)[0].choices == ("continue", "retreat Finland")
    s, events = play(s, G, "retreat Finland", dice=[6, 1, 6, 6])  # the landed infantry fights on, alone
    assert kinds_at(s, "Finland", G) == {"tank": 1}
    assert rolls(events) == [("attacker", "infantry", 1, (6,), 0), ("defender", "infantry", 2, (1, 6, 6), 1)]
    assert BattleEnded("Karelia S.S.R.", "defender", False) in events and kinds_at(s, "Karelia S.S.R.", G) == {}


def test_a10_3_aircraft_retreat_alone_while_units_landed_from_the_sea_fight_on() -> None:
    """A-10.3: attacking aircraft may retreat (all together) from an amphibious assault
    even when every land unit came from the sea; the landed units fight on alone (games
    opened since 2026-12-04; games opened before keep the rule they were played with)."""
    old = empty()
    s = empty(landing_retreat=True)
    s = attack(s, G, "transport", "5 Sea Zone", 1, "6 Sea Zone", stop=True, target="Karelia S.S.R.")
    t = ids(s, G, "transport", "5 Sea Zone")[0]
    s = add(s, G, "infantry", "5 Sea Zone", 1, aboard=t, target="Karelia S.S.R.", p3=True, came_from="5 Sea Zone")
    s = attack(s, G, "fighter", "Karelia S.S.R.", 1, "Finland")
    s = combat(add(s, R, "infantry", "Karelia S.S.R.", 3))
    # Before: no retreat decision after round 1; round 2 is fought at once (and lost).
    _, events = play(replace(s, options=old.options), G, "battle Karelia S.S.R.", dice=[6] * 7 + [1, 1, 6])
    assert BattleEnded("Karelia S.S.R.", "defender", False) in events
    s, _ = play(s, G, "battle Karelia S.S.R.", dice=[6, 6, 6, 6, 6])
    assert pending(s)[0].choices == ("continue", "retreat")
    with pytest.raises(IllegalOrder, match="A-10.9"):
        apply_text(s, G, "retreat Finland", scripted_dice([]))  # aircraft stay overhead
    # The landed infantry fights on, alone: it hits in round 2, then falls in round 3.
    s, events = play(s, G, "retreat", dice=[1, 6, 6, 6, 6, 1, 6])
    assert next(u for u in s.units.values() if u.kind == "fighter").mission == "retreated"
    assert rolls(events) == [("attacker", "infantry", 1, (1,), 1), ("defender", "infantry", 2, (6, 6, 6), 0),
                             ("attacker", "infantry", 1, (6,), 0), ("defender", "infantry", 2, (1, 6), 1)]
    assert BattleEnded("Karelia S.S.R.", "defender", False) in events
    assert kinds_at(s, "Karelia S.S.R.", R) == {"infantry": 2} and kinds_at(s, "Karelia S.S.R.", G) == {"fighter": 1}


def test_a10_3_the_infantry_landed_from_the_sea_takes_the_hit_before_those_from_over_land() -> None:
    """Games opened since 2026-12-04: within a type the attacker's units landed from the
    sea are lost first, so those that came over land may still retreat; older games
    take the lowest unit number (here an overland infantry)."""
    def fought(options: AAState) -> list[str | None]:
        s = attack(options, G, "infantry", "Karelia S.S.R.", 2, "Finland")  # the lower numbers
        s = attack(s, G, "transport", "5 Sea Zone", 1, "6 Sea Zone", stop=True, target="Karelia S.S.R.")
        t = ids(s, G, "transport", "5 Sea Zone")[0]
        s = add(s, G, "infantry", "5 Sea Zone", 1, aboard=t, target="Karelia S.S.R.", p3=True,
                came_from="5 Sea Zone")
        s = combat(add(s, R, "infantry", "Karelia S.S.R.", 3))
        s, _ = play(s, G, "battle Karelia S.S.R.", dice=[6, 6, 6, 1, 6, 6])  # one hit on the attacker
        assert pending(s)[0].choices == ("continue", "retreat Finland")
        return sorted(u.came_from or "" for u in s.units_at("Karelia S.S.R.") if u.owner == G)

    assert fought(empty(landing_retreat=True)) == ["Finland", "Finland"]
    assert fought(empty()) == ["5 Sea Zone", "Finland"]


def test_a10_2_strategic_bombing_with_aa_fire_and_the_damage_cap() -> None:
    s = add(empty(), G, "bomber", "United Kingdom", 2, p3=True, moved=3, mission="bomb", target="United Kingdom")
    s = combat(add(s, UK, "aa gun", "United Kingdom"))
    assert [(x.where, x.kind, x.step) for x in s.sites] == [("United Kingdom", "raid", 1)]
    s, events = play(s, G, "battle United Kingdom", dice=[1, 3, 5])
    assert Bombed("United Kingdom", (5,), 5, 5) in events and s.factories["United Kingdom"] == 5
    s2 = add(empty(), G, "bomber", "Caucasus", 1, p3=True, moved=3, mission="bomb", target="Caucasus")
    s2 = replace(s2, factories={**s2.factories, "Caucasus": 6}, techs={**s2.techs, G: frozenset({"heavy bombers"})})
    s2, events = play(combat(s2), G, "battle Caucasus", dice=[4, 5])
    assert Bombed("Caucasus", (4, 5), 2, 8) in events and s2.factories["Caucasus"] == 8  # 2 x 4 IPCs


def test_a7_5_rockets_from_an_aa_gun() -> None:
    s = add(add(empty(), G, "aa gun", "Germany"), G, "infantry", "Ukraine", p3=True, came_from="Bulgaria Romania")
    s = add(s, G, "infantry", "Belorussia", p3=True, came_from="Poland")
    s = combat(replace(s, techs={**s.techs, G: frozenset({"rockets"})}))
    p = pending(s)[0]
    assert "rocket Germany -> Karelia S.S.R." in p.choices and "battle Ukraine" in p.choices
    s, events = play(s, G, "rocket Germany -> Karelia S.S.R.", dice=[5])
    assert RocketFired("Germany", "Karelia S.S.R.", 5, 4, 4) in events  # capped at 2 x 2 IPCs
    with pytest.raises(IllegalOrder, match="No rocket"):
        apply_text(s, G, "rocket Germany -> Russia", scripted_dice([]))  # one per launch territory


def test_a10_12_taking_a_capital_takes_its_owners_ipcs_pool_and_researchers() -> None:
    s = attack(empty(), R, "tank", "Germany", 1, "Poland")
    s = replace(s, pool={G: (("infantry", 4),)}, researchers={**s.researchers, G: 2},
                control={**s.control, "Poland": R})
    s, events = play(combat(s, R), R, "battle Germany")
    cap = next(e for e in events if isinstance(e, Captured))
    assert (cap.territory, cap.controller, cap.plunder) == ("Germany", R, 31)
    assert s.ipcs[R] == 30 + 31 and s.ipcs[G] == 0 and s.pool_of(G) == {} and s.researchers[G] == 0
    assert not s.capital_held(G)


def test_a10_11_liberation_and_a10_12_a_freed_capital_gets_its_territories_back() -> None:
    s = empty("1942")
    s = replace(s, control={**s.control, "Russia": G})
    s = attack(s, UK, "infantry", "Ukraine", 1, "Caucasus")
    s, events = play(combat(s, UK), UK, "battle Ukraine")
    assert s.control["Ukraine"] == UK  # Moscow is German: the liberator keeps it
    s = attack(s, UK, "infantry", "Russia", 1, "Caucasus")
    s, events = play(combat(s, UK), UK, "battle Russia")
    assert s.control["Russia"] == R and Returned("Ukraine", R) in events
    assert s.control["Ukraine"] == R


def test_a10_14_transports_are_chosen_last_and_a_timeout_takes_the_default() -> None:
    s = attack(empty(), G, "fighter", "2 Sea Zone", 2, "3 Sea Zone")
    s = combat(add(add(add(s, UK, "transport", "2 Sea Zone"), UK, "destroyer", "2 Sea Zone"), UK, "cruiser",
                   "2 Sea Zone"))
    s, _ = play(s, G, "battle 2 Sea Zone", dice=[1, 6, 6, 6])
    p = pending(s)[0]
    assert set(p.choices) == {"casualties 1 des", "casualties 1 cru"}
    with pytest.raises(IllegalOrder, match="Transports"):
        apply_text(s, UK, "casualties 1 tra", scripted_dice([]))
    s, events = timeout(s, "done", scripted_dice([]))
    assert ids(s, UK, "destroyer", "2 Sea Zone") == [] and ids(s, UK, "cruiser", "2 Sea Zone")  # cheapest first


def test_a10_14_a_standing_order_of_loss_and_automatic_casualties() -> None:
    s = attack(empty(), G, "fighter", "2 Sea Zone", 2, "3 Sea Zone")
    s = add(add(s, UK, "destroyer", "2 Sea Zone"), UK, "cruiser", "2 Sea Zone")
    s, _ = play(s, UK, "ool defense cru, des", "auto on")
    assert s.setting(UK) == Settings((), ("cruiser", "destroyer"), True)
    s, events = play(combat(s), G, "battle 2 Sea Zone", dice=[1, 6, 6, 6])
    assert ids(s, UK, "cruiser", "2 Sea Zone") == [] and ids(s, UK, "destroyer", "2 Sea Zone")


def test_a10_stalemate_when_nobody_can_hit() -> None:
    s = attack(empty(), G, "fighter", "2 Sea Zone", 1, "3 Sea Zone")
    s, events = play(combat(add(s, UK, "submarine", "2 Sea Zone")), G, "battle 2 Sea Zone")
    assert BattleEnded("2 Sea Zone", "stalemate", False) in events


def test_a10_13_the_controller_chooses_for_allied_defenders() -> None:
    s = attack(empty(), G, "infantry", "Karelia S.S.R.", 3, "Finland")
    s = combat(add(add(s, R, "infantry", "Karelia S.S.R."), US, "tank", "Karelia S.S.R."))
    s, events = play(s, G, "battle Karelia S.S.R.", dice=[1, 6, 6, 6, 6])
    assert rolls(events)[1:] == [("defender", "infantry", 2, (6,), 0), ("defender", "tank", 3, (6,), 0)]
    assert pending(s)[0].player == R and pending(s)[0].reaction
    s, _ = play(s, R, "casualties 1 tank")
    assert kinds_at(s, "Karelia S.S.R.", R) == {"infantry": 1} and kinds_at(s, "Karelia S.S.R.", US) == {}
    assert pending(s)[0].choices == ("continue", "retreat Finland")


def test_a10_14_turning_auto_casualties_on_answers_the_waiting_choice() -> None:
    s = attack(empty(), G, "fighter", "2 Sea Zone", 2, "3 Sea Zone")
    s = combat(add(add(s, UK, "destroyer", "2 Sea Zone"), UK, "cruiser", "2 Sea Zone"))
    s, _ = play(s, G, "battle 2 Sea Zone", dice=[1, 6, 6, 6])
    assert pending(s)[0].player == UK
    s, events = play(s, UK, "auto on")
    assert ids(s, UK, "destroyer", "2 Sea Zone") == [] and pending(s)[0].choices[0] == "continue"
    same, _ = play(s, G, "auto on")  # the attacker's setting changes nothing in the battle
    assert same.battle == s.battle


def test_a10_9_ships_retreat_only_to_a_zone_friendly_since_the_turn_began() -> None:
    s = attack(empty(), G, "destroyer", "6 Sea Zone", 1, "5 Sea Zone")
    s = attack(s, G, "destroyer", "6 Sea Zone", 1, "7 Sea Zone")
    s = add(s, UK, "battleship", "6 Sea Zone")
    s = combat(s)
    s = replace(s, hostile_start=s.hostile_start | {"7 Sea Zone"})  # an enemy warship was there
    s, events = play(s, G, "battle 6 Sea Zone", dice=[6, 6, 6])
    assert rolls(events) == [("attacker", "destroyer", 2, (6, 6), 0), ("defender", "battleship", 4, (6,), 0)]
    p = pending(s)[0]
    assert (p.player, p.choices) == (G, ("continue", "retreat 5 Sea Zone"))
    with pytest.raises(IllegalOrder):
        apply_text(s, G, "retreat 7 Sea Zone", scripted_dice([]))
    s, events = play(s, G, "retreat 5 Sea Zone")
    assert BattleEnded("6 Sea Zone", "retreat", False) in events
    assert kinds_at(s, "5 Sea Zone", G) == {"destroyer": 2}  # all together


def test_a10_1_raids_then_amphibious_assaults_then_every_other_battle() -> None:
    """A-10.1: a bombing raid on the United Kingdom, an amphibious assault on Karelia and a
    land attack on Ukraine, planned together: only the raid may be fought first, then the
    assault, then the land battle; picking out of order is refused, naming what is legal."""
    s = add(empty(), G, "bomber", "United Kingdom", 1, p3=True, moved=3, mission="bomb", target="United Kingdom")
    s = attack(s, G, "transport", "5 Sea Zone", 1, "6 Sea Zone", stop=True, target="Karelia S.S.R.")
    (boat,) = ids(s, G, "transport", "5 Sea Zone")
    s = add(s, G, "infantry", "5 Sea Zone", 1, aboard=boat, target="Karelia S.S.R.", p3=True,
            came_from="5 Sea Zone", moved=1)
    s = attack(s, G, "infantry", "Ukraine", 2, "Bulgaria Romania")
    s = combat(add(add(s, R, "infantry", "Karelia S.S.R."), R, "infantry", "Ukraine"))
    assert sorted((x.step, x.where) for x in s.sites) == [
        (1, "United Kingdom"), (2, "Karelia S.S.R."), (3, "Ukraine")]
    for early in ("battle Ukraine", "battle Karelia S.S.R."):
        with pytest.raises(IllegalOrder, match="cannot be fought now"):
            apply_text(s, G, early, scripted_dice([]))
    # the raid (one damage die, no AA gun there), then the rest follow in their steps
    s, events = play(s, G, "battle United Kingdom", dice=[3, 1, 6, 1, 1, 6])
    assert [e.where for e in events if isinstance(e, BattleStarted)] == [
        "United Kingdom", "Karelia S.S.R.", "Ukraine"]
    assert not s.sites


def test_a9_1_units_from_several_spaces_converge_and_an_empty_hostile_territory_is_a_combat_move() -> None:
    s = add(add(empty(), G, "infantry", "Bulgaria Romania", 2), G, "fighter", "Poland")
    s = add(s, R, "infantry", "Ukraine")
    s = turn(s, G, COMBAT_MOVE)
    s, _ = play(s, G, "move 2 inf: Bulgaria Romania -> Ukraine")
    s, _ = play(s, G, "move 1 fig: Poland -> Ukraine")  # converging on one battle
    assert kinds_at(s, "Ukraine", G) == {"infantry": 2, "fighter": 1}
    assert [x.where for x in plan_battles(s)] == ["Ukraine"]
    # an empty enemy territory is entered in the combat move, and taken without a die
    e = turn(add(empty(), G, "infantry", "Poland"), G, COMBAT_MOVE)
    assert not kinds_at(e, "East Poland")
    e, _ = play(e, G, "move 1 inf: Poland -> East Poland")
    e, events = play(e, G, "done")
    assert e.control["East Poland"] == G and not [x for x in events if isinstance(x, Rolled)]


@pytest.mark.parametrize("rule, lost, kept", [
    # A-10.14 "earliest": bomber's hit on the destroyer, submarine's on the submarine:
    # the destroyer and the submarine, the first two units of the order
    ("earliest", "1 sub, 1 des", {"submarine": 0, "fighter": 1}),
    # games opened before 2026-12-02 ("by-class"): the submarine's hit took the destroyer
    # first, leaving the bomber's hit only the fighter; kept so their logs replay as played
    ("by-class", "1 fig, 1 des", {"submarine": 1, "fighter": 0}),
])  # fmt: skip
def test_a10_14_default_casualties_lose_the_earliest_units_the_hits_allow(
        rule: str, lost: str, kept: dict[str, int]) -> None:
    """A-10.6: the attacking submarine's hit may not take the fighter, the bomber's (no
    attacking destroyer) not the submarine.  Order of loss: des, sub, fig, car."""
    s = attack(attack(empty(casualties=rule), G, "submarine", "2 Sea Zone", 1, "3 Sea Zone"), G, "bomber",
               "2 Sea Zone", 1, "3 Sea Zone")
    s = add(add(add(s, UK, "destroyer", "2 Sea Zone"), UK, "submarine", "2 Sea Zone"), UK, "carrier", "2 Sea Zone")
    s = add(s, UK, "fighter", "2 Sea Zone", aboard=ids(s, UK, "carrier", "2 Sea Zone")[0])
    s, _ = play(s, UK, "ool defense des, sub, fig, car", "auto on")
    s, _ = play(combat(s), G, "battle 2 Sea Zone")
    # the British submarine's strike misses; both German shots hit; the defence misses
    s, events = play(s, UK, "submerge 0", dice=[6, 1, 1, 6, 6, 6])
    assert rolls(events)[1:3] == [("attacker", "bomber", 4, (1,), 1), ("attacker", "submarine", 2, (1,), 1)]
    assert [e.units for e in events if isinstance(e, Lost)] == [lost]
    assert {k: len(ids(s, UK, k, "2 Sea Zone")) for k in kept} == kept


def test_a10_14_the_casualty_rule_is_kept_in_the_snapshot_only_where_it_is_new() -> None:
    from engine.aa.codec import dump_state, load_state

    old, new = empty(), empty(casualties="earliest")
    assert old.options.casualties == "by-class" and "casualties" not in dump_state(old)["options"]
    assert dump_state(new)["options"]["casualties"] == "earliest"
    assert load_state(dump_state(new)).options == new.options and load_state(dump_state(old)).options == old.options
    with pytest.raises(UnknownName, match="casualty rule"):
        empty(casualties="cheapest")
    # A snapshot naming no rule of ours is refused, not loaded with a rule nobody plays.
    bad = dump_state(new)
    bad["options"]["casualties"] = "cheapest"
    with pytest.raises(DataError, match="Bad A&A snapshot"):
        load_state(bad)
