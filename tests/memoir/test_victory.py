"""E-17 medals and victory: eliminations, temporary, permanent and sudden-death objectives."""

from __future__ import annotations

from engine.memoir.board import label, parse_hex
from engine.memoir.lookups import with_unit_moved
from engine.memoir.turn import medals, shown_medals

from .helpers import do, game, ordered, ready, rolls, run, scenario, types


def obj(kind: str, side: str = "allies", hexname: str = "G4") -> list[dict[str, object]]:
    return [{"hex": hexname, "for": side, "kind": kind, "medals": 1}]


def test_e17_2_temporary_objective_counts_only_while_held() -> None:
    st = ordered("allies infantry G5, axis infantry A1", "G5", objectives=obj("temporary"))
    assert medals(st, "allies") == 0
    st, ev = do(st, "allies", "move G5 G4")
    assert medals(st, "allies") == 1 and "MedalsChanged" in types(ev)
    assert [e for e in ev if type(e).__name__ == "MedalsChanged"][0].to_dict()["allies"] == 1


def test_e17_2_the_medal_is_lost_when_the_hex_is_vacated_by_retreat() -> None:
    sc = scenario("axis infantry G2, allies infantry G4, allies infantry A9", objectives=obj("temporary"))
    st = game(sc, axis=["direct-from-hq", "probe-left"], allies=["probe-left"], active="axis")
    assert medals(st, "allies") == 1
    st = run(st, "axis", "play direct-from-hq", "order G2", "done")
    st, _ = do(st, "axis", "battle G2 G4", rolls("FS"))
    st, ev = do(st, "allies", "retreat G5")
    assert medals(st, "allies") == 0
    assert [e.to_dict() for e in ev if type(e).__name__ == "MedalsChanged"] == [
        {"type": "MedalsChanged", "axis": 0, "allies": 0}]


def test_e17_permanent_objective_is_kept_after_leaving() -> None:
    st = ordered("allies armor G5, axis infantry A1", "G5", objectives=obj("permanent"))
    st, _ = do(st, "allies", "move G5 G3 via G4")
    assert medals(st, "allies") == 0  # passing through does not take it (E-17.3)
    st = ordered("allies armor G5, axis infantry A1", "G5", objectives=obj("permanent"), card="armor-assault")
    st, _ = do(st, "allies", "move G5 G4")
    assert medals(st, "allies") == 1
    assert [(label(h), s) for h, s in st.taken] == [("G4", "allies")]
    unit = st.unit_at(parse_hex("G4"))
    assert unit is not None
    away = with_unit_moved(st, unit.id, parse_hex("G6"))
    assert medals(away, "allies") == 1


def test_e17_sudden_death_objective_wins_at_once() -> None:
    st = ordered("allies infantry G5, axis infantry A1", "G5", objectives=obj("sudden-death"))
    st, ev = do(st, "allies", "move G5 G4")
    assert st.outcome is not None and st.outcome.winner == "allies"
    assert "sudden-death" in st.outcome.reason
    assert types(ev)[-1] == "Victory"


def test_e17_4_medals_are_capped_at_the_target_and_the_game_ends_at_once() -> None:
    st = ready("allies infantry G5, axis infantry/1 G4, axis infantry A1", "G5", medals=(4, 1),
               objectives=obj("temporary", "allies", "G6"))
    assert medals(st, "allies") == 0
    st, ev = do(st, "allies", "battle G5 G4", rolls("ISS"))
    assert st.over and st.outcome is not None and st.outcome.winner == "allies"
    assert shown_medals(st) == (0, 1)
    assert ev[-1].to_dict()["medals"] == [0, 1]
    assert st.fight is None and st.step == "over"


def test_e17_objective_for_both_sides_counts_for_whoever_holds_it() -> None:
    st = ordered("allies infantry G5, axis infantry G3", "G5", objectives=obj("temporary", "both"))
    st, _ = do(st, "allies", "move G5 G4")
    assert (medals(st, "allies"), medals(st, "axis")) == (1, 0)
