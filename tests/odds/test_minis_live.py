"""``/odds minis`` from a live game: the MinisAttack derived from a real battle state,
field by field, and the odds it gives against the engine's own resolution."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction as F

import pytest

from engine.core.errors import IllegalOrder, UnknownName
from engine.minis.catalogue import load_catalogue
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, MinisState, Phase
from engine.odds.minis import SOLDIER, VEHICLE, MinisAttack, minis_odds
from engine.odds.minis_game import attack_from_game, live_attack
from engine.odds.report import minis_live_lines
from tests.minis.helpers import (
    COMMISSAR, GARAND, HAUPTSTURM, KAR98, MG42, PAK38, PANZER, RED_DEVIL, SHERMAN, ascii_map, battle,
    play,
)  # fmt: skip

CARDS = load_catalogue()
MORTAR = CARDS["type-89-mortar"]  # Inaccurate 1, Shrapnel 2, Seasoned Crew
HA_GO = CARDS["type-95-ha-go"]  # Forest Camouflage
LEE = CARDS["m3-lee"]  # Tall Silhouette
SIG33 = CARDS["sig-33"]  # Blast, Bombardment, Fixed Howitzer
CROCODILE = CARDS["churchill-crocodile"]  # Hull-Mounted Flamethrower, Superior Armor 2
M13 = CARDS["carro-armato-m13-40"]  # Highly Flammable
EASY_EIGHT = CARDS["m4a3e8-sherman-easy-eight"]  # Armor-Piercing Rounds, Superior Armor 2
T34 = CARDS["t-34-76"]  # Superior Armor 2
TIGER = CARDS["tiger-i"]  # Heavy Armor
THOMPSON = CARDS["thompson-gunner"]  # Gung Ho, Limited Range 2
HUMMEL = CARDS["hummel"]  # Indirect Fire, Bombardment, Blast

# F3 forest, F5 town, L5 marsh; F5 blocks F7 -> F3.
MAP = ascii_map("""
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . F . . . . . .
. . . . . . . . . . . .
. . . . . T . . . . . M
. . . . . . . . . . . .
. . . . . . . . . . . .
""")


def assault(placements: list, **kw: object) -> MinisState:  # type: ignore[type-arg]
    return battle(MAP, placements, phase=Phase.ASSAULT, extra_cards=CARDS.values(), **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- field by field


def test_m7_9_rear_arc_uses_rear_defense_and_m7_3_band_dice() -> None:
    # Panzer in D4 facing N; the Sherman 3 hexes south of it is in its rear arc.
    s = assault([("ax1", PANZER, "D4", "N"), ("al1", SHERMAN, "D7", "N")])
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=11, defense=3, target=VEHICLE)  # medium vs Vehicle, rear 3
    assert (live.front, live.band, live.distance, live.kind) == (False, "medium", 3, "normal")
    # the same Sherman in front of it: front defense 5
    s = assault([("ax1", PANZER, "D4", "N"), ("al1", SHERMAN, "D1", "S")])
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=11, defense=5, target=VEHICLE) and live.front is True


def test_m7_4_damaged_and_disrupted_target_one_penalty_and_its_counter_sequence() -> None:
    s = assault([("ax1", PANZER, "D4", "N"), ("al1", SHERMAN, "D7", "N")],
                ax1={"damaged": True, "disrupted": True})
    assert attack_from_game(s, "al1", "ax1") == MinisAttack(
        dice=11, defense=3, target=VEHICLE, target_penalty=True, target_damaged=True)
    assert minis_odds(attack_from_game(s, "al1", "ax1")).attack.effective_defense == 2


def test_m11_1_cover_in_forest_with_seasoned_crew() -> None:
    # PAK 38 (Seasoned Crew) 4 hexes from a Garand in the forest: medium, 3 dice vs Soldiers.
    s = assault([("ax1", PAK38, "B3"), ("al1", GARAND, "F3")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack == MinisAttack(dice=3, defense=4, target=SOLDIER, cover=4, cover_modifier=-1)
    assert live.cover == "forest, 4+, -1 Seasoned Crew" and "Seasoned Crew" in live.special
    # a Vehicle in town: 5+ (M-11.1), still -1
    s = assault([("ax1", PAK38, "B5"), ("al1", SHERMAN, "F5", "NE")])
    assert attack_from_game(s, "ax1", "al1") == MinisAttack(dice=9, defense=4, cover=5, cover_modifier=-1)


def test_m7_7_marsh_is_cover_for_soldiers_only() -> None:
    s = assault([("ax1", KAR98, "L3"), ("al1", GARAND, "L5")])
    assert attack_from_game(s, "ax1", "al1").cover == 4


def test_m11_4_same_hex_close_assault_ignores_cover_and_meets_sideskirts() -> None:
    # A Garand in the Panzer's forest hex: Close Assault 7, rear defense 3 (same hex,
    # M-7.9) + 1 Sideskirts against Close Assault; no cover roll.
    s = assault([("ax1", PANZER, "F3", "N"), ("al1", GARAND, "F3")])
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=7, defense=4, target=VEHICLE, cover=None)
    assert live.cover == "none: Close Assault ignores cover"
    assert live.defense_parts == ("+1 Sideskirts",) and live.front is False
    # Against a Soldier in the same hex (no Hand to Hand): short-range dice, cover 4+ with -1.
    s = assault([("ax1", KAR98, "F3"), ("al1", GARAND, "F3")])
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=8, defense=4, target=SOLDIER, cover=4, same_hex=True)
    assert minis_odds(live.attack).cover_chance == F(1, 3)


def test_forest_camouflage_passes_at_long_range_only() -> None:
    s = assault([("ax1", HA_GO, "F3", "S"), ("al1", SHERMAN, "A3", "NE")])  # 5 hexes: long
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=9, defense=2, cover=5, cover_automatic=True)
    assert live.cover == "forest, automatic: Forest Camouflage"
    assert minis_odds(live.attack).cover_chance == 1
    s = assault([("ax1", HA_GO, "F3", "S"), ("al1", SHERMAN, "B3", "NE")])  # 4 hexes: medium
    assert attack_from_game(s, "al1", "ax1") == MinisAttack(dice=11, defense=2, cover=5)


def test_tall_silhouette_always_fails_cover_and_bombardment_ignores_it() -> None:
    s = assault([("ax1", PANZER, "B5", "SE"), ("al1", LEE, "F5", "N")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack.cover is None and "Tall Silhouette" in live.cover
    s = assault([("ax1", SIG33, "B3", "SE"), ("al1", GARAND, "F3")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack == MinisAttack(dice=9, defense=4, target=SOLDIER)
    assert live.cover == "none: Bombardment ignores cover"


def test_m7_3_disrupted_attacker_minus_one_once() -> None:
    s = assault([("ax1", KAR98, "D4"), ("al1", GARAND, "D6")], ax1={"disrupted": True})
    live = live_attack(s, "ax1", "al1")
    assert live.attack == MinisAttack(dice=6, defense=4, target=SOLDIER, attacker_penalty=True)
    assert live.modifier_parts == ("-1 disrupted",)
    assert minis_odds(live.attack).die_chance == F(1, 3)
    s = assault([("ax1", PANZER, "D4", "S"), ("al1", SHERMAN, "D7", "N")], ax1={"disrupted": True, "damaged": True})
    assert attack_from_game(s, "ax1", "al1") == MinisAttack(dice=13, defense=5, attacker_penalty=True)


def test_bravery_enforcement_lifts_the_disruption_and_fanatic_target_keeps_its_defense() -> None:
    s = assault([("ax1", HAUPTSTURM, "D4"), ("al1", GARAND, "D5"), ("al2", COMMISSAR, "E5")],
                al1={"disrupted": True}, ax1={"disrupted": True})
    live = live_attack(s, "al1", "ax1")
    # short range 8 dice, +1 Coordinated Fire (a Commander next to it); no -1 on the dice
    # (Bravery Enforcement) and no -1 defense (Fanatic)
    assert live.attack == MinisAttack(dice=9, defense=4, target=SOLDIER)
    assert live.special == ("Coordinated Fire",)
    assert any("Fanatic" in n for n in live.notes)


def test_shrapnel_and_inaccurate_against_a_soldier_not_a_vehicle() -> None:
    s = assault([("ax1", MORTAR, "D2"), ("al1", GARAND, "D5"), ("al2", SHERMAN, "E5", "N")])
    assert attack_from_game(s, "ax1", "al1") == MinisAttack(
        dice=7, defense=4, target=SOLDIER, die_modifier=-1, shrapnel=2)
    assert attack_from_game(s, "ax1", "al2") == MinisAttack(dice=4, defense=5, die_modifier=-1)


def test_pinpointer_next_to_the_attacking_soldier_worsens_cover() -> None:
    s = assault([("al1", GARAND, "D3"), ("al2", RED_DEVIL, "C3"), ("ax1", KAR98, "F3")])
    live = live_attack(s, "al1", "ax1")  # medium 7 dice +1 Coordinated Fire
    assert live.attack == MinisAttack(dice=8, defense=4, target=SOLDIER, cover=4, cover_modifier=-1)
    assert live.special == ("Coordinated Fire", "Pinpointer")


def test_hull_mounted_flamethrower_at_short_range_ignores_cover() -> None:
    s = assault([("al1", CROCODILE, "E3", "NE"), ("ax1", KAR98, "F3")])
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=10, defense=4, target=SOLDIER, flamethrower=True)
    assert live.cover == "none: Hull-Mounted Flamethrower ignores cover"
    s = assault([("al1", CROCODILE, "C3", "NE"), ("ax1", KAR98, "F3")])  # medium: no flame
    assert attack_from_game(s, "al1", "ax1") == MinisAttack(dice=5, defense=4, target=SOLDIER, cover=4)


def test_m9_1_highly_flammable_target_with_a_counter_from_earlier_this_phase() -> None:
    s = assault([("ax1", M13, "D4", "N"), ("al1", SHERMAN, "D7", "N")], ax1={"hits": (Hit.DISRUPTED,)})
    live = live_attack(s, "al1", "ax1")
    assert live.attack == MinisAttack(dice=11, defense=3, highly_flammable=True, prior_counters=("disrupted",))
    assert any("face-down" in n for n in live.notes)


def test_superior_armor_and_armor_piercing_rounds() -> None:
    s = assault([("ax1", T34, "D4", "N"), ("al1", EASY_EIGHT, "D1", "S")])
    assert attack_from_game(s, "al1", "ax1", armor_piercing=True) == MinisAttack(
        dice=12, defense=5, superior_armor=2, armor_piercing=True)
    with pytest.raises(IllegalOrder, match="no Armor-Piercing Rounds"):
        attack_from_game(s, "ax1", "al1", armor_piercing=True)
    used = replace(s, used_once=frozenset({"al1:Armor-Piercing Rounds"}))
    with pytest.raises(IllegalOrder, match="once per game"):
        attack_from_game(used, "al1", "ax1", armor_piercing=True)
    s = assault([("ax1", KAR98, "D4"), ("al1", EASY_EIGHT, "D1", "S")])
    with pytest.raises(IllegalOrder, match="against a Vehicle"):
        attack_from_game(s, "al1", "ax1", armor_piercing=True)


def test_heavy_armor_and_double_shot_are_computed() -> None:
    s = assault([("ax1", TIGER, "D4", "N"), ("al1", SHERMAN, "D7", "N"), ("ax2", MG42, "E6")])
    heavy = live_attack(s, "al1", "ax1")
    assert heavy.attack.heavy_armor and any("Heavy Armor" in n and "counted" in n for n in heavy.notes)
    double = live_attack(s, "ax2", "al1")
    assert double.attack.attacks == 2 and any("Double Shot" in n for n in double.notes)
    used = replace(s, used_once=frozenset({"ax1:Heavy Armor"}))
    assert not live_attack(used, "al1", "ax1").attack.heavy_armor


def test_additional_hull_mounted_cannon_is_its_own_attack() -> None:
    s = assault([("al1", LEE, "D1", "S"), ("ax1", PANZER, "D4", "N")])  # medium, Panzer's front
    assert attack_from_game(s, "al1", "ax1") == MinisAttack(dice=7, defense=5)
    assert any("hull-mounted cannon" in n for n in live_attack(s, "al1", "ax1").notes)
    cannon = live_attack(s, "al1", "ax1", cannon=True)
    assert cannon.kind == "cannon" and cannon.attack == MinisAttack(dice=10, defense=5)
    with pytest.raises(IllegalOrder, match="only fires at Vehicles"):
        live_attack(assault([("al1", LEE, "D1", "S"), ("ax1", KAR98, "D4")]), "al1", "ax1", cannon=True)


def test_indirect_fire_through_a_spotter_without_line_of_sight() -> None:
    # The Hummel in F7 cannot see F3 (the F5 town blocks); the Kar 98k in G3 spots.
    s = assault([("ax1", HUMMEL, "F7", "N"), ("al1", GARAND, "F3"), ("ax2", KAR98, "G3")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack == MinisAttack(dice=10, defense=4, target=SOLDIER)  # Bombardment: no cover
    assert "Indirect Fire: ax2 spots the target." in live.notes


def test_m14_6_blast_attacks_every_other_unit_in_the_hex_separately() -> None:
    s = assault([("ax1", SIG33, "B4", "SE"), ("al1", GARAND, "E5"), ("al2", SHERMAN, "E5", "N")])
    live = live_attack(s, "ax1", "al1")
    assert [b.target for b in live.blast] == ["al2"]
    assert live.blast[0].attack == MinisAttack(dice=6, defense=4)  # medium vs Vehicle; Sherman rear 4


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("placements", "changes", "attacker", "target", "reason"),
    [
        ([("ax1", KAR98, "A1"), ("al1", GARAND, "A7")], {}, "ax1", "al1", "no attack against Soldiers at long range"),
        ([("ax1", PANZER, "A1", "S"), ("al1", SHERMAN, "L7", "N")], {}, "ax1", "al1", "beyond its range"),
        ([("ax1", KAR98, "F7"), ("al1", GARAND, "F3")], {}, "ax1", "al1", "no line of sight (blocked by F5)"),
        ([("ax1", KAR98, "D4"), ("ax2", KAR98, "D5")], {}, "ax1", "ax2", "friendly"),
        ([("ax1", THOMPSON, "D1"), ("al1", GARAND, "D5")], {}, "ax1", "al1", "Limited Range 2"),
        ([("ax1", KAR98, "D4"), ("al1", GARAND, "D5")], {"al1": {"hex": None}}, "ax1", "al1", "not on the map"),
        ([("ax1", SIG33, "D4", "N"), ("al1", GARAND, "D7")], {}, "ax1", "al1", "front arc (Fixed Howitzer)"),
    ],
)  # fmt: skip
def test_m7_impossible_attacks_are_refused_with_the_rules_reason(
    placements: list, changes: dict, attacker: str, target: str, reason: str  # type: ignore[type-arg]
) -> None:
    s = assault(placements, **changes)
    with pytest.raises(IllegalOrder, match="cannot attack") as info:
        live_attack(s, attacker, target)
    assert reason in info.value.message


def test_an_impossible_attack_offers_the_attacks_the_unit_could_make() -> None:
    # M-7: al2 is out of the Kar 98k's line of sight behind F5's block; al1 in range and
    # in sight.  The refusal offers al1 (each offer is an attack the odds answer).
    s = assault([("ax1", KAR98, "F7"), ("al1", GARAND, "F6"), ("al2", GARAND, "F3"), ("ax2", KAR98, "A1")])
    with pytest.raises(IllegalOrder, match="cannot attack") as info:
        live_attack(s, "ax1", "al2")
    assert info.value.legal == ("/odds minis attacker:ax1 target:al1",)
    assert live_attack(s, "ax1", "al1").attack.dice > 0
    # Nothing in reach: no offers.
    lonely = assault([("ax1", KAR98, "F7"), ("al2", GARAND, "F3")])
    with pytest.raises(IllegalOrder) as info:
        live_attack(lonely, "ax1", "al2")
    assert info.value.legal == ()


def test_an_unknown_unit_is_a_player_error() -> None:
    s = assault([("ax1", KAR98, "D4"), ("al1", GARAND, "D5")])
    with pytest.raises(UnknownName):
        live_attack(s, "ax1", "al9")


# --------------------------------------------------------------------------- defensive fire


MOVE_MAP = ascii_map("""
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
""")


def _moving_sherman() -> MinisState:
    """The Sherman moves D1 -> D2 -> D3; its first step provokes the Kar 98k in C2 and
    the move waits for Axis' defensive-fire answer, at the leaving stage (D1)."""
    s = battle(MOVE_MAP, [("al1", SHERMAN, "D1", "N"), ("ax1", KAR98, "C2"), ("ax2", GARAND, "A4")],
               phase=Phase.MOVEMENT, active=ALLIES, first=ALLIES)
    s, _ = play(s, ALLIES, "move al1 D3 via D2")
    assert s.move is not None and s.move.stage == "leaving" and s.move.step == 0
    return s


