"""The A&A Anniversary front: how the channel sees a game of seven powers played by up to
six people (several seats per team, China held by whoever plays the United States).

It narrates events (bot/aa/narrate.py), writes every engine order as the slash command a
player types (:meth:`AAFront.slash`), says what a pending decision needs, and reports
each ended phase with the world map (render/aa/).  It is only ever handed states and
events as a viewer may see them (the engine's ``view``/``event_view``).
"""

from __future__ import annotations

from types import MappingProxyType

import re
from typing import Any, Mapping, Sequence

from bot.aa.narrate import PHASE_NAMES, TEAM_NAMES, narrate, power_label
from bot.context import Attachment
from bot.front import BaseFront, EventDict, Report, option_value
from bot.games import register_front
from engine.aa.state import AAState
from engine.core.game import Pending

KIND = "aa"


def aa_state(state: Any) -> AAState:
    if not isinstance(state, AAState):
        raise TypeError(f"not an A&A state: {type(state).__name__}")
    return state


_PATH = re.compile(r"\s*->\s*")


def order_to_slash(order: str) -> str | None:
    """The slash command for an engine order in its canonical text (None if unknown)."""
    text = order.strip()
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb == "done" and not rest:
        return "/aa done"
    if verb == "research":
        m = re.fullmatch(r"(\d+)(?:\s+chart\s+([12]))?", rest)
        if m:
            return f"/aa research dice:{m.group(1)}" + (f" chart:{m.group(2)}" if m.group(2) else "")
    if verb == "buy" and not rest.startswith("("):  # "(shown when …)": a hidden purchase
        units, *repairs = [p.strip() for p in rest.split(";")]
        line = f"/aa buy units:{option_value(units)}"
        fixes = [r[len("repair "):] for r in repairs if r.startswith("repair ")]
        if fixes:
            line += f" repair:{option_value(', '.join(fixes))}"
        return line
    if verb == "first" and rest:
        return f"/aa first power:{option_value(rest)}"
    if verb in ("move", "bomb", "para") and ":" in rest:
        units, path = rest.split(":", 1)
        spots = _PATH.split(path.strip())
        if len(spots) >= 2:
            line = f"/aa move units:{option_value(units.strip())} from:{option_value(spots[0])} to:{option_value(spots[-1])}"
            if len(spots) > 2:
                line += f" via:{option_value(' -> '.join(spots[1:-1]))}"
            if verb != "move":
                line += f" kind:{verb}"
            return line
    if verb in ("load", "unload", "land") and ":" in rest:
        onto = ""
        m = re.search(r"\s+onto\s+(.+)$", rest)
        if m:
            onto, rest = m.group(1), rest[: m.start()]
        units, path = rest.split(":", 1)
        spots = _PATH.split(path.strip())
        if len(spots) == 2:
            a, b = option_value(spots[0]), option_value(spots[1])
            if verb == "load":
                return f"/aa sea load units:{option_value(units.strip())} from:{a} zone:{b}" + (
                    f" onto:{option_value(onto)}" if onto else "")
            if verb == "unload":
                return f"/aa sea unload units:{option_value(units.strip())} zone:{a} to:{b}"
            return f"/aa sea land units:{option_value(units.strip())} from:{a} to:{b}"
    if verb == "rocket":
        spots = _PATH.split(rest)
        if len(spots) == 2:
            return f"/aa battle rocket from:{option_value(spots[0])} target:{option_value(spots[1])}"
    if verb == "battle" and rest:
        return f"/aa battle fight where:{option_value(rest)}"
    if verb == "casualties" and rest:
        return f"/aa battle casualties units:{option_value(rest)}"
    if verb == "continue" and not rest:
        return "/aa battle continue"
    if verb == "retreat":
        return "/aa battle retreat" + (f" to:{option_value(rest)}" if rest else "")
    if verb == "submerge" and rest.isdigit():
        return f"/aa battle submerge count:{rest}"
    if verb == "place" and ":" in rest:
        units, where = rest.split(":", 1)
        spots = _PATH.split(where.strip())
        line = f"/aa place units:{option_value(units.strip())} at:{option_value(spots[0])}"
        if len(spots) == 2:
            line += f" sea:{option_value(spots[1])}"
        return line
    if verb == "ool":
        role = "both"
        m = re.match(r"(attack|defense)\s+(.*)$", rest)
        if m:
            role, rest = m.group(1), m.group(2)
        return f"/aa ool order:{option_value(rest)}" + (f" role:{role}" if role != "both" else "")
    if verb == "auto" and rest in ("on", "off"):
        return f"/aa ool auto:{'true' if rest == 'on' else 'false'}"
    if verb == "concede":
        return "/aa concede"
    return None


