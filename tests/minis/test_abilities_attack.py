"""Attack and defense abilities, with real card values: Close Assault, Blast (M-9.5,
M-12.7), Bombardment, Indirect Fire, Fixed Howitzer, Open Back, Enhanced/Extended/Limited
Range, Armor-Piercing Rounds, Superior Armor, Heavy Armor, Sideskirts, Overheat, Double
Shot, Suppressive Fire, Gung Ho, Forest Camouflage, All Guns Blazing, Seasoned Crew,
Ruthless, Urban Combat, Shrapnel, Inaccurate, Hull-Mounted Flamethrower, Tall Silhouette,
Additional Hull-Mounted Cannon, Highly Flammable, Overlapping Fire."""

from __future__ import annotations

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import IllegalOrder
from engine.minis.attacks import place_counters
from engine.minis.catalogue import load_catalogue
from engine.minis.casualty import casualty_phase
from engine.minis.events import (
    Attacked, CoverRoll, DefensiveFireEvent, HeavyArmorIgnored, UnitDestroyed, UnitDisrupted,
)
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, Phase

from .helpers import ascii_map, battle, hx, make_card, of_type, open_map, play

CAT = load_catalogue()
C = CAT.__getitem__

def assault(placements: list, active: str = AXIS, **kw: object) -> object:
    return battle(kw.pop("m", open_map(14, 12)), placements, phase=Phase.ASSAULT, active=active, **kw)  # type: ignore[arg-type]


def with_terrain(**where: str) -> object:
    """A 14 × 12 open map with these hexes changed: forest=["E3"], town=["E5"] …"""
    from engine.minis.model import BattleMap, Terrain
    terrain = {hx(label): Terrain(kind) for kind, labels in where.items() for label in labels.split()}
    return BattleMap("t", 14, 12, terrain)


def attacks(events: tuple) -> list[Attacked]:
    return of_type(events, Attacked)


# --------------------------------------------------------------------------- close combat


def test_close_assault_rolls_its_number_against_a_vehicle_in_its_hex_and_ignores_cover() -> None:
    s = assault([("al1", C("bazooka"), "E3"), ("ax1", C("tiger-i"), "E3", "N")], active=ALLIES,
                m=with_terrain(forest="E3"))
    _, events = play(s, ALLIES, "attack al1 ax1", [6] * 10)
    (a,) = attacks(events)
    assert len(a.dice) == 10 and a.special == ("Close Assault",) and not of_type(events, CoverRoll)


def test_sideskirts_add_1_against_units_with_close_assault_even_at_range() -> None:
    s = assault([("al1", C("bazooka"), "E8"), ("ax1", C("panzer-iv-ausf-g"), "E7", "N")], active=ALLIES)
    _, events = play(s, ALLIES, "attack al1 ax1", [1] * 9)
    assert attacks(events)[0].defense == 3 + 1  # rear 3, +1 Sideskirts


# --------------------------------------------------------------------------- artillery


def test_blast_m9_5_attacks_every_unit_in_the_hex_friends_included_each_with_its_own_cover() -> None:
    # The sIG 33 (Blast, Bombardment: no cover rolls at all) fires into E5 (town): two
    # enemies and a friendly rifleman; three separate attacks, target first.
    s = assault([("ax1", C("sig-33"), "E9", "N"), ("al1", C("m1-garand-rifle"), "E5"),
                 ("al2", C("bazooka"), "E5"), ("ax2", C("mauser-kar-98k"), "E5")], stacking=3,
                m=with_terrain(town="E5"))
    s, events = play(s, AXIS, "attack ax1 al2", [6] * 9 + [1] * 9 + [6] * 4 + [1] * 5)
    assert [(a.target, a.successes, a.counters) for a in attacks(events)] == [
        ("al2", 9, ("disrupted", "destroyed")), ("al1", 0, ()), ("ax2", 4, ("disrupted",))]
    assert not of_type(events, CoverRoll)
    assert s.unit("ax2").hits == (Hit.DISRUPTED,)  # M-9.5: friendly hits accumulate too


