"""Memoir '44 in the channel: its front (bot/front.py).

How events are narrated (bot/memoir/narrate.py), what each pending decision says in the
slash commands a player types and which buttons answer it, and the report posted after
every turn: a one-line summary, the events, and the board image (render/memoir).

Everything here receives the state and events *as a viewer may see them*: in the public
view the hands are cards named "?" and the deck is face down, so nothing here can leak a
hand.  During the play step the engine offers no choices (they would name the cards);
the front offers a "My hand" button instead, which answers privately (/memoir hand).
"""

from __future__ import annotations

import shlex
from typing import Any, Mapping, Sequence

from bot.context import Attachment, Button
from bot.front import BaseFront, EventDict, Report, option_value
from bot.games import register_front
from bot.memoir import narrate
from bot.memoir.narrate import card_name, side_name
from engine.core.game import Pending
from engine.memoir.board import SEATS, relative_section
from engine.memoir.state import MemoirState
from engine.memoir.tables import card_kinds
from engine.memoir.turn import shown_medals
from render.memoir import board_png

KIND = "memoir"
G = "/memoir"


def memoir_state(state: Any) -> MemoirState:
    assert isinstance(state, MemoirState)
    return state


def board_image(state: MemoirState, events: Sequence[EventDict] = (), *, title: str | None = None,
                right: str | None = None, name: str = "board.png") -> Attachment:
    return Attachment(name, board_png(state, events=events, title=title, right=right))


def _hexes(words: Sequence[str]) -> str:
    """Hex names as one option value: ``"C6 D7"``, ``G4``, or ``none``."""
    return option_value(" ".join(w if w == "none" else w.upper() for w in words))


def turn_events(events: Sequence[EventDict]) -> list[EventDict]:
    """The events of a report without the turn markers that frame it."""
    return [e for e in events if e.get("type") not in ("TurnEnded", "StepClosed", "GameStarted", "CardsDealt")]


def _allowance(s: MemoirState) -> str:
    """What the card in play lets the active player order, in words (E-5, E-6)."""
    p = s.played
    if p is None:
        return "name the units you order"
    if p.fallback:
        return "no unit of its type on the board: order 1 unit of any type"
    c = card_kinds().get(p.effect)
    limit = c.limit if c is not None else None
    sections = [relative_section(x, s.active, s.top) for x in p.sections]
    where = ""
    if sections and len(sections) < 3:
        where = " in your " + " and ".join(sections) + (" sections" if len(sections) > 1 else " section")
    elif len(sections) == 3:
        where = " in each section" if c is not None and c.type == "section" else ""
    if limit == "all":
        return f"order every unit{where}" if where else "order every unit the card allows"
    if isinstance(limit, int):
        return f"order up to {limit} unit{'s' if limit != 1 else ''}{where}"
    return "name the units you order"


# How a player answers each pending decision of a battle (the engine's Fight.stage).
FIGHT_ANSWERS = {
    "ambush": "`/memoir decide ambush` or `/memoir decide pass`",
    "ignore": "`/memoir decide ignore flags:N`",
    "retreat": "`/memoir decide retreat to:HEX`",
    "take-ground": "`/memoir decide take-ground` or `/memoir decide hold`",
    "overrun": "`/memoir battle unit:… target:…` or `/memoir decide hold`",
}


