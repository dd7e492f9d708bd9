"""Stat cards (M-1.5) and overlays built from engine events."""

from __future__ import annotations

from dataclasses import replace

from engine.minis.catalogue import load_catalogue
from engine.minis.events import Attacked, DefensiveFireEvent, Moved
from engine.minis.model import Ability
from render.minis import card, overlays_from_events
from render.minis.card import render_card
from render.minis.from_events import attack_result
from render.minis.overlays import AttackLine, MovedPath
from render_helpers import every_counter_state, hx


def _texts(c: object) -> list[str]:
    _, items = render_card(c)  # type: ignore[arg-type]
    return [it.text for it in items if it.text]


def test_card_shows_the_stat_card_fields_in_order() -> None:
    sherman = load_catalogue()["m4a1-sherman"]
    texts = _texts(sherman)
    assert texts[0] == "M4A1 Sherman"
    assert "USA · Vehicle – Tank · 1942" in texts
    assert str(sherman.cost) in texts
    assert texts[texts.index("Speed") + 1] == "4"
    assert texts[texts.index("Defense front/rear") + 1] == "5/4"
    # M-7.2 dice: vs Soldiers then vs Vehicles, short/medium/long
    i = texts.index("Attack vs Soldiers")
    assert texts[i + 1:i + 4] == ["9", "9", "7"]
    j = texts.index("Attack vs Vehicles")
    assert texts[j + 1:j + 4] == ["13", "11", "9"]


def test_card_dashes_for_no_attack_and_initiative_for_commanders() -> None:
    cat = load_catalogue()
    captain = next(c for c in cat.values() if c.is_commander and c.initiative)
    texts = _texts(captain)
    assert texts[texts.index("Initiative") + 1] == f"+{captain.initiative}"
    j = texts.index("Attack vs Vehicles")
    shown = texts[j + 1:j + 4]
    assert shown == ["—" if v in (None, 0) else str(v) for v in captain.vs_vehicle]
    assert "—" in shown


def test_card_wraps_long_ability_text_and_grows() -> None:
    base = load_catalogue()["m4a1-sherman"]
    short = replace(base, abilities=(Ability("Overrun", None, "Short."),))
    long = replace(base, key="long", abilities=(Ability("Overrun", None, "word " * 60),))
    assert card(long).height > card(short).height
    lines = [t for t in _texts(long) if "word" in t]
    assert len(lines) >= 3
    assert card(short).width == card(long).width == 640


def test_card_returns_a_copy_that_can_be_drawn_on() -> None:
    c = load_catalogue()["m4a1-sherman"]
    a = card(c)
    a.paste((255, 0, 0), (0, 0, 50, 50))
    assert card(c).getpixel((10, 10)) != (255, 0, 0)


def _attacked(attacker: str, target: str, *, kind: str = "normal", effect: str = "counters",
              counters: tuple[str, ...] = ("disrupted", "damaged"), covered: bool = False) -> Attacked:
    return Attacked(attacker=attacker, target=target, kind=kind, range=2, band="medium", dice=(6, 5, 4, 1),
                    modifier=0, successes=3, defense=4, front=True, hits=len(counters), covered=covered,
                    counters=counters, effect=effect)


def test_attack_results_in_words() -> None:
    assert attack_result(_attacked("ax1", "al1")) == "2 hits"
    assert attack_result(_attacked("ax1", "al1", counters=("disrupted",))) == "1 hit"
    assert attack_result(_attacked("ax1", "al1", effect="none", counters=())) == "miss"
    assert attack_result(_attacked("ax1", "al1", effect="none", counters=(), covered=True)) == "cover"
    assert attack_result(_attacked("ax1", "al1", kind="defensive", effect="stopped", counters=())) == "stopped"


def test_overlays_from_moves_attacks_and_defensive_fire() -> None:
    s = every_counter_state()
    path = (hx("A4"), hx("B4"), hx("C4"))
    events = [
        Moved("ax5", path, path, None, "defensive fire", defensive_fire_at=(hx("B4"),)),
        DefensiveFireEvent("al6", "ax5", hx("B4"), "entering", True, None),
        _attacked("al6", "ax5", kind="defensive", effect="stopped", counters=()),
        _attacked("ax3", "al3"),
    ]
    ovs = overlays_from_events(s, events)
    assert ovs == [
        MovedPath("ax5", path, (hx("B4"),), stopped=True),
        AttackLine(hx("A6"), hx("B4"), "stopped", defensive=True),  # at the hex where it was fired on
        AttackLine(hx("F4"), hx("G3"), "2 hits"),
    ]


def test_overlays_from_the_stored_form_of_events() -> None:
    """The order log keeps events as ``to_dict()``; the same overlays come out."""
    s = every_counter_state()
    path = (hx("A4"), hx("B4"), hx("C4"))
    events = [
        Moved("ax5", path, path, None, "defensive fire", defensive_fire_at=(hx("B4"),)),
        DefensiveFireEvent("al6", "ax5", hx("B4"), "entering", True, None),
        _attacked("al6", "ax5", kind="defensive", effect="stopped", counters=()),
        _attacked("ax3", "al3"),
    ]
    stored = [e.to_dict() for e in events] + [{"type": "TurnEnded", "turn": 3}]
    assert overlays_from_events(s, stored) == overlays_from_events(s, events)