def test_blast_m12_7_on_defensive_fire_disrupts_the_others_in_the_hex_but_stops_only_the_mover() -> None:
    # The Sherman drives from D4 into E4, where a Garand stands, past the sIG 33 in E5
    # (facing north: only E4 is in its front arc, so it can fire only at the entering hex).
    s = battle(open_map(), [("ax1", C("sig-33"), "E5", "N"), ("al1", C("m4a1-sherman"), "D4", "N"),
                            ("al2", C("m1-garand-rifle"), "E4")], active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 E4")
    assert pending(s)[0].choices == ("fire ax1 entering", "hold")
    s, events = play(s, AXIS, "hold")
    s, events = play(s, AXIS, "fire ax1 entering", [6] * 8 + [6] * 9)  # Sherman: 8 dice, Garand: 9
    assert [a.target for a in attacks(events)] == ["al1", "al2"]
    assert s.unit("al1").disrupted and s.unit("al2").disrupted and s.unit("al1").hex == hx("E4")
    assert of_type(events, DefensiveFireEvent)[0].stopped


def test_fixed_howitzer_only_fires_into_its_front_arc() -> None:
    s = assault([("ax1", C("sig-33"), "E9", "N"), ("al1", C("m1-garand-rifle"), "E12")])
    with pytest.raises(IllegalOrder, match="front arc"):
        play(s, AXIS, "attack ax1 al1")


def test_open_back_lets_attackers_use_their_anti_soldier_dice_against_its_rear() -> None:
    s = assault([("ax1", C("sig-33"), "E9", "N"), ("al1", C("m1-garand-rifle"), "E10")], active=ALLIES)
    _, events = play(s, ALLIES, "attack al1 ax1", [1] * 8)
    assert len(attacks(events)[0].dice) == 8 and "Open Back" in attacks(events)[0].special
    front = assault([("ax1", C("sig-33"), "E9", "N"), ("al1", C("m1-garand-rifle"), "E8")], active=ALLIES)
    _, events = play(front, ALLIES, "attack al1 ax1", [1] * 2)
    assert len(attacks(events)[0].dice) == 2


def test_enhanced_range_reaches_16_hexes_for_every_target() -> None:
    s = assault([("ax1", C("hummel"), "A6", "SE"), ("al1", C("m1-garand-rifle"), "L12")],
                m=open_map(14, 12))
    assert hx("A6").distance(hx("L12")) == 12
    _, events = play(s, AXIS, "attack ax1 al1", [1] * 9)
    assert attacks(events)[0].band == "long"


def test_extended_range_reaches_10_hexes_against_vehicles_only() -> None:
    s = assault([("ax1", C("panzer-iv-ausf-g"), "A1", "SE"), ("al1", C("m4a1-sherman"), "J6"),
                 ("al2", C("m1-garand-rifle"), "J5")], m=open_map(14, 12))
    assert hx("A1").distance(hx("J6")) == 10 and hx("A1").distance(hx("J5")) == 9
    _, events = play(s, AXIS, "attack ax1 al1", [1] * 11)
    assert attacks(events)[0].band == "long"
    with pytest.raises(IllegalOrder, match="beyond its range 8"):
        play(s, AXIS, "attack ax1 al2")


def test_indirect_fire_needs_a_friendly_spotter_that_sees_the_soldier() -> None:
    m = ascii_map("""
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . H . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    """)
    # The 3-inch mortar in E1 cannot see E7 past the hill E4.
    base = [("al1", C("3-inch-mortar"), "E1"), ("ax1", C("mauser-kar-98k"), "E7")]
    alone = assault(base, active=ALLIES, m=m)
    with pytest.raises(IllegalOrder, match="no line of sight"):
        play(alone, ALLIES, "attack al1 ax1")
    spotted = assault(base + [("al2", C("m1-garand-rifle"), "H7")], active=ALLIES, m=m)
    _, events = play(spotted, ALLIES, "attack al1 ax1", [1] * 8)
    (a,) = attacks(events)
    assert a.indirect == "al2" and "Indirect Fire" in a.special


def test_indirect_fire_is_for_soldier_targets_only() -> None:
    m = ascii_map("""
    . . . . . . .
    . . . . . . .
    . . . . H . .
    . . . . . . .
    . . . . . . .
    """)
    s = assault([("ax1", C("hummel"), "E1", "S"), ("al1", C("m4a1-sherman"), "E5"), ("ax2", C("mauser-kar-98k"), "F5")],
                m=m)
    with pytest.raises(IllegalOrder, match="no line of sight"):
        play(s, AXIS, "attack ax1 al1")


def test_bombardment_allows_no_cover_roll() -> None:
    s = assault([("ax1", C("sig-33"), "E9", "N"), ("al1", C("m1-garand-rifle"), "E5")], m=with_terrain(town="E5"))
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 9)
    assert attacks(events)[0].counters == ("disrupted", "destroyed") and not of_type(events, CoverRoll)


