"""A finished game's phase reports, rebuilt from its order log, for ``/<game> replay``.

The stored log is re-run through the engine (:meth:`bot.session.Sessions.history`, which
checks that it reproduces the stored snapshot), and cut into phase reports exactly as the
bot cut them while the game was played (:func:`bot.present.ended_phases`): one report
after every order that started a phase or ended the game.  Every report is what the
public saw — the engine's public view of the state and of the events — so a replay shows
nothing the channel was not shown.  The game's front turns the reports into an image
(:meth:`bot.front.BaseFront.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from bot.front import EventDict, Front
from bot.present import ended_phases
from bot.session import History
from engine.core.game import PUBLIC, GameRules, visible_events


@dataclass(frozen=True)
class PhaseReport:
    """One phase report as the public saw it: the state after it and its events."""

    state: Any
    events: tuple[EventDict, ...]


def phase_reports(front: Front, rules: GameRules[Any], history: History) -> list[PhaseReport]:
    """The reports of a game's log, oldest first (public view only).  A game that ended
    without a report of its own (a concession, a forfeit) gets one last report of the
    phase it ended in."""
    states = dict(history.states)
    flat: list[EventDict] = []
    reports: list[PhaseReport] = []
    covered = 0
    last_state: Any = None
    for row in history.effective:
        flat.extend(row.events)
        state = states.get(row.seq)
        if state is None or row.kind not in ("new", "order", "timeout"):
            continue
        last_state = state
        if row.kind == "new":
            continue
        over = rules.outcome(state) is not None
        if not (over or any(front.phase_start(e) for e in row.events)):
            continue
        events = ended_phases(front, flat, len(row.events), over=over)
        reports.append(_public(rules, state, events))
        covered = len(flat)
        if over:
            break
    if last_state is not None and covered < len(flat):
        begin = max((i for i, e in enumerate(flat) if front.phase_start(e)), default=0)
        reports.append(_public(rules, last_state, flat[begin:]))
    return reports


def _public(rules: GameRules[Any], state: Any, events: Sequence[EventDict]) -> PhaseReport:
    return PhaseReport(rules.view(state, PUBLIC), tuple(visible_events(rules, events, PUBLIC)))
