"""What the looking commands show (status, log, map, line of sight, cards, catalogue),
and the small text helpers of the game commands.  Nothing here changes a game."""

from __future__ import annotations

import asyncio
import re
from typing import Any, Sequence

from bot.context import Actor, Attachment, Ctx
from bot.minis.front import KIND, board_png, clip, decision_text, loaded_state, seen_unit
from bot.minis.narrate import public_lines, side_name
from bot.session import Loaded, NoGame
from engine.core.errors import IllegalOrder, NotationError, UnknownName
from engine.core.hexgrid import Hex
from engine.minis.catalogue import load_catalogue
from engine.minis.line_of_sight import line_of_sight
from engine.minis.model import BAND_NAMES, UnitCard
from engine.minis.state import MinisState, Phase, UnitState
from engine.minis.visibility import public_units
from render.minis import card as card_image, overlays_from_events, png

LOG_PAGE = 25


# --------------------------------------------------------------------------- new game


def new_options(*, scenario: str, points: int | None, year: int | None, historical: bool, map: str,
                attacker: str | None, stacking: int, costs: str, standing: str, remind: str,
                timeout: str, policy: str, prompt_timeout: str, cards: str | None = None) -> dict[str, Any]:
    """The stored options of a new battle: the engine's (scenario …) and the bot's own
    (reminders and timeouts, read by the scheduler)."""
    options: dict[str, Any] = {"scenario": scenario, "historical": historical, "stacking": stacking,
                               "cost_set": costs, "standing": standing,
                               "remind_after": remind, "timeout_after": timeout,
                               "timeout_policy": policy, "reaction_timeout": prompt_timeout}
    choice = map.strip().lower()
    if choice == "random":
        options["map"] = "random"
    elif choice.isdigit() and 1 <= int(choice) <= 6:
        options["map"] = int(choice)
    else:
        raise NotationError(f"'{map}' is not a map configuration.", legal=("1", "2", "3", "4", "5", "6", "random"))
    if points is not None:
        options["points"] = points
    if year is not None:
        options["year"] = year
    if attacker is not None:
        options["attacker"] = attacker
    if cards:
        options["custom_cards"] = cards
    return options


def opened_text(loaded: Loaded, events: Sequence[Any], host: Actor, side: str | None) -> str:
    state = loaded_state(loaded)
    opts = loaded.game.options
    lines = [f"⚔️ {host.mention} opened an **A&A Miniatures** battle: {state.scenario}"
             + (f", {opts['points']} points" if "points" in opts else "")
             + (f", units of {opts['year']} or earlier" if "year" in opts else "")
             + (", historical armies" if opts.get("historical") else "") + "."]
    lines += public_lines([e.to_dict() for e in events], state)
    free = [s for s in loaded.rules.seats if s not in loaded.game.seats]
    if side:
        lines.append(f"{host.mention} plays **{side}**.")
    lines.append("Join with " + " or ".join(f"`/minis join side:{s}`" for s in free) + ".")
    return "\n".join(lines)


# --------------------------------------------------------------------------- orders from options


def deploy_order(unit: str | None, to: str | None, face: str | None, aboard: str | None,
                 map: int | None, objective: str | None, end: str | None) -> str:
    chosen = [x for x in (map, objective, end) if x is not None]
    if chosen:
        if unit or to or aboard or len(chosen) > 1:
            raise NotationError("Choose one thing at a time: a map, an objective, or an end.")
        if map is not None:
            return f"map {map}"
        if objective is not None:
            return f"objective {objective}"
        return f"end {end}"
    if not unit:
        raise NotationError("Which unit?", legal=("/minis deploy unit:ax3 to:F7",))
    if aboard:
        if to:
            raise NotationError("A unit deployed aboard a transport goes where the transport is.")
        return f"deploy {unit} aboard {aboard}"
    if not to:
        raise NotationError("Where to?", legal=(f"/minis deploy unit:{unit} to:F7",))
    return f"deploy {unit} {to}" + (f" face {face}" if face else "")


# --------------------------------------------------------------------------- army


