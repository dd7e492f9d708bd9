"""Undo that cannot be used to fish for dice or to overrule the opponent.

The rule (README "Undo"; design.md):

- A player may take back **alone** only their own last order, and only if it rolled no
  dice (nobody has acted since: it is the last order in effect).
- Anything else — an order that rolled dice, the opponent's order, several orders —
  needs the **other side's agreement** (a button for them; no answer before the request
  expires means no), or a **moderator who holds no seat** in the game.
- Before anything is undone the asker sees exactly what would be undone and confirms.
- The dice an undone order rolled stay bound to the seat that rolled them: that seat's
  next order rolls the very same dice (bot/dice_service.py).
- Undo first replays the whole log and checks it reproduces the stored snapshot; a
  mismatch is a logged bug, never a silent rebuild.

This module decides who may undo what (:func:`plan`) and builds the changes; the
lifecycle commands (bot/lifecycle.py) talk to the players.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Mapping

from bot.context import Actor
from bot.dice_service import SYSTEM
from bot.session import Change, History, Loaded
from bot.storage.repository import GameUpdate, NewOrder, OrderRecord
from engine.core.game import PUBLIC
from engine.core.errors import IllegalOrder

REQUEST_LIFETIME = timedelta(hours=24)


@dataclass(frozen=True)
class UndoPlan:
    """What an undo of the last ``len(rows)`` orders would do, and who must agree."""

    rows: tuple[OrderRecord, ...]  # the orders taken back, oldest first
    target: int  # the log row whose state the game returns to
    state: Any  # that state
    requester_seats: tuple[str, ...]
    needs_agreement: bool
    reason: str  # why agreement is needed ("" when not)

    @property
    def dice(self) -> int:
        return sum(len(r.dice) for r in self.rows)


def plan(loaded: Loaded, history: History, actor: Actor, count: int) -> UndoPlan:
    """Which orders an undo of ``count`` orders by ``actor`` would take back, and whether
    the other side must agree.  Refuses what nobody may undo."""
    if loaded.game.status != "active":
        raise IllegalOrder(f"Only a game in progress can be undone (this one is {loaded.game.status}).")
    undoable = len(history.states) - 1
    if undoable < 1:
        raise IllegalOrder("There is no order to undo yet.")
    if count > undoable:
        raise IllegalOrder(f"Only {undoable} order{'s' if undoable > 1 else ''} can be undone.",
                           legal=[f"orders:{n}" for n in range(1, min(undoable, 5) + 1)])
    seqs = {seq for seq, _ in history.states[-count:]}
    rows = tuple(r for r in history.effective if r.seq in seqs)
    target, state = history.states[-count - 1]
    seats = tuple(loaded.game.seat_of(actor.id))
    if not seats:
        if not actor.is_moderator:
            raise IllegalOrder("Only the players of this game, or a moderator who holds no seat in"
                               " it, may undo orders.")
        return UndoPlan(rows, target, state, seats, False, "")
    reason = ""
    if count > 1:
        reason = "it takes back several orders"
    elif not rows[0].seat:
        reason = "it takes back a timeout"
    elif rows[0].seat not in seats:
        reason = "it takes back your opponent's order"
    elif rows[0].dice:
        reason = "that order rolled dice"
    elif any(loaded.rules.event_view(e, PUBLIC) != e for e in rows[0].events):
        # It showed its player something the other side cannot see (a card drawn): taking
        # it back alone would let them play again knowing it (E-19.6).
        reason = "that order showed you something secret"
    return UndoPlan(rows, target, state, seats, bool(reason), reason)


def positions_after(loaded: Loaded, rows: tuple[OrderRecord, ...]) -> dict[str, int]:
    """Each seat's dice position once ``rows`` are undone: their dice go back to the seat
    (stream) that rolled them."""
    used = Counter((r.seat or SYSTEM) for r in rows for _ in r.dice)
    positions = dict(loaded.game.dice_positions)
    for seat, n in used.items():
        positions[seat] = max(0, positions.get(seat, 0) - n)
    return positions


def undo_change(loaded: Loaded, undo: UndoPlan, actor: Actor, now: datetime,
                agreed_by: int | None = None) -> Change:
    """The change that performs an undo."""
    event = {"type": "OrdersUndone", "orders": len(undo.rows), "by": actor.id, "agreed_by": agreed_by,
             "seqs": [r.seq for r in undo.rows]}
    return Change(
        GameUpdate(snapshot=loaded.rules.dump_state(undo.state), status="active",
                   dice_positions=positions_after(loaded, undo.rows), waiting_since=now,
                   clear_reminded=True),
        (NewOrder(kind="undo", seat="", text=f"undo to {undo.target}", actor_id=actor.id,
                  events=[event]),),
        undo.state,
    )


def request_change(loaded: Loaded, undo: UndoPlan, actor: Actor, now: datetime) -> Change:
    """The change that records a request for the other side's agreement.  The request
    holds only while nothing else changes in the game (its version)."""
    request = {"by": actor.id, "seats": list(undo.requester_seats), "orders": len(undo.rows),
               "version": loaded.game.version + 1,
               "expires": (now + REQUEST_LIFETIME).isoformat(timespec="seconds")}
    return Change(GameUpdate(undo_request=request),
                  (NewOrder(kind="admin", seat="", text=f"undo request {len(undo.rows)}",
                            actor_id=actor.id),))


def live_request(loaded: Loaded, now: datetime) -> Mapping[str, Any] | None:
    """The pending undo request, if it still holds (nothing changed since, not expired)."""
    request = loaded.game.undo_request
    if not request or request.get("version") != loaded.game.version:
        return None
    if datetime.fromisoformat(str(request["expires"])) <= now:
        return None
    return request


def may_answer(loaded: Loaded, request: Mapping[str, Any], actor: Actor) -> bool:
    """The other side answers: a player of another team than the requester's seats, or a
    moderator who holds no seat."""
    seats = loaded.game.seat_of(actor.id)
    if not seats:
        return actor.is_moderator
    teams = {loaded.rules.team(s) for s in request.get("seats", ())}
    return any(loaded.rules.team(s) not in teams for s in seats)


def close_request(text: str, actor_id: int | None) -> Change:
    return Change(GameUpdate(), (NewOrder(kind="admin", seat="", text=text, actor_id=actor_id),))