# --------------------------------------------------------------------------- armour


def test_superior_armor_needs_defense_plus_2_for_a_second_hit() -> None:
    s = assault([("ax1", C("tiger-i"), "E6", "N"), ("al1", C("t-34-76"), "E5", "S")])
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 11)  # 6 vs 5
    assert attacks(events)[0].hits == 1
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 7 + [1] * 10)  # 7 vs 5
    assert attacks(events)[0].hits == 2


def test_armor_piercing_rounds_turn_two_hits_into_three_once_per_game() -> None:
    s = assault([("al1", C("m4a3e8-sherman-easy-eight"), "E6", "N"), ("ax1", C("panzer-iv-ausf-g"), "E5", "N")],
                active=ALLIES)
    s2, events = play(s, ALLIES, "attack al1 ax1 ap", [6] * 4 + [1] * 10)  # 4 vs rear 3: two hits
    (a,) = attacks(events)
    assert a.hits == 3 and a.counters == ("disrupted", "damaged", "destroyed")
    assert "Armor-Piercing Rounds" in a.special
    assert "al1:Armor-Piercing Rounds" in s2.used_once
    with pytest.raises(IllegalOrder, match="once per game"):
        play(s2.with_flags(acted=frozenset(), activation=None), ALLIES, "attack al1 ax1 ap")
    with pytest.raises(IllegalOrder, match="no Armor-Piercing"):
        play(assault([("al1", C("m4a1-sherman"), "E6", "N"), ("ax1", C("panzer-iv-ausf-g"), "E5", "N")],
                     active=ALLIES), ALLIES, "attack al1 ax1 ap")


def test_heavy_armor_refuses_its_first_damaged_counter_so_the_next_hit_damages() -> None:
    """Heavy Armor ruling (docs/rules/minis.md, M-9.1): the first Damaged counter is not
    received, so the next hit gives Damaged again: 3 hits on a fresh KV-1 leave it
    disrupted and damaged, not destroyed; the ability works once per game."""
    s = battle(open_map(), [("ax1", C("m4a1-sherman"), "E5", "N"), ("al1", C("kv-1"), "J9")])
    s, placed, events = place_counters(s, s.unit("al1"), 3, covered=False, destroy=False,
                                       dice=scripted_dice([]))
    assert placed == (Hit.DISRUPTED, Hit.DAMAGED)
    assert of_type(events, HeavyArmorIgnored) == [HeavyArmorIgnored("al1")]
    s, cas = casualty_phase(s)
    assert cas.destroyed == () and cas.damaged == ("al1",) and cas.disrupted == ("al1",)
    assert s.unit("al1").damaged and s.unit("al1").disrupted and not s.unit("al1").destroyed
    # Used up: two more hits on the damaged KV-1 (M-9.1: Disrupted, then Destroyed).
    s = s.update_unit("al1", damaged=False, disrupted=False)
    s, placed, events = place_counters(s, s.unit("al1"), 3, covered=False, destroy=False,
                                       dice=scripted_dice([]))
    assert placed == (Hit.DISRUPTED, Hit.DAMAGED, Hit.DESTROYED) and not of_type(events, HeavyArmorIgnored)


def test_highly_flammable_rolls_3_or_more_to_burn_on_a_damaged_counter() -> None:
    s = assault([("al1", C("m4a1-sherman"), "E6", "N"), ("ax1", C("carro-armato-m13-40"), "E5", "N")],
                active=ALLIES)
    _, events = play(s, ALLIES, "attack al1 ax1", [6] * 4 + [1] * 9 + [3])  # 4 vs rear 3: two hits
    assert attacks(events)[0].counters == ("disrupted", "destroyed")
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("ax1", "Highly Flammable")]
    _, events = play(s, ALLIES, "attack al1 ax1", [6] * 4 + [1] * 9 + [2])
    assert attacks(events)[0].counters == ("disrupted", "damaged")


