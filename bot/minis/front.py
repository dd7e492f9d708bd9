"""A&A Miniatures in the channel: its front (bot/front.py).

How Minis events are narrated (bot/minis/narrate.py), which orders end a phase worth a
map (a ``PhaseStarted``, the victory), how the phase report and its images are drawn,
what a pending decision says in the slash commands a player types, and which buttons it
offers.  Everything here receives the state and events as a viewer may see them.
"""

from __future__ import annotations

import shlex
from typing import Any, Mapping, Sequence

from bot.context import Attachment, Button
from bot.front import BaseFront, EventDict, Report, option_value
from bot.games import register_front
from bot.minis import narrate
from bot.minis.narrate import side_name
from engine.core.errors import NotationError, PlayerError, UnknownName
from engine.core.game import Pending
from engine.core.hexgrid import Hex
from engine.minis.state import MinisState, Phase, UnitState
from engine.minis.victory import controller
from render.minis import board, phase_images, png, replay, title_for, zoom
from render.minis.replay import MAX_BYTES, REPLAY_RADIUS

KIND = "minis"


def minis_state(state: Any) -> MinisState:
    assert isinstance(state, MinisState)
    return state


def find_unit(state: MinisState, text: str) -> UnitState:
    """A unit of this (viewer's) state by id: an unknown unit and one the viewer may not
    see get the same answer, so nothing leaks (M-2.5)."""
    key = text.strip().lower()
    for u in state.units:
        if u.id == key:
            return u
    raise UnknownName(f"There is no unit '{text.strip()[:20]}' on the map.",
                      legal=sorted((u.id for u in state.units if u.on_map),
                                   key=lambda i: (i[:2], int(i[2:]))))


def board_image(state: MinisState, *, overlays: Sequence[Any] = (), title: str | None = None,
                name: str = "board.png") -> Attachment:
    return Attachment(name, png(board(state, overlays=tuple(overlays), title=title)))


def report_head(events: Sequence[EventDict]) -> str:
    phases = [e for e in events if e["type"] == "PhaseStarted"]
    if not phases:
        return "📜 **Set-up report**"
    named = [f"{p['phase']} phase" + (f" ({side_name(p['active'])})" if p.get("active") else "")
             for p in phases]
    return f"📜 **Turn {phases[0]['turn']}, {' and '.join(named)} — report**"


def image_name(events: Sequence[EventDict], suffix: str = "") -> str:
    """``turn3-assault-allies.png`` (``suffix="closeup"``: ``turn3-assault-allies-closeup.png``)."""
    first = next((e for e in events if e["type"] == "PhaseStarted"), None)
    if first is None:
        stem = "setup"
    else:
        side = f"-{first['active']}" if first.get("active") else ""
        stem = f"turn{first['turn']}-{first['phase']}{side}"
    return f"{stem}-{suffix}.png" if suffix else f"{stem}.png"


def report_images(state: MinisState, events: Sequence[EventDict]) -> tuple[Attachment, ...]:
    """The images of a phase report: the whole map titled with the phase reported, and
    (when something moved or fired) the close-up of where it happened, sized to read on
    a phone.  ``state`` and ``events`` are what the public may see."""
    pictures = phase_images(state, events)
    out = [Attachment(image_name(events), png(pictures.board.image))]
    if pictures.closeup is not None:
        out.append(Attachment(image_name(events, "closeup"), png(pictures.closeup.image)))
    return tuple(out)


def zoom_hex(state: MinisState, text: str) -> Hex:
    """The centre of ``/minis map zoom:F7``: a hex of this map, else a player error giving
    the map's extent and commands that would work (nothing is drawn)."""
    m = state.map
    try:
        return m.parse_hex(text)
    except PlayerError:
        raise NotationError(f"'{text.strip()[:12]}' is not a hex of the map {m.name}: {extent(state)}.",
                            legal=zoom_examples(state)) from None


def zoom_image(state: MinisState, centre: Hex, overlays: Sequence[Any] = ()) -> Attachment:
    """The area around ``centre`` at close-up scale, with the ``overlays`` that touch it."""
    return Attachment(f"zoom-{state.map.label(centre)}.png", png(zoom(state, centre, overlays=overlays).image))


