"""Turn A&A Miniatures events into short lines for the channel.

Works on the JSON form of events (``Event.to_dict()``), so the same code narrates a live
order and a page of the stored order log.  It narrates what it is given: the platform
hands it only the events (and the state) a viewer may see, as the engine's per-seat view
decides (army lists and standing orders reach their owner alone).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.core.hexgrid import Hex
from engine.core.words import plural
from engine.minis.state import MinisState

EventDict = Mapping[str, Any]
SIDE_NAMES = {"axis": "Axis", "allies": "Allies"}
ADJECTIVES = {"axis": "Axis", "allies": "Allied"}


def side_name(side: str | None) -> str:
    """A side as a label: ``Axis``, ``Allies``."""
    return SIDE_NAMES.get(side or "", side or "nobody")


def the(side: str | None, *, start: bool = False) -> str:
    """A side as the subject of a sentence (plural verb): ``the Axis``, ``The Allies``."""
    if side not in SIDE_NAMES:
        return "Nobody" if start else "nobody"
    return ("The " if start else "the ") + SIDE_NAMES[side]


class Namer:
    """Names hexes, units and facings against one battle state."""

    def __init__(self, state: MinisState) -> None:
        self.state = state

    def hex(self, value: Any) -> str:
        if value is None:
            return "?"
        return self.state.map.label(Hex(int(value[0]), int(value[1])))

    def path(self, values: Sequence[Any]) -> str:
        return " → ".join(self.hex(v) for v in values)

    def unit(self, unit_id: str) -> str:
        try:
            u = self.state.unit(unit_id)
        except Exception:
            return unit_id
        card = self.state.cards.get(u.card)
        return f"{u.id} {card.name}" if card else u.id

    def card(self, key: str) -> str:
        card = self.state.cards.get(key)
        return card.name if card else key

    def facing(self, value: int | None) -> str:
        return "" if value is None else self.state.map.labels.direction_name(int(value))


def _dice(values: Sequence[int], modifier: int) -> str:
    shown = " ".join(str(v) for v in sorted(values, reverse=True))
    if modifier:
        shown += f" ({modifier:+d} each)"
    return shown


def _attack(e: EventDict, n: Namer) -> str:
    kind = {"defensive": "defensive fire", "guns": "All Guns Blazing", "cannon": "hull cannon",
            "banzai": "Banzai Charge"}.get(e.get("kind", ""), "")
    head = f"{n.unit(e['attacker'])} → {n.unit(e['target'])}"
    if kind:
        head += f" ({kind})"
    if e.get("indirect"):
        head += f" [indirect, spotted by {e['indirect']}]"
    defense = f"defense {e['defense']}"
    if e.get("front") is not None:
        defense += " front" if e["front"] else " rear"
    body = (f"{e['range']} hex{'es' if e['range'] != 1 else ''} ({e['band']}): "
            f"{plural(len(e['dice']), 'die', 'dice')} {_dice(e['dice'], e.get('modifier', 0))} = "
            f"{e['successes']} success{'es' if e['successes'] != 1 else ''} vs {defense}")
    hits = e.get("hits", 0)
    result = f"{hits} hit{'s' if hits != 1 else ''}" if hits else "no effect"
    if e.get("covered"):
        result += ", limited by cover"
    effect = e.get("effect")
    if e.get("counters"):
        result += " → face-down " + ", ".join(c.capitalize() for c in e["counters"])
    elif effect in ("disrupted", "stopped", "destroyed") and hits:
        result += f" → {effect}"
    special = f" [{', '.join(e['special'])}]" if e.get("special") else ""
    return f"💥 {head}, {body} → {result}{special}"


def _moved(e: EventDict, n: Namer) -> str:
    line = f"{n.unit(e['unit'])} moved {n.path(e['path'])}"
    if len(e["path"]) <= 1:
        line = f"{n.unit(e['unit'])} stayed in {n.hex(e['path'][0]) if e['path'] else '?'}"
    if e.get("facing") is not None:
        line += f", facing {n.facing(e['facing'])}"
    if e.get("stopped"):
        line += f" — stopped by {e['stopped']}"
    if e.get("backed_up"):
        line += f", backed up through {n.path(e['backed_up'])} (stacking)"
    return line


def _casualties(e: EventDict, n: Namer) -> str:
    parts = []
    for key, label in (("destroyed", "destroyed"), ("damaged", "now damaged"),
                       ("disrupted", "now disrupted"), ("recovered", "recovered"),
                       ("ignored", "ignored a Damaged counter (Heavy Armor)")):
        if e.get(key):
            parts.append(f"{label}: {', '.join(n.unit(u) for u in e[key])}")
    return f"☠️ Casualty phase, turn {e['turn']}: " + ("; ".join(parts) if parts else "no losses")


def _initiative(e: EventDict, n: Namer) -> str:
    ax, al = e["axis_dice"], e["allies_dice"]
    axt, alt = sum(ax) + e["axis_bonus"], sum(al) + e["allies_bonus"]
    line = (f"🎲 Initiative, turn {e['turn']}: Axis {ax[0]}+{ax[1]}+{e['axis_bonus']} = {axt}, "
            f"Allies {al[0]}+{al[1]}+{e['allies_bonus']} = {alt}")
    if not e.get("winner"):
        return line + " → tie, both roll again (M-5.1)"
    if axt == alt:  # equal totals: the higher commander bonus breaks the tie (M-5.1)
        return line + f" → tie broken by the higher commander bonus: {the(e['winner'])} win (M-5.1)"
    return line + f" → {the(e['winner'])} win"


def _first(e: EventDict, n: Namer) -> str:
    if e.get("deployment"):
        return f"{the(e['chooser'], start=True)} chose: {the(e['first'])} deploy first."
    return f"Turn {e['turn']}: {the(e['first'])} go first (chosen by {the(e['chooser'])})."


NARRATORS: dict[str, Callable[[EventDict, Namer], str | None]] = {
    "ArmyReady": lambda e, n: f"The {ADJECTIVES.get(e['side'], e['side'])} army is "
        f"{'ready' if e['ready'] else 'no longer ready'}.",
    # M-2.5: the lists (and so their sizes) stay secret until deployment.
    "ArmiesLocked": lambda e, n: "Both armies are final; they are revealed as they deploy.",
    "CoinToss": lambda e, n: f"🪙 Coin toss (die {e['die']}): {the(e['winner'])} win and choose who deploys first.",
    "FirstPlayerChosen": _first,
    "MapChosen": lambda e, n: "🗺️ Battlefield: " + (
        f"configuration {e['configuration']} “{e['name']}”" if e.get("configuration") else f"“{e['name']}”")
        + (f" (die roll {e['die']})" if e.get("die") else "")
        + (f", chosen by {the(e['side'])}" if e.get("side") else "") + ".",
    "ObjectiveChosen": lambda e, n: f"🎯 {the(e['side'], start=True)} placed the objective at {n.hex(e['hex'])}.",
    "EndChosen": lambda e, n: f"{the(e['side'], start=True)} take the {e['end']} end.",
    "Deployed": lambda e, n: f"{n.unit(e['unit'])} deployed at {n.hex(e['hex'])}"
        + (f" facing {n.facing(e['facing'])}" if e.get("facing") is not None else "")
        + (f", aboard {e['aboard']}" if e.get("aboard") else "") + ".",
    "DeploymentDone": lambda e, n: f"{the(e['side'], start=True)} finished deploying"
        + (f" (left out: {', '.join(e['left_out'])})" if e.get("left_out") else "") + ".",
    "PhaseStarted": lambda e, n: f"— Turn {e['turn']}, {e['phase']} phase"
        + (f": {side_name(e['active'])}" if e.get("active") else "") + " —",
    "InitiativeRolled": _initiative,
    "TurnEnded": lambda e, n: f"End of turn {e['turn']}.",
    "Victory": lambda e, n: f"🏆 {the(e['winner'], start=True)} win the battle: {e['reason']}"
        if e.get("winner") else f"🏁 The battle is drawn: {e['reason']}",
    "Conceded": lambda e, n: f"🏳️ {the(e['side'], start=True)} concede.",
    "TimedOut": lambda e, n: f"⏰ {the(e['side'], start=True)} did not answer in time: {e['policy']}.",
    "MovementRoll": lambda e, n: f"{n.unit(e['unit'])} movement roll to enter {n.hex(e['entering'])} "
        f"({e['reason']}): {e['die']} — {'passed' if e['success'] else 'failed, stops in ' + n.hex(e['leaving'])}.",
    "Moved": _moved,
    "Faced": lambda e, n: f"{n.unit(e['unit'])} turned to face {n.facing(e['facing'])}.",
    "Boarded": lambda e, n: f"{n.unit(e['unit'])} boarded {n.unit(e['transport'])} in {n.hex(e['hex'])}.",
    "Dismounted": lambda e, n: f"{n.unit(e['unit'])} dismounted from {n.unit(e['transport'])} into {n.hex(e['hex'])}"
        + (" (nearest legal hex)" if e.get("displaced") else "") + ".",
    "OverrunEvent": lambda e, n: f"{n.unit(e['unit'])} overran {n.unit(e['victim'])} in {n.hex(e['hex'])}: disrupted.",
    "BridgeDemolition": lambda e, n: f"{n.unit(e['unit'])} tried to blow the bridge "
        f"{n.hex(e['bridge'][0])}–{n.hex(e['bridge'][1])}: {e['die']} — {'destroyed' if e['success'] else 'failed'}.",
    "CoverRoll": lambda e, n: f"🛡️ {n.unit(e['unit'])} cover: "
        + (f"{e['automatic']}" if e.get("automatic") else f"rolled {e['die']}"
           + (f" ({e['modifier']:+d})" if e.get("modifier") else "") + f", needs {e['needed']}+")
        + f" — {'saved' if e['success'] else 'failed'}.",
    "Attacked": _attack,
    "DefensiveFireEvent": lambda e, n: f"🔫 Defensive fire by {n.unit(e['defender'])} at {n.hex(e['at'])} "
        f"({e['where']} hex){' [standing order: ' + e['standing'] + ']' if e.get('standing') else ''}"
        f"{': ' + n.unit(e['mover']) + ' is stopped' if e.get('stopped') else ''}.",
    "DefensiveFireHeld": lambda e, n: f"{the(e['side'], start=True)} held fire as {n.unit(e['mover'])} "
        f"passed {n.hex(e['at'])}.",
    "UnitDisrupted": lambda e, n: f"{n.unit(e['unit'])} is disrupted ({e['reason']}).",
    "HeavyArmorIgnored": lambda e, n: f"{n.unit(e['unit'])} shrugs off its first Damaged counter"
        " (Heavy Armor).",
    "UnitDestroyed": lambda e, n: f"{n.unit(e['unit'])} is destroyed ({e['reason']}).",
    "CountersCleared": lambda e, n: f"{n.unit(e['by'])} rallied {', '.join(n.unit(u) for u in e['units'])}.",
    "Casualties": _casualties,
}


def _army_listed(e: EventDict, n: Namer) -> str:
    cards = ", ".join(n.card(c) for c in e["cards"]) or "(empty)"
    count = len(e["cards"])
    text = f"Your army ({count} unit{'s' if count != 1 else ''}, {e['cost']} points): {cards}."
    if e.get("problems"):
        text += " Not ready yet: " + "; ".join(e["problems"])
    return text


# Events only their owner ever receives (the engine's event_view decides who that is).
NARRATORS["ArmyListed"] = _army_listed
NARRATORS["StandingOrderSet"] = lambda e, n: f"Standing order for {n.unit(e['unit'])}: {e['policy']}."


def lines(events: Iterable[EventDict], state: MinisState) -> list[str]:
    """Narrate the events given, against the state given.  Callers hand in what a viewer
    may see (``GameRules.event_view`` and ``view``); nothing here filters or decides."""
    n = Namer(state)
    out: list[str] = []
    for e in events:
        narrate = NARRATORS.get(str(e.get("type")))
        line = narrate(e, n) if narrate else None
        if line:
            out.append(line)
    return out
