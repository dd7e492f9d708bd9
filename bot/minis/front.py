"""A&A Miniatures in the channel: orders through the session, then the answer.

``order`` is what every game command calls: the session applies the order atomically;
then the player gets a short result at once, its owner alone sees secrets (army lists),
and when a phase ends the channel gets the map image with a report of that phase and a
ping for whoever acts next (with buttons when it is a defensive-fire decision).
"""

from __future__ import annotations

import asyncio
from typing import Any, Mapping, Sequence

from bot.context import Attachment, Button, Channel, Ctx, Message
from bot.minis.narrate import private_lines, public_lines, side_name, the
from bot.scheduler import ANNOUNCERS, PINGERS
from bot.session import Acted, Loaded
from engine.core.game import Pending
from engine.core.errors import UnknownName
from engine.minis.state import MinisState, Phase, UnitState
from engine.minis.visibility import public_units, visible_units
from render.minis import board, overlays_from_events, png

KIND = "minis"
MAX_MESSAGE = 1900  # Discord allows 2,000 characters
# Events after which the channel gets a fresh map: a phase (or the deployment) ended.
PHASE_MARKERS = ("PhaseStarted", "Victory", "Conceded")


def loaded_state(loaded: Loaded) -> MinisState:
    state = loaded.state
    assert isinstance(state, MinisState)
    return state


def seen_units(loaded: Loaded, user_id: int) -> dict[str, UnitState]:
    """What a user may see (M-2.5): the public units, plus the units of every seat they
    hold (their own army before it deploys)."""
    state = loaded_state(loaded)
    units = list(public_units(state))
    for seat in loaded.game.seat_of(user_id):
        units += visible_units(state, seat)
    return {u.id: u for u in units}


def seen_unit(loaded: Loaded, user_id: int, text: str) -> UnitState:
    """A unit the user may see, by id; an unknown unit and a hidden one get the same
    answer, so nothing leaks (M-2.5)."""
    seen = seen_units(loaded, user_id)
    key = text.strip().lower()
    if key in seen:
        return seen[key]
    raise UnknownName(f"There is no unit '{text.strip()}' on the map.",
                      legal=sorted((u.id for u in seen.values() if u.on_map),
                                   key=lambda i: (i[:2], int(i[2:]))))


