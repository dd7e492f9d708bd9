"""The dice service: per-seat streams from the game's secret key, scripted values first."""

from __future__ import annotations

from bot.dice_service import DiceService, stream_label
from engine.core.dice import stream_die

KEY = b"k" * 32


def test_a_seat_stream_is_a_pure_function_of_key_game_seat_and_position() -> None:
    a = DiceService().roller(KEY, "g1", "red", 0).order().roll_many(10)
    b = DiceService().roller(KEY, "g1", "red", 0).order().roll_many(10)
    assert a == b == tuple(stream_die(KEY, "g1/red", i, 6) for i in range(10))
    assert DiceService().roller(KEY, "g1", "blue", 0).order().roll_many(10) != a  # another seat
    assert DiceService().roller(KEY, "g2", "red", 0).order().roll_many(10) != a  # another game
    later = DiceService().roller(KEY, "g1", "red", 4).order().roll_many(6)
    assert later == a[4:]  # a position is a position


def test_positions_move_with_every_die_and_dice_record_their_sides() -> None:
    roller = DiceService().roller(KEY, "g1", "red", 3)
    first, second = roller.order(), roller.order()
    first.roll(6)
    second.roll(12)
    assert roller.position == 5
    assert [d.sides for d in first.rolled + second.rolled] == [6, 12]
    assert second.rolled[0].value == stream_die(KEY, stream_label("g1", "red"), 4, 12)


def test_scripted_values_come_first_and_go_back_when_the_change_is_not_stored() -> None:
    svc = DiceService()
    svc.queue([6, 5, 4])
    roller = svc.roller(KEY, "g1", "red", 0)
    assert roller.order().roll_many(2) == (6, 5)
    assert svc.queued == (4,)
    roller.give_back()
    assert svc.queued == (6, 5, 4)


def test_seeded_services_make_the_same_games() -> None:
    assert DiceService(seed=4).new_secret() == DiceService(seed=4).new_secret()
    svc = DiceService(seed=4)
    assert svc.new_secret() != svc.new_secret()
    uid, key = DiceService().new_secret()
    assert len(uid) == 16 and len(key) == 32


def test_quick_dice_use_the_queue() -> None:
    svc = DiceService(seed=1)
    svc.queue([1, 2, 3])
    dice = svc.quick()
    assert dice.roll_many(2) == (1, 2)
    svc.give_back_quick(dice)
    assert svc.queued == (3,)
