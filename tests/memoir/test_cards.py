"""E-5 section cards, E-6 tactic cards, E-7 hands, draws and the deck."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import IllegalOrder
from engine.memoir.board import parse_hex
from engine.memoir.legal import pending
from engine.memoir.tables import card_kinds, full_deck, kind_of

from .helpers import at, do, figures, game, kinds, rolls, run, scenario, types

HAND = ["probe-left", "probe-centre", "probe-right"]


def allies_turn(units: str, card: str, hand: tuple[str, ...] = (), **kw: object):  # type: ignore[no-untyped-def]
    sc = scenario(units, **kw)  # type: ignore[arg-type]
    return game(sc, allies=[card, *hand] if hand else [card, *HAND], axis=["attack-centre"] * 4,
                deck=["attack-left", "attack-right", "recon-left", "recon-right"])


def declared(events: list) -> list[tuple[str, str, int]]:  # type: ignore[type-arg]
    return [(e.attacker, e.target, e.dice) for e in events if type(e).__name__ == "BattleDeclared"]


# --------------------------------------------------------------------------- the deck


def test_e5_e6_the_deck_has_60_cards_40_section_20_tactic() -> None:
    deck = full_deck()
    assert len(deck) == 60 and len(set(deck)) == 60
    by_kind = Counter(kind_of(c) for c in deck)
    section = sum(n for k, n in by_kind.items() if card_kinds()[k].type == "section")
    assert (section, 60 - section) == (40, 20)
    assert (by_kind["probe-left"], by_kind["probe-centre"], by_kind["probe-right"]) == (4, 5, 4)
    assert (by_kind["attack-left"], by_kind["attack-centre"], by_kind["attack-right"]) == (3, 4, 3)
    assert by_kind["recon-in-force"] == 3 and by_kind["general-advance"] == 1 and by_kind["pincer-move"] == 1
    tactic = {k: n for k, n in by_kind.items() if card_kinds()[k].type == "tactic"}
    assert len(tactic) == 15
    assert {k for k, n in tactic.items() if n == 2} == {"armor-assault", "counter-attack", "direct-from-hq",
                                                         "infantry-assault", "move-out"}


# --------------------------------------------------------------------------- E-5 section cards


def test_e5_probe_orders_up_to_two_units_in_its_section_straddling_hexes_count() -> None:
    units = "allies infantry B7, allies infantry C8, allies infantry D8, allies infantry G7, axis infantry G1"
    st = run(allies_turn(units, "probe-left"), "allies", "play probe-left")
    with pytest.raises(IllegalOrder, match="section"):
        do(st, "allies", "order B7 C8 D8")
    with pytest.raises(IllegalOrder, match="cannot be ordered"):
        do(st, "allies", "order G7")
    ok, ev = do(st, "allies", "order B7 D8")  # D8 straddles Left and Centre
    assert ev[0].to_dict()["units"] == ["B7", "D8"]
    st2 = run(allies_turn(units, "probe-centre"), "allies", "play probe-centre")
    do(st2, "allies", "order D8 G7")


def test_e2_6_the_top_seats_left_is_the_bottom_seats_right() -> None:
    sc = scenario("axis infantry L2, axis infantry B2, allies infantry G9")
    st = game(sc, axis=["probe-left", "probe-right"], allies=HAND, active="axis")
    st, ev = do(st, "axis", "play probe-left")
    assert ev[0].to_dict()["sections"] == ["left"]
    with pytest.raises(IllegalOrder):
        do(st, "axis", "order B2")
    do(st, "axis", "order L2")


def test_e5_recon_in_force_general_advance_pincer_assault() -> None:
    units = ("allies infantry A7, allies infantry B7, allies infantry C7, allies infantry G7, allies infantry H7, "
             "allies infantry F7, allies infantry L7, allies infantry K7, axis infantry G1")
    st = run(allies_turn(units, "recon-in-force"), "allies", "play recon-in-force")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order A7 B7")
    do(st, "allies", "order A7 G7 L7")
    st = run(allies_turn(units, "general-advance"), "allies", "play general-advance")
    do(st, "allies", "order A7 B7 G7 H7 L7 K7")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order A7 B7 C7")
    st = run(allies_turn(units, "pincer-move"), "allies", "play pincer-move")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order A7 G7")
    do(st, "allies", "order A7 B7 L7 K7")
    st = run(allies_turn(units, "assault-centre"), "allies", "play assault-centre")
    st, ev = do(st, "allies", "order F7 G7 H7")
    assert ev[0].to_dict()["units"] == ["F7", "G7", "H7"]


def test_e4_4_ordering_nobody_goes_straight_to_the_draw() -> None:
    st = run(allies_turn("allies infantry G7, axis infantry G1", "probe-left"), "allies", "play probe-left")
    st, ev = do(st, "allies", "order none")
    assert st.active == "axis" and st.step == "play"
    assert kinds(st.hand("allies")) == HAND + ["attack-left"]
    assert kinds(st.discard) == ["probe-left"]


def test_e7_3_recon_draws_two_and_keeps_one() -> None:
    st = run(allies_turn("allies infantry G7, axis infantry G1", "recon-centre"), "allies",
             "play recon-centre", "order none")
    assert st.step == "recon" and kinds(st.drawn) == ["attack-left", "attack-right"]
    (p,) = pending(st)
    assert (p.player, p.choices) == ("allies", ("discard 1", "discard 2"))
    st, ev = do(st, "allies", "discard attack-left")
    assert kinds(st.hand("allies")) == HAND + ["attack-right"]
    assert kinds(st.discard) == ["recon-centre", "attack-left"]
    assert st.active == "axis"


# --------------------------------------------------------------------------- E-6 tactic cards


def test_e6_air_power_two_dice_per_hex_for_the_allies_stars_hit_flags_cannot_be_ignored() -> None:
    units = "allies infantry A9, axis infantry G3, axis infantry H3, axis armor M1"
    st = run(allies_turn(units, "air-power", obstacles={"G3": "sandbags"}), "allies", "play air-power")
    with pytest.raises(IllegalOrder, match="one group"):
        do(st, "allies", "target G3 M1")
    st, ev = do(st, "allies", "target G3 H3", rolls("SF"))
    # G3: a star hits (Air Power), the flag cannot be ignored despite the sandbags: 2 ways back
    assert [p.choices for p in pending(st)] == [("retreat F2", "retreat G2")]
    st, ev = do(st, "axis", "retreat G2", rolls("IG"))  # then H3 is resolved
    assert figures(st)["G2"] == ("axis", "infantry", 3) and figures(st)["H3"] == ("axis", "infantry", 2)
    assert st.active == "axis"  # no unit is ordered: the turn ended


def test_e6_air_power_one_die_per_hex_for_the_axis() -> None:
    sc = scenario("axis infantry A1, allies infantry G7")
    st = game(sc, axis=["air-power", "probe-left"], allies=HAND, active="axis")
    st = run(st, "axis", "play air-power")
    st, ev = do(st, "axis", "target G7", rolls("S"))
    assert figures(st)["G7"] == ("allies", "infantry", 3)


def test_e6_barrage_four_dice_terrain_ignored_stars_do_not_hit() -> None:
    units = "allies infantry A9, axis infantry G3"
    st = run(allies_turn(units, "barrage", terrain={"G3": "forest"}), "allies", "play barrage")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "target A9")
    st, ev = do(st, "allies", "target G3", rolls("IISS"))
    assert figures(st)["G3"] == ("axis", "infantry", 2)


def test_e6_ambush_window_ambusher_battles_first_and_draws_first() -> None:
    """E-6.4, E-10.6: the window opens after the declaration, before the attacker rolls."""
    sc = scenario("allies infantry G5, axis infantry G4, axis infantry A1")
    st = game(sc, allies=["probe-centre", *HAND], axis=["ambush", "attack-left", "attack-right", "probe-right"],
              deck=["recon-left", "recon-right"], standing=("ask", "pass"))
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, ev = do(st, "allies", "battle G5 G4")
    (p,) = pending(st)
    assert (p.player, p.choices, p.reaction) == ("axis", ("ambush", "pass"), True)
    st, ev = do(st, "axis", "ambush", rolls("FSS"))
    assert "AmbushAnswered" in types(ev) and st.ambusher == "axis"
    # the flag drives the attacker back toward its own baseline: the allies choose where
    (p,) = pending(st)
    assert (p.player, p.choices, p.reaction) == ("allies", ("retreat F6", "retreat G6"), False)
    st, ev = do(st, "allies", "retreat G6")
    assert "BattleCancelled" in types(ev)
    draws = [e.to_dict()["seat"] for e in ev if type(e).__name__ == "CardDrawn"]
    assert draws == ["axis", "allies"]  # E-7.4
    assert kinds(st.hand("axis")) == ["attack-left", "attack-right", "probe-right", "recon-left"]


def test_e6_ambush_that_does_not_stop_the_attacker_lets_it_battle() -> None:
    sc = scenario("allies infantry G5, axis infantry G4, axis infantry A1")
    st = game(sc, allies=["probe-centre", *HAND], axis=["ambush", "attack-left"], standing=("ambush", "pass"))
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    # standing "ambush" and the card in hand: it is played at once; then the attack goes on
    st, ev = do(st, "allies", "battle G5 G4", rolls("ISS") + rolls("ISS"))
    assert [e.to_dict()["why"] for e in ev if type(e).__name__ == "Rolled"] == ["ambush", "battle"]
    assert figures(st)["G5"][2] == 3 and figures(st)["G4"][2] == 3


def test_e6_4_ambush_cannot_be_played_on_ones_own_turn_nor_without_the_card() -> None:
    sc = scenario("allies infantry G5, axis infantry G4")
    st = game(sc, allies=["ambush", *HAND], axis=["probe-left", "attack-left"], standing=("ask", "ask"))
    with pytest.raises(IllegalOrder, match="opponent's turn"):
        do(st, "allies", "play ambush")
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, _ = do(st, "allies", "battle G5 G4")
    with pytest.raises(IllegalOrder, match="do not hold"):
        do(st, "axis", "ambush")
    st, ev = do(st, "axis", "pass", rolls("SSS"))
    assert types(ev)[0] == "AmbushAnswered"


def test_e6_armor_assault_bonus_and_fallback() -> None:
    units = "allies armor G5, allies armor C5, axis infantry G4, axis infantry A1"
    st = run(allies_turn(units, "armor-assault"), "allies", "play armor-assault", "order G5 C5", "done")
    st, ev = do(st, "allies", "battle G5 G4", rolls("SSSS"))
    assert declared(ev) == [("G5", "G4", 4)]
    st = run(allies_turn("allies infantry G5, allies infantry C5, axis infantry G4", "armor-assault"),
             "allies", "play armor-assault")
    with pytest.raises(IllegalOrder, match="fallback orders 1 unit"):
        do(st, "allies", "order G5 C5")
    st = run(st, "allies", "order G5", "done")
    st, ev = do(st, "allies", "battle G5 G4", rolls("SSS"))
    assert declared(ev) == [("G5", "G4", 3)]


def test_e6_artillery_bombard_moves_three_or_battles_twice() -> None:
    """E-6.7: the two battles are separate, one after the other, here on the same target."""
    units = "allies artillery G8, allies artillery C8, axis infantry G3, axis infantry A1"
    st = run(allies_turn(units, "artillery-bombard"), "allies", "play artillery-bombard", "order G8 C8")
    st, _ = do(st, "allies", "move C8 C5 via C7 C6")
    st, _ = do(st, "allies", "done")
    st, ev = do(st, "allies", "battle G8 G3", rolls("S"))  # range 5: 1 die
    st, ev = do(st, "allies", "battle G8 G3", rolls("G"))  # and a second battle
    assert figures(st)["G3"] == ("axis", "infantry", 3)
    assert st.active == "axis"  # C8 moved, so it could not battle; the turn is over


def test_e6_6_behind_enemy_lines_ignores_terrain_moves_but_not_the_entry_battle_ban() -> None:
    from engine.memoir.turn import battle_targets

    units = "allies infantry G8, axis infantry G4, axis infantry A1"
    st = run(allies_turn(units, "behind-enemy-lines", terrain={"G7": "forest", "G6": "hedgerow"}), "allies",
             "play behind-enemy-lines", "order G8")
    st, _ = do(st, "allies", "move G8 G5 via G7 G6")
    assert st.step == "battle"
    assert battle_targets(st, at(st, "G5")) == []  # type: ignore[arg-type]
    st, _ = do(st, "allies", "move G5 F7 via F6")
    assert at(st, "F7") is not None and st.active == "axis"


def test_e6_behind_enemy_lines_bonus_die_on_open_ground() -> None:
    units = "allies infantry G8, axis infantry G4, axis infantry A1"
    st = run(allies_turn(units, "behind-enemy-lines"), "allies", "play behind-enemy-lines", "order G8")
    st, _ = do(st, "allies", "move G8 G5 via G7 G6")
    st, ev = do(st, "allies", "battle G5 G4", rolls("SSSS"))
    assert declared(ev) == [("G5", "G4", 4)]
    st, _ = do(st, "allies", "move G5 E6 via F6")
    assert at(st, "E6") is not None and st.active == "axis"


def test_e6_close_assault_orders_adjacent_units_no_move_plus_one() -> None:
    units = "allies infantry G5, allies armor H5, allies infantry C5, axis infantry G4, axis infantry A1"
    st = run(allies_turn(units, "close-assault"), "allies", "play close-assault")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order C5")
    st, _ = do(st, "allies", "order G5 H5")
    assert st.step == "battle"
    with pytest.raises(IllegalOrder):
        do(st, "allies", "move G5 G6")
    st, ev = do(st, "allies", "battle G5 G4", rolls("SSSS"))
    assert declared(ev) == [("G5", "G4", 4)]


def test_e6_5_counter_attack_copies_the_last_card_on_the_same_part_of_the_board() -> None:
    sc = scenario("allies infantry B7, axis infantry B2, axis infantry L2")
    st = game(sc, allies=["probe-left", *HAND], axis=["counter-attack", "probe-right"])
    with pytest.raises(IllegalOrder, match="not played one yet"):
        do(game(sc, allies=["counter-attack", "probe-left"], axis=["probe-left"]), "allies", "play counter-attack")
    st = run(st, "allies", "play probe-left", "order none")
    st, ev = do(st, "axis", "play counter-attack")
    assert ev[0].to_dict()["effect"] == "probe-left" and ev[0].to_dict()["sections"] == ["right"]
    with pytest.raises(IllegalOrder):
        do(st, "axis", "order L2")
    st, _ = do(st, "axis", "order B2")
    assert kind_of(st.last[1].card) == "probe-left"  # type: ignore[union-attr]


def test_e6_dig_in_places_sandbags_where_allowed() -> None:
    units = "allies infantry G7, allies infantry C7, allies armor E7, axis infantry A1"
    st = run(allies_turn(units, "dig-in", obstacles={"C7": "wire"}), "allies", "play dig-in")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order E7")
    st, ev = do(st, "allies", "order G7 C7")
    assert st.obstacle_name(parse_hex("G7")) == "sandbags" and st.obstacle_name(parse_hex("C7")) == "wire"
    assert st.active == "axis"


def test_e6_firefight_units_not_adjacent_no_move_plus_one() -> None:
    units = "allies infantry G6, allies infantry C5, axis infantry G4, axis infantry C4"
    st = run(allies_turn(units, "firefight"), "allies", "play firefight")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order C5")
    st, _ = do(st, "allies", "order G6")
    st, ev = do(st, "allies", "battle G6 G4", rolls("SSS"))
    assert declared(ev) == [("G6", "G4", 3)]


def test_e6_11_infantry_assault_section_move_three_without_battle_or_two_with() -> None:
    from engine.memoir.turn import battle_targets

    units = ("allies infantry G8, allies infantry:special-forces H8, allies infantry A8, allies armor A9, "
             "axis infantry H4, axis infantry A1")
    st = allies_turn(units, "infantry-assault")
    with pytest.raises(IllegalOrder, match="name the section"):
        do(st, "allies", "play infantry-assault")
    st = run(st, "allies", "play infantry-assault centre")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G8 A8")
    st = run(st, "allies", "order G8 H8", "move G8 D8 via F8 E8", "move H8 H6 via H7")
    assert battle_targets(st, at(st, "D8")) == []  # type: ignore[arg-type]
    # the card's limits replace the unit's own: Special Forces also move 2 and battle (E-6.11)
    assert [(t.where, n) for t, n in battle_targets(st, at(st, "H6"))] == [("H4", 2)]  # type: ignore[arg-type]


def test_e6_medics_roll_one_die_per_card_and_order_the_healed_unit() -> None:
    """E-6.9: artillery comes back only on stars."""
    units = "allies infantry/1 G6, allies artillery/1 C7, axis infantry G2"
    st = run(allies_turn(units, "medics-and-mechanics"), "allies", "play medics-and-mechanics")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G2")
    st, ev = do(st, "allies", "order G6", rolls("IASF"))  # 3 cards left + this one = 4 dice
    assert figures(st)["G6"] == ("allies", "infantry", 3)
    assert st.step == "move" and [a.unit for a in st.acting] == [at(st, "G6").id]  # type: ignore[union-attr]
    st = run(allies_turn(units, "medics-and-mechanics"), "allies", "play medics-and-mechanics")
    st, ev = do(st, "allies", "order C7", rolls("IAGF"))  # artillery: only stars
    assert figures(st)["C7"] == ("allies", "artillery", 1) and st.active == "axis"


def test_e6_move_out_and_direct_from_hq_limits() -> None:
    units = ", ".join(f"allies infantry {c}7" for c in "ABCDE") + ", allies armor G7, axis infantry A1"
    st = run(allies_turn(units, "move-out"), "allies", "play move-out")
    with pytest.raises(IllegalOrder, match="at most 4"):
        do(st, "allies", "order A7 B7 C7 D7 E7")
    with pytest.raises(IllegalOrder):
        do(st, "allies", "order G7")
    do(st, "allies", "order A7 B7 C7 D7")
    st = run(allies_turn(units, "direct-from-hq"), "allies", "play direct-from-hq")
    do(st, "allies", "order A7 B7 C7 G7")


def test_e6_their_finest_hour_orders_by_symbols_bonus_and_reshuffle() -> None:
    """E-6.12: in step 5 the discard pile (the card included) is shuffled into the deck."""
    units = "allies infantry G6, allies infantry C6, allies armor E6, allies artillery K8, axis infantry G4"
    st = allies_turn(units, "their-finest-hour")
    st, ev = do(st, "allies", "play their-finest-hour", rolls("IAFG"))  # 3 cards left + this one
    assert ev[1].to_dict()["faces"] == ["infantry", "armor", "flag", "grenade"]
    with pytest.raises(IllegalOrder, match="symbols"):
        do(st, "allies", "order G6 C6")
    with pytest.raises(IllegalOrder, match="symbols"):
        do(st, "allies", "order K8")
    st, _ = do(st, "allies", "order G6 E6")
    st, _ = do(st, "allies", "done")
    st, ev = do(st, "allies", "battle G6 G4", rolls("SSS"))  # range 2: 2 dice + 1
    assert declared(ev) == [("G6", "G4", 3)]
    pool = len(st.deck) + len(st.discard) + 1  # the card played joins the discard pile first
    st, ev = do(st, "allies", "done", [1] * (pool - 1))
    assert "DeckShuffled" in types(ev) and st.discard == () and len(st.deck) == pool - 1


def test_e7_5_an_empty_deck_is_rebuilt_from_the_discard_pile() -> None:
    from dataclasses import replace

    st = allies_turn("allies infantry G7, axis infantry A1", "probe-left")
    st = replace(st, discard=st.deck[2:], deck=st.deck[:0])
    n = len(st.discard) + 1
    st, ev = do(st, "allies", "play probe-left")
    st, ev = do(st, "allies", "order none", [1] * (n - 1))
    assert "DeckShuffled" in types(ev)
    assert len(st.deck) == n - 1 and st.discard == ()
