"""E-4 the turn, E-19 play-by-post decisions and timeouts, the per-seat view (E-7.6, E-19.1)
and the game contract."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import scripted_dice, seeded_dice
from engine.core.errors import IllegalOrder, NotationError, NotYourTurn
from engine.core.game import PUBLIC, Viewer, rules_for, visible_events
from engine.memoir.game import RULES
from engine.memoir.legal import pending
from engine.memoir.orders import format_order, parse_order

from .helpers import at, do, game, kinds, rolls, run, scenario, types

AXIS, ALLIES = Viewer.of(["axis"]), Viewer.of(["allies"])


def test_the_kind_is_registered_with_its_seats() -> None:
    rules = rules_for("memoir")
    assert rules is RULES
    assert (RULES.title, RULES.seats, RULES.team("axis")) == ("Memoir '44", ("axis", "allies"), "axis")


def test_e4_steps_in_order_and_only_the_active_seat_acts() -> None:
    """E-4.1, E-4.2: only the active seat acts, play then order then move."""
    st = game(scenario("allies infantry G7, axis infantry G3"), allies=["probe-centre"], axis=["probe-left"])
    assert [(p.player, p.choices) for p in pending(st)] == [("allies", ())]
    with pytest.raises(NotYourTurn):
        do(st, "axis", "play probe-left")
    with pytest.raises(IllegalOrder, match="play step"):
        do(st, "allies", "order G7")
    st, _ = do(st, "allies", "play probe-centre")
    assert [(p.player, p.choices) for p in pending(st)] == [("allies", ("order none",))]
    st, _ = do(st, "allies", "order G7")
    assert st.step == "move" and [p.choices for p in pending(st)] == [("done",)]
    with pytest.raises(IllegalOrder, match="You hold no"):
        do(game(scenario("allies infantry G7, axis infantry G3"), allies=["probe-centre"]), "allies",
           "play barrage")


def test_e19_3_timeout_passes_the_ambush_window_and_forfeit_ends_the_game() -> None:
    sc = scenario("allies infantry G5, axis infantry G4, axis infantry A1")
    st = game(sc, allies=["probe-centre", "probe-left"], axis=["ambush", "probe-left"], standing=("ask", "ask"))
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, _ = do(st, "allies", "battle G5 G4")
    timed, ev = RULES.timeout(st, "done", scripted_dice(rolls("SSS")))
    assert types(ev)[:2] == ["TimedOut", "AmbushAnswered"] and ev[1].to_dict()["ambush"] is False
    lost, ev = RULES.timeout(st, "forfeit", scripted_dice([]))
    assert lost.outcome is not None and lost.outcome.winner == "allies" and "did not answer" in lost.outcome.reason


def test_timeout_done_in_the_play_step_plays_the_first_card_and_orders_nobody() -> None:
    st = game(scenario("allies infantry G7, axis infantry G3"), allies=["attack-right", "recon-left"],
              axis=["probe-left"])
    st, ev = RULES.timeout(st, "done", scripted_dice([]))
    assert types(ev)[:3] == ["TimedOut", "CardPlayed", "UnitsOrdered"]
    assert ev[1].to_dict()["card"] == "recon-left"  # first in deck order
    assert st.step == "recon"
    st, ev = RULES.timeout(st, "done", scripted_dice([]))
    assert st.active == "axis" and len(st.hand("allies")) == 2


def test_standing_settings_are_private_and_change_the_window() -> None:
    st = game(scenario("allies infantry G5, axis infantry G4"), allies=["probe-centre"], axis=["ambush"],
              standing=("ask", "ask"))
    st, ev = do(st, "axis", "standing pass")
    assert st.standing == ("pass", "ask")
    assert RULES.event_view(ev[0].to_dict(), ALLIES) is None
    assert RULES.event_view(ev[0].to_dict(), AXIS) == ev[0].to_dict()
    assert RULES.order_view("axis", "standing pass", ALLIES) is None
    assert RULES.order_view("axis", "standing pass", AXIS) == "standing pass"
    assert RULES.view(st, ALLIES).standing == ("?", "ask")
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, ev = do(st, "allies", "battle G5 G4", rolls("SSS"))
    assert "AmbushAnswered" not in types(ev)


def test_view_hides_other_hands_and_the_deck_order() -> None:
    st, ev = RULES.new_game({"scenario": "sword-beach"}, seeded_dice(3))
    mine = RULES.view(st, AXIS)
    assert mine.hand("axis") == st.hand("axis") and set(mine.hand("allies")) == {"?"}
    assert len(mine.hand("allies")) == 5 and set(mine.deck) == {"?"} and len(mine.deck) == len(st.deck)
    public = RULES.view(st, PUBLIC)
    assert set(public.hand("axis")) == {"?"} and set(public.hand("allies")) == {"?"}
    shown = visible_events(RULES, [e.to_dict() for e in ev], ALLIES)
    dealt = [e for e in shown if e["type"] == "CardsDealt"]
    assert dealt[0] == {"type": "CardsDealt", "seat": "axis", "cards": None, "count": 4}
    assert len(dealt[1]["cards"]) == 5


def test_a_drawn_card_is_seen_only_by_its_owner() -> None:
    st = game(scenario("allies infantry G7, axis infantry G3"), allies=["probe-centre"], axis=["probe-left"],
              deck=["barrage"])
    st, ev = do(st, "allies", "play probe-centre")
    st, ev = do(st, "allies", "order none")
    drawn = [e.to_dict() for e in ev if type(e).__name__ == "CardDrawn"]
    assert RULES.event_view(drawn[0], ALLIES)["card"] == "barrage"  # type: ignore[index]
    assert RULES.event_view(drawn[0], AXIS) == {"type": "CardDrawn", "seat": "allies", "card": None}
    assert RULES.event_view(drawn[0], PUBLIC) == {"type": "CardDrawn", "seat": "allies", "card": None}


def test_recon_pair_is_hidden_from_the_other_seat() -> None:
    st = game(scenario("allies infantry G7, axis infantry G3"), allies=["recon-centre"], axis=["probe-left"],
              deck=["barrage", "air-power"])
    st = run(st, "allies", "play recon-centre", "order none")
    assert RULES.view(st, AXIS).drawn == ("?", "?")
    assert kinds(RULES.view(st, ALLIES).drawn) == ["barrage", "air-power"]
    assert pending(st)[0].choices == ("discard 1", "discard 2")


def test_dump_and_load_round_trip_in_the_middle_of_a_battle() -> None:
    st = game(scenario("allies infantry G5, axis infantry G3, axis infantry M1", obstacles={"G3": "sandbags"}),
              allies=["probe-centre", "barrage"], axis=["probe-left"])
    st = run(st, "allies", "play probe-centre", "order G5", "done")
    st, _ = do(st, "allies", "battle G5 G3", rolls("F"))
    assert st.fight is not None and st.fight.stage == "ignore"
    data = RULES.dump_state(st)
    assert RULES.load_state(json.loads(json.dumps(data))) == st


def test_notation_round_trips_and_reads_player_spellings() -> None:
    st = game(scenario("allies infantry G5, axis infantry G3"), allies=["probe-centre"])
    cases = {
        "Play Probe Center": "play probe-centre", "play infantry assault left": "play infantry-assault left",
        "play Medics & Mechanics": "play medics-and-mechanics", "order g5, c6": "order G5 C6",
        "order none": "order none", "target h4 h5": "target H4 H5", "move g5 g3 via g4": "move G5 G3 via G4",
        "battle G5 G3": "battle G5 G3", "take ground": "take-ground", "clear wire G4": "clear-wire G4",
        "ignore 1": "ignore 1", "retreat f4": "retreat F4", "discard 2": "discard 2",
        "standing ambush ambush": "standing ambush", "pass": "pass", "hold": "hold", "done": "done",
    }
    for text, canonical in cases.items():
        assert RULES.canonical(st, "allies", text) == canonical
        assert format_order(parse_order(st, "allies", canonical)) == canonical
    assert RULES.canonical(st, "system", "timeout forfeit") == "timeout forfeit"
    for bad in ("fly G5", "play teleport", "move G5", "order Z9", "ignore many", "timeout done"):
        with pytest.raises(NotationError):
            parse_order(st, "allies", bad)


def test_move_without_a_path_takes_a_shortest_legal_one() -> None:
    st = game(scenario("allies infantry G6, axis infantry A1, allies infantry G5"), allies=["probe-centre"])
    st = run(st, "allies", "play probe-centre", "order G6")
    assert RULES.canonical(st, "allies", "move G6 G4") == "move G6 G4 via H5"


def test_ruling_a_hand_of_only_ambush_and_an_idle_counter_attack_plays_for_nothing() -> None:
    st = game(scenario("allies infantry G5, axis infantry G3"), allies=["ambush", "counter-attack"])
    st, ev = do(st, "allies", "play counter-attack")
    assert st.active == "axis" and kinds(st.discard) == ["counter-attack"]
    assert at(st, "G5") is not None