def clip(lines: Sequence[str], limit: int = MAX_MESSAGE, more: str = "") -> str:
    """Join lines up to ``limit`` characters; say how many were left out."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 80:
            left = len(lines) - i
            out.append(f"… and {left} more line{'s' if left != 1 else ''}{more}")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


# --------------------------------------------------------------------------- orders


async def order(ctx: Ctx, text: str) -> Acted:
    """Apply one order for the person asking, then answer, report and ping."""
    acted = await ctx.app.sessions.act(ctx.channel_id, ctx.actor, text, kind=KIND)
    await present(ctx.app, ctx.channel, ctx.channel_id, acted, ctx)
    return acted


async def present(app: Any, channel: Channel, channel_id: int, acted: Acted,
                  ctx: Ctx | None = None) -> None:
    """Narrate an accepted order: private details to its owner (only when they asked),
    the public result, the phase map and report when a phase ended, and a ping when
    someone new must act."""
    state = loaded_state(acted.after)
    events = [e.to_dict() for e in acted.events]
    secret = private_lines(events, state, acted.seat)
    if secret and ctx is not None:
        await ctx.reply("\n".join(secret), ephemeral=True)
    lines = public_lines(events, state)
    reaction = next((p for p in acted.after.pending if p.reaction), None)
    if ctx is not None and not lines and reaction is not None:
        lines = [f"⏳ Your move is under way; {the(reaction.player)} may fire defensively first."]
    if lines:
        text = clip(lines, more=" (see /minis log)")
        if ctx is not None:
            await ctx.reply(text, ephemeral=False)
        else:
            await channel.post(channel_id, Message(text))
    if any(e["type"] in PHASE_MARKERS for e in events):
        await post_phase_map(app, channel, channel_id, acted)
    # A reaction is asked again after each answer: the next stage has new choices.
    if acted.waiting_changed or reaction is not None:
        await ping(channel, channel_id, acted.after)



async def announce_timeout(app: Any, channel: Channel, channel_id: int, acted: Acted) -> None:
    """The scheduler applied a timeout: tell the channel like any other order."""
    await present(app, channel, channel_id, acted)


ANNOUNCERS[KIND] = announce_timeout


# --------------------------------------------------------------------------- pings


def decision_text(state: MinisState, p: Pending) -> str:
    """What a player must do now, in slash commands."""
    if p.reaction:
        return f"{p.decision} — fire with a unit (buttons below or /minis fire), or /minis hold"
    if state.phase is Phase.ARMIES:
        return "build your army in secret with /minis army, then /minis ready"
    if state.chooser is not None:
        what = "the coin toss" if state.phase is Phase.DEPLOYMENT else f"the initiative for turn {state.turn}"
        return f"you won {what}: /minis initiative choice:first or choice:second"
    if state.phase is Phase.DEPLOYMENT:
        return "deploy with /minis deploy unit:… to:…, then /minis done"
    if state.phase in (Phase.MOVEMENT, Phase.ASSAULT):
        verbs = "/minis move" if state.phase is Phase.MOVEMENT else "/minis attack or /minis move"
        return f"your {state.phase.value} phase (turn {state.turn}): {verbs} …, then /minis done"
    return p.decision


def choice_button(choice: str) -> Button | None:
    words = choice.split()
    if words[:1] == ["fire"] and len(words) == 3:
        return Button(f"{words[1]} fires ({words[2]} hex)", f"/minis fire unit:{words[1]} at:{words[2]}", "danger")
    if words == ["hold"]:
        return Button("Hold fire", "/minis hold", "secondary")
    return None


async def ping(channel: Channel, channel_id: int, loaded: Loaded, prefix: str = "") -> None:
    state = loaded_state(loaded)
    lines: list[str] = []
    mentions: list[int] = []
    buttons: list[Button] = []
    for p in loaded.pending:
        uid = loaded.game.seats.get(p.player)
        who = f"<@{uid}>" if uid else f"**{side_name(p.player)}**"
        lines.append(f"{who} ({side_name(p.player)}) — {decision_text(state, p)}")
        if uid and uid not in mentions:
            mentions.append(uid)
        if p.reaction:
            buttons.extend(b for b in map(choice_button, p.choices) if b is not None)
    if lines:
        await channel.post(channel_id, Message(prefix + "\n".join(lines), buttons=tuple(buttons),
                                               mentions=tuple(mentions)))


PINGERS[KIND] = ping


# --------------------------------------------------------------------------- images


async def board_png(state: MinisState, *, overlays: Sequence[Any] = (), title: str | None = None,
                    name: str = "board.png") -> Attachment:
    """Render off the event loop (a phase image takes tens of milliseconds)."""
    def draw() -> bytes:

        return png(board(state, overlays=tuple(overlays), title=title))

    return Attachment(name, await asyncio.to_thread(draw))


def ended_phases(flat: Sequence[Mapping[str, Any]], own: int, *, over: bool = False
                 ) -> list[Mapping[str, Any]]:
    """The events of the phases an order ended, from the order log flattened (``flat``;
    the order's own ``own`` events are its tail): from the start of the phase that was
    running when the order began, up to the start of the phase that runs now (or to the
    end, when the battle is ``over``).  A casualty phase begun and finished inside the order
    is part of it."""
    tail_start = len(flat) - own
    starts = [i for i, e in enumerate(flat) if e["type"] == "PhaseStarted"]
    before = [i for i in starts if i < tail_start]
    inside = [i for i in starts if i >= tail_start]
    begin = before[-1] if before else 0
    end = inside[-1] if inside and not over else len(flat)
    return list(flat[begin:end])


def report_head(events: Sequence[Mapping[str, Any]]) -> str:
    phases = [e for e in events if e["type"] == "PhaseStarted"]
    if not phases:
        return "📜 **Set-up report**"
    named = [f"{p['phase']} phase" + (f" ({side_name(p['active'])})" if p.get("active") else "")
             for p in phases]
    return f"📜 **Turn {phases[0]['turn']}, {' and '.join(named)} — report**"


def image_name(events: Sequence[Mapping[str, Any]]) -> str:
    first = next((e for e in events if e["type"] == "PhaseStarted"), None)
    if first is None:
        return "setup.png"
    side = f"-{first['active']}" if first.get("active") else ""
    return f"turn{first['turn']}-{first['phase']}{side}.png"


async def post_phase_map(app: Any, channel: Channel, channel_id: int, acted: Acted) -> None:
    """The map after the phase(s) an order ended, with a report of what happened in them."""
    state = loaded_state(acted.after)
    rows = await app.repo.orders(acted.game.id)
    flat = [e for row in rows for e in row.events]
    events = ended_phases(flat, len(acted.events), over=state.phase is Phase.OVER)
    body = public_lines([e for e in events if e["type"] != "PhaseStarted" or e is not events[0]], state)
    text = clip([report_head(events), *(body or ["Nothing happened."])], more=" (see /minis log)")
    image = await board_png(state, overlays=overlays_from_events(state, events), name=image_name(events))
    await channel.post(channel_id, Message(text, files=(image,)))