# What each phase asks of its player, in the commands they type.
PHASE_HELP = {
    "research": "`/aa research dice:N chart:1|2` or `/aa done` to skip",
    "purchase": "`/aa buy units:\"3 inf, 1 tank\"` (shows the running total), then `/aa done`",
    "combat move": "`/aa move units:… from:… to:…` (and `/aa sea load|unload`), then `/aa done`",
    "noncombat move": "`/aa move units:… from:… to:…`, land your aircraft, then `/aa done`",
    "mobilise": "`/aa place units:… at:…` (the phase ends when all is placed)",
}


class AAFront(BaseFront):
    kind = KIND
    group = "aa"
    title = "Axis & Allies Anniversary"
    noun = "game"
    # China is played by whoever plays the United States unless someone took it first.
    companions = MappingProxyType({"United States": ("China",)})

    def seat_label(self, seat: str) -> str:
        return TEAM_NAMES.get(seat, seat)

    def narrate(self, events: Sequence[EventDict], state: Any) -> list[str]:
        return narrate(events)

    def slash(self, order: str) -> str | None:
        return order_to_slash(order)

    def decision(self, state: Any, pending: Pending) -> str:
        s = aa_state(state)
        text = pending.decision
        if s.battle is None and not s.scramble:
            phase = s.phase
            hint = PHASE_HELP.get(phase)
            if phase == "purchase":
                hint = f"{s.ipcs.get(s.actor, 0)} IPCs to spend: " + PHASE_HELP["purchase"]
            elif phase == "mobilise":
                from engine.aa import economy
                from engine.aa.units import format_counts

                spots = economy.placement_spots(s, s.actor)
                pool = format_counts(s.pool_of(s.actor))
                hint = f"to place: {pool} at {', '.join(spots) or 'nowhere'} — {PHASE_HELP['mobilise']}"
            if hint:
                return f"{text} — {hint}"
        if pending.choices:
            return text
        if "casualties" in text:
            return f"{text} — `/aa battle casualties units:…` (the default order of loss is offered)"
        return text

    def phase_start(self, event: EventDict) -> bool:
        return event.get("type") in ("PhaseStarted", "Victory")

    def report(self, state: Any, events: Sequence[EventDict], *, over: bool) -> Report:
        s = aa_state(state)
        starts = [e for e in events if e.get("type") == "PhaseStarted"]
        if starts:
            first = starts[0]
            # An order may end several phases (conduct combat runs by itself): name them all.
            phases = [PHASE_NAMES.get(str(e["phase"]), str(e["phase"])) for e in starts
                      if e.get("power") == first.get("power")]
            new_round = any(e.get("type") == "TurnStarted" and e.get("round") == s.round
                            and e.get("power") == s.turn_order[0] for e in events)
            played = s.round - 1 if new_round and not over else s.round
            ended = f"{', '.join(dict.fromkeys(phases))} ended"
            head = f"📜 **Round {played}** — {power_label(str(first['power']))}: {ended}."
            title = f"Round {played} — {first['power']}: {ended}"
        else:
            head = "📜 **Report**"
            title = f"Round {s.round}"
        if over:
            head, title = "🏁 **Final map**", "Final map"
        lines = [line for line in narrate(events) if not line.startswith(("▶️", "🗓️"))] or ["No orders."]
        from render.aa.world import report_png

        image = report_png(s, events, title=title)
        return Report(head, tuple(lines), (Attachment("aa-map.png", image),))

    def opened(self, state: Any, options: Mapping[str, Any]) -> list[str]:
        s = aa_state(state)
        o = s.options
        rules = [f"set-up {o.setup}", f"research {'on' if o.research else 'off'}",
                 f"national objectives {'on' if o.national_objectives else 'off'}",
                 f"{o.victory_cities} victory cities to win"]
        casualties = ["Default casualties (on a timeout, or with `/aa ool auto:true`): as many hits as"
                      " can be taken, losing the earliest units of the order of loss that the hits allow"
                      " (A-10.14)."] if o.casualties == "earliest" else []
        if o.landing_retreat:
            casualties.append("Aircraft may retreat from an amphibious assault even when every land unit came"
                              " from the sea; the landed units fight on, and take hits before the units of"
                              " their type that came over land (A-10.3).")
        return ["Rules: " + ", ".join(rules) + ".", *casualties,
                "Seats: Germany, Soviet Union, Japan, United Kingdom, Italy, United States, China"
                " (China is usually played by the United States player; one person may hold several"
                " powers of one side: `/aa join side:\"United States, China\"`)."]

    def status(self, state: Any) -> list[str]:
        s = aa_state(state)
        counts = s.victory_count()
        return [f"Round {s.round}, {s.actor}: {PHASE_NAMES.get(s.phase, s.phase)}."
                f" Victory cities: Axis {counts['axis']}, Allies {counts['allies']}"
                f" (target {s.options.victory_cities}).",
                "IPCs: " + ", ".join(f"{p} {n}" for p, n in s.ipcs.items())]


FRONT = register_front(AAFront())
