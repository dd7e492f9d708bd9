"""The A&A engine's events in words, for the channel and the log.

Every function here is handed events *as a viewer may see them* (the engine's
``event_view``), so nothing it writes can leak.  Unit lists come from the engine already
in the short notation players type (``2 inf, 1 tank``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

EventDict = Mapping[str, Any]

PHASE_NAMES = {
    "research": "research & development",
    "purchase": "purchase units",
    "first": "who moves first (A-5.3)",
    "combat move": "combat move",
    "conduct combat": "conduct combat",
    "noncombat move": "non-combat move",
    "mobilise": "mobilise new units",
}
FLAGS = {
    "Germany": "🇩🇪", "Soviet Union": "☭", "Japan": "🇯🇵", "United Kingdom": "🇬🇧", "Italy": "🇮🇹",
    "United States": "🇺🇸", "China": "🇨🇳",
}
TEAM_NAMES = {"axis": "Axis", "allies": "Allies"}


def power_label(power: str) -> str:
    return f"{FLAGS.get(power, '')} {power}".strip()


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "—"


def _turn(e: EventDict) -> str:
    owner = "'" if str(e["power"]).endswith("s") else "'s"
    return f"🗓️ **Round {e['round']}: {power_label(e['power'])}{owner} turn.**"


def _phase(e: EventDict) -> str:
    return f"▶️ {e['power']}: {PHASE_NAMES.get(e['phase'], e['phase'])}."


def _researched(e: EventDict) -> str:
    text = f"🔬 {e['power']} buys {e['bought']} researcher(s) and rolls {_dice(e['dice'])}"
    if e.get("breakthrough"):
        text += f": breakthrough! Chart {e.get('chart')} roll {_dice(e.get('chart_dice', ()))} gives **{e['breakthrough']}**"
    else:
        text += ": no breakthrough"
    return text + "."


def _purchased(e: EventDict) -> str:
    if (not e["units"] or e["units"] == "nothing") and not e.get("repairs"):
        return f"🛒 {e['power']} bought nothing."
    units = e["units"] or "nothing"
    repairs = ", ".join(f"{t} {n}" for t, n in e.get("repairs", ()))
    text = f"🛒 {e['power']} bought {units}" + (f" and repaired {repairs}" if repairs else "")
    text += f" for {e['cost']} IPCs."
    if e.get("over_capacity"):
        text += f" ({e['over_capacity']} more than its factories can place this turn.)"
    return text


def _moved(e: EventDict) -> str:
    verb = {"bomb": "fly a strategic raid", "para": "drop paratroopers"}.get(str(e.get("verb")), "move")
    return f"➡️ {e['power']}: {e['units']} {verb} {' → '.join(e['path'])}."


def _captured(e: EventDict) -> str:
    text = f"🚩 {e['by']} takes **{e['territory']}**"
    if e.get("previous"):
        text += f" from {e['previous']}"
    if e.get("controller") and e["controller"] != e["by"]:
        text += f"; it is liberated and goes back to {e['controller']}"
    if e.get("plunder"):
        text += f" and plunders {e['plunder']} IPCs"
    return text + "."


def _battle(e: EventDict) -> str:
    kind = {"sea": "Sea battle", "raid": "Strategic raid"}.get(str(e["kind"]), "Battle")
    return (f"⚔️ {kind} in **{e['where']}**: {e['attacker']} attacks with {e['attackers'] or 'nothing'}"
            f" against {e['defenders'] or 'nothing'}.")


def _rolled(e: EventDict) -> str:
    side = "Attacker" if e["side"] == "attacker" else "Defender"
    rnd = f" (round {e['round']})" if e.get("round") else ""
    return (f"🎲 {side} {e['what']} at {e['target']}{rnd}: {_dice(e['dice'])} → "
            f"{e['hits']} hit{'s' if e['hits'] != 1 else ''}.")


def _lost(e: EventDict) -> str:
    if not e.get("units") or e["units"] == "nothing":
        return f"💥 {e['damaged']} battleship(s) damaged in {e['where']}." if e.get("damaged") else ""
        return f"💥 {e['damaged']} battleship(s) damaged in {e['where']}."
    text = f"💀 Lost in {e['where']}: {e['units']}"
    if e.get("damaged"):
        text += f" ({e['damaged']} battleship(s) damaged)"
    return text + (f" — {e['why']}" if e.get("why") and e["why"] not in ("hit", "hits", "fire") else "") + "."


def _ended(e: EventDict) -> str:
    result = {"attacker": "the attacker wins", "defender": "the defender holds",
              "draw": "both sides are destroyed", "retreat": "the attacker retreats",
              "stalemate": "stalemate"}.get(str(e["result"]), str(e["result"]))
    return f"🏁 {e['where']}: {result}" + (" and takes it" if e.get("taken") else "") + "."


def _income(e: EventDict) -> str:
    extra = ""
    if e.get("objectives"):
        extra += f" + objectives {'+'.join(str(x) for x in e['objectives'])}"
    if e.get("war_bonds"):
        extra += f" + war bonds {e['war_bonds']}"
    return (f"💰 {e['power']} collects {e['total']} IPCs ({e['territories']} from territories{extra}):"
            f" {e['ipcs']} in hand.")


HANDLERS: dict[str, Callable[[EventDict], str]] = {
    "TurnStarted": _turn,
    "PhaseStarted": _phase,
    "Researched": _researched,
    "Purchased": _purchased,
    "ChineseRecruits": lambda e: f"🇨🇳 China raises {e['count']} infantry (A-5.4).",
    "Moved": _moved,
    "Captured": _captured,
    "Returned": lambda e: f"↩️ {e['territory']} goes back to {e['to']}.",
    "BattleStarted": _battle,
    "Rolled": _rolled,
    "Lost": _lost,
    "Submerged": lambda e: f"🌊 {e['count']} {e['power']} submarine(s) submerge in {e['where']}.",
    "Retreated": lambda e: (f"🏳️ {e['units']} retreat from {e['where']}"
                            + (f" to {e['to']}." if e.get("to") else ".")),
    "BattleEnded": _ended,
    "Bombed": lambda e: (f"💣 Raid on {e['territory']}: {_dice(e['dice'])} → {e['damage']} damage"
                         f" ({e['total']} in all)."),
    "RocketFired": lambda e: (f"🚀 Rocket from {e['from_']} at {e['territory']}: {e['die']} → {e['damage']}"
                              f" damage ({e['total']} in all)."),
    "Placed": lambda e: f"🏭 {e['power']} places {e['units']} in {e['where']}.",
    "Income": _income,
    "Victory": lambda e: f"🏆 **{TEAM_NAMES.get(e['winner'], e['winner'])} win**: {e['reason']}.",
    "Conceded": lambda e: f"🏳️ {e['power']} votes to concede.",
    "TimedOut": lambda e: f"⏰ {e['power']} did not answer in time ({e['decision']}): the default applies.",
    "SettingChanged": lambda e: f"⚙️ {e['power']}: {e['what']}.",
}


def narrate(events: Sequence[EventDict]) -> list[str]:
    out: list[str] = []
    for e in events:
        handler = HANDLERS.get(str(e.get("type")))
        if handler is not None:
            line = handler(e)
            if line:
                out.append(line)
    return out
