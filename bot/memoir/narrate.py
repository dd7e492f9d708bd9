"""Memoir '44 events in words (what the channel, the log and the reports say).

Only ever handed events as a viewer may see them (``MemoirRules.event_view``): a card
drawn by the other seat arrives without its name, so it cannot be told.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core.words import plural
from engine.memoir.tables import card_kinds

EventDict = Mapping[str, Any]

FACE = {"infantry": "🪖", "armor": "🛡️", "grenade": "💣", "star": "⭐", "flag": "🏳️"}
SIDE = {"axis": "Axis", "allies": "Allies"}


def side_name(seat: str | None) -> str:
    return SIDE.get(str(seat), str(seat).capitalize())


def card_name(kind: str | None) -> str:
    if not kind:
        return "a card"
    c = card_kinds().get(str(kind))
    return c.name if c is not None else str(kind)


def faces(values: Sequence[str]) -> str:
    return " ".join(FACE.get(v, v) for v in values) or "no dice"


def _played(e: EventDict) -> str:
    sections = list(e.get("sections") or ())
    text = f"🃏 {side_name(e['seat'])} played **{card_name(e['card'])}**"
    if e.get("effect") and e["effect"] != e["card"]:
        text += f" (as {card_name(e['effect'])})"
    if sections and card_kinds()[str(e["card"])].get("choose_section"):
        text += f" on the {'/'.join(sections)}"
    if e.get("fallback"):
        text += " — no unit of that type: it orders 1 unit of any type instead"
    return text + "."


def line(e: EventDict, state: Any = None) -> str | None:
    """One event in words, or None for an event the channel need not hear about."""
    t = e.get("type")
    if t == "GameStarted":
        a, b = e["medals"]
        return (f"🗺️ **{e['scenario']}**: {side_name(e['first'])} play first; medals to win: Axis {a},"
                f" Allies {b}.")
    if t == "CardsDealt":
        cards = e.get("cards")
        if cards is None:
            return f"{side_name(e['seat'])} were dealt {plural(int(e.get('count', 0)), 'card')}."
        return f"Your hand ({side_name(e['seat'])}): " + ", ".join(card_name(_kind(c)) for c in cards) + "."
    if t == "Airdropped":
        if e.get("unit"):
            return f"🪂 A paratrooper unit lands on {e['hex']} ({e['unit']})."
        return f"🪂 A drop on {e['hex']} is lost ({e.get('why') or 'no room'})."
    if t == "CardPlayed":
        return _played(e)
    if t == "CardDice":
        return f"🎲 {card_name(e['card'])} rolls {faces(e['faces'])}."
    if t == "UnitsOrdered":
        units = list(e["units"])
        return f"📣 {side_name(e['seat'])} order " + (", ".join(units) if units else "no unit") + "."
    if t == "Targeted":
        return f"🎯 {card_name(e['card'])} targets {', '.join(e['hexes']) or 'nothing'}."
    if t == "Moved":
        path = list(e["path"])
        via = f" (via {', '.join(path[1:-1])})" if len(path) > 2 else ""
        return f"➡️ {path[0]} moves to {path[-1]}{via}."
    if t == "ObstacleChanged":
        verb = "placed on" if e["placed"] else "removed from"
        return f"🧱 {str(e['obstacle']).capitalize()} {verb} {e['hex']} ({e['why']})."
    if t == "BattleDeclared":
        kind = "overruns" if e.get("overrun") else ("close-assaults" if e.get("close") else "battles")
        return f"⚔️ {e['attacker']} {kind} {e['target']} with {dice_count(int(e['dice']))}."
    if t == "AmbushAnswered":
        return (f"🪤 {side_name(e['seat'])} spring an **Ambush**!" if e["ambush"]
                else f"{side_name(e['seat'])} do not ambush.")
    if t == "Rolled":
        who = e.get("attacker") or card_name(str(e.get("why")))
        return (f"🎲 {who} → {e['target']}: {faces(e['faces'])} → {plural(int(e['hits']), 'hit')},"
                f" {plural(int(e['flags']), 'flag')}.")
    if t == "FiguresLost":
        why = " (no room to retreat)" if e.get("why") == "retreat" else ""
        return f"💥 {e['hex']} loses {plural(int(e['lost']), 'figure')}{why}; {e['left']} left."
    if t == "Eliminated":
        return f"☠️ The unit on {e['hex']} is eliminated: a medal to the {side_name(e['medal_to'])}."
    if t == "FlagsIgnored":
        return f"{e['hex']} ignores {plural(int(e['ignored']), 'flag')}."
    if t == "Retreated":
        path = list(e["path"])
        return f"↩️ {path[0]} retreats to {path[-1]}." if len(path) > 1 else None
    if t == "BattleCancelled":
        unit = state.unit(str(e["attacker"])) if state is not None and hasattr(state, "unit") else None
        who = unit.where if unit is not None else "The attacker"
        return f"{who} cannot battle: {e['why']}."
    if t == "TookGround":
        return f"🚩 {e['frm']} takes ground in {e['to']}."
    if t == "Healed":
        return f"⛑️ {e['hex']} gets back {plural(int(e['figures']), 'figure')} ({e['now']} now)."
    if t == "MedalsChanged":
        return f"🏅 Medals: Axis {e['axis']}, Allies {e['allies']}."
    if t == "CardDrawn":
        if e.get("card") is None:
            return f"{side_name(e['seat'])} draw a card."
        return f"🃏 You draw **{card_name(str(e['card']))}**."
    if t == "CardDiscarded":
        return f"{side_name(e['seat'])} discard {card_name(e['card'])} ({e['why']})."
    if t == "DeckShuffled":
        return f"🔀 The deck is reshuffled ({plural(int(e['cards']), 'card')}: {e['why']})."
    if t == "StepClosed":
        return None
    if t == "TurnEnded":
        return f"— end of {side_name(e['seat'])} turn {e['turn']} —"
    if t == "StandingSet":
        return f"Your Ambush standing setting is now **{e['setting']}**."
    if t == "Conceded":
        return f"🏳️ {side_name(e['seat'])} concede."
    if t == "TimedOut":
        return f"⏰ {side_name(e['seat'])} did not answer in time ({e['policy']})."
    if t == "Victory":
        a, b = e["medals"]
        return f"🏆 **{side_name(e['winner'])} win** — {e['reason']} (medals: Axis {a}, Allies {b})."
    return None


def _kind(card: str) -> str:
    return card.split("#", 1)[0]


def lines(events: Sequence[EventDict], state: Any = None) -> list[str]:
    return [text for e in events if (text := line(e, state)) is not None]


def summary(events: Sequence[EventDict]) -> str:
    """A turn in one line: "Allies played Attack Left: ordered A7, B8; B8 moved to C6;
    battled D5 with 3 dice: ⭐ 💣 🏳️ → 1 hit, 1 flag; D5 retreats to D4"."""
    parts: list[str] = []
    head = ""
    for e in events:
        t = e.get("type")
        if t == "CardPlayed" and not head:
            head = f"{side_name(e['seat'])} played {card_name(e['card'])}"
        elif t == "CardPlayed":
            parts.append(f"{side_name(e['seat'])} played {card_name(e['card'])}")
        elif t == "UnitsOrdered":
            parts.append("ordered " + (", ".join(e["units"]) or "nothing"))
        elif t == "Targeted":
            parts.append("targeted " + (", ".join(e["hexes"]) or "nothing"))
        elif t == "Moved":
            parts.append(f"{e['path'][0]} moved to {e['path'][-1]}")
        elif t == "BattleDeclared":
            parts.append(f"{e['attacker']} battled {e['target']} with {dice_count(int(e['dice']))}")
        elif t == "Rolled":
            parts.append(f"{faces(e['faces'])} → {plural(int(e['hits']), 'hit')}, {plural(int(e['flags']), 'flag')}")
        elif t == "Retreated" and len(e["path"]) > 1:
            parts.append(f"{e['path'][0]} retreats to {e['path'][-1]}")
        elif t == "Eliminated":
            parts.append(f"{e['hex']} eliminated")
        elif t == "TookGround":
            parts.append(f"{e['frm']} took ground in {e['to']}")
        elif t == "ObstacleChanged":
            parts.append(f"{e['obstacle']} {'placed on' if e['placed'] else 'removed from'} {e['hex']}")
    if not head:
        return "; ".join(parts)
    return head + (": " + "; ".join(parts) if parts else "")


def dice_count(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"
