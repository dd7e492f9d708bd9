"""The 1941 and 1942 set-ups (A-4) as data: ``data/setup_1941.json``, ``data/setup_1942.json``.

Each file holds the turn order, every power's IPCs in hand, the controller of every
playable territory and the starting units.  Loading validates it against the board:
every controlled territory exists, is land and not neutral; every unit stands where its
kind may stand (land units and factories on land, ships at sea, aircraft on land or — for
fighters — on carriers with room, A-4.6); land units listed in a sea zone fit on that
power's transports there (A-14.6 capacity).  Cargo and carrier fighters are put aboard
greedily (A-4.6 ruling).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.aa.board import board, read_data
from engine.aa.state import POWERS, SIDE, Unit
from engine.aa.units import CARRIER, FACTORY, FIGHTER, INFANTRY, KINDS, TRANSPORT, is_air, is_land, is_sea
from engine.core.errors import DataError, UnknownName

SCENARIOS = ("1941", "1942")


@dataclass(frozen=True)
class Setup:
    scenario: str
    turn_order: tuple[str, ...]
    ipcs: dict[str, int]
    control: dict[str, str]
    placements: tuple[tuple[str, str, str, int], ...]  # (where, power, kind, count)
    units: tuple[Unit, ...]
    factories: tuple[str, ...]


def load_setup_data(raw: Any) -> Setup:
    b = board()
    try:
        scenario = str(raw["scenario"])
        order = tuple(str(p) for p in raw["turn_order"])
        ipcs = {str(k): int(v) for k, v in raw["ipcs"].items()}
        control = {str(k): str(v) for k, v in raw["control"].items()}
        rows = [(str(r["where"]), str(r["power"]), str(r["unit"]), int(r["count"])) for r in raw["units"]]
    except (KeyError, TypeError, ValueError) as err:
        raise DataError(f"Bad set-up data: {err!r}") from None
    if sorted(order) != sorted(p for p in POWERS if p != "China"):
        raise DataError(f"Set-up {scenario}: the turn order must list the six powers once each.")
    for p in POWERS:
        if ipcs.get(p, -1) < 0:
            raise DataError(f"Set-up {scenario}: {p} needs its IPCs in hand.")
    for t, p in control.items():
        if t not in b.spaces or not b.is_land(t) or b.space(t).neutral:
            raise DataError(f"Set-up {scenario}: {t} cannot be controlled (not a playable territory).")
        if p not in POWERS:
            raise DataError(f"Set-up {scenario}: unknown power {p}.")
    for t in b.names:
        s = b.space(t)
        if s.is_land and not s.neutral and t not in control:
            raise DataError(f"Set-up {scenario}: nobody controls {t}.")
    units: list[Unit] = []
    factories: list[str] = []
    nid = 1
    by_space: dict[str, list[tuple[str, str, int]]] = {}
    for where, power, kind, count in rows:
        if where not in b.spaces:
            raise DataError(f"Set-up {scenario}: unknown space {where}.")
        if power not in POWERS:
            raise DataError(f"Set-up {scenario}: unknown power {power}.")
        if kind not in KINDS:
            raise DataError(f"Set-up {scenario}: unknown unit {kind}.")
        if count < 1:
            raise DataError(f"Set-up {scenario}: count must be positive ({where}, {kind}).")
        by_space.setdefault(where, []).append((power, kind, count))
    for where in sorted(by_space, key=b.order.__getitem__):
        rows_here = by_space[where]
        s = b.space(where)
        if s.is_land:
            if s.neutral:
                raise DataError(f"Set-up {scenario}: units cannot stand in neutral {where}.")
            owner = control[where]
            for power, kind, count in rows_here:
                if SIDE[power] != SIDE[owner]:
                    raise DataError(f"Set-up {scenario}: {power} units in enemy-held {where}.")
                if kind == FACTORY:
                    if power != owner or count != 1:
                        raise DataError(f"Set-up {scenario}: one factory, of the controller, in {where}.")
                    factories.append(where)
                    continue
                if is_sea(kind):
                    raise DataError(f"Set-up {scenario}: ship ({kind}) on land in {where}.")
                for _ in range(count):
                    units.append(Unit(nid, kind, power, where))
                    nid += 1
            continue
        placed: list[Unit] = []
        for power, kind, count in sorted(rows_here, key=lambda r: (is_land(r[1]) or is_air(r[1]), r[0])):
            if kind == FACTORY:
                raise DataError(f"Set-up {scenario}: a factory at sea in {where}.")
            for _ in range(count):
                u = Unit(nid, kind, power, where)
                nid += 1
                if is_land(kind):
                    boat = _transport_for(placed, u)
                    if boat is None:
                        raise DataError(f"Set-up {scenario}: no room aboard a {power} transport in {where} "
                                        f"for {kind} (A-14.6).")
                    u = Unit(u.id, kind, power, where, aboard=boat)
                elif is_air(kind):
                    if kind != FIGHTER:
                        raise DataError(f"Set-up {scenario}: only fighters stand at sea, on carriers ({where}).")
                    carrier = _carrier_for(placed, u)
                    if carrier is None:
                        raise DataError(f"Set-up {scenario}: no carrier room in {where} for a {power} fighter.")
                    u = Unit(u.id, kind, power, where, aboard=carrier)
                placed.append(u)
        units.extend(placed)
    return Setup(scenario, order, ipcs, control, tuple(rows), tuple(units), tuple(factories))


def _transport_for(placed: list[Unit], u: Unit) -> int | None:
    boats = [t for t in placed if t.kind == TRANSPORT and t.owner == u.owner]
    for t in sorted(boats, key=lambda t: (-sum(1 for c in placed if c.aboard == t.id), t.id)):
        cargo = [c for c in placed if c.aboard == t.id]
        trial = cargo + [u]
        if len(trial) <= 2 and sum(1 for c in trial if c.kind != INFANTRY) <= 1:
            return t.id
    return None


def _carrier_for(placed: list[Unit], u: Unit) -> int | None:
    carriers = [c for c in placed if c.kind == CARRIER and SIDE[c.owner] == SIDE[u.owner]]
    for c in sorted(carriers, key=lambda c: (c.owner != u.owner, c.id)):
        if sum(1 for f in placed if f.aboard == c.id) < 2:
            return c.id
    return None


@lru_cache(maxsize=4)
def load_setup(scenario: str) -> Setup:
    if scenario not in SCENARIOS:
        raise UnknownName(f"No set-up '{scenario}'.", legal=SCENARIOS)
    return load_setup_data(read_data(f"setup_{scenario}.json"))


def starting_income(setup: Setup) -> dict[str, int]:
    b = board()
    out = {p: 0 for p in POWERS}
    for t, p in setup.control.items():
        out[p] += b.space(t).ipc
    out["China"] = 0  # China's territories pay nobody
    return out
