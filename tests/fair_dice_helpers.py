"""The opening of a provably fair dice race and who rolls first in it, shared by the fair
dice tests through the local channel (tests/test_fair_dice.py) and through the Discord
adapter (tests/test_fair_dice_discord.py)."""

from __future__ import annotations

from bot.dice_service import DiceService
from engine.core.dice import stream_die

OPEN = """\
alice: /race new side:red target:12
!expect Dice commitment:
alice: /race join entropy:"the crows fly at dawn"
!expect Their entropy is recorded
bob: /race join side:blue entropy:"bob 4471"
!expect the game begins
alice: /race secret number:2
bob: /race secret number:3
"""
SEED = 7


def starter(seed: int = SEED) -> tuple[str, str]:
    """Who rolls first in the first race of a service seeded with ``seed`` (the creation's
    die of the setup stream: 1 = red, alice), and the other player."""
    uid, key = DiceService(seed=seed).new_secret()
    return ("alice", "bob") if stream_die(key, f"{uid}/setup", 0, 2) == 1 else ("bob", "alice")
