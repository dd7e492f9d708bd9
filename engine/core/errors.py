"""The one root for everything a player can fix.

A :class:`PlayerError` says what is wrong and, where it helps, what would be legal.
It is safe to show to the player as it is.  Any other exception is a bug.
"""

from __future__ import annotations

from typing import Iterable

_MAX_LEGAL_SHOWN = 12


class PlayerError(Exception):
    """Something the player can fix: a bad order, a wrong turn, a bad name."""

    legal_label = "Legal"

    def __init__(self, message: str, *, legal: Iterable[str] = ()) -> None:
        self.message = message
        self.legal: tuple[str, ...] = tuple(legal)
        super().__init__(self.text())

    def text(self) -> str:
        if not self.legal:
            return self.message
        shown = list(self.legal[:_MAX_LEGAL_SHOWN])
        more = len(self.legal) - len(shown)
        tail = f" (and {more} more)" if more > 0 else ""
        message = self.message if self.message.endswith((".", "!", "?", ":")) else self.message + "."
        return f"{message} {self.legal_label}: {', '.join(shown)}{tail}."


class NotationError(PlayerError):
    """The text of an order, a hex label, a dice expression … cannot be read."""

    legal_label = "Write it like"


class IllegalOrder(PlayerError):
    """The order is understood but the rules forbid it now."""


class NotYourTurn(IllegalOrder):
    """Someone else must act now."""


class UnknownName(PlayerError):
    """A unit, map, scenario or option name that does not exist."""


class DataError(PlayerError):
    """A data file (custom map, custom units, scenario) is invalid."""


class DiceExhausted(Exception):
    """Scripted or replayed dice ran out: a bug in a test or a corrupted order log,
    never a player's fault."""
