"""The life of a game, written once for every game kind: ``new``, ``join``, ``replace``,
``undo``, ``abort``, ``concede``, ``log``, ``status``, ``settings`` and ``replay``.

A game's command module calls :func:`register_lifecycle` with its front, the options its
``new`` takes and a function turning them into engine options; it then declares its own
orders beside these.  Every change goes through the session's one versioned path
(:meth:`bot.session.Sessions.change`), whose *decide* step re-checks, on the game as it is
under the lock, that the change is still allowed.

Who may do what:

- ``new``: anyone, in a channel without a live game; ``join``: anyone, for a free seat.
- In a game where one person may hold several seats, they are seats of one side only
  (A-1.2): ``new``, ``join`` and ``replace`` refuse a mix.
- ``replace``: the host while the game waits for players; a seat's holder for their own
  seat (handing it over); a moderator who holds no seat, at any time.
- ``abort``: the host (or a moderator) while the game waits for players; once it has
  started, a moderator who holds no seat (players concede instead).
- ``undo``: see bot/undo.py.  ``concede``: a seated player, after confirming.
- ``settings``: reminders by the host or a moderator; time limits and the timeout
  policy only before the game starts, or by a moderator who holds no seat.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Awaitable, Callable, Mapping, Sequence

from bot import fair_dice
from bot.clock import parse_delay
from bot.commands.base import Option, command
from bot.context import Actor, Attachment, Button, Ctx, Message
from bot.front import Front, option_value
from bot.games import front_for
from bot.present import clip, direct, ping, present
from bot.session import Acted, Change, Loaded, effective_rows, winner_against
from bot.storage.repository import GameUpdate, NewOrder, OrderRecord
from bot import undo as undo_rules
from engine.core.errors import IllegalOrder, NotationError, PlayerError, UnknownName
from engine.core.game import PUBLIC, Outcome, Viewer, rules_for, visible_events

# Option keys of the platform (the rest of a game's options belong to its engine).
REMIND, TIMEOUT, POLICY, PROMPT = "remind_after", "timeout_after", "timeout_policy", "reaction_timeout"
DEFAULT_TIMING = {REMIND: "24h", TIMEOUT: "off", POLICY: "done", PROMPT: "12h"}
LOG_BUDGET = 1700  # characters of log entries per page

Build = Callable[[Ctx, dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Lifecycle:
    front: Front
    multi_seat: bool  # one person may hold several seats (A&A powers)

    @property
    def kind(self) -> str:
        return self.front.kind

    @property
    def g(self) -> str:
        return self.front.group


# --------------------------------------------------------------------------- helpers


def timing(options: Mapping[str, Any]) -> dict[str, str]:
    return {key: str(options.get(key, default)) for key, default in DEFAULT_TIMING.items()}


def check_timing(values: Mapping[str, str | None]) -> None:
    for name, value in values.items():
        if value is not None:
            try:
                parse_delay(value)
            except PlayerError:
                raise NotationError(f"'{value[:40]}' is not a duration for {name}.",
                                    legal=("30m", "12h", "3d", "off")) from None


def free_moderator(ctx: Ctx, loaded: Loaded) -> bool:
    """A moderator who holds no seat in this game (a referee, not a party)."""
    return ctx.actor.is_moderator and not loaded.game.seat_of(ctx.actor.id)


def is_host_or_moderator(ctx: Ctx, loaded: Loaded) -> bool:
    return ctx.actor.is_moderator or ctx.actor.id == loaded.game.host_id


def seat_list(rules_seats: Sequence[str], text: str | None) -> list[str]:
    """``"Germany, Italy"`` → the seats named (case-insensitive), in the game's order.
    Seat names of several words ("United States") are matched whole, longest first."""
    if text is None:
        return []
    rest = " " + " ".join(text.lower().replace(",", " ").split()) + " "
    found: set[str] = set()
    for seat in sorted(rules_seats, key=len, reverse=True):
        if f" {seat.lower()} " in rest:
            found.add(seat)
            rest = rest.replace(f" {seat.lower()} ", " ")
    unknown = rest.split()
    if unknown:
        raise UnknownName(f"'{unknown[0]}' is not a seat of this game.", legal=rules_seats)
    return [s for s in rules_seats if s in found]


def with_companions(front: Front, chosen: Sequence[str], free: set[str]) -> list[str]:
    """The seats chosen plus their free companion seats (``Front.companions``)."""
    out = list(chosen)
    for seat in chosen:
        out += [c for c in front.companions.get(seat, ()) if c in free and c not in out]
    return out


def by_side(team: Callable[[str], str], seats: Sequence[str]) -> dict[str, list[str]]:
    """The seats grouped by their side (team), in the order given."""
    out: dict[str, list[str]] = {}
    for s in seats:
        out.setdefault(team(s), []).append(s)
    return out


def check_one_side(front: Front, team: Callable[[str], str], who: str, seats: Sequence[str],
                   legal: Callable[[str], Sequence[str]]) -> None:
    """One person may hold several seats of one side only (A&A's A-1.2; in a game with
    one seat per side nobody holds two anyway).  Refuses, saying which side each seat is
    on, when ``seats`` mix the sides; ``legal(side)`` lists what would be legal, built
    only then (``side``: the side of the first seat)."""
    sides = by_side(team, seats)
    if len(sides) < 2:
        return
    parts = "; ".join(f"{', '.join(v)} {'is' if len(v) == 1 else 'are'} {front.seat_label(t)}"
                      for t, v in sides.items())
    raise IllegalOrder(f"{who} may hold the seats of one side only: {parts}.", legal=legal(team(seats[0])))


def end_line(front: Front, outcome: Outcome) -> str:
    return (f"🏆 {front.seat_label(outcome.winner)} win the {front.noun}." if outcome.winner
            else f"The {front.noun} ends without a winner.")


def seated(seats: Mapping[str, int], *, starting: bool, now: datetime,
           options: Mapping[str, Any] | None = None) -> GameUpdate:
    """The row update for new seat holders (and the game's options when they change);
    the game starts when the last seat is taken."""
    return GameUpdate(seats=dict(seats), status="active" if starting else None, options=options,
                      waiting_since=now if starting else None, clear_reminded=starting)


def _mention_safe(text: str) -> str:
    """Echoed player text never pings anyone."""
    return text.replace("@", "@\u200b")


# --------------------------------------------------------------------------- registration


def abort_change(actor_id: int) -> Change:
    """The change that ends a game without a result (``/<group> abort``, a league's
    moderator result), logged as an admin row."""
    return Change(GameUpdate(status="aborted"), (NewOrder(kind="admin", seat="", text="abort", actor_id=actor_id),))


def register_lifecycle(front: Front, *, new_options: Sequence[Option] = (),
                       build: Build | None = None, new_description: str | None = None,
                       multi_seat: bool = False) -> Lifecycle:
    """Declare ``/<group> new|join|replace|undo|abort|concede|log|status|settings|replay``."""
    life = Lifecycle(front, multi_seat)
    rules = rules_for(front.kind)
    g, noun = front.group, front.noun
    seats = tuple(rules.seats)
    side_choices = () if multi_seat or len(seats) > 25 else seats
    side_help = "Your seat(s), e.g. Germany, Italy" if multi_seat else "The side you play"
    policies = tuple(dict.fromkeys((*rules.timeout_policies, "forfeit")))

    async def default_build(ctx: Ctx, values: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in values.items() if v is not None}

    make = build or default_build

    @command(f"{g} new", new_description or f"Open a {front.title} {noun} in this channel",
             *new_options,
             Option("side", str, f"{side_help} (or leave it open)", required=False, choices=side_choices),
             Option("remind", str, "Remind a player after (e.g. 24h, off)", required=False, default="24h"),
             Option("timeout", str, "Apply the timeout policy after (e.g. 3d, off)", required=False,
                    default="off"),
             Option("policy", str, "On timeout: " + ", ".join(policies), required=False,
                    default=policies[0], choices=policies),
             Option("prompt_timeout", str, "A reaction prompt falls back to the default after",
                    required=False, default="12h"),
             defer=True)
    async def new(ctx: Ctx, side: str | None, remind: str, timeout: str, policy: str,
                  prompt_timeout: str, **values: Any) -> None:
        check_timing({"remind": remind, "timeout": timeout, "prompt_timeout": prompt_timeout})
        options = await make(ctx, values)
        taken = with_companions(front, seat_list(seats, side), set(seats))
        check_one_side(front, rules.team, "One player", taken, lambda _: [
            f"/{g} new side:{option_value(', '.join(v))}" for v in by_side(rules.team, taken).values()])
        loaded, events = await ctx.app.sessions.create(
            kind=front.kind, channel_id=ctx.channel_id, guild_id=ctx.guild_id, host=ctx.actor,
            options=options, settings={REMIND: remind, TIMEOUT: timeout, POLICY: policy, PROMPT: prompt_timeout},
            seats={s: ctx.actor for s in taken})
        public = loaded.view(PUBLIC)
        article = "an" if front.title[:1].upper() in "AEIOU" else "a"
        lines = [f"⚔️ {ctx.actor.mention} opened {article} **{front.title}** {noun}."]
        lines += front.opened(public, loaded.game.options)
        lines += front.narrate(visible_events(loaded.rules, [e.to_dict() for e in events], PUBLIC), public)
        if taken:
            lines.append(f"{ctx.actor.mention} plays **{', '.join(front.seat_label(s) for s in taken)}**.")
        free = [s for s in seats if s not in loaded.game.seats]
        lines.append("Join with " + " or ".join(f"`/{g} join side:{option_value(s)}`" for s in free[:6]) + ".")
        lines.append(fair_dice.opening_line(loaded.game, g))
        await ctx.reply("\n".join(lines), ephemeral=False)

    @command(f"{g} join", f"Take a seat in this channel's {noun}",
             Option("side", str, f"{side_help} (the free one if omitted)", required=False,
                    choices=side_choices),
             Option("entropy", str, "Your own randomness for the dice: any phrase or random value",
                    required=False))
    async def join(ctx: Ctx, side: str | None, entropy: str | None) -> None:
        wanted = seat_list(seats, side)
        actor = ctx.actor
        await ctx.app.repo.remember_player(actor.id, actor.name, ctx.app.sessions.now())

        async def decide(loaded: Loaded) -> Change:
            game = loaded.game
            held = game.seat_of(actor.id)
            if entropy is not None and held and not wanted and game.status == "open":
                # A seated player (the host who took a side) adds entropy before the start.
                options = fair_dice.with_entropy(game, held, entropy)
                return Change(GameUpdate(options=options),
                              (NewOrder(kind="admin", seat=held[0], text="entropy " + ",".join(held),
                                        actor_id=actor.id),))
            free = [s for s in seats if s not in game.seats]
            if game.status != "open" or not free:
                raise IllegalOrder(f"Every seat of this {noun} is taken.",
                                   legal=(f"a moderator may use /{g} replace side:… user:@…",))
            if game.seat_of(actor.id) and not multi_seat:
                raise IllegalOrder(f"You already play {', '.join(game.seat_of(actor.id))} in this {noun}.")
            chosen = wanted
            if not chosen:
                if len(free) > 1:
                    raise NotationError("Which side do you take?",
                                        legal=[f"/{g} join side:{option_value(s)}" for s in free])
                chosen = free
            taken = [s for s in chosen if s not in free]
            if taken:
                raise IllegalOrder(f"The {taken[0]} seat is taken.", legal=[f"/{g} join side:{option_value(s)}" for s in free])
            chosen = with_companions(front, chosen, set(free))
            check_one_side(front, rules.team, "You", [*held, *chosen], lambda side: [
                f"/{g} join side:{option_value(s)}" for s in free if rules.team(s) == side])
            new_seats = {**game.seats, **{s: actor.id for s in chosen}}
            return Change(
                seated(new_seats, starting=len(new_seats) == len(seats), now=ctx.app.sessions.now(),
                       options=fair_dice.with_entropy(game, chosen, entropy)),
                tuple(NewOrder(kind="seat", seat=s, text=f"join {s}", actor_id=actor.id) for s in chosen))

        loaded = await ctx.app.sessions.change(ctx.channel_id, decide, kind=front.kind)
        mine = ", ".join(front.seat_label(s) for s in loaded.game.seat_of(actor.id))
        text = f"{actor.mention} joins as **{mine}**."
        if entropy is not None:
            text += f" Their entropy is recorded: {fair_dice.entropy_note(entropy)}."
        if loaded.game.status == "active":
            text += f" Every seat is taken: the {noun} begins."
        await ctx.reply(text, ephemeral=False)
        if loaded.game.status == "active":
            await ping(ctx.app, ctx.channel, ctx.channel_id, loaded)

    @command(f"{g} replace", "Give a seat to another player",
             Option("side", str, "The seat", choices=side_choices),
             Option("user", str, "The new player (@mention)"))
    async def replace(ctx: Ctx, side: str, user: str) -> None:
        who = await ctx.user(user)
        (seat,) = seat_list(seats, side) or [side]
        now = ctx.app.sessions.now()
        await ctx.app.repo.remember_player(who.id, who.name, now)

        async def decide(loaded: Loaded) -> Change:
            game = loaded.game
            own = game.seats.get(seat) == ctx.actor.id
            if not (free_moderator(ctx, loaded) or own
                    or (game.status == "open" and is_host_or_moderator(ctx, loaded))):
                raise IllegalOrder(
                    "Only a moderator who holds no seat in this game may replace a player once it"
                    " has started (or the seat's own player, handing it over).")
            other = [s for s, uid in game.seats.items() if uid == who.id and s != seat]
            if other and not multi_seat:
                raise IllegalOrder(f"{who.name} already plays {other[0]} in this {noun}.")
            check_one_side(front, rules.team, who.name, [*other, seat], lambda side: [
                f"/{g} replace side:{option_value(seat)} user:@… (someone with no {front.seat_label(side)} seat)",
                *(f"/{g} replace side:{option_value(s)} user:@{who.name}" for s in seats
                  if s not in game.seats and rules.team(s) == side)])
            new_seats = {**game.seats, seat: who.id}
            return Change(
                seated(new_seats, starting=game.status == "open" and len(new_seats) == len(seats), now=now),
                (NewOrder(kind="seat", seat=seat, text=f"replace {seat} with {who.id}", actor_id=ctx.actor.id),))

        loaded = await ctx.app.sessions.change(ctx.channel_id, decide, kind=front.kind)
        await ctx.reply(f"{who.mention} now plays **{front.seat_label(seat)}** (set by {ctx.actor.mention}).",
                        ephemeral=False)
        if loaded.game.status == "active":
            await ping(ctx.app, ctx.channel, ctx.channel_id, loaded)

    @command(f"{g} abort", f"End this channel's {noun} without a result",
             Option("confirm", bool, "Yes, abort it", required=False, default=False))
    async def abort(ctx: Ctx, confirm: bool) -> None:
        async def decide(loaded: Loaded) -> Change:
            started = loaded.game.status == "active"
            if not (free_moderator(ctx, loaded) or (not started and is_host_or_moderator(ctx, loaded))):
                raise IllegalOrder(f"Once the {noun} has started only a moderator who holds no seat may"
                                   " abort it; a player may concede.", legal=(f"/{g} concede",))
            if not confirm:
                raise _Confirm()
            return abort_change(ctx.actor.id)

        try:
            await ctx.app.sessions.change(ctx.channel_id, decide, kind=front.kind)
        except _Confirm:
            await ctx.reply(f"Abort this {noun}? It ends without a result (its log stays on record).",
                            ephemeral=True, buttons=[Button("Abort", f"/{g} abort confirm:true", "danger")])
            return
        await ctx.reply(f"The {noun} was aborted by {ctx.actor.mention}. Its log stays on record.",
                        ephemeral=False)

    @command(f"{g} concede", f"Concede the {noun} (your side loses)",
             Option("confirm", bool, "Yes, concede", required=False, default=False))
    async def concede(ctx: Ctx, confirm: bool) -> None:
        async def decide(loaded: Loaded) -> Change:
            mine = loaded.game.seat_of(ctx.actor.id)
            if not mine:
                raise IllegalOrder(f"Only a player of this {noun} may concede.")
            if loaded.game.status != "active":
                raise IllegalOrder(f"This {noun} is not in progress.")
            if not confirm:
                raise _Confirm()
            team = loaded.rules.team(mine[0])
            winner = winner_against(loaded.rules, {team})
            reason = f"{front.seat_label(team)} conceded"
            event = {"type": "GameConceded", "team": team, "winner": winner, "reason": reason}
            return Change(GameUpdate(status="finished", result={"winner": winner, "reason": reason}),
                          (NewOrder(kind="admin", seat=mine[0], text="concede", actor_id=ctx.actor.id,
                                    events=[event]),))

        try:
            loaded = await ctx.app.sessions.change(ctx.channel_id, decide, kind=front.kind)
        except _Confirm:
            await ctx.reply(f"Concede the {noun}? It ends now and the other side wins.", ephemeral=True,
                            buttons=[Button("Concede", f"/{g} concede confirm:true", "danger")])
            return
        outcome = loaded.outcome
        assert outcome is not None
        team = loaded.rules.team(loaded.game.seat_of(ctx.actor.id)[0])
        end = end_line(front, outcome)
        await ctx.reply(f"🏳️ {front.seat_label(team)} concede ({ctx.actor.mention}). {end}", ephemeral=False)

    @command(f"{g} undo", "Take back the last order(s): see what it undoes, then confirm",
             Option("orders", int, "How many orders to take back (default 1)", required=False,
                    default=1, min_value=1, max_value=50),
             Option("confirm", int, "Confirm the preview (from its button)", required=False),
             Option("answer", str, "Answer another player's undo request", required=False,
                    choices=("agree", "refuse")),
             defer=True)
    async def undo(ctx: Ctx, orders: int, confirm: int | None, answer: str | None) -> None:
        await _undo(ctx, life, orders, confirm, answer)

    @command(f"{g} log", f"The {noun}'s order log (page 1 = the newest)",
             Option("page", int, "Page (1 = the newest orders)", required=False, default=1,
                    min_value=1, max_value=10_000),
             Option("export", bool, "The whole log as a JSON file (orders, dice, commitments) to verify",
                    required=False, default=False),
             ephemeral=True)
    async def log(ctx: Ctx, page: int, export: bool) -> None:
        loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=front.kind)
        rows = await ctx.app.repo.orders(loaded.game.id)
        if export:
            data = fair_dice.export(loaded.game, rows, title=front.title, order_view=loaded.rules.order_view,
                                    viewer=loaded.viewer(ctx.actor.id))
            note = ("Check it with `warroom verify --export FILE` or docs/fair-dice.md." if data["seed"]
                    else "The seed and the dice values are in the export once the game is over.")
            await ctx.reply(f"📦 The log of game `{loaded.game.uid}` as JSON. {note}", ephemeral=True,
                            files=[Attachment(f"{front.group}-{loaded.game.uid}.json",
                                              json.dumps(data, indent=1).encode("utf-8"))])
            return
        entries = log_entries(loaded, rows, loaded.viewer(ctx.actor.id))
        pages = log_pages(entries)
        if page > len(pages):
            raise IllegalOrder(f"The log has {len(pages)} page{'s' if len(pages) > 1 else ''}.",
                               legal=[f"/{g} log page:{n}" for n in range(1, min(len(pages), 5) + 1)])
        head = f"**Order log**, page {page}/{len(pages)} (page 1 = the newest):"
        await ctx.reply("\n".join([head, *pages[page - 1]]), ephemeral=True)

    @command(f"{g} status", f"Where the {noun} stands and who must act")
    async def status(ctx: Ctx) -> None:
        loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=front.kind)
        await ctx.reply(status_text(front, loaded), ephemeral=False)

    @command(f"{g} replay", f"An animated replay of the finished {noun}, one frame per phase report",
             defer=True)
    async def replay(ctx: Ctx) -> None:
        await _replay(ctx, life)

    @command(f"{g} settings", f"Show or change this {noun}'s reminders and time limits",
             Option("remind", str, "Remind a player after (e.g. 24h, off)", required=False),
             Option("timeout", str, "Apply the timeout policy after (e.g. 3d, off)", required=False),
             Option("policy", str, "On timeout: " + ", ".join(policies), required=False, choices=policies),
             Option("prompt_timeout", str, "A reaction prompt falls back to the default after",
                    required=False))
    async def settings(ctx: Ctx, remind: str | None, timeout: str | None, policy: str | None,
                       prompt_timeout: str | None) -> None:
        changes = {k: v for k, v in ((REMIND, remind), (TIMEOUT, timeout), (POLICY, policy),
                                     (PROMPT, prompt_timeout)) if v is not None}
        if not changes:
            loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=front.kind)
            await ctx.reply(settings_text(loaded.game.options), ephemeral=True)
            return
        check_timing({"remind": remind, "timeout": timeout, "prompt_timeout": prompt_timeout})

        async def decide(loaded: Loaded) -> Change:
            if not is_host_or_moderator(ctx, loaded):
                raise IllegalOrder(f"Only the host (<@{loaded.game.host_id}>) or a moderator may change"
                                   " the settings.")
            limits = set(changes) - {REMIND}
            if limits and loaded.game.status == "active" and not free_moderator(ctx, loaded):
                raise IllegalOrder("Once the game has started only a moderator who holds no seat may"
                                   " change its time limits or timeout policy.",
                                   legal=(f"/{g} settings remind:…",))
            options = {**loaded.game.options, **changes}
            text = "settings " + json.dumps(changes, sort_keys=True, separators=(",", ":"))
            return Change(GameUpdate(options=options),
                          (NewOrder(kind="admin", seat="", text=text, actor_id=ctx.actor.id),))

        loaded = await ctx.app.sessions.change(ctx.channel_id, decide, kind=front.kind)
        await ctx.reply(f"⚙️ {ctx.actor.mention} changed the settings. " + settings_text(loaded.game.options),
                        ephemeral=False)

    return life


class _Confirm(Exception):
    """Raised inside a decision to ask for confirmation first (nothing is written)."""


# --------------------------------------------------------------------------- undo


def _order_line(life: Lifecycle, loaded: Loaded, row: OrderRecord, viewer: Viewer) -> str:
    front = life.front
    who = front.seat_label(row.seat) if row.seat else "⏰ timeout"
    text = row.text if row.kind == "timeout" else (_order_text(front, loaded, row, viewer) or "a secret order")
    dice = (f" ({len(row.dice)} {'die' if len(row.dice) == 1 else 'dice'})" if row.dice else "")
    return f"• {who}: {text}{dice}"


def _order_text(front: Front, loaded: Loaded, row: OrderRecord, viewer: Viewer) -> str | None:
    """An order as the viewer may see it, as the slash command a player types (None: the
    viewer may not even know it exists — the engine's ``order_view`` decides)."""
    shown = loaded.rules.order_view(row.seat, row.text, viewer)
    return None if shown is None else _mention_safe(front.slash(shown) or shown)


async def _undo(ctx: Ctx, life: Lifecycle, count: int, confirm: int | None, answer: str | None) -> None:
    sessions = ctx.app.sessions
    g = life.g
    if answer is not None:
        await _answer(ctx, life, answer)
        return
    loaded = await sessions.load(ctx.channel_id, kind=life.kind)
    history = await sessions.history(loaded.game, check=True)
    plan = undo_rules.plan(loaded, history, ctx.actor, count)
    viewer = loaded.viewer(ctx.actor.id)
    lines = [_order_line(life, loaded, r, viewer) for r in plan.rows]
    if confirm is None:
        need = (f"\nIt needs the other side's agreement ({plan.reason}): confirming asks them."
                if plan.needs_agreement else "")
        await ctx.reply(f"Undo would take back {len(plan.rows)} order{'s' if len(plan.rows) > 1 else ''}:\n"
                        + "\n".join(lines) + need, ephemeral=True,
                        buttons=[Button("Ask to undo" if plan.needs_agreement else "Undo",
                                        f"/{g} undo orders:{count} confirm:{loaded.game.version}", "danger")])
        return

    async def decide(now_loaded: Loaded) -> Change:
        if now_loaded.game.version != confirm:
            raise IllegalOrder("The game changed since that preview; nothing was undone.",
                               legal=(f"/{g} undo orders:{count}",))
        fresh = undo_rules.plan(now_loaded, history, ctx.actor, count)
        now = sessions.now()
        if fresh.needs_agreement:
            return undo_rules.request_change(now_loaded, fresh, ctx.actor, now)
        return undo_rules.undo_change(now_loaded, fresh, ctx.actor, now)

    after = await sessions.change(ctx.channel_id, decide, kind=life.kind)
    public = [_order_line(life, loaded, r, PUBLIC) for r in plan.rows]
    if plan.needs_agreement:
        others = sorted({uid for s, uid in after.game.seats.items()
                         if uid != ctx.actor.id and after.rules.team(s) not in
                         {after.rules.team(x) for x in plan.requester_seats}})
        mention = " ".join(f"<@{u}>" for u in others) or "A moderator"
        await ctx.reply("✅ Asked.", ephemeral=True)
        await ctx.post(f"↩️ {ctx.actor.mention} asks to undo ({plan.reason}):\n" + "\n".join(public)
                       + f"\n{mention}: do you agree? No answer within 24 hours means no.",
                       mentions=others,
                       buttons=[Button("Agree", f"/{g} undo answer:agree", "success"),
                                Button("Refuse", f"/{g} undo answer:refuse", "danger")])
        return
    await ctx.reply(f"↩️ {ctx.actor.mention} undid:\n" + "\n".join(public) + _DICE_STAY * bool(plan.dice),
                    ephemeral=False)
    await ping(ctx.app, ctx.channel, ctx.channel_id, after)


async def _answer(ctx: Ctx, life: Lifecycle, answer: str) -> None:
    sessions = ctx.app.sessions
    g = life.g
    result: dict[str, Any] = {}

    async def decide(loaded: Loaded) -> Change:
        now = sessions.now()
        request = undo_rules.live_request(loaded, now)
        if request is None:
            raise IllegalOrder("There is no undo request waiting (it was answered, it expired, or"
                               " the game changed since).", legal=(f"/{g} undo",))
        if not undo_rules.may_answer(loaded, request, ctx.actor):
            raise IllegalOrder("Only the other side (or a moderator who holds no seat) may answer"
                               " this undo request.")
        if answer == "refuse":
            result["refused"] = True
            return undo_rules.close_request("undo refused", ctx.actor.id)
        history = await sessions.history(loaded.game, check=True)
        requester = Actor(int(request["by"]), "requester")
        plan = undo_rules.plan(loaded, history, requester, int(request["orders"]))
        result["plan"] = plan
        return undo_rules.undo_change(loaded, plan, requester, now, agreed_by=ctx.actor.id)

    after = await sessions.change(ctx.channel_id, decide, kind=life.kind)
    if result.get("refused"):
        await ctx.reply(f"🚫 {ctx.actor.mention} refused the undo. Nothing was undone.", ephemeral=False)
        return
    plan = result["plan"]
    lines = [_order_line(life, after, r, PUBLIC) for r in plan.rows]
    await ctx.reply(f"↩️ Undone with {ctx.actor.mention}'s agreement:\n" + "\n".join(lines)
                    + _DICE_STAY * bool(plan.dice), ephemeral=False)
    await ping(ctx.app, ctx.channel, ctx.channel_id, after)


# --------------------------------------------------------------------------- replay


async def _replay(ctx: Ctx, life: Lifecycle) -> None:
    """The front's replay of the channel's last game, once it is finished (built from the
    re-run order log and the public view only, bot/replay.py)."""
    from bot.replay import phase_reports

    front, g = life.front, life.g
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=life.kind)
    if loaded.game.status != "finished":
        raise IllegalOrder(f"This {front.noun} is not finished: a replay is made once it is over.",
                           legal=(f"/{g} status", f"/{g} log"))
    history = await ctx.app.sessions.history(loaded.game, check=True)
    reports = phase_reports(front, loaded.rules, history)
    image = await asyncio.to_thread(front.replay, reports)
    if image is None:
        raise IllegalOrder(f"{front.title} has no replay yet.", legal=(f"/{g} log", f"/{g} status"))
    size = len(image.data) / 1024 / 1024
    await ctx.reply(f"🎞️ Replay of the {front.noun}: {len(reports)} phase reports, one frame each"
                    f" ({size:.1f} MB).", files=[image], ephemeral=False)


# --------------------------------------------------------------------------- log and status


def log_entries(loaded: Loaded, rows: Sequence[OrderRecord], viewer: Viewer) -> list[str]:
    """One entry per row the viewer may see, oldest first; undone orders are left out,
    and so is every order the viewer may not see (not even a trace of it)."""
    front = front_for(loaded.game.kind)
    rules = loaded.rules
    alive = {r.seq for r in effective_rows(rows)}
    state = loaded.view(viewer)
    entries: list[str] = []
    for row in rows:
        if row.kind in ("order", "timeout") and row.seq not in alive:
            continue
        platform = row.kind in ("admin", "undo", "seat") or (row.kind == "timeout" and row.text == "forfeit")
        told = [] if platform else front.narrate(visible_events(rules, row.events, viewer), state)
        tail = f" → {' / '.join(told)}" if told else ""
        if row.kind == "new":
            entry = f"{front.title} {front.noun} opened{tail}"
        elif row.kind == "order":
            shown = _order_text(front, loaded, row, viewer)
            if shown is None:
                continue
            entry = f"{front.seat_label(row.seat)}: {shown}{tail}"
        elif row.kind == "timeout":
            reason = next((e.get("reason") for e in row.events if e.get("type") == "GameForfeited"), "")
            entry = f"⏰ timeout ({row.text}){': ' + str(reason) if reason else ''}{tail}"
        elif row.kind == "seat":
            words = row.text.split()
            entry = (f"{front.seat_label(row.seat)}: <@{row.actor_id}> joined" if words[0] == "join"
                     else f"{front.seat_label(row.seat)}: now <@{words[-1]}> (set by <@{row.actor_id}>)")
        elif row.kind == "undo":
            n = next((e.get("orders") for e in row.events if e.get("type") == "OrdersUndone"), "?")
            entry = f"↩️ {n} order{'' if n == 1 else 's'} taken back by <@{row.actor_id}>"
        elif row.text == "concede":
            entry = f"🏳️ {front.seat_label(rules.team(row.seat))} conceded (<@{row.actor_id}>)"
        else:
            entry = f"⚙️ {_mention_safe(row.text)} (<@{row.actor_id}>)"
        entries.append(entry)
    return [f"{i}. {e}" for i, e in enumerate(entries, 1)]


def log_pages(entries: Sequence[str], budget: int = LOG_BUDGET) -> list[list[str]]:
    """Pages of whole entries, newest page first, each page oldest-to-newest inside;
    every entry is on exactly one page (an entry longer than a page is shortened)."""
    pages: list[list[str]] = []
    page: list[str] = []
    size = 0
    for entry in reversed(entries):
        entry = entry if len(entry) <= budget else entry[:budget - 1] + "…"
        if page and size + len(entry) + 1 > budget:
            pages.append(page[::-1])
            page, size = [], 0
        page.append(entry)
        size += len(entry) + 1
    if page or not pages:
        pages.append(page[::-1])
    return pages


_DICE_STAY = "\nThe dice those orders rolled stay with the side that rolled them: its next dice are the same."


def status_text(front: Front, loaded: Loaded) -> str:
    game = loaded.game
    seats = ", ".join(f"{front.seat_label(s)}: <@{uid}>" for s, uid in game.seats.items()) or "none yet"
    lines = [f"**{front.title}** — status {game.status}. Seats: {seats}."]
    outcome = loaded.outcome
    if outcome is not None:
        who = front.seat_label(outcome.winner) if outcome.winner else "a draw"
        lines.append(f"🏁 Over: {who} — {outcome.reason}")
    public = loaded.view(PUBLIC)
    for p in loaded.pending:
        uid = game.seats.get(p.player)
        lines.append(f"Waiting for {f'<@{uid}>' if uid else front.seat_label(p.player)}:"
                     f" {front.decision(public, p)}")
    lines += fair_dice.status_lines(game)
    if game.status not in ("open", "active"):
        # A concession, forfeit or abort ends a game mid-phase: what follows is where it
        # stopped, not whose turn it is.
        lines.append("Final position (nobody is to move):")
    lines += front.status(public)
    return clip(lines)


def settings_text(options: Mapping[str, Any]) -> str:
    t = timing(options)
    return (f"Reminder after {t[REMIND]}, timeout after {t[TIMEOUT]} (then: {t[POLICY]}),"
            f" reaction prompts fall back after {t[PROMPT]}.")


async def announce(app: Any, channel: Any, channel_id: int, acted: Acted) -> None:
    """The scheduler applied a timeout: say whose time ran out, then tell the channel like
    any other order (a forfeit ends the game: say so and why)."""
    front = front_for(acted.after.game.kind)
    outcome = acted.after.outcome
    if acted.texts == ("forfeit",) and outcome is not None:
        await channel.post(channel_id, Message(f"⏰ Forfeit: {outcome.reason}. {end_line(front, outcome)}"))
        return
    seats = acted.before.game.seats
    late = [p.player for p in acted.before.pending]
    if late:
        names = ", ".join(front.seat_label(s) + (f" (<@{seats[s]}>)" if s in seats else "") for s in late)
        await channel.post(channel_id, Message(
            f"⏰ Time is up for {names}: the game answers for them as its rules say when nobody answers"
            " in time.", mentions=tuple(seats[s] for s in late if s in seats)))
    await present(app, channel, channel_id, acted)


async def send_private(ctx: Ctx, text: str, *, dm: bool, files: Sequence[Any] = (),
                       buttons: Sequence[Button] = ()) -> None:
    """Something only the asker may see: by direct message when they ask for it (falling
    back, and saying so, when their DMs are closed), else an ephemeral reply."""
    if dm:
        if await direct(ctx.app, ctx.channel, ctx.actor.id, Message(text, files=tuple(files),
                                                                     buttons=tuple(buttons))):
            await ctx.reply("📬 Sent to you by direct message.", ephemeral=True)
            return
        text = "(Your direct messages are closed, so here instead; only you see this.)\n" + text
    await ctx.reply(text, ephemeral=True, files=files, buttons=buttons)