def replay_image(reports: Sequence[tuple[MinisState, Sequence[EventDict]]]) -> Attachment:
    """``battle-replay.gif``: one frame per report (state after it, its public events),
    named with the phases it reports ("Set-up" for the first); drawn smaller if it would
    pass Discord's 8 MB limit."""
    frames = [(title_for(events) or "Set-up", state, events) for state, events in reports]
    data = b""
    for radius in (REPLAY_RADIUS, REPLAY_RADIUS * 0.75, REPLAY_RADIUS * 0.5):
        data = replay(frames, hex_radius=radius)
        if len(data) < MAX_BYTES:
            break
    return Attachment("battle-replay.gif", data)


def extent(state: MinisState) -> str:
    """The map's extent, e.g. "columns A–S, rows 1–16"."""
    m = state.map
    last = m.label(m.labels.from_offset(m.cols - 1, m.rows - 1))
    letters = "".join(ch for ch in last if ch.isalpha())
    return f"columns A–{letters}, rows 1–{m.rows}"


def zoom_examples(state: MinisState) -> tuple[str, ...]:
    m = state.map
    first = m.label(m.labels.from_offset(0, 0))
    middle = m.label(m.labels.from_offset(m.cols // 2, m.rows // 2))
    last = m.label(m.labels.from_offset(m.cols - 1, m.rows - 1))
    return tuple(f"/minis map zoom:{x}" for x in (first, middle, last))


class MinisFront(BaseFront):
    kind = KIND
    group = "minis"
    title = "A&A Miniatures"
    noun = "battle"

    def seat_label(self, seat: str) -> str:
        return side_name(seat)

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]:
        return narrate.lines(events, minis_state(state))

    # ---------------------------------------------------------------- orders as commands

    def slash(self, order: str) -> str | None:
        """The slash command a player types for an order in the engine's notation."""
        try:
            words = shlex.split(order)
        except ValueError:
            return None
        if not words:
            return None
        verb, args = words[0].lower(), words[1:]
        g = "/minis"
        if verb == "army":
            return f"{g} army units:{option_value(' '.join(args))}" if args else f"{g} army"
        if verb == "ready" and not args:
            return f"{g} army ready:true"
        if verb in ("first", "second") and not args:
            return f"{g} initiative choice:{verb}"
        if verb in ("map", "objective", "end") and len(args) == 1:
            return f"{g} deploy {verb}:{args[0]}"
        if verb == "deploy" and len(args) >= 2:
            if args[1] == "aboard" and len(args) == 3:
                return f"{g} deploy unit:{args[0]} aboard:{args[2]}"
            face = f" face:{args[3]}" if len(args) == 4 and args[2] == "face" else ""
            return f"{g} deploy unit:{args[0]} to:{args[1]}{face}"
        if verb == "done" and not args:
            return f"{g} done"
        if verb == "move" and len(args) >= 2:
            rest = args[2:]
            face = ""
            if len(rest) >= 2 and rest[-2] == "face":
                face, rest = f" face:{rest[-1]}", rest[:-2]
            path = f' path:"{" ".join(rest[1:])}"' if rest[:1] == ["via"] else ""
            return f"{g} move unit:{args[0]} to:{args[1]}{path}{face}"
        if verb == "face" and len(args) == 2:
            return f"{g} face unit:{args[0]} facing:{args[1]}"
        if verb == "attack" and len(args) >= 2:
            flags = "".join(f" {f}:true" for f in args[2:] if f in ("cannon", "ap"))
            return f"{g} attack unit:{args[0]} target:{args[1]}{flags}"
        if verb == "board" and len(args) == 2:
            return f"{g} transport board unit:{args[0]} transport:{args[1]}"
        if verb == "dismount" and len(args) == 1:
            return f"{g} transport dismount unit:{args[0]}"
        if verb == "demolish" and args:
            return f"{g} demolish unit:{args[0]}" + (f" across:{args[1]}" if len(args) > 1 else "")
        if verb == "fire" and len(args) == 2:
            return f"{g} defend fire unit:{args[0]} at:{args[1]}"
        if verb == "hold" and not args:
            return f"{g} defend hold"
        if verb == "standing" and len(args) == 2:
            return f"{g} defend standing unit:{args[0]} policy:{args[1]}"
        if verb == "concede":
            return f"{g} concede"
        return None

    # ---------------------------------------------------------------- decisions

    def decision(self, state: Any, pending: Pending) -> str:
        s = minis_state(state)
        if pending.reaction:
            return (f"{pending.decision} — fire with a unit (buttons below or /minis defend fire),"
                    " or /minis defend hold")
        if s.phase is Phase.ARMIES:
            return "build your army in secret with /minis army units:…, then /minis army ready:true"
        if s.chooser is not None:
            what = "the coin toss" if s.phase is Phase.DEPLOYMENT else f"the initiative for turn {s.turn}"
            return f"you won {what}: /minis initiative choice:first or choice:second"
        if s.phase is Phase.DEPLOYMENT:
            return "deploy with /minis deploy unit:… to:…, then /minis done"
        if s.phase in (Phase.MOVEMENT, Phase.ASSAULT):
            verbs = "/minis move" if s.phase is Phase.MOVEMENT else "/minis attack or /minis move"
            return f"your {s.phase.value} phase (turn {s.turn}): {verbs} …, then /minis done"
        return pending.decision

    def buttons(self, state: Any, pending: Pending) -> tuple[Button, ...]:
        out: list[Button] = []
        for choice in pending.choices:
            words = choice.split()
            line = self.slash(choice)
            if line is None:
                continue
            if words[0] == "fire" and len(words) == 3:
                out.append(Button(f"{words[1]} fires ({words[2]} hex)", line, "danger"))
            elif words == ["hold"]:
                out.append(Button("Hold fire", line, "secondary"))
            elif words[0] in ("first", "second"):
                out.append(Button(f"Go {words[0]}", line, "primary"))
        return tuple(out)

    # ---------------------------------------------------------------- reports

    def phase_start(self, event: EventDict) -> bool:
        return event.get("type") == "PhaseStarted"

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report:
        s = minis_state(state)
        body = [e for e in events if e["type"] != "PhaseStarted" or e is not events[0]]
        return Report(report_head(events), tuple(self.narrate(body, s)), report_images(s, events))

    def replay(self, reports: Sequence[Any]) -> Attachment | None:
        """The battle as an animated GIF, one frame per phase report, each titled with the
        phase it shows; drawn smaller if it would pass Discord's 8 MB limit."""
        return replay_image([(minis_state(r.state), r.events) for r in reports])

    # ---------------------------------------------------------------- looking

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]:
        s = minis_state(state)
        return [f"Scenario: {s.scenario}"
                + (f", {options['points']} points" if "points" in options else "")
                + (f", units of {options['year']} or earlier" if "year" in options else "")
                + (", historical armies" if options.get("historical") else "") + "."]

    def status(self, state: Any) -> list[str]:
        s = minis_state(state)
        lines = [f"Scenario {s.scenario}, map “{s.map.name}”."]
        if s.phase is not Phase.OVER:
            lines.append(f"Turn {s.turn}, {s.phase.value} phase"
                         + (f", {side_name(s.active)} active" if s.active else "") + ".")
        for obj in s.objectives:
            lines.append(f"Objective {s.map.label(obj)}: held by {side_name(controller(s, obj))}.")
        shown = [u for u in s.units if not u.destroyed and (u.on_map or u.carried_by)]
        for side in ("axis", "allies"):
            mine = [u for u in shown if u.side == side]
            if mine:
                lines.append(f"__{side_name(side)}__")
                lines.extend(unit_line(s, u) for u in mine)
        return lines


def unit_line(state: MinisState, u: UnitState) -> str:
    card = state.cards[u.card]
    where = state.map.label(u.hex) if u.hex is not None else "off map"
    marks = []
    if u.carried_by:
        marks.append(f"aboard {u.carried_by}")
    if card.is_vehicle and u.facing is not None and not u.carried_by:
        marks.append(f"facing {state.map.labels.direction_name(u.facing)}")
    if u.disrupted:
        marks.append("disrupted")
    if u.damaged:
        marks.append("damaged")
    if u.hits:
        marks.append(f"{len(u.hits)} face-down hit{'s' if len(u.hits) > 1 else ''}")
    return f"{u.id} {card.name} — {where}" + (f" ({', '.join(marks)})" if marks else "")


FRONT = register_front(MinisFront())