def test_m12_2_m12_3_defensive_fire_at_the_waiting_mover_in_the_leaving_or_entering_hex() -> None:
    s = _moving_sherman()
    live = live_attack(s, "ax1", "al1", defensive=True)
    # Facing D2 (M-12.3), C2 is in the Sherman's rear arc: defense 4; the Kar 98k has
    # 2 dice against Vehicles at short range (Close Assault is for its own hex only).
    assert (live.where, live.target_hex, live.front) == ("leaving", "D1", False)
    assert live.attack == MinisAttack(dice=2, defense=4, defensive_fire=True)
    entering = live_attack(s, "ax1", "al1", defensive=True, where="entering")
    assert (entering.where, entering.target_hex) == ("entering", "D2")
    assert entering.attack == live.attack
    text = "\n".join(minis_live_lines(entering, minis_odds(entering.attack)))
    assert "ax1 Kar 98K (C2) defensive fire at al1 M4A1 Sherman (D2, entering hex)" in text


def test_m12_2_once_the_mover_entered_it_is_attacked_there_only() -> None:
    s, _ = play(_moving_sherman(), AXIS, "hold")  # no fire at D1: the Sherman enters D2
    assert s.move is not None and s.move.stage == "entering"
    assert live_attack(s, "ax1", "al1", defensive=True).target_hex == "D2"
    with pytest.raises(IllegalOrder, match="already entered D2"):
        live_attack(s, "ax1", "al1", defensive=True, where="leaving")