async def army_text(ctx: Ctx) -> str:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=KIND)
    state = loaded_state(loaded)
    seats = loaded.game.seat_of(ctx.actor.id)
    if not seats:
        raise IllegalOrder("You are not playing in this battle.")
    lines = []
    for seat in seats:
        units = [u for u in state.units if u.side == seat]
        keys = state.armies.get(seat, ())
        cost = sum(state.cards[k].cost for k in keys if k in state.cards)
        listed = ", ".join(state.cards[k].name for k in keys if k in state.cards) or "(empty)"
        lines.append(f"**{side_name(seat)}** ({len(keys)} units, {cost} points"
                     + (", ready" if seat in state.ready else "") + f"): {listed}")
        if units:
            lines.append("Ids: " + ", ".join(f"{u.id} {state.cards[u.card].short_name or state.cards[u.card].name}"
                                             for u in units))
    return "\n".join(lines)


# --------------------------------------------------------------------------- status and log


def _unit_line(state: MinisState, u: UnitState) -> str:
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


async def status_text(ctx: Ctx) -> str:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    state = loaded_state(loaded)
    game = loaded.game
    seats = ", ".join(f"{side_name(s)}: <@{uid}>" for s, uid in game.seats.items()) or "none yet"
    head = f"**A&A Miniatures** — {state.scenario}, map “{state.map.name}”, status {game.status}. Seats: {seats}."
    lines = [head]
    if state.phase is Phase.OVER and state.outcome:
        lines.append(f"🏁 Over: {side_name(state.outcome.winner)} — {state.outcome.reason}")
    elif game.status == "active":
        lines.append(f"Turn {state.turn}, {state.phase.value} phase"
                     + (f", {side_name(state.active)} active" if state.active else "") + ".")
    if state.objectives:
        from engine.minis.victory import controller

        for obj in state.objectives:
            lines.append(f"Objective {state.map.label(obj)}: held by {side_name(controller(state, obj))}.")
    for p in loaded.pending:
        uid = game.seats.get(p.player)
        lines.append(f"Waiting for {f'<@{uid}>' if uid else side_name(p.player)}: {decision_text(state, p)}")
    shown = [u for u in public_units(state) if not u.destroyed]
    for side in ("axis", "allies"):
        mine = [u for u in shown if u.side == side]
        if mine:
            lines.append(f"__{side_name(side)}__")
            lines.extend(_unit_line(state, u) for u in mine)
    return clip(lines)


