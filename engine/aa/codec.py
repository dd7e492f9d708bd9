"""JSON dump and load of a whole game state (the bot's snapshot).

The board and the set-up are packaged data and are not written out; everything that
changes is.  ``load_state(dump_state(s)) == s`` field by field (tested).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Mapping

from engine.aa.state import (
    AAState, Battle, Hits, Options, Purchase, Settings, Site, Unit, casualty_rule,
)
from engine.core.errors import DataError
from engine.core.game import Outcome

VERSION = 1

_UNIT_DEFAULTS = {f.name: f.default for f in fields(Unit) if f.name not in ("id", "kind", "owner", "where")}


def _unit(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"id": u.id, "kind": u.kind, "owner": u.owner, "where": u.where}
    for name, default in _UNIT_DEFAULTS.items():
        value = getattr(u, name)
        if value != default:
            out[name] = value
    return out


def _load_unit(d: Mapping[str, Any]) -> Unit:
    return Unit(**{k: v for k, v in d.items()})


def _pairs(items: Any) -> list[list[Any]]:
    return [list(x) for x in items]


def dump_state(s: AAState) -> dict[str, Any]:
    b = s.battle
    return {
        "version": VERSION,
        "options": {"setup": s.options.setup, "research": s.options.research,
                    "national_objectives": s.options.national_objectives,
                    "victory_cities": s.options.victory_cities,
                    # only where it is not the older games' rule: their snapshots have no key
                    **({"casualties": s.options.casualties} if s.options.casualties != "by-class" else {}),
                    **({"landing_retreat": True} if s.options.landing_retreat else {})},
        "round": s.round,
        "turn_order": list(s.turn_order),
        "turn": s.turn,
        "steps": _pairs(s.steps),
        "step": s.step,
        "units": [_unit(s.units[k]) for k in sorted(s.units)],
        "next_id": s.next_id,
        "control": dict(sorted(s.control.items())),
        "control_start": dict(sorted(s.control_start.items())),
        "ipcs": dict(s.ipcs),
        "factories": dict(sorted(s.factories.items())),
        "pool": {p: _pairs(v) for p, v in sorted(s.pool.items())},
        "techs": {p: sorted(v) for p, v in sorted(s.techs.items())},
        "researchers": dict(s.researchers),
        "settings": {p: {"attack_order": list(v.attack_order), "defense_order": list(v.defense_order),
                         "auto": v.auto} for p, v in sorted(s.settings.items())},
        "purchase": None if s.purchase is None else {"units": _pairs(s.purchase.units),
                                                      "repairs": _pairs(s.purchase.repairs)},
        "sites": [{"where": x.where, "kind": x.kind, "step": x.step, "after": list(x.after)} for x in s.sites],
        "battle": None if b is None else {
            "where": b.where, "kind": b.kind, "attacker": b.attacker, "round": b.round, "stage": b.stage,
            "hits": [{"side": h.side, "sub": h.sub, "air": h.air, "any": h.any, "reason": h.reason}
                     for h in b.hits],
            "zone": sorted(b.zone), "aside": sorted(b.aside), "struck": sorted(b.struck),
            "amphibious": b.amphibious, "defenders_fought": b.defenders_fought,
        },
        "captured": sorted(s.captured),
        "hostile_start": sorted(s.hostile_start),
        "rockets": sorted(s.rockets),
        "placed": dict(sorted(s.placed.items())),
        "new_factories": sorted(s.new_factories),
        "scramble": list(s.scramble),
        "combat_started": s.combat_started,
        "conceded": sorted(s.conceded),
        "outcome": None if s.outcome is None else {"winner": s.outcome.winner, "reason": s.outcome.reason},
    }


def load_state(d: Mapping[str, Any]) -> AAState:
    try:
        if d.get("version") != VERSION:
            raise DataError(f"Unknown A&A snapshot version {d.get('version')!r}.")
        o = d["options"]
        b = d["battle"]
        battle = None if b is None else Battle(
            where=b["where"], kind=b["kind"], attacker=b["attacker"], round=int(b["round"]), stage=b["stage"],
            hits=tuple(Hits(h["side"], int(h["sub"]), int(h["air"]), int(h["any"]), h["reason"]) for h in b["hits"]),
            zone=frozenset(b["zone"]), aside=frozenset(b["aside"]), struck=frozenset(b["struck"]),
            amphibious=bool(b["amphibious"]), defenders_fought=bool(b["defenders_fought"]),
        )
        p = d["purchase"]
        out = d["outcome"]
        return AAState(
            options=Options(o["setup"], bool(o["research"]), bool(o["national_objectives"]),
                            int(o["victory_cities"]), casualty_rule(o.get("casualties", "by-class")),
                            bool(o.get("landing_retreat", False))),
            round=int(d["round"]),
            turn_order=tuple(d["turn_order"]),
            turn=int(d["turn"]),
            steps=tuple((a, b_) for a, b_ in d["steps"]),
            step=int(d["step"]),
            units={int(u["id"]): _load_unit(u) for u in d["units"]},
            next_id=int(d["next_id"]),
            control=dict(d["control"]),
            control_start=dict(d["control_start"]),
            ipcs={k: int(v) for k, v in d["ipcs"].items()},
            factories={k: int(v) for k, v in d["factories"].items()},
            pool={k: tuple((a, int(n)) for a, n in v) for k, v in d["pool"].items()},
            techs={k: frozenset(v) for k, v in d["techs"].items()},
            researchers={k: int(v) for k, v in d["researchers"].items()},
            settings={k: Settings(tuple(v["attack_order"]), tuple(v["defense_order"]), bool(v["auto"]))
                      for k, v in d["settings"].items()},
            purchase=None if p is None else Purchase(tuple((a, int(n)) for a, n in p["units"]),
                                                     tuple((a, int(n)) for a, n in p["repairs"])),
            sites=tuple(Site(x["where"], x["kind"], int(x["step"]), tuple(x["after"])) for x in d["sites"]),
            battle=battle,
            captured=frozenset(d["captured"]),
            hostile_start=frozenset(d["hostile_start"]),
            rockets=frozenset(d["rockets"]),
            placed={k: int(v) for k, v in d["placed"].items()},
            new_factories=frozenset(d["new_factories"]),
            scramble=tuple(int(x) for x in d["scramble"]),
            combat_started=bool(d["combat_started"]),
            conceded=frozenset(d["conceded"]),
            outcome=None if out is None else Outcome(out["winner"], out["reason"]),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise DataError(f"Bad A&A snapshot: {err!r}") from None