def test_m12_2_defensive_fire_refusals() -> None:
    s = _moving_sherman()
    with pytest.raises(IllegalOrder, match="range 0 or 1"):
        live_attack(s, "ax2", "al1", defensive=True)
    with pytest.raises(IllegalOrder, match="disrupted unit cannot make defensive fire"):
        live_attack(s.update_unit("ax1", disrupted=True), "ax1", "al1", defensive=True)
    with pytest.raises(IllegalOrder, match="is for defensive fire"):
        live_attack(s, "ax1", "al1", where="leaving")
    with pytest.raises(IllegalOrder, match="ax2 is not moving"):
        live_attack(s, "al1", "ax2", defensive=True, where="leaving")
    v = assault([("ax1", PANZER, "D4", "N"), ("al1", GARAND, "D5")])
    with pytest.raises(IllegalOrder, match="Soldiers never provoke"):
        live_attack(v, "ax1", "al1", defensive=True)
    with pytest.raises(IllegalOrder, match="not with defensive fire"):
        live_attack(assault([("ax1", T34, "D4", "N"), ("al1", EASY_EIGHT, "D5", "N")]), "al1", "ax1",
                    defensive=True, armor_piercing=True)


def test_gung_ho_on_defensive_fire_only() -> None:
    s = assault([("al1", THOMPSON, "D4"), ("ax1", KAR98, "D5")])
    assert attack_from_game(s, "al1", "ax1").die_modifier == 0
    assert attack_from_game(s, "al1", "ax1", defensive=True) == MinisAttack(
        dice=10, defense=4, target=SOLDIER, die_modifier=1, defensive_fire=True)


