"""A game's *front*: everything about a game kind the channel sees, beside its rules.

The session, the scheduler, the lifecycle commands and both adapters talk to this
interface only; each game provides one (``bot/<game>/front.py``) and registers it
(:func:`bot.games.register_front`).  A front answers four questions:

- how the game's events are narrated (:meth:`Front.narrate`);
- which orders end a phase that deserves a report with an image, and how it is drawn
  (:meth:`Front.phase_start`, :meth:`Front.report`);
- what a pending decision says, in the slash commands a player types, and which buttons
  it offers (:meth:`Front.decision`, :meth:`Front.buttons`, :meth:`Front.slash`);
- what the channel is told when a game opens, and what ``status`` shows
  (:meth:`Front.opened`, :meth:`Front.status`);
- (optional) the replay of a finished game (:meth:`Front.replay`).

A front never decides what is secret: it is only ever handed the events and the state
*as a viewer may see them* (the engine's per-seat view, ``GameRules.view`` and
``event_view``), so it cannot leak what it never receives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Protocol, Sequence

from bot.context import Attachment, Button
from engine.core.game import Pending

EventDict = Mapping[str, Any]


def option_value(value: str) -> str:
    """An option value as a player types it in a command line (``Front.slash``, buttons):
    double-quoted, with ``\\`` and ``"`` escaped, when it holds spaces, commas or quotes;
    the inverse of :func:`bot.command_line.tokenize`."""
    if not re.search(r'[\s,"]', value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Report:
    """A phase report: a head line, its lines, and the images that go with it."""

    head: str
    lines: tuple[str, ...]
    images: tuple[Attachment, ...] = ()


class Front(Protocol):
    kind: str  # the engine's game kind
    group: str  # the slash-command group, e.g. "minis"
    title: str  # e.g. "A&A Miniatures"
    noun: str  # what one game is called: "battle", "game"
    # Seats that come with a seat when nobody has them yet (A&A: China with the United
    # States, as the rules suggest); naming them elsewhere first keeps them apart.
    companions: Mapping[str, tuple[str, ...]]

    def seat_label(self, seat: str) -> str: ...

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]: ...

    def decision(self, state: Any, pending: Pending) -> str: ...

    def buttons(self, state: Any, pending: Pending) -> tuple[Button, ...]: ...

    def slash(self, order: str) -> str | None: ...

    def phase_start(self, event: EventDict) -> bool: ...

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report: ...

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]: ...

    def status(self, state: Any) -> list[str]: ...

    def replay(self, reports: Sequence[Any]) -> Attachment | None: ...


class BaseFront:
    """Defaults for :class:`Front`; a game overrides what differs."""

    kind = ""
    group = ""
    title = ""
    noun = "game"
    companions: Mapping[str, tuple[str, ...]] = MappingProxyType({})

    def seat_label(self, seat: str) -> str:
        return seat.capitalize()

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]:
        return []

    def decision(self, state: Any, pending: Pending) -> str:
        return pending.decision

    def buttons(self, state: Any, pending: Pending) -> tuple[Button, ...]:
        """One button per direct answer, each running the slash command it stands for."""
        out: list[Button] = []
        for choice in pending.choices:
            line = self.slash(choice)
            if line is not None:
                out.append(Button(choice, line, "primary" if pending.reaction else "secondary"))
        return tuple(out)

    def slash(self, order: str) -> str | None:
        return None

    def phase_start(self, event: EventDict) -> bool:
        return False

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report:
        return Report("📜 **Report**", tuple(self.narrate(events, state)))

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]:
        return []

    def status(self, state: Any) -> list[str]:
        return []

    def replay(self, reports: Sequence[Any]) -> Attachment | None:
        """``/<group> replay``: an animated image of a finished game, one frame per phase
        report (``reports``: :class:`bot.replay.PhaseReport`, public view only, oldest
        first); None while the game has no replay."""
        return None