def test_tall_silhouette_always_fails_cover_without_a_roll() -> None:
    s = assault([("ax1", C("panzer-iv-ausf-g"), "E4", "N"), ("al1", C("m3-lee"), "E3", "S")],
                m=with_terrain(forest="E3"))
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 9)
    assert of_type(events, CoverRoll) == [CoverRoll("al1", None, 0, 5, False, "Tall Silhouette")]


def test_forest_camouflage_passes_cover_automatically_at_long_range_only() -> None:
    s = assault([("al1", C("m4a1-sherman"), "E9", "N"), ("ax1", C("type-95-ha-go"), "E3", "S")], active=ALLIES,
                m=with_terrain(forest="E3"))
    _, events = play(s, ALLIES, "attack al1 ax1", [6] * 4 + [1] * 5)  # 6 hexes: long, 9 dice
    assert of_type(events, CoverRoll) == [CoverRoll("ax1", None, 0, 5, True, "Forest Camouflage")]
    near = assault([("al1", C("m4a1-sherman"), "E6", "N"), ("ax1", C("type-95-ha-go"), "E3", "S")], active=ALLIES,
                   m=with_terrain(forest="E3"))
    _, events = play(near, ALLIES, "attack al1 ax1", [6] * 4 + [1] * 7 + [4])  # medium: a real roll
    assert of_type(events, CoverRoll)[0].die == 4


def test_m14_3_bombardment_beats_forest_camouflage() -> None:
    s = assault([("ax1", C("hummel"), "E11", "N"), ("al1", make_card("camo-tank", side=ALLIES, vehicle=True,
                                                                    defense=(2, 2), abilities=["Forest Camouflage"]),
                                                      "E3")], m=with_terrain(forest="E3"))
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 9)
    assert not of_type(events, CoverRoll) and attacks(events)[0].counters[-1] == "destroyed"


# --------------------------------------------------------------------------- dice modifiers


def test_seasoned_crew_gives_the_target_minus_1_on_cover() -> None:
    s = assault([("ax1", C("pak-38-antitank-gun"), "E6"), ("al1", C("m4a1-sherman"), "E5", "S")],
                m=with_terrain(town="E5"))
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 6 + [1] * 5 + [5])
    assert of_type(events, CoverRoll) == [CoverRoll("al1", 5, -1, 5, False)]


def test_urban_combat_adds_1_to_cover_in_town() -> None:
    street = make_card("street-fighters", side=ALLIES, abilities=["Urban Combat"])
    s = assault([("ax1", C("mauser-kar-98k"), "E6"), ("al1", street, "E5")], m=with_terrain(town="E5"))
    _, events = play(s, AXIS, "attack ax1 al1", [6] * 5 + [1] * 3 + [3])
    assert of_type(events, CoverRoll) == [CoverRoll("al1", 3, 1, 4, True)]


def test_ruthless_adds_1_against_disrupted_or_damaged_targets() -> None:
    """M-14.2: an "each attack die" modifier is added to every die (3s become successes)."""
    s = assault([("ax1", C("ss-panzergrenadier"), "E6"), ("al1", C("m1-garand-rifle"), "E7")],
                al1={"disrupted": True})
    _, events = play(s, AXIS, "attack ax1 al1", [3] * 10)
    a = attacks(events)[0]
    assert a.modifier == 1 and a.successes == 10 and a.defense == 3


def test_inaccurate_and_shrapnel() -> None:
    s = assault([("ax1", C("type-89-mortar"), "E1"), ("al1", C("m1-garand-rifle"), "E4")])
    _, events = play(s, AXIS, "attack ax1 al1", [5, 5, 4, 4, 1, 1, 1])  # medium: 7 dice, −1 each
    a = attacks(events)[0]
    assert a.modifier == -1 and a.successes == 2 * 2 and a.hits == 1 and "Shrapnel" in a.special


