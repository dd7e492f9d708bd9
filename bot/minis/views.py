"""What the Minis looking commands show (map, line of sight, cards, catalogue, your army)
and the small helpers of the Minis order commands.  Nothing here changes a game.

Every public answer is built from the public view of the game (``Loaded.view(PUBLIC)``);
``/minis army`` answers its owner alone from their own view.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.context import Attachment, Ctx
from bot.minis.front import KIND, board_image, find_unit, minis_state, unit_line, zoom_hex, zoom_image
from bot.minis.narrate import side_name
from bot.present import clip
from bot.session import Loaded, NoGame
from engine.core.errors import IllegalOrder, NotationError, UnknownName
from engine.core.game import PUBLIC
from engine.core.hexgrid import Hex
from engine.minis.catalogue import load_catalogue
from engine.minis.line_of_sight import line_of_sight
from engine.minis.model import BAND_NAMES, UnitCard
from engine.minis.state import MinisState
from render.minis import card as card_image, overlays_from_events, png


# --------------------------------------------------------------------------- new game


def new_options(*, scenario: str, points: int | None, year: int | None, historical: bool,
                map: str | None, attacker: str | None, stacking: int, costs: str, standing: str,
                cards: str | None = None, custom: bool = False) -> dict[str, Any]:
    """The engine options of a new battle.  A custom scenario brings its own map (M-18):
    ``map`` is only set when the player gave one."""
    options: dict[str, Any] = {"scenario": scenario, "historical": historical, "stacking": stacking,
                               "cost_set": costs, "standing": standing}
    choice = (map or ("" if custom else "random")).strip().lower()
    if choice == "random":
        options["map"] = "random"
    elif choice.isdigit() and 1 <= int(choice) <= 6:
        options["map"] = int(choice)
    elif choice:
        raise NotationError(f"'{(map or '')[:20]}' is not a map configuration.",
                            legal=("1", "2", "3", "4", "5", "6", "random"))
    if points is not None:
        options["points"] = points
    if year is not None:
        options["year"] = year
    if attacker is not None:
        options["attacker"] = attacker
    if cards:
        options["custom_cards"] = cards
    return options


# --------------------------------------------------------------------------- orders from options


def deploy_order(state: MinisState, unit: str | None, to: str | None, face: str | None,
                 aboard: str | None, map: int | None, objective: str | None, end: str | None) -> str:
    chosen = [x for x in (map, objective, end) if x is not None]
    if chosen:
        if unit or to or aboard or len(chosen) > 1:
            raise NotationError("Choose one thing at a time: a map, an objective, or an end.",
                                legal=("/minis deploy map:4", "/minis deploy objective:H8",
                                       "/minis deploy end:east"))
        if map is not None:
            return f"map {map}"
        if objective is not None:
            return f"objective {objective}"
        return f"end {end}"
    if not unit:
        raise NotationError("Which unit?", legal=("/minis deploy unit:ax3 to:F7",))
    if aboard:
        transport = find_unit(state, aboard)
        if to and transport.hex is not None and state.map.parse_hex(to) != transport.hex:
            raise IllegalOrder(f"{transport.id} is in {state.map.label(transport.hex)}, not {to}: a unit"
                               " deployed aboard a transport starts where the transport is.",
                               legal=(f"/minis deploy unit:{unit} aboard:{transport.id}",))
        return f"deploy {unit} aboard {aboard}"
    if not to:
        raise NotationError("Where to?", legal=(f"/minis deploy unit:{unit} to:F7",))
    return f"deploy {unit} {to}" + (f" face {face}" if face else "")


# --------------------------------------------------------------------------- army


async def army_text(ctx: Ctx) -> str:
    loaded = await ctx.app.sessions.load(ctx.channel_id, kind=KIND)
    seats = loaded.game.seat_of(ctx.actor.id)
    if not seats:
        raise IllegalOrder("You are not playing in this battle.")
    state = minis_state(loaded.seen_by(ctx.actor.id))
    lines = []
    for seat in seats:
        units = [u for u in state.units if u.side == seat]
        keys = state.armies.get(seat, ())
        cost = sum(state.cards[k].cost for k in keys if k in state.cards)
        listed = ", ".join(state.cards[k].name for k in keys if k in state.cards) or "(empty)"
        lines.append(f"**{side_name(seat)}** ({len(keys)} unit{'' if len(keys) == 1 else 's'}, {cost} points"
                     + (", ready" if seat in state.ready else "") + f"): {listed}")
        if units:
            lines.append("Ids: " + ", ".join(f"{u.id} {state.cards[u.card].short_name or state.cards[u.card].name}"
                                             for u in units))
    return "\n".join(lines)


# --------------------------------------------------------------------------- looking at the map


def _hex(state: MinisState, text: str | None, what: str) -> Hex:
    if not text:
        raise NotationError(f"Give the {what} hex.", legal=("F7",))
    return state.map.parse_hex(text)


async def public_state(ctx: Ctx) -> tuple[Loaded, MinisState]:
    loaded = await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)
    return loaded, minis_state(loaded.view(PUBLIC))


async def los_text(ctx: Ctx, source: str, target: str) -> str:
    _, state = await public_state(ctx)
    a, b = _hex(state, source, "from"), _hex(state, target, "to")
    sight = line_of_sight(state.map, a, b)
    lab = state.map.label
    if sight.clear:
        return f"👁️ {lab(a)} → {lab(b)}: clear line of sight, {sight.distance} hexes."
    return (f"🚫 {lab(a)} → {lab(b)}: blocked by {', '.join(lab(h) for h in sight.blocked_by)}"
            f" ({sight.distance} hexes).")


async def map_view(ctx: Ctx, overlay: str, unit: str | None, source: str | None,
                   target: str | None, zoom: str | None = None) -> tuple[str, Attachment]:
    from bot.session import effective_rows
    from render.overlays import RangeBands, Reachable, SightCheck

    loaded, state = await public_state(ctx)
    centre = zoom_hex(state, zoom) if zoom is not None else None
    overlays: list[Any] = []
    text = f"Turn {state.turn}, {state.phase.value} phase."
    if overlay == "moves":
        rows = effective_rows(await ctx.app.repo.orders(loaded.game.id))
        from engine.core.game import visible_events

        flat = visible_events(loaded.rules, [e for row in rows for e in row.events], PUBLIC)
        start = max((i for i, e in enumerate(flat) if e["type"] == "PhaseStarted"), default=0)
        overlays = overlays_from_events(state, flat[start:])
        text += " Moves and attacks of this phase shown."
    elif overlay == "los":
        a, b = _hex(state, source, "from"), _hex(state, target, "to")
        overlays = [SightCheck.on(state.map, a, b)]
        text = await los_text(ctx, source or "", target or "")
    elif overlay in ("ranges", "reach"):
        if not unit:
            raise NotationError(f"The {overlay} overlay needs a unit.", legal=(f"/minis map overlay:{overlay} unit:ax3",))
        u = find_unit(state, unit)
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
    if centre is not None:
        image = await asyncio.to_thread(zoom_image, state, centre, overlays)
        return f"{text} Close-up around {state.map.label(centre)}.", image
    image = await asyncio.to_thread(board_image, state, overlays=overlays)
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
        state = minis_state(loaded.view(PUBLIC))
        try:
            u = find_unit(state, name)
            card = state.cards[u.card]
            text = unit_line(state, u)
        except UnknownName:
            if looks_like_id:
                raise
    elif looks_like_id:
        raise UnknownName(f"There is no battle in this channel with a unit '{name.strip()[:20]}'.")
    if card is None:
        card = load_catalogue().find(name)
        text = card.name
    found = card

    def draw() -> bytes:
        return png(card_image(found))

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
