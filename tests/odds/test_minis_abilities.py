"""Heavy Armor, Overheat and a second attack (Double Shot) computed exactly (issue 19),
checked by hand and against the engine's own resolution of every dice outcome
(engine/minis/attacks.py ``resolve``, ``HeavyArmorIgnored``, the Overheat
``UnitDisrupted``), two attacks played one after the other."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from engine.core.dice import scripted_dice
from engine.core.errors import DiceExhausted, IllegalOrder
from engine.minis.attacks import Plan, plan_attack, resolve
from engine.minis.defensive_fire import fire
from engine.minis.model import ALLIES
from engine.minis.events import Attacked, UnitDisrupted
from engine.minis.state import MinisState
from engine.odds.minis import COUNTERS, MinisAttack, counter_lists, minis_odds, summary
from engine.odds.minis_game import live_attack
from engine.odds.report import minis_extra_attack_line, minis_lines
from engine.minis.state import Phase
from tests.minis.helpers import ascii_map, battle, make_card, play
from tests.odds.helpers import CARDS, MAP, invoke

HOTGUN = make_card("hotgun", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Overheat"])
TWIN = make_card("twin", vs_s=(2, 2, 2), vs_v=(2, 2, 2), abilities=["Double Shot"])
TWIN_HOT = make_card("twin-hot", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Double Shot", "Overheat"])
KV = make_card("kv", side="allies", vehicle=True, defense=(1, 1), abilities=["Heavy Armor"])
GRUNT = make_card("grunt", side="allies", defense=(1, 1))
BLAZER = make_card("blazer", vehicle=True, vs_s=(2, 2, 2), vs_v=(2, 2, 2), abilities=["All Guns Blazing"])
EXTRA = (HOTGUN, TWIN, TWIN_HOT, KV, GRUNT, BLAZER)


def _state(placements: list) -> MinisState:  # type: ignore[type-arg]
    return battle(MAP, placements, phase=Phase.ASSAULT, extra_cards=CARDS + EXTRA)  # type: ignore[arg-type]


def _engine(state: MinisState, attacks: int, second: str = "normal") -> tuple[dict[str, F], F]:
    """Law of the target's counters after ``attacks`` attacks, and the chance the
    attacker overheats, by playing every dice sequence through the engine (the second
    attack of kind ``second``)."""
    counters = {c: F(0) for c in COUNTERS}
    hot = [F(0)]

    def explore(st: MinisState, left: int, prefix: list[int], w: F, overheated: bool) -> None:
        kind = "normal" if left == attacks else second
        plan = plan_attack(st, st.unit("ax1"), st.unit("al1"), kind=kind)
        assert isinstance(plan, Plan)
        try:
            after, events, _ = resolve(st, plan, scripted_dice(prefix))
        except DiceExhausted:
            for v in range(1, 7):
                explore(st, left, prefix + [v], w, overheated)
            return
        w2 = w * F(1, 6 ** len(prefix))
        assert any(isinstance(e, Attacked) for e in events)
        now_hot = overheated or any(isinstance(e, UnitDisrupted) and e.reason == "Overheat" for e in events)
        if left > 1:
            explore(after, left - 1, [], w2, now_hot)
            return
        counters[summary([h.value for h in after.unit("al1").hits])] += w2
        if now_hot:
            hot[0] += w2

    explore(state, attacks, [], F(1), False)
    return counters, hot[0]


def test_heavy_armor_ignores_the_first_damaged_counter() -> None:
    a = MinisAttack(dice=3, defense=1, heavy_armor=True)
    # Three hits on a fresh Heavy Armor vehicle: Disrupted, (Damaged ignored), Damaged.
    assert counter_lists(a, 3, covered=False) == {(("disrupted", "damaged"), False): 1}
    assert counter_lists(a, 2, covered=False) == {(("disrupted",), False): 1}
    assert counter_lists(a, 1, covered=False) == {(("disrupted",), True): 1}
    odds = minis_odds(a)
    plain = minis_odds(MinisAttack(dice=3, defense=1))
    assert odds.counters["destroyed"] == 0 and plain.counters["destroyed"] == plain.hits[3]
    assert odds.counters["damaged"] == odds.hits[3]
    assert odds.heavy_armor_chance == odds.hits[2] + odds.hits[3]


def test_heavy_armor_is_for_vehicles_only() -> None:
    with pytest.raises(IllegalOrder):
        minis_odds(MinisAttack(dice=3, defense=1, target="soldier", heavy_armor=True))


def test_overheat_is_three_natural_ones() -> None:
    odds = minis_odds(MinisAttack(dice=5, defense=3, overheat=True))
    none = F(5, 6) ** 5 + 5 * F(1, 6) * F(5, 6) ** 4 + 10 * F(1, 6) ** 2 * F(5, 6) ** 3
    assert odds.overheat_chance == 1 - none
    assert minis_odds(MinisAttack(dice=5, defense=3)).overheat_chance is None


def test_double_shot_by_hand() -> None:
    # One die at defense 1 (a Soldier): 1/2 a hit (Disrupted); a second Disrupted counter
    # on it is Destroyed (M-9.1).
    odds = minis_odds(MinisAttack(dice=1, defense=1, target="soldier", attacks=2))
    assert odds.counters == {"none": F(1, 4), "disrupted": F(1, 2), "damaged": 0, "destroyed": F(1, 4)}
    assert odds.second_hits == {0: F(1, 2), 1: F(1, 2), 2: 0, 3: 0}


@pytest.mark.parametrize(
    ("card", "target", "attacks"),
    [
        (HOTGUN, KV, 1),  # Heavy Armor and Overheat, one attack
        (TWIN, KV, 2),  # Double Shot against Heavy Armor
        (TWIN_HOT, GRUNT, 2),  # Double Shot, the second attack disrupted after Overheat
        (TWIN_HOT, KV, 2),
    ],
)
def test_live_odds_equal_the_engine(card: object, target: object, attacks: int) -> None:
    s = _state([("ax1", card, "C7"), ("al1", target, "C6", "N")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack.attacks == attacks
    odds = minis_odds(live.attack)
    counters, hot = _engine(s, attacks)
    assert dict(odds.counters) == counters
    if live.attack.overheat:
        assert odds.overheat_chance == hot and hot > 0


def test_all_guns_blazing_extra_attack_at_the_same_soldier_equals_the_engine() -> None:
    s = _state([("ax1", BLAZER, "C7"), ("al1", GRUNT, "C6", "N")])
    live = live_attack(s, "ax1", "al1")
    assert live.attack.attacks == 1 and live.extra_attack is not None
    assert live.extra_attack == replace(live.attack, attacks=2)
    counters, _ = _engine(s, 2, second="guns")  # the normal attack, then the "guns" one
    assert dict(minis_odds(live.extra_attack).counters) == counters
    assert dict(minis_odds(live.attack).counters) == _engine(s, 1)[0]
    assert any("All Guns Blazing" in n for n in live.notes)
    line = minis_extra_attack_line(minis_odds(live.extra_attack))
    assert line.startswith("With the All Guns Blazing extra attack at it too: no effect ")
    assert f"destroyed {float(counters['destroyed']):.1%}" in line
    # Against a Vehicle there is no extra attack.
    tank = _state([("ax1", BLAZER, "C7"), ("al1", KV, "C6", "N")])
    assert live_attack(tank, "ax1", "al1").extra_attack is None


def test_cli_numbers_form(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bot.cli import main

    assert main(["odds", "minis", "--dice", "1", "--defense", "1", "--target", "soldier",
                 "--double-shot", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["counters"]["destroyed"] == pytest.approx(0.25)
    assert data["second_hits"] == {"0": 0.5, "1": 0.5, "2": 0.0, "3": 0.0}


async def test_discord_numbers_form_shows_the_new_lines() -> None:
    msg = await invoke("odds minis", dice="5", defense="2", heavy_armor=True, overheat=True, double_shot=True)
    assert "Second attack (Double Shot)" in msg.text
    assert "Heavy Armor used up" in msg.text
    assert "Overheat (three natural 1s disrupt the attacker)" in msg.text


async def test_discord_cannon_is_for_two_units_of_a_game() -> None:
    from engine.core.errors import NotationError

    with pytest.raises(NotationError) as err:
        await invoke("odds minis", dice="4", defense="5", cannon=True)
    assert "/odds minis attacker:ax1 target:al1 cannon:true" in err.value.text()


def test_defensive_double_shot_stops_after_a_shot_that_takes_effect() -> None:
    # 3 dice at 4+ against a Soldier of defense 1, defensive fire, Double Shot and
    # Overheat.  The first shot stops the mover with any success (7/8); three 1s (1/216)
    # disrupt the gun, which then cannot fire defensively (M-8.1, M-12.2).  So the second
    # is made only after a first with no success and no Overheat (1/8 - 1/216, M-12.4;
    # engine/minis/defensive_fire.fire).  The calculator made the second shot from every
    # first result: the second shot's hit 87.4 % instead of 10.5 %.
    odds = minis_odds(MinisAttack(dice=3, defense=1, target="soldier", defensive_fire=True, overheat=True,
                                  attacks=2))  # fmt: skip
    cold = F(1, 8) - F(1, 216)
    assert odds.second_made == cold
    assert odds.second_hits == {0: cold / 8, 1: cold * F(7, 8), 2: 0, 3: 0}
    assert odds.counters["disrupted"] == F(7, 8) + cold * F(7, 8)
    # Three 1s on the first shot, or on the second after a first without success or
    # Overheat.
    assert odds.overheat_chance == F(1, 216) + cold * F(1, 216)
    line = [ln for ln in minis_lines(odds) if ln.startswith("Second attack")][0]
    assert line.startswith("Second attack (Double Shot): not made 88.0% (the first shot stopped the mover, or "
                           "Overheat disrupted the gun) · ")  # fmt: skip


def test_defensive_double_shot_without_overheat_names_the_one_reason() -> None:
    # No Overheat: the second shot is missing only where the first stopped the mover (M-12.4).
    odds = minis_odds(MinisAttack(dice=3, defense=1, target="soldier", defensive_fire=True, attacks=2))
    assert odds.second_made == F(1, 8)
    line = [ln for ln in minis_lines(odds) if ln.startswith("Second attack")][0]
    assert line.startswith("Second attack (Double Shot): not made 87.5% (the first shot stopped the mover) · ")


MOVE_MAP = ascii_map("""
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
""")
TWIN_DF = make_card("twin-df", vs_s=(3, 3, 3), vs_v=(3, 3, 3), abilities=["Double Shot", "Overheat"])


def test_defensive_double_shot_equals_the_engine() -> None:
    # The Soldier moves D1 -> D2 and provokes the Double Shot gun in C2: every dice
    # sequence of its defensive fire (engine/minis/defensive_fire.fire: the second shot
    # only while the mover is not stopped) against the calculator's live form.
    s = battle(MOVE_MAP, [("al1", GRUNT, "D1", "N"), ("ax1", TWIN_DF, "C2")], phase=Phase.MOVEMENT,
               active=ALLIES, first=ALLIES, extra_cards=CARDS + EXTRA + (TWIN_DF,))  # fmt: skip
    s, _ = play(s, ALLIES, "move al1 D2")
    assert s.move is not None and s.move.stage == "leaving"
    live = live_attack(s, "ax1", "al1", defensive=True)
    assert live.attack.attacks == 2 and live.attack.defensive_fire and live.attack.overheat
    odds = minis_odds(live.attack)
    effect = {c: F(0) for c in COUNTERS}
    hot = [F(0)]
    made = [F(0)]

    def explore(prefix: list[int]) -> None:
        try:
            after, events, stopped = fire(s, "ax1", "leaving", scripted_dice(prefix), standing=None)
        except DiceExhausted:
            for v in range(1, 7):
                explore(prefix + [v])
            return
        w = F(1, 6 ** len(prefix))
        mover = after.unit("al1")
        effect["destroyed" if not mover.on_map else "disrupted" if stopped else "none"] += w
        if any(isinstance(e, UnitDisrupted) and e.reason == "Overheat" for e in events):
            hot[0] += w
        if sum(isinstance(e, Attacked) for e in events) == 2:
            made[0] += w

    explore([])
    assert dict(odds.counters) == effect
    assert odds.overheat_chance == hot[0] and hot[0] > 0
    assert odds.second_made == made[0] and 0 < made[0] < 1