def test_limited_range_2() -> None:
    s = assault([("al1", C("thompson-gunner"), "E4"), ("ax1", C("mauser-kar-98k"), "E7")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="Limited Range 2"):
        play(s, ALLIES, "attack al1 ax1")


# --------------------------------------------------------------------------- several attacks


def test_double_shot_attacks_twice_in_the_assault_phase() -> None:
    s = assault([("al1", C("vickers-machine-gun-team"), "E6"), ("ax1", C("mauser-kar-98k"), "E7"),
                 ("ax2", C("mauser-kar-98k"), "F7")], active=ALLIES)
    s, _ = play(s, ALLIES, "attack al1 ax1", [1] * 9)
    s, _ = play(s, ALLIES, "attack al1 ax2", [1] * 8)
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s, ALLIES, "attack al1 ax1")


def test_extra_attacks_are_lost_when_another_unit_acts() -> None:
    s = assault([("al1", C("vickers-machine-gun-team"), "E6"), ("al2", C("m1-garand-rifle"), "D6"),
                 ("ax1", C("mauser-kar-98k"), "E7")], active=ALLIES)
    s, _ = play(s, ALLIES, "attack al1 ax1", [1] * 9)
    s, _ = play(s, ALLIES, "attack al2 ax1", [1] * 8)
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s, ALLIES, "attack al1 ax1")


