"""Scenarios as data: Standard (M-3, M-4), Assault (M-17) and custom files (M-18).

A scenario document is JSON (format in docs/minis-rules.md); the built-in ones live in
``engine/minis/data/scenarios/``.  :func:`resolve_scenario` validates a document, maps
roles ("attacker"/"defender") to sides and applies the game options, giving a
:class:`Scenario` value keyed by side only.  ``Scenario.to_doc()`` is such a resolved
document, so a saved game reloads it with the same function.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

from engine.core.errors import DataError, UnknownName
from engine.minis.model import ALLIES, AXIS, SIDES, other_side
from engine.core.documents import MAX_DEPTH, nesting_depth

ROLES = ("attacker", "defender")
BUILTIN = ("standard", "assault")
_TOP_KEYS = {"name", "title", "rules", "roles", "armies", "year", "historical", "map",
             "deployment", "objectives", "victory", "attacker"}


@dataclass(frozen=True)
class ArmyLimits:
    points: int
    units: int = 15


@dataclass(frozen=True)
class VictoryRule:
    """``objective``: from ``from_turn`` on, the side controlling the objective(s) at the
    end of a turn wins; from ``points_turn`` on, with nobody in control, the higher total
    cost on the map wins (M-4.3); ``last_turn`` ends a tied game as a draw (custom only).
    ``hold``: ``side`` wins if it controls the objective at the end of ``turn``, else the
    other side wins (M-17.4)."""

    rule: str = "objective"
    from_turn: int = 7
    points_turn: int | None = 10
    last_turn: int | None = None
    side: str | None = None
    turn: int = 10


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    armies: Mapping[str, ArmyLimits]
    year: int | None = None
    historical: bool = False
    map: int | str = "random"  # 1…6, "random" (M-3.2), "chosen" (the defender picks), "custom"
    map_text: str | None = None  # a custom battle map in the text format of docs/maps.md
    first: str = "coin"  # who deploys first: "coin" (M-3.3) or a side
    zones: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)  # "end"/"half"/labels
    depth: int = 5
    objectives: str | tuple[str, ...] = "map"  # "map", "chosen" (by the defender), or labels
    attacker: str | None = None
    victory: VictoryRule = VictoryRule()

    def __post_init__(self) -> None:
        object.__setattr__(self, "armies", MappingProxyType(dict(self.armies)))
        object.__setattr__(self, "zones", MappingProxyType(dict(self.zones)))

    @property
    def defender(self) -> str | None:
        return other_side(self.attacker) if self.attacker else None

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "armies": {s: {"points": a.points, "units": a.units} for s, a in self.armies.items()},
            "year": self.year,
            "historical": self.historical,
            "map": {"text": self.map_text} if self.map == "custom" else
                   ("defender" if self.map == "chosen" else self.map),
            "deployment": {
                "first": self.first,
                "zones": {s: (list(z) if isinstance(z, tuple) else z) for s, z in self.zones.items()},
                "depth": self.depth,
            },
            "objectives": "defender" if self.objectives == "chosen" else
                          (list(self.objectives) if isinstance(self.objectives, tuple) else self.objectives),
            "victory": _victory_doc(self.victory),
            "attacker": self.attacker,
        }
        return doc


def _victory_doc(v: VictoryRule) -> dict[str, Any]:
    if v.rule == "hold":
        return {"rule": "hold", "side": v.side, "turn": v.turn}
    return {"rule": "objective", "from_turn": v.from_turn, "points_turn": v.points_turn,
            "last_turn": v.last_turn}


def builtin_document(name: str) -> dict[str, Any]:
    if name not in BUILTIN:
        raise UnknownName(f"No scenario '{name}'.", legal=BUILTIN)
    text = resources.files("engine.minis").joinpath("data", "scenarios", f"{name}.json").read_text("utf-8")
    doc = json.loads(text)
    assert isinstance(doc, dict)
    return doc


def load_scenario_text(text: str) -> dict[str, Any]:
    """A custom scenario file (JSON) as a document, or a DataError saying why not."""
    if nesting_depth(text) > MAX_DEPTH:
        raise DataError(f"The scenario is nested too deeply (more than {MAX_DEPTH} levels).")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"The scenario is not valid JSON: {exc.msg} at line {exc.lineno}.") from None
    if not isinstance(doc, dict):
        raise DataError("A scenario file must hold one JSON object.")
    return doc


# --------------------------------------------------------------------------- validation


class _Checker:
    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, where: str, message: str, legal: tuple[str, ...] = ()) -> DataError:
        return DataError(f"Scenario '{self.name}', {where}: {message}", legal=legal)

    def integer(self, where: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(where, f"expected a whole number from {low} to {high}, got {value!r}.")
        return value


def resolve_scenario(doc: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> Scenario:
    """Validate a scenario document and bind it to sides (roles → sides, options applied).

    Options used: ``attacker`` (side, for role-based scenarios), ``points`` (a number for
    both armies, or {side: number}), ``year``, ``historical``, ``map``."""
    opts = dict(options or {})
    if not isinstance(doc, Mapping):
        raise DataError("A scenario must be a JSON object.")
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise DataError("A scenario needs a 'name' (text).")
    ck = _Checker(name)
    unknown = sorted(set(doc) - _TOP_KEYS)
    if unknown:
        raise ck.fail("top level", f"unknown keys {unknown}.", legal=tuple(sorted(_TOP_KEYS)))

    # Roles: which side attacks.
    attacker: str | None = doc.get("attacker")
    roles = doc.get("roles")
    if roles is not None:
        if not isinstance(roles, Mapping) or roles.get("attacker") not in SIDES:
            raise ck.fail("roles", "'roles' must be {\"attacker\": \"axis\" or \"allies\"}.")
        attacker = roles["attacker"]
    if "attacker" in opts and opts["attacker"] is not None:
        if attacker is None:
            raise ck.fail("options", "this scenario has no attacker to choose.")
        if opts["attacker"] not in SIDES:
            raise ck.fail("options", f"attacker must be a side, not {opts['attacker']!r}.", legal=SIDES)
        attacker = opts["attacker"]
    if attacker is not None and attacker not in SIDES:
        raise ck.fail("attacker", f"{attacker!r} is not a side.", legal=SIDES)

    def side_of(key: str, where: str) -> str:
        if key in SIDES:
            return key
        if key in ROLES:
            if attacker is None:
                raise ck.fail(where, f"'{key}' needs 'roles' with an attacker.")
            return attacker if key == "attacker" else other_side(attacker)
        raise ck.fail(where, f"'{key}' is neither a side nor a role.", legal=SIDES + ROLES)

    # Armies (M-2.1, M-2.2).
    armies_doc = doc.get("armies")
    if not isinstance(armies_doc, Mapping):
        raise ck.fail("armies", "expected {side or role: {\"points\": n, \"units\": n}}.")
    armies: dict[str, ArmyLimits] = {}
    for key, spec in armies_doc.items():
        side = side_of(key, "armies")
        if not isinstance(spec, Mapping) or set(spec) - {"points", "units"}:
            raise ck.fail(f"armies.{key}", "expected {\"points\": n, \"units\": n}.")
        armies[side] = ArmyLimits(ck.integer(f"armies.{key}.points", spec.get("points"), 0, 10000),
                                  ck.integer(f"armies.{key}.units", spec.get("units", 15), 1, 15))
    if set(armies) != set(SIDES):
        raise ck.fail("armies", "both sides need limits.", legal=SIDES)
    points = opts.get("points")
    if points is not None:
        if isinstance(points, Mapping):
            for s, p in points.items():
                if s not in SIDES:
                    raise ck.fail("options.points", f"{s!r} is not a side.", legal=SIDES)
                armies[s] = ArmyLimits(ck.integer("options.points", p, 0, 10000), armies[s].units)
        else:
            p = ck.integer("options.points", points, 0, 10000)
            armies = {s: ArmyLimits(p, a.units) for s, a in armies.items()}

    year = opts.get("year", doc.get("year"))
    if year is not None:
        year = ck.integer("year", year, 1900, 2000)
    historical = opts.get("historical", doc.get("historical", False))
    if not isinstance(historical, bool):
        raise ck.fail("historical", "expected true or false.")

    # Map (M-3.2, M-17.2).
    map_value = opts.get("map", doc.get("map", "random"))
    map_text: str | None = None
    map_spec: int | str
    if isinstance(map_value, Mapping):
        text = map_value.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ck.fail("map", "a custom map needs {\"text\": \"…\"} in the map format.")
        map_spec, map_text = "custom", text
    elif isinstance(map_value, str) and map_value in ("random", "defender"):
        if map_value == "defender" and attacker is None:
            raise ck.fail("map", "'defender' needs roles.")
        map_spec = "chosen" if map_value == "defender" else "random"
    elif isinstance(map_value, str) and map_value.strip().isdigit():
        map_spec = ck.integer("map", int(map_value), 1, 6)
    elif isinstance(map_value, str) and "\n" in map_value:
        map_spec, map_text = "custom", map_value
    elif isinstance(map_value, int) and not isinstance(map_value, bool):
        map_spec = ck.integer("map", map_value, 1, 6)
    else:
        raise ck.fail("map", f"expected 1…6, \"random\", \"defender\" or a custom map, got {map_value!r}.")

    # Deployment (M-3.3 … M-3.5, M-17.3).
    dep = doc.get("deployment", {})
    if not isinstance(dep, Mapping) or set(dep) - {"first", "zones", "depth"}:
        raise ck.fail("deployment", "expected {\"first\", \"zones\", \"depth\"}.")
    first_raw = dep.get("first", "coin")
    first = "coin" if first_raw == "coin" else side_of(str(first_raw), "deployment.first")
    depth = ck.integer("deployment.depth", dep.get("depth", 5), 1, 20)
    zones_doc = dep.get("zones", {AXIS: "end", ALLIES: "end"})
    if not isinstance(zones_doc, Mapping):
        raise ck.fail("deployment.zones", "expected {side or role: \"end\" | \"half\" | [hex labels]}.")
    zones: dict[str, str | tuple[str, ...]] = {}
    for key, z in zones_doc.items():
        side = side_of(key, "deployment.zones")
        if z in ("end", "half"):
            zones[side] = str(z)
        elif isinstance(z, list) and z and all(isinstance(x, str) for x in z):
            zones[side] = tuple(x.strip().upper() for x in z)
        else:
            raise ck.fail(f"deployment.zones.{key}", f"expected \"end\", \"half\" or a list of hex labels, got {z!r}.")
    if set(zones) != set(SIDES):
        raise ck.fail("deployment.zones", "both sides need a zone.", legal=SIDES)

    # Objectives (M-3.2, M-17.2).
    obj = doc.get("objectives", "map")
    objectives: str | tuple[str, ...]
    if obj == "map":
        objectives = "map"
    elif obj == "defender":
        if attacker is None:
            raise ck.fail("objectives", "'defender' needs roles.")
        objectives = "chosen"
    elif isinstance(obj, list) and obj and all(isinstance(x, str) for x in obj):
        objectives = tuple(x.strip().upper() for x in obj)
    else:
        raise ck.fail("objectives", f"expected \"map\", \"defender\" or a list of hex labels, got {obj!r}.")

    # Victory (M-4, M-17.4, M-18).
    vic = doc.get("victory", {"rule": "objective"})
    if not isinstance(vic, Mapping):
        raise ck.fail("victory", "expected an object with a 'rule'.")
    rule = vic.get("rule")
    if rule == "objective":
        if set(vic) - {"rule", "from_turn", "points_turn", "last_turn"}:
            raise ck.fail("victory", "an objective rule takes from_turn, points_turn, last_turn.")
        from_turn = ck.integer("victory.from_turn", vic.get("from_turn", 7), 1, 100)
        pt = vic.get("points_turn", 10)
        points_turn = None if pt is None else ck.integer("victory.points_turn", pt, from_turn, 100)
        lt = vic.get("last_turn")
        last_turn = None if lt is None else ck.integer("victory.last_turn", lt, from_turn, 100)
        victory = VictoryRule("objective", from_turn, points_turn, last_turn)
    elif rule == "hold":
        if set(vic) - {"rule", "side", "turn"}:
            raise ck.fail("victory", "a hold rule takes side and turn.")
        victory = VictoryRule("hold", side=side_of(str(vic.get("side")), "victory.side"),
                              turn=ck.integer("victory.turn", vic.get("turn", 10), 1, 100))
    else:
        raise ck.fail("victory.rule", f"unknown rule {rule!r}.", legal=("objective", "hold"))

    if objectives == "chosen" and attacker is None:
        raise ck.fail("objectives", "only a defender can choose the objective.")
    title = doc.get("title", name)
    if not isinstance(title, str):
        raise ck.fail("title", "expected text.")
    return Scenario(name=name, title=title, armies=armies, year=year, historical=historical,
                    map=map_spec, map_text=map_text, first=first, zones=zones, depth=depth,
                    objectives=objectives, attacker=attacker, victory=victory)


def scenario_from_options(options: Mapping[str, Any]) -> Scenario:
    """The scenario named (or given) by new_game options: "standard", "assault" or a
    custom document / JSON text."""
    spec = options.get("scenario", "standard")
    if isinstance(spec, str) and spec.strip() in BUILTIN:
        doc: Mapping[str, Any] = builtin_document(spec.strip())
    elif isinstance(spec, str) and spec.strip().startswith("{"):
        doc = load_scenario_text(spec)
    elif isinstance(spec, Mapping):
        doc = spec
    else:
        raise UnknownName(f"No scenario '{spec}'.", legal=BUILTIN + ("a custom scenario document",))
    return resolve_scenario(doc, options)