class MemoirFront(BaseFront):
    kind = KIND
    group = "memoir"
    title = "Memoir '44"
    noun = "game"

    def seat_label(self, seat: str) -> str:
        return side_name(seat)

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]:
        return narrate.lines(events, state)

    # ---------------------------------------------------------------- orders as commands

    def slash(self, order: str) -> str | None:
        """The slash command a player types for an order in the engine's notation."""
        try:
            words = shlex.split(order.lower())
        except ValueError:
            return None
        if not words:
            return None
        verb, args = words[0], words[1:]
        if verb == "play" and args:
            if args[-1] in ("left", "centre", "right") and len(args) >= 2:
                return f"{G} play card:{args[0]} section:{args[-1]}"
            return f"{G} play card:{args[0]}"
        if verb == "order" and args:
            return f"{G} order units:{_hexes(args)}"
        if verb == "target" and args:
            return f"{G} target hexes:{_hexes(args)}"
        if verb == "move" and len(args) >= 2:
            path = f" path:{_hexes(args[3:])}" if len(args) > 3 and args[2] == "via" else ""
            return f"{G} move unit:{args[0].upper()} to:{args[1].upper()}{path}"
        if verb == "battle" and len(args) == 2:
            return f"{G} battle unit:{args[0].upper()} target:{args[1].upper()}"
        if verb == "clear-wire" and len(args) == 1:
            return f"{G} clear-wire unit:{args[0].upper()}"
        if verb == "done" and not args:
            return f"{G} done"
        if verb in ("ambush", "pass", "take-ground", "hold") and not args:
            return f"{G} decide {verb}"
        if verb == "ignore" and len(args) == 1:
            return f"{G} decide ignore flags:{args[0]}"
        if verb == "retreat" and len(args) == 1:
            return f"{G} decide retreat to:{args[0].upper()}"
        if verb == "discard" and len(args) == 1:
            return f"{G} decide discard card:{args[0]}"
        if verb == "standing" and len(args) == 1:
            return f"{G} decide standing setting:{args[0]}"
        if verb == "concede":
            return f"{G} concede"
        return None

    # ---------------------------------------------------------------- decisions

    def decision(self, state: Any, pending: Pending) -> str:
        s = memoir_state(state)
        d = pending.decision
        if s.fight is not None and s.fight.stage in FIGHT_ANSWERS:
            return f"{d} — {FIGHT_ANSWERS[s.fight.stage]}"
        if s.step == "play":
            return (f"turn {s.turn}: play a command card — `/memoir hand` (only you see it), then"
                    " `/memoir play card:…`")
        if s.step == "order":
            p = s.played
            what = card_name(p.effect) if p else "the card"
            if p is not None and p.effect in ("air-power", "barrage"):
                return f"{what}: name the target hexes — `/memoir target hexes:\"…\"`"
            return f"{what}: {_allowance(s)} — `/memoir order units:\"…\"`"
        if s.step == "move":
            return "move your ordered units — `/memoir move unit:… to:…`, then `/memoir done`"
        if s.step == "battle":
            return "battle with your ordered units — `/memoir battle unit:… target:…`, then `/memoir done`"
        if s.step == "recon":
            return "Recon: keep one of the two cards drawn — `/memoir hand`, then `/memoir decide discard card:1|2`"
        return d

    def buttons(self, state: Any, pending: Pending) -> tuple[Button, ...]:
        s = memoir_state(state)
        out: list[Button] = []
        for choice in pending.choices[:20]:
            line = self.slash(choice)
            if line is None or choice.startswith("discard"):
                continue
            words = choice.split()
            label = {"ambush": "Ambush!", "pass": "No ambush", "done": "Done", "take-ground": "Take ground",
                     "hold": "Hold", "order": "Order none", "target": "Target none"}.get(words[0], choice)
            if words[0] == "ignore":
                label = f"Ignore {words[1]} flag(s)"
            elif words[0] == "retreat":
                label = f"Retreat to {words[1].upper()}"
            elif words[0] == "battle":
                label = f"Overrun {words[2].upper()}"
            style = "danger" if words[0] in ("ambush", "battle") else ("primary" if pending.reaction else "secondary")
            out.append(Button(label, line, style))
        if s.step in ("play", "recon") and s.fight is None and pending.player == s.active:
            out.insert(0, Button("My hand", f"{G} hand", "primary"))
        return tuple(out)

    # ---------------------------------------------------------------- reports

    def phase_start(self, event: EventDict) -> bool:
        return event.get("type") == "TurnEnded"

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report:
        s = memoir_state(state)
        body = turn_events(events)
        played = next((e for e in body if e.get("type") == "CardPlayed"), None)
        if played is None:
            head = "📜 **The battlefield**"
            title = s.scenario.name
        else:
            head = f"📜 **{narrate.summary(body)}**"
            title = f"{s.scenario.name} · {side_name(str(played['seat']))} turn"
        if over and s.outcome is not None:
            title = f"{s.scenario.name} · {side_name(s.outcome.winner)} won"
        shown = max(1, s.turn - (0 if over else 1))  # the turn reported, not the one that follows
        right = "game over" if over else f"after turn {shown}"
        image = board_image(s, body, title=title, right=right, name=f"memoir-turn{shown}.png")
        return Report(head, tuple(self.narrate(body, s)), (image,))

    # ---------------------------------------------------------------- looking

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]:
        s = memoir_state(state)
        sc = s.scenario
        lines = [f"Scenario: **{sc.name}** ({sc.face}; {side_name(sc.top)} at the top)."]
        if sc.briefing:
            lines.append("> " + (sc.briefing if len(sc.briefing) <= 400 else sc.briefing[:399] + "…"))
        return lines

    def status(self, state: Any) -> list[str]:
        s = memoir_state(state)
        a, b = shown_medals(s)
        sc = s.scenario
        lines = [f"{sc.name} — turn {s.turn}, {side_name(s.active)} to play ({s.step} step)." if not s.over
                 else f"{sc.name} — over.",
                 f"🏅 Medals: Axis {a}/{sc.medals[0]}, Allies {b}/{sc.medals[1]}."]
        lines.append("🃏 Cards in hand: " + ", ".join(f"{side_name(seat)} {len(s.hands[i])}"
                                                    for i, seat in enumerate(SEATS))
                     + f"; deck {len(s.deck)}, discard pile {len(s.discard)}.")
        if s.played is not None:
            lines.append(f"Card in play: {card_name(s.played.effect)}.")
        if s.discard:
            lines.append("Discard pile (newest first): " + ", ".join(card_name(c.split('#')[0])
                                                                     for c in reversed(s.discard[-6:])) + ".")
        for seat in SEATS:
            units = sorted(s.units_of(seat), key=lambda u: (u.hex.r, u.hex.q))
            if units:
                lines.append(f"__{side_name(seat)}__: " + ", ".join(
                    f"{u.where} {u.type}{'*' if u.badge else ''} {u.figures}" for u in units))
        return lines


FRONT = register_front(MemoirFront())
