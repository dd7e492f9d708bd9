"""The rulebook's worked examples, rebuilt on our own boards with scripted dice."""

from __future__ import annotations

from engine.minis.attacks import attacked_from_front
from engine.minis.events import Attacked, CoverRoll, DefensiveFireEvent, Moved
from engine.minis.game import pending
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, Phase

from .helpers import L, PAK38, PANZER, SHERMAN, ascii_map, battle, hx, of_type, open_map, play


def test_m7_10_sherman_fires_at_a_panzer_four_hexes_away() -> None:
    # Panzer IV in F8 facing north; the Sherman 4 hexes straight ahead in F4: medium
    # range, 11 dice against Vehicles, front defense 5.
    s = battle(open_map(), [("ax1", PANZER, "F8", "N"), ("al1", SHERMAN, "F4", "S")],
               phase=Phase.ASSAULT, active=ALLIES)
    s, events = play(s, ALLIES, "attack al1 ax1", [6, 6, 6, 5, 4, 4, 3, 3, 3, 1, 1])
    (a,) = of_type(events, Attacked)
    assert (a.range, a.band, len(a.dice)) == (4, "medium", 11)
    assert a.successes == 6 and a.defense == 5 and a.front is True
    assert a.hits == 2 and a.counters == ("disrupted", "damaged")
    assert s.unit("ax1").hits == (Hit.DISRUPTED, Hit.DAMAGED)
    # Face-down: the Panzer is not disrupted or damaged until the casualty phase.
    assert not s.unit("ax1").disrupted and not s.unit("ax1").damaged


# The defensive-fire example: a PAK 38 in a town; the Sherman starts in the town hex
# next to it (D5), drives into the PAK's hex (E5) — the Axis player holds fire — then
# turns and leaves into the clear hex F5, where the PAK shoots it in the rear.
DF_MAP = ascii_map("""
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . T T . . .
. . . . . . . .
. . . . . . . .
""")


def _df_start() -> object:
    return battle(DF_MAP, [("ax1", PAK38, "E5"), ("al1", SHERMAN, "D5", "N")], phase=Phase.MOVEMENT, active=ALLIES)


def test_defensive_fire_example_step_1_m12_3_front_then_rear_and_the_axis_holds() -> None:
    s = _df_start()
    s, events = play(s, ALLIES, "move al1 F5 via E5")
    assert events == ()  # nothing happens until the Axis player answers
    (p,) = pending(s)
    assert p.player == AXIS and p.reaction
    assert set(p.choices) == {"fire ax1 leaving", "fire ax1 entering", "hold"}
    # Facing the hex it enters (E5): the PAK in E5 sees the front from D5 (front arc),
    # and the rear from its own hex (M-12.3, M-7.9).
    sherman = s.unit("al1")
    assert sherman.facing == hx("D5").direction_to(hx("E5")) == L.parse_direction("NE")
    assert attacked_from_front(s, sherman, hx("E5")) is True
    s, events = play(s, AXIS, "hold")
    (p,) = pending(s)
    assert s.unit("al1").hex == hx("E5")
    assert attacked_from_front(s, s.unit("al1"), hx("E5")) is False  # same hex: rear
    assert set(p.choices) == {"fire ax1 entering", "hold"}
    s, events = play(s, AXIS, "hold")
    # Step 2: E5 → F5 provokes again (adjacent before and after).
    (p,) = pending(s)
    assert set(p.choices) == {"fire ax1 leaving", "fire ax1 entering", "hold"}


def test_defensive_fire_example_step_2_rear_shot_without_cover_stops_the_sherman() -> None:
    s = _df_start()
    s, _ = play(s, ALLIES, "move al1 F5 via E5")
    s, _ = play(s, AXIS, "hold")
    s, _ = play(s, AXIS, "hold")
    # Fire when the Sherman is out of the town: 11 dice against rear defense 4, no cover.
    s, events = play(s, AXIS, "fire ax1 entering", [6, 5, 4, 4, 3, 3, 2, 2, 1, 1, 1])
    (a,) = of_type(events, Attacked)
    assert (a.kind, a.band, len(a.dice), a.defense, a.front) == ("defensive", "short", 11, 4, False)
    assert a.successes == 4 and a.effect == "disrupted" and not of_type(events, CoverRoll)
    (d,) = of_type(events, DefensiveFireEvent)
    assert d.stopped and d.at == hx("F5") and d.where == "entering"
    (mv,) = of_type(events, Moved)
    assert mv.stopped == "defensive fire" and mv.path == (hx("D5"), hx("E5"), hx("F5"))
    sherman = s.unit("al1")
    assert sherman.hex == hx("F5") and sherman.disrupted  # face-up at once (M-12.4)
    assert sherman.facing == hx("E5").direction_to(hx("F5"))
    assert pending(s)[0].player == ALLIES and s.move is None
    assert "ax1" in s.flags.df_fired


def test_defensive_fire_example_three_successes_do_not_stop_it() -> None:
    s = _df_start()
    s, _ = play(s, ALLIES, "move al1 F5 via E5")
    s, _ = play(s, AXIS, "hold")
    s, _ = play(s, AXIS, "hold")
    s, events = play(s, AXIS, "fire ax1 entering", [6, 5, 4, 3, 3, 3, 2, 2, 1, 1, 1])
    assert of_type(events, Attacked)[0].successes == 3
    assert s.unit("al1").hex == hx("F5") and not s.unit("al1").disrupted
    assert of_type(events, Moved)[0].stopped is None