async def log_text(ctx: Ctx, page: int) -> str:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    state = loaded_state(loaded)
    rows = await ctx.app.repo.orders(loaded.game.id)
    entries: list[str] = []
    for row in rows:
        who = row.seat or "host"
        lines = public_lines(row.events, state)
        if row.kind == "new":
            entries.append(f"#{row.seq} battle opened" + (f": {lines[0]}" if lines else ""))
            continue
        text = row.text if row.kind != "order" or not row.text.startswith("army") else "army (secret)"
        entries.append(f"#{row.seq} {who}: {text}" + (f" → {' / '.join(lines)}" if lines else ""))
    pages = max(1, (len(entries) + LOG_PAGE - 1) // LOG_PAGE)
    if page > pages:
        raise IllegalOrder(f"The log has {pages} page{'s' if pages > 1 else ''}.")
    end = len(entries) - (page - 1) * LOG_PAGE
    chunk = entries[max(0, end - LOG_PAGE):end]
    return clip([f"**Order log**, page {page}/{pages} (newest last):", *chunk])


# --------------------------------------------------------------------------- looking at the map


def _hex(state: MinisState, text: str | None, what: str) -> Hex:
    if not text:
        raise NotationError(f"Give the {what} hex.", legal=("F7",))
    return state.map.parse_hex(text)


async def los_text(ctx: Ctx, source: str, target: str) -> str:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    state = loaded_state(loaded)
    a, b = _hex(state, source, "from"), _hex(state, target, "to")
    sight = line_of_sight(state.map, a, b)
    lab = state.map.label
    if sight.clear:
        return f"👁️ {lab(a)} → {lab(b)}: clear line of sight, {sight.distance} hexes."
    return (f"🚫 {lab(a)} → {lab(b)}: blocked by {', '.join(lab(h) for h in sight.blocked_by)}"
            f" ({sight.distance} hexes).")


async def map_view(ctx: Ctx, overlay: str, unit: str | None, source: str | None,
                   target: str | None) -> tuple[str, Attachment]:
    from render.overlays import RangeBands, Reachable, SightCheck

    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    state = loaded_state(loaded)
    overlays: list[Any] = []
    text = f"Turn {state.turn}, {state.phase.value} phase."
    if overlay == "moves":
        rows = await ctx.app.repo.orders(loaded.game.id)
        flat = [dict(e) for row in rows for e in row.events]
        start = max((i for i, e in enumerate(flat) if e["type"] == "PhaseStarted"), default=0)
        overlays = overlays_from_events(state, flat[start:])
        text += " Moves and attacks of this phase shown."
    elif overlay == "los":
        a, b = _hex(state, source, "from"), _hex(state, target, "to")
        overlays = [SightCheck.on(state.map, a, b)]
        text = await los_text(ctx, source or "", target or "")
    elif overlay in ("ranges", "reach"):
        if not unit:
            raise NotationError(f"The {overlay} overlay needs a unit.", legal=("unit:ax3",))
        u = seen_unit(loaded, ctx.actor.id, unit)
        if u.hex is None:
            raise IllegalOrder(f"{u.id} is not on the map.")
        card = state.cards[u.card]
        if overlay == "ranges":
            from engine.minis.attacks import MEDIUM_EDGE, SHORT_EDGE, max_range

            longest = max(max_range(card, False), max_range(card, True))
            overlays = [RangeBands(u.hex, SHORT_EDGE, MEDIUM_EDGE, longest, u.id)]
            text = (f"{u.id} {card.name}: short 0–{SHORT_EDGE}, medium {SHORT_EDGE + 1}–{MEDIUM_EDGE},"
                    f" long {MEDIUM_EDGE + 1}–{longest} (M-7.1).")
        else:
            from engine.minis.movement import reachable

            hexes = frozenset(reachable(state, u))
            overlays = [Reachable(hexes, u.id)]
            text = f"{u.id} {card.name} can reach {len(hexes)} hexes now (terrain, roads, stacking)."
    image = await board_png(state, overlays=overlays)
    return text, image


# --------------------------------------------------------------------------- cards and catalogue


async def card_view(ctx: Ctx, name: str) -> tuple[str, Attachment]:
    try:
        loaded: Loaded | None = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    except NoGame:
        loaded = None
    card: UnitCard | None = None
    text = ""
    looks_like_id = re.fullmatch(r"\s*(ax|al)\d{1,2}\s*", name.lower()) is not None
    if loaded is not None:
        state = loaded_state(loaded)
        try:
            u = seen_unit(loaded, ctx.actor.id, name)
            card = state.cards[u.card]
            text = _unit_line(state, u)
        except UnknownName:
            if looks_like_id:
                raise
    elif looks_like_id:
        raise UnknownName(f"There is no battle in this channel with a unit '{name.strip()}'.")
    if card is None:
        card = load_catalogue().find(name)
        text = card.name

    def draw() -> bytes:
        return png(card_image(card))

    return text, Attachment(f"{card.key}.png", await asyncio.to_thread(draw))


def _attacks(values: tuple[int | None, int | None, int | None]) -> str:
    return "/".join("–" if v is None else str(v) for v in values)


def card_line(c: UnitCard) -> str:
    kind = c.type.value + (f"–{c.subtype}" if c.subtype else "")
    defense = f"{c.defense_front}/{c.defense_rear}"
    abilities = ", ".join(str(a) for a in c.abilities)
    return (f"**{c.name}** ({c.nation}, {kind}, {c.year}) {c.cost} pts · speed {c.speed} · def {defense}"
            f" · vs Soldier {_attacks(c.vs_soldier)} · vs Vehicle {_attacks(c.vs_vehicle)}"
            + (f" · {abilities}" if abilities else "") + (f" · initiative +{c.initiative}" if c.initiative else ""))


def units_text(side: str | None, nation: str | None, search: str | None) -> str:
    cards = [c for c in load_catalogue().values()
             if (side is None or c.side == side)
             and (nation is None or c.nation.lower().startswith(nation.strip().lower()))
             and (search is None or search.strip().lower() in c.name.lower())]
    if not cards:
        raise UnknownName("No unit card matches.", legal=("side:axis", "nation:Germany", "search:sherman"))
    cards.sort(key=lambda c: (c.side, c.nation, c.name))
    head = f"{len(cards)} unit card{'s' if len(cards) != 1 else ''} (ranges {', '.join(BAND_NAMES)}):"
    return clip([head, *(card_line(c) for c in cards)], more=" — narrow with side:, nation: or search:")