# --------------------------------------------------------------------------- the odds


def test_live_odds_equal_the_odds_from_the_numbers_by_hand() -> None:
    # Disrupted PAK 38 at B5 shoots the Sherman in the F5 town, 4 hexes: medium, 9 dice,
    # -1 each die (disrupted): a die succeeds on 5+ (1/3).  Sherman facing N, so B5 is
    # in its rear arc: defense 4.  Cover 5+ with Seasoned Crew -1 on the roll: a 6 (1/6).
    s = assault([("ax1", PAK38, "B5"), ("al1", SHERMAN, "F5", "N")], ax1={"disrupted": True})
    live_odds = minis_odds(attack_from_game(s, "ax1", "al1"))
    numbers = minis_odds(MinisAttack(dice=9, defense=4, attacker_penalty=True, cover=5, cover_modifier=-1))
    assert live_odds.hits == numbers.hits and live_odds.counters == numbers.counters

    def k(n: int) -> F:  # P(exactly n successes)
        return math.comb(9, n) * F(1, 3) ** n * F(2, 3) ** (9 - n)

    cover = F(1, 6)
    assert live_odds.hits[0] == sum(k(n) for n in range(4))
    assert live_odds.hits[1] == k(4) + cover * sum(k(n) for n in range(5, 10))
    assert live_odds.hits[2] == (1 - cover) * sum(k(n) for n in range(5, 8))
    assert live_odds.hits[3] == (1 - cover) * sum(k(n) for n in range(8, 10))
    assert live_odds.counters["damaged"] == live_odds.hits[2]


def test_the_answer_names_the_units_and_every_derived_number() -> None:
    s = assault([("ax1", PAK38, "B5"), ("al1", SHERMAN, "F5", "N")], ax1={"disrupted": True})
    live = live_attack(s, "ax1", "al1")
    text = "\n".join(minis_live_lines(live, minis_odds(live.attack)))
    assert "ax1 Pak 38 (B5) attacks al1 M4A1 Sherman (F5): 4 hexes, medium range" in text
    assert "9 dice, die modifier -1 (-1 disrupted): each succeeds 33.3%" in text
    assert "defense 5 front / 4 rear, rear arc: 4" in text
    assert "cover: town, 5+, -1 Seasoned Crew (succeeds 16.7%)" in text

