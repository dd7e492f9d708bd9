"""The league's player-fixable errors: subclasses of the engine's one root
(:class:`~engine.core.errors.PlayerError`), so the bot's central handler shows them as
they are.  Each message says what is wrong and what would be legal, written as the
slash command a player would type (``/league join name:…``)."""

from __future__ import annotations

from engine.core.errors import IllegalOrder, NotationError, UnknownName


class LeagueRuleError(IllegalOrder):
    """The request is understood but the league's state forbids it now (sign-ups closed,
    a result already recorded, results still missing, …)."""


class NotLeagueModerator(IllegalOrder):
    """Only a league moderator (the organiser, a named moderator or the server's
    moderator role) may do this."""


class UnknownLeagueName(UnknownName):
    """A player, round or board that is not in the league."""


class LeagueNotationError(NotationError):
    """A result, scoring or tiebreak text that cannot be read."""
