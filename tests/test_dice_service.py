"""The dice service: queued, handed-back and carried dice come before fresh ones."""

from __future__ import annotations

from bot.dice_service import DiceService


def test_seeded_games_are_reproducible_and_independent() -> None:
    a, b = DiceService(seed=4), DiceService(seed=4)
    assert a.for_game(1).dice.roll_many(10) == b.for_game(1).dice.roll_many(10)
    assert DiceService(seed=4).for_game(2).dice.roll_many(10) != DiceService(seed=4).for_game(1).dice.roll_many(10)


def test_queue_then_carry_then_fresh() -> None:
    svc = DiceService(seed=1)
    svc.queue([6, 6])
    order = svc.for_game(1, carry=[2, 3])
    assert order.dice.roll_many(4) == (6, 6, 2, 3)
    assert svc.settle(order, applied=True) == ()


def test_unused_values_go_back_where_they_came_from() -> None:
    svc = DiceService(seed=1)
    svc.queue([5, 4])
    order = svc.for_game(1, carry=[1, 2])
    assert order.dice.roll() == 5
    assert svc.settle(order, applied=True) == (1, 2)
    assert svc.queued == (4,)


def test_a_failed_order_hands_back_everything() -> None:
    svc = DiceService(seed=1)
    svc.queue([3])
    order = svc.for_game(7, carry=[2])
    rolled = order.dice.roll_many(4)
    assert rolled[:2] == (3, 2)
    assert svc.settle(order, applied=False) == (2,)  # carry unchanged
    assert svc.queued == (3,)  # the scripted value is still next
    retry = svc.for_game(7, carry=[2])
    assert retry.dice.roll_many(4) == rolled  # the fresh dice were not re-rolled


def test_quick_dice_use_the_queue() -> None:
    svc = DiceService(seed=1)
    svc.queue([1, 2, 3])
    order = svc.quick()
    assert order.dice.roll_many(2) == (1, 2)
    svc.settle(order, applied=True)
    assert svc.queued == (3,)
