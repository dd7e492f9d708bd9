"""Telling the channel what happened, for every game: the reply to an order, the phase
report with its images, and the ping for whoever must act next.

Privacy is not decided here: every line is narrated by the game's front from the events
and the state *as the viewer may see them* (``GameRules.event_view``/``view``).  The
public (the channel, reports, images, pings) is the spectator's view; the player who
acted also gets, privately, what only their seats may see.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from bot.context import Button, Channel, Ctx, Message
from bot.front import EventDict, Front
from bot.games import front_for
from bot.session import Acted, Loaded, effective_rows
from engine.core.errors import PlayerError
from engine.core.game import PUBLIC, visible_events

log = logging.getLogger("warroom.present")
MAX_MESSAGE = 1900  # Discord allows 2,000 characters


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


def explain(front: Front, err: PlayerError) -> PlayerError:
    """A refusal with its legal alternatives written as the slash commands a player types
    (``Legal: /minis attack unit:ax1 target:al3``) instead of the engine's notation."""
    if not err.legal:
        return err
    shown = tuple(front.slash(text) or text for text in err.legal)
    if shown == err.legal:
        return err
    clone = type(err).__new__(type(err))
    PlayerError.__init__(clone, err.message, legal=shown)
    return clone


async def play(ctx: Ctx, kind: str, texts: str | Sequence[str]) -> Acted:
    """Apply a command's orders for the person asking, then answer, report and ping."""
    front = front_for(kind)
    try:
        acted = await ctx.app.sessions.act(ctx.channel_id, ctx.actor, texts, kind=kind)
    except PlayerError as err:
        raise explain(front, err) from None
    await present(ctx.app, ctx.channel, ctx.channel_id, acted, ctx)
    return acted


def secrets_by_user(loaded: Loaded, events: Sequence[EventDict]) -> dict[int, list[str]]:
    """Per seated user, the narration of the events they see differently from the public
    (their secrets), as the game's per-seat view decides; users with none are left out."""
    rules = loaded.rules
    front = front_for(loaded.game.kind)
    public = [rules.event_view(e, PUBLIC) for e in events]
    out: dict[int, list[str]] = {}
    for uid in sorted(set(loaded.game.seats.values())):
        viewer = loaded.viewer(uid)
        mine = [shown for e, p in zip(events, public) if (shown := rules.event_view(e, viewer)) is not None
                and shown != p]
        lines = front.narrate(mine, loaded.view(viewer)) if mine else []
        if lines:
            out[uid] = lines
    return out


async def present(app: Any, channel: Channel, channel_id: int, acted: Acted,
                  ctx: Ctx | None = None) -> None:
    """Narrate accepted orders: private details to their owner (only when they asked),
    the public result, the phase report when a phase ended, and a ping when someone new
    must act."""
    loaded = acted.after
    front = front_for(loaded.game.kind)
    events = acted.event_dicts
    said = False
    for uid, secret in secrets_by_user(loaded, events).items():
        if ctx is not None and uid == ctx.actor.id:  # the player who acted: privately, here
            await ctx.reply("\n".join(secret), ephemeral=True)
            said = True
        elif await app.repo.user_setting(uid, "dm_turns"):
            # Someone else's order (or a timeout) gave them a secret — a card drawn at the
            # end of a turn the opponent finished: by direct message when they asked for
            # messages (/settings dm turns:on); otherwise their hand or list shows it.
            await direct(app, channel, uid, Message("\n".join(secret)))
    lines = front.narrate(visible_events(loaded.rules, events, PUBLIC), loaded.view(PUBLIC))
    reaction = next((p for p in loaded.pending if p.reaction), None)
    if ctx is not None and not lines and reaction is not None:
        lines = [f"⏳ Your order is under way; {front.seat_label(reaction.player)} may react first."]
    if lines:
        text = clip(lines, more=f" (see /{front.group} log)")
        if ctx is not None:
            await ctx.reply(text, ephemeral=False)
        else:
            await channel.post(channel_id, Message(text))
        said = True
    if ctx is not None and not said:
        await ctx.reply("✅ Done.", ephemeral=True)
    if any(front.phase_start(e) for e in events) or loaded.outcome is not None:
        await post_report(app, channel, channel_id, acted)
    if acted.waiting_changed or reaction is not None:
        await ping(app, channel, channel_id, loaded)