def test_double_shot_on_defensive_fire_rolls_two_attacks_at_the_mover() -> None:
    s = battle(open_map(), [("ax1", C("mg-42-machine-gun-team"), "E5"), ("al1", C("m1-garand-rifle"), "E4")],
               active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 F4")
    s, events = play(s, AXIS, "fire ax1 leaving", [1] * 10 + [6] * 4 + [1] * 6)
    assert [a.successes for a in attacks(events)] == [0, 4] and s.unit("al1").disrupted


def test_double_shot_on_defensive_fire_stops_once_overheat_disrupts_the_gun() -> None:
    # The Kuomintang MG Team's first shot rolls eight 1s: no success, and three natural
    # 1s or more disrupt it (Overheat); a disrupted unit cannot fire defensively (M-8.1,
    # M-12.2), so its second shot is not rolled and the mover goes on.
    s = battle(open_map(), [("al1", C("kuomintang-mg-team"), "E5"), ("ax1", C("mauser-kar-98k"), "E4")])
    s, _ = play(s, AXIS, "move ax1 F4")
    s, events = play(s, ALLIES, "fire al1 leaving", [1] * 8)  # exactly one shot's dice
    assert [a.successes for a in attacks(events)] == [0]
    assert s.unit("al1").disrupted and not s.unit("ax1").disrupted


def test_suppressive_fire_fires_defensively_any_number_of_times() -> None:
    s = battle(open_map(), [("ax1", C("mg-42-machine-gun-team"), "E5"), ("al1", C("m1-garand-rifle"), "E4"),
                            ("al2", C("m1-garand-rifle"), "D5")], active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 F4")
    s, _ = play(s, AXIS, "fire ax1 leaving", [1] * 20)
    s, _ = play(s, ALLIES, "move al2 D4")
    assert pending(s)[0].choices[0] == "fire ax1 leaving"


def test_gung_ho_adds_1_on_defensive_fire_only() -> None:
    s = battle(open_map(), [("al1", C("thompson-gunner"), "E5"), ("ax1", C("mauser-kar-98k"), "E4")])
    s, _ = play(s, AXIS, "move ax1 F4")
    s, events = play(s, ALLIES, "fire al1 leaving", [3] * 10)
    a = attacks(events)[0]
    assert a.modifier == 1 and a.successes == 10


def test_all_guns_blazing_one_more_attack_against_a_soldier_after_attacking() -> None:
    s = assault([("al1", C("m3-stuart"), "E6", "N"), ("ax1", C("panzer-iv-ausf-g"), "E5", "S"),
                 ("ax2", C("mauser-kar-98k"), "F6")], active=ALLIES)
    s, _ = play(s, ALLIES, "attack al1 ax1", [1] * 9)
    with pytest.raises(IllegalOrder, match="no attack left"):
        play(s, ALLIES, "attack al1 ax1")  # the extra attack is against a Soldier
    s, events = play(s, ALLIES, "attack al1 ax2", [1] * 8)
    assert attacks(events)[0].kind == "guns"


def test_additional_hull_mounted_cannon_fires_12_10_8_at_a_vehicle_in_front() -> None:
    s = assault([("al1", C("m3-lee"), "E7", "N"), ("ax1", C("panzer-iv-ausf-g"), "E4", "S"),
                 ("ax2", C("panzer-iv-ausf-g"), "H9", "S"), ("ax3", C("mauser-kar-98k"), "E6")], active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1 cannon", [1] * 10)  # 3 hexes: medium, 10 dice
    assert attacks(events)[0].kind == "cannon" and len(attacks(events)[0].dice) == 10
    s, events = play(s, ALLIES, "attack al1 ax1", [1] * 7)  # and its normal attack
    with pytest.raises(IllegalOrder):
        play(s, ALLIES, "attack al1 ax1 cannon")
    other = assault([("al1", C("m3-lee"), "E7", "N"), ("ax2", C("panzer-iv-ausf-g"), "H9", "S"),
                     ("ax3", C("mauser-kar-98k"), "E6")], active=ALLIES)
    with pytest.raises(IllegalOrder, match="front arc"):
        play(other, ALLIES, "attack al1 ax2 cannon")
    with pytest.raises(IllegalOrder, match="only fires at Vehicles, and ax3 Mauser Kar 98k is not one"):
        play(other, ALLIES, "attack al1 ax3 cannon")


def test_cannon_true_on_a_unit_without_a_cannon_says_so_and_names_the_plain_attack() -> None:
    """Issue 9: it used to say "no attack left" and offer the attack it refused."""
    s = assault([("al1", C("m4a1-sherman"), "E7", "N"), ("ax1", C("panzer-iv-ausf-g"), "E5", "S")], active=ALLIES)
    with pytest.raises(IllegalOrder) as refused:
        play(s, ALLIES, "attack al1 ax1 cannon")
    assert refused.value.message == ("al1 M4A1 Sherman has no Additional Hull-Mounted Cannon, so cannon:true "
                                     "does not apply to it; attack without it.")
    assert refused.value.legal == ("attack al1 ax1",)


def test_hull_mounted_flamethrower_ignores_cover_at_short_range_and_three_sixes_destroy() -> None:
    s = assault([("al1", C("churchill-crocodile"), "E4", "N"), ("ax1", C("mauser-kar-98k"), "E3")], active=ALLIES,
                m=with_terrain(forest="E3"))
    _, events = play(s, ALLIES, "attack al1 ax1", [6, 6, 6] + [1] * 7)  # forest, short range
    a = attacks(events)[0]
    assert not of_type(events, CoverRoll) and a.counters == ("destroyed",) and "Hull-Mounted Flamethrower" in a.special


def test_hull_mounted_flamethrower_on_defensive_fire_destroys_at_once() -> None:
    s = battle(open_map(), [("al1", C("churchill-crocodile"), "E5", "N"), ("ax1", C("panzer-iv-ausf-g"), "E4", "N")])
    s, _ = play(s, AXIS, "move ax1 F4")
    s, events = play(s, ALLIES, "fire al1 leaving", [6, 6, 6] + [1] * 10)
    assert s.unit("ax1").destroyed and of_type(events, UnitDestroyed)[0].reason == "Hull-Mounted Flamethrower"
    assert s.move is None


def test_overheat_three_ones_disrupt_it_for_two_casualty_phases() -> None:
    s = assault([("al1", C("kuomintang-mg-team"), "E6"), ("ax1", C("mauser-kar-98k"), "E7")], active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [1, 1, 1, 6, 6, 2, 2, 2])
    assert of_type(events, UnitDisrupted) == [UnitDisrupted("al1", "Overheat")]
    assert s.unit("al1").disrupted and "al1" in s.overheated
    s, _ = casualty_phase(s)
    assert s.unit("al1").disrupted  # survives the next casualty phase
    s, _ = casualty_phase(s)
    assert not s.unit("al1").disrupted


def test_overlapping_fire_lets_a_vehicle_fire_defensively_at_soldiers() -> None:
    s = battle(open_map(), [("ax1", C("carro-armato-m13-40"), "E5", "N"), ("al1", C("m1-garand-rifle"), "E4")],
               active=ALLIES)
    s, _ = play(s, ALLIES, "move al1 F4")
    assert pending(s)[0].player == AXIS


from engine.minis.game import pending  # noqa: E402
