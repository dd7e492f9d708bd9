"""A-1 powers and turn order, A-3 victory, A-5 China, A-6 the phases, A-13 income and
national objectives; timeouts and conceding."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.aa.economy import objective_met, objectives
from engine.aa.events import ChineseRecruits, Income, PhaseStarted, TurnStarted, Victory
from engine.aa.game import RULES, apply_text, begin_turn, new_game, pending, timeout
from engine.aa.state import (
    CHINA, COMBAT_MOVE, MOBILISE, NONCOMBAT, PURCHASE, RESEARCH, USA, AAState,
)
from engine.core.dice import scripted_dice, seeded_dice
from engine.core.errors import DataError, IllegalOrder, NotYourTurn
from engine.core.events import Event
from engine.core.game import rules_for

from .helpers import add, empty, fresh, kinds_at, play, turn


def done_until(state: AAState, stop: str | None = None, limit: int = 200) -> tuple[AAState, list[Event]]:
    """Every waited-for seat says 'done' until ``stop`` (a power) starts its turn."""
    events: list[Event] = []
    for _ in range(limit):
        if state.outcome is not None:
            break
        p = pending(state)[0]
        if state.phase == MOBILISE:
            state, ev = timeout(state, "done", seeded_dice(len(events)))
        else:
            text = "first United States" if state.phase == "first" else "done"
            state, ev = apply_text(state, p.player, text, seeded_dice(len(events)))
        events.extend(ev)
        if stop and any(isinstance(e, TurnStarted) and e.power == stop for e in ev):
            break
    return state, events


def test_a1_registered_rules_seats_and_teams() -> None:
    """A-1.1: the six powers and China, on the Axis and Allied sides."""
    rules = rules_for("aa")
    assert rules is RULES and rules.title == "Axis & Allies Anniversary"
    assert rules.seats == ("Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
    assert [rules.team(s) for s in rules.seats] == ["axis", "allies", "axis", "allies", "axis", "allies", "allies"]
    assert RULES.teams() == ("axis", "allies")


def test_a1_3_turn_order_per_scenario() -> None:
    s41, s42 = fresh("1941"), fresh("1942")
    assert s41.turn_order == ("Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States")
    assert s42.turn_order == ("Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States")
    assert pending(s41)[0].player == "Germany" and pending(s42)[0].player == "Japan"
    after, events = done_until(s41, stop="Soviet Union")
    assert after.power == "Soviet Union" and after.round == 1
    assert [e.phase for e in events if isinstance(e, PhaseStarted) and e.power == "Germany"] == [
        "purchase", "combat move", "noncombat move"]


def test_a6_1_phases_run_in_order_and_income_is_collected_by_the_engine() -> None:
    """A-6.1 order of phases; A-6.2 every phase but income may be passed with nothing done."""
    state = fresh("1941", national_objectives=False)
    seen = [pending(state)[0].decision.split(" of ")[0]]
    for _ in range(3):
        state, _ = apply_text(state, "Germany", "done", scripted_dice([]))
        seen.append(state.phase)
    assert seen == [RESEARCH, PURCHASE, COMBAT_MOVE, NONCOMBAT]
    state, events = apply_text(state, "Germany", "done", scripted_dice([]))
    income = next(e for e in events if isinstance(e, Income))
    assert (income.power, income.territories, income.objectives, income.total, income.ipcs) == (
        "Germany", 31, (), 31, 62)
    assert state.power == "Soviet Union"


def test_a6_3_a_power_without_its_capital_plays_only_phases_3_to_5() -> None:
    state = add(empty("1941"), "Germany", "infantry", "Poland")
    control = dict(state.control)
    control["Germany"] = "Soviet Union"
    state = replace(state, control=control, ipcs={**state.ipcs, "Germany": 0})
    state, events = begin_turn(replace(state, turn=0), scripted_dice([]))
    assert [e.phase for e in events if isinstance(e, PhaseStarted)] == [COMBAT_MOVE]
    state, events = done_until(state, stop="Soviet Union")
    income = next(e for e in events if isinstance(e, Income) and e.power == "Germany")
    assert income.total == 0 and state.ipcs["Germany"] == 0


def test_a13_national_objectives_at_the_start_of_1941() -> None:
    state = fresh("1941")
    met = {(o["power"], i) for i, o in enumerate(objectives()) if objective_met(state, o)}
    assert met == {("Germany", 0), ("Japan", 3), ("Italy", 6), ("United States", 8), ("United States", 9),
                   ("United States", 11), ("United Kingdom", 12), ("Soviet Union", 16)}
    state, events = done_until(state, stop="Soviet Union")
    income = next(e for e in events if isinstance(e, Income))
    assert (income.territories, income.objectives, income.ipcs) == (31, (5,), 31 + 36)


def test_a13_italy_loses_its_objective_to_an_enemy_warship_and_the_soviets_to_an_ally() -> None:
    state = add(fresh("1941"), "United Kingdom", "destroyer", "14 Sea Zone")
    italy = objectives()[6]
    assert not objective_met(state, italy)
    state = add(fresh("1941"), "United Kingdom", "infantry", "Karelia S.S.R.")
    assert not objective_met(state, objectives()[16])


def test_a3_3_victory_is_checked_when_the_round_ends() -> None:
    """A-3.3, A-1.4 and A-6.4: not after a single turn, only when the round is over."""
    state = fresh("1942", victory_cities=10)
    state, events = done_until(state, stop="Soviet Union")
    assert state.outcome is None
    state, events = done_until(state)
    win = [e for e in events if isinstance(e, Victory)]
    assert len(win) == 1 and win[0].winner == "allies" and win[0].cities == 10
    assert state.outcome is not None and state.outcome.winner == "allies" and "round 1" in state.outcome.reason
    assert pending(state) == []
    with pytest.raises(IllegalOrder, match="over"):
        apply_text(state, "Japan", "done", scripted_dice([]))


def test_a3_2_victory_targets_are_options() -> None:
    for bad in (0, 19, "x"):
        with pytest.raises(DataError, match="victory_cities"):
            new_game({"victory_cities": bad}, scripted_dice([]))
    assert fresh("1941", victory_cities=13).options.victory_cities == 13


def test_a3_ruling_a_side_concedes_when_every_seat_votes() -> None:
    state = fresh("1941")
    for seat in ("Germany", "Japan"):
        state, _ = apply_text(state, seat, "concede", scripted_dice([]))
        assert state.outcome is None
    state, events = apply_text(state, "Italy", "concede", scripted_dice([]))
    assert state.outcome is not None and state.outcome.winner == "allies"


def test_orders_out_of_turn_are_refused_and_change_nothing() -> None:
    state = fresh("1941")
    with pytest.raises(NotYourTurn):
        apply_text(state, "Japan", "done", scripted_dice([]))
    with pytest.raises(IllegalOrder):
        apply_text(state, "Germany", "buy 3 inf", scripted_dice([]))  # still research
    assert state == fresh("1941")


def test_timeouts_end_the_phase_or_forfeit() -> None:
    state = fresh("1941")
    state, events = timeout(state, "done", scripted_dice([]))
    assert state.phase == PURCHASE
    state, _ = apply_text(state, "Germany", "buy 2 inf", scripted_dice([]))
    state, events = timeout(state, "done", scripted_dice([]))  # the purchase given stands
    assert state.phase == COMBAT_MOVE and state.pool_of("Germany") == {"infantry": 2} and state.ipcs["Germany"] == 25
    over, events = timeout(state, "forfeit", scripted_dice([]))
    assert over.outcome is not None and over.outcome.winner == "allies"


def test_a12_8_timeout_in_mobilisation_places_everything_placeable() -> None:
    state = turn(fresh("1941"), "Germany", MOBILISE)
    state = replace(state, pool={"Germany": (("infantry", 3), ("transport", 1))})
    state, events = timeout(state, "done", scripted_dice([]))
    assert state.pool_of("Germany") == {}
    assert kinds_at(state, "5 Sea Zone", "Germany")["transport"] == 2  # first adjacent zone in data order
    assert kinds_at(state, "Germany", "Germany")["infantry"] == 6


# --------------------------------------------------------------------------- China


def us_turn(state: AAState) -> AAState:
    state, _ = done_until(state, stop=USA)
    return state


def test_a5_4_china_gets_one_infantry_per_two_territories_in_the_us_purchase() -> None:
    state = us_turn(fresh("1941"))
    state, events = apply_text(state, USA, "done", scripted_dice([]))  # research
    state, events = apply_text(state, USA, "done", scripted_dice([]))  # purchase
    assert ChineseRecruits(3) in events and state.pool_of(CHINA) == {"infantry": 3}
    assert pending(state)[0].choices == ("first United States", "first China")


def test_a5_3_china_moves_and_fights_in_its_own_phases_of_the_us_turn() -> None:
    state = us_turn(fresh("1941"))
    state, _ = play(state, USA, "done", "done", "first China")
    assert (state.actor, state.phase) == (CHINA, COMBAT_MOVE)
    with pytest.raises(NotYourTurn):
        apply_text(state, USA, "move 1 inf: Eastern United States -> Central United States", scripted_dice([]))
    # China's area only; Kwangtung allowed
    with pytest.raises(IllegalOrder, match="China's area"):
        apply_text(state, CHINA, "move 1 inf: Yunnan -> Burma", scripted_dice([]))
    state, _ = play(state, CHINA, "done")
    assert (state.actor, state.phase) == (USA, COMBAT_MOVE)
    state, _ = play(state, USA, "done")
    assert (state.actor, state.phase) == (CHINA, NONCOMBAT)
    state, _ = play(state, CHINA, "done")
    assert (state.actor, state.phase) == (USA, NONCOMBAT)
    state, _ = play(state, USA, "done")
    assert (state.actor, state.phase) == (CHINA, MOBILISE)  # nothing to place for the US


def test_a5_5_chinese_infantry_go_where_fewer_than_three_chinese_units_stood() -> None:
    state = us_turn(fresh("1941"))
    state = add(state, CHINA, "infantry", "Hupeh", 2)  # Hupeh now holds three
    state, _ = play(state, USA, "done", "done", "first United States", "done")
    state, _ = play(state, CHINA, "done", "done")
    state, _ = play(state, USA, "done")
    assert (state.actor, state.phase) == (CHINA, MOBILISE)
    with pytest.raises(IllegalOrder, match="fewer than three"):
        apply_text(state, CHINA, "place 3 inf: Hupeh", scripted_dice([]))
    with pytest.raises(IllegalOrder):
        apply_text(state, CHINA, "place 1 inf: Burma", scripted_dice([]))
    state, events = play(state, CHINA, "place 3 inf: Yunnan")
    assert kinds_at(state, "Yunnan", CHINA) == {"infantry": 4, "fighter": 1}
    assert state.power == "Germany" and state.round == 2  # the turn ended by itself


def test_a5_8_kwangtung_taken_by_china_goes_to_the_united_kingdom() -> None:
    state = empty("1941")
    state = replace(state, control={**state.control, "Kwangtung": "Japan", "United Kingdom": "Germany"})
    state = add(state, CHINA, "infantry", "Kwangtung", 1, p3=True, came_from="Fukien")
    from .helpers import in_combat
    state = in_combat(state, CHINA)
    state, events = play(state, CHINA, "battle Kwangtung")
    assert state.control["Kwangtung"] == "United Kingdom"  # even with London held by the enemy


def test_a5_6_chinese_units_never_board_transports() -> None:
    state = turn(empty("1941"), CHINA, NONCOMBAT)
    state = add(state, CHINA, "infantry", "Fukien")
    with pytest.raises(IllegalOrder, match="never board"):
        apply_text(state, CHINA, "load 1 inf: Fukien -> 62 Sea Zone", scripted_dice([]))


__all__ = ["Event", "new_game"]


def test_a8_ruling_a_purchase_is_private_until_the_phase_ends() -> None:
    from engine.core.game import PUBLIC, Viewer

    state, _ = play(turn(fresh("1941"), "Germany", PURCHASE), "Germany", "buy 2 tank")
    assert RULES.view(state, PUBLIC).purchase is None
    assert RULES.view(state, Viewer.of(["Germany", "Italy"])).purchase == state.purchase
    assert RULES.order_view("Germany", "buy 2 tank", PUBLIC) == "buy (shown when the purchase phase ends)"
    assert RULES.order_view("Germany", "buy 2 tank", Viewer.of(["Germany"])) == "buy 2 tank"
    assert RULES.order_view("Germany", "move 1 inf: Poland -> Ukraine", PUBLIC) == "move 1 inf: Poland -> Ukraine"