def ended_phases(front: Front, flat: Sequence[EventDict], own: int, *, over: bool) -> list[EventDict]:
    """The events of the phases an order ended, from the events of the log in effect
    (``flat``; the order's own ``own`` events are its tail): from the start of the phase
    that was running when the order began up to the start of the phase that runs now
    (or to the end, when the game is ``over``)."""
    tail_start = len(flat) - own
    starts = [i for i, e in enumerate(flat) if front.phase_start(e)]
    before = [i for i in starts if i < tail_start]
    inside = [i for i in starts if i >= tail_start]
    begin = before[-1] if before else 0
    end = inside[-1] if inside and not over else len(flat)
    return list(flat[begin:end])


REPORT_WINDOW = 64  # log rows read first when looking back for the phase's start


async def reported_events(app: Any, front: Front, game_id: int, version: int, own: int,
                          *, over: bool) -> list[EventDict]:
    """The events of the phases an order ended, reading only the end of the log: the last
    ``REPORT_WINDOW`` rows, twice as many while the phase's start is not among them.
    (Rows in effect within a window are exactly the full log's rows in effect after its
    start: an undo only takes back rows before it.)"""
    window = REPORT_WINDOW
    while True:
        since = max(0, version - window)
        rows = effective_rows(await app.repo.orders(game_id, since=since))
        flat = [e for row in rows for e in row.events]
        tail_start = len(flat) - own
        if since == 0 or any(front.phase_start(e) for e in flat[:tail_start]):
            return ended_phases(front, flat, own, over=over)
        window *= 2


async def post_report(app: Any, channel: Channel, channel_id: int, acted: Acted) -> None:
    """The report of the phase(s) an order ended, drawn off the event loop (in the render
    pool when there is one, bot/render_pool.py)."""
    from bot import render_pool

    loaded = acted.after
    front = front_for(loaded.game.kind)
    over = loaded.outcome is not None
    events = await reported_events(app, front, loaded.game.id, loaded.game.version, len(acted.events),
                                   over=over)
    shown = visible_events(loaded.rules, events, PUBLIC)
    report = await render_pool.report(loaded.game.kind, lambda: loaded.view(PUBLIC), loaded.game.snapshot,
                                      shown, over=over)
    text = clip([report.head, *(report.lines or ("Nothing happened.",))], more=f" (see /{front.group} log)")
    await channel.post(channel_id, Message(text, files=report.images))


def waiting_message(loaded: Loaded, prefix: str = "") -> Message | None:
    """Who must act now, in the game's words, with the buttons that answer it."""
    front = front_for(loaded.game.kind)
    state = loaded.view(PUBLIC)
    lines: list[str] = []
    mentions: list[int] = []
    buttons: list[Button] = []
    for p in loaded.pending:
        uid = loaded.game.seats.get(p.player)
        label = front.seat_label(p.player)
        who = f"<@{uid}>" if uid else f"**{label}**"
        lines.append(f"{who} ({label}) — {front.decision(state, p)}")
        if uid and uid not in mentions:
            mentions.append(uid)
        buttons.extend(front.buttons(state, p))
    if not lines:
        return None
    return Message(prefix + "\n".join(lines), buttons=tuple(buttons[:25]), mentions=tuple(mentions))


async def ping(app: Any, channel: Channel, channel_id: int, loaded: Loaded, prefix: str = "") -> None:
    """Ping whoever must act; players who asked for it also get a direct message."""
    message = waiting_message(loaded, prefix)
    if message is None:
        return
    await channel.post(channel_id, message)
    for uid in message.mentions:
        if await app.repo.user_setting(uid, "dm_turns"):
            await direct(app, channel, uid, Message(
                f"{prefix}Your turn in <#{channel_id}> ({front_for(loaded.game.kind).title}).",
                buttons=message.buttons))


async def direct(app: Any, channel: Channel, user_id: int, message: Message) -> bool:
    """A direct message; False when the player's DMs are closed."""
    send = getattr(channel, "dm", None)
    if send is None:
        return False
    try:
        return bool(await send(user_id, message))
    except Exception:
        log.info("direct message to %s failed", user_id, exc_info=True)
        return False

