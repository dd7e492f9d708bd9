"""What the /memoir look-ups and the private hand show.  Everything is computed on the
state *as the asker may see it* (``Loaded.view(viewer)``): a hand is only ever read from
its owner's view, and look-ups on the public position need no secret at all."""

from __future__ import annotations

from typing import Any

from bot.context import Attachment, Button, Ctx
from bot.memoir.front import FRONT, KIND, board_image, memoir_state
from bot.memoir.narrate import card_name, dice_count, side_name
from bot.session import Loaded
from engine.core.errors import IllegalOrder, NotationError, UnknownName
from engine.core.game import PUBLIC
from engine.memoir import legal, lookups
from engine.memoir.board import SEATS, parse_hex
from engine.memoir.scenario import SHIPPED, Scenario, find_shipped, load_scenario_text, shipped_scenarios
from engine.memoir.state import MemoirState
from engine.memoir.tables import card_key, card_kinds, kind_of
from engine.memoir.turn import shown_medals
from render.memoir import card_png
from render.memoir.cards import card_texts, hand_png


def scenario_option(scenario: str | None, custom: str | None, pick: int) -> Any:
    """The engine's ``scenario`` option: a shipped scenario by slug or name, ``random``
    (``pick`` chooses, 1-based), or the pasted text of a scenario (ours or a ``.m44``)."""
    if custom is not None and custom.strip():
        load_scenario_text(custom)  # refuse a bad file before anything is written
        return custom
    name = (scenario or "pegasus-bridge").strip()
    if name.lower() == "random":
        return SHIPPED[(pick - 1) % len(SHIPPED)]
    if name.lstrip().startswith("{"):
        load_scenario_text(name)
        return name
    return find_shipped(name).slug


async def game(ctx: Ctx) -> Loaded:
    return await ctx.app.sessions.latest(ctx.channel_id, kind=KIND)


def my_seat(loaded: Loaded, ctx: Ctx) -> str:
    seat = loaded.acting_seat(ctx.actor.id)
    if seat is None:
        raise IllegalOrder("Only a player of this game has a hand; watchers see the card counts in"
                           " /memoir status.", legal=("/memoir status", "/memoir join"))
    return seat


def hand_message(loaded: Loaded, ctx: Ctx) -> tuple[str, list[Attachment], list[Button]]:
    """The asker's hand: its text, one picture of the cards, and a button per card they
    may play now (or, after a Recon, per card they may keep)."""
    seat = my_seat(loaded, ctx)
    state = memoir_state(loaded.seen_by(ctx.actor.id))
    hand = tuple(kind_of(c) for c in state.hand(seat))
    lines = [f"🃏 **Your hand** ({side_name(seat)}, {len(hand)} card{'s' if len(hand) != 1 else ''}) — only you"
             " see this:"]
    for i, kind in enumerate(hand, 1):
        lines.append(f"{i}. **{card_name(kind)}** — {card_texts().get(kind, '')}")
    buttons: list[Button] = []
    if state.step == "recon" and state.active == seat and len(state.drawn) == 2:
        drawn = [kind_of(c) for c in state.drawn]
        lines.append(f"Recon: you drew **{card_name(drawn[0])}** (1) and **{card_name(drawn[1])}** (2);"
                     " discard one.")
        buttons += [Button(f"Discard {card_name(k)}", f"/memoir decide discard card:{i}", "secondary")
                    for i, k in enumerate(drawn, 1)]
    elif state.step == "play" and state.active == seat and state.fight is None and not state.over:
        for p in legal.play_orders(state, seat):
            text = f"play {p.card}" + (f" {p.section}" if p.section else "")
            line = FRONT.slash(text)
            if line is not None:
                label = card_name(p.card) + (f" ({p.section})" if p.section else "")
                buttons.append(Button(f"Play {label}", line, "primary"))
        lines.append("Play one with a button below or `/memoir play card:…`.")
    else:
        lines.append("It is not your play step now; the buttons come with your turn.")
    files = [Attachment("hand.png", hand_png(hand))] if hand else []
    return "\n".join(lines), files, buttons[:25]


def card_view(name: str) -> tuple[str, Attachment]:
    key = card_key(name)
    kinds = card_kinds()
    if key not in kinds:
        matches = [k for k in kinds if key and key in k]
        if len(matches) != 1:
            raise UnknownName(f"'{name[:40]}' is not a command card.", legal=sorted(kinds)[:12])
        key = matches[0]
    c = kinds[key]
    text = f"**{c.name}** ({c.type} card, {c.count} in the deck): {card_texts().get(key, '')}"
    return text, Attachment(f"card-{key}.png", card_png(key))


def scenarios_text() -> str:
    lines = ["**Memoir '44 scenarios** (`/memoir new scenario:…`; also `random`, or paste a file in `custom:`):"]
    for sc in shipped_scenarios():
        lines.append(_scenario_line(sc))
    return "\n".join(lines)


def _scenario_line(sc: Scenario) -> str:
    return (f"• `{sc.slug}` — **{sc.name}** ({sc.face}): {side_name(sc.first)} first; cards Axis {sc.cards[0]},"
            f" Allies {sc.cards[1]}; medals to win Axis {sc.medals[0]}, Allies {sc.medals[1]}.")


async def position(ctx: Ctx) -> MemoirState:
    """The channel's game as everyone may see it."""
    return memoir_state((await game(ctx)).view(PUBLIC))


def los_text(state: MemoirState, a: str, b: str) -> str:
    ha, hb = parse_hex(a), parse_hex(b)
    r = lookups.los(state, ha, hb)
    names = f"{a.upper()}–{b.upper()}"
    if r["clear"]:
        return f"👁️ {names}: line of sight is clear (E-11)."
    return f"🚫 {names}: line of sight is blocked by {', '.join(r['blocked_by'])} (E-11)."


def battles_text(state: MemoirState, side: str) -> str:
    if side not in SEATS:
        raise NotationError(f"'{side}' is not a side.", legal=SEATS)
    rows = lookups.battles(state, side)
    if not rows:
        return f"{side_name(side)}: no battle possible from here (E-12)."
    lines = [f"⚔️ Battles {side_name(side)} could fight if every unit were ordered and none moved (no card bonus):"]
    lines += [f"• {r['attacker']} → {r['target']}: {dice_count(int(r['dice']))}" for r in rows]
    return "\n".join(lines)


def moves_text(state: MemoirState, unit: str) -> str:
    r = lookups.moves(state, parse_hex(unit))
    stop = f"; must stop in {', '.join(r['must_stop'])}" if r["must_stop"] else ""
    if not r["reachable"]:
        return f"{unit.upper()} cannot move anywhere now."
    return f"➡️ {unit.upper()} could reach {', '.join(r['reachable'])}{stop} (E-9)."


def board_reply(state: MemoirState) -> tuple[str, Attachment]:
    a, b = shown_medals(state)
    return (f"🗺️ {state.scenario.name}, turn {state.turn} — medals Axis {a}, Allies {b}.",
            board_image(state, title=state.scenario.name, name=f"memoir-board-turn{state.turn}.png"))
