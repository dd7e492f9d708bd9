"""JSON dump and load of a whole battle state (the bot's snapshot).

Everything is written out — the battle map, every card (custom ones included), the
scenario as a resolved document — so a snapshot loads without the data files it was
built from.  Hexes are ``[q, r]``.  ``load_state(dump_state(s))`` equals ``s`` field by
field (tested with hypothesis over random games).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from types import MappingProxyType
from typing import Any, Callable, Mapping

from engine.core.errors import DataError
from engine.core.game import Outcome
from engine.core.hexgrid import Hex, Labels
from engine.minis.catalogue import card_from_dict, card_to_dict
from engine.minis.model import BattleMap, SectionPlacement, Terrain, UnitCard
from engine.minis.scenario import resolve_scenario
from engine.minis.state import (
    Activation, GameOptions, Hit, MinisState, MoveInProgress, Phase, PhaseFlags, UnitState,
)

VERSION = 1

# The JSON of the last maps and card sets dumped, by object: states share an unchanged
# map and card dict (frozen, never mutated), so a snapshot after an order reuses their
# documents instead of rebuilding ~30 KB (the storage then sees the same objects and
# skips them too: GameRules.snapshot_parts).  The documents are shared: never change them.
_MEMO_SIZE = 256
_memo: OrderedDict[int, tuple[object, Any]] = OrderedDict()


# And the other way: maps and card sets loaded, by content (a digest of the document's
# canonical JSON: equal documents, equal key, however they were built), so a snapshot
# loaded again — in a render worker, or after another process's change — reuses them
# instead of rebuilding a BattleMap and ~35 cards (~0.3 ms for the key against ~2 ms;
# and the renderer's caches, keyed per map object, hit at once).
_loaded: OrderedDict[bytes, Any] = OrderedDict()


def _loaded_once(tag: bytes, doc: Any, build: Callable[[], Any]) -> Any:
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    key = tag + hashlib.blake2b(text.encode(), digest_size=20).digest()
    kept = _loaded.get(key)
    if kept is None:
        kept = _loaded[key] = build()
        while len(_loaded) > _MEMO_SIZE:
            _loaded.popitem(last=False)
    return kept


def _memoised(obj: object, build: Callable[[], Any]) -> Any:
    kept = _memo.get(id(obj))
    if kept is not None and kept[0] is obj:
        return kept[1]
    doc = build()
    _memo[id(obj)] = (obj, doc)  # the object is held, so its id is not reused meanwhile
    while len(_memo) > _MEMO_SIZE:
        _memo.popitem(last=False)
    return doc


def _h(h: Hex) -> list[int]:
    return [h.q, h.r]


def _hex(v: Any) -> Hex:
    return Hex(int(v[0]), int(v[1]))


def _opt_hex(v: Any) -> Hex | None:
    return None if v is None else _hex(v)


def _edges(edges: frozenset[tuple[Hex, Hex]]) -> list[list[list[int]]]:
    return sorted([_h(a), _h(b)] for a, b in edges)


def _load_edges(v: Any) -> frozenset[tuple[Hex, Hex]]:
    return frozenset((_hex(a), _hex(b)) for a, b in v)


# --------------------------------------------------------------------------- maps, cards


def dump_map(m: BattleMap) -> dict[str, Any]:
    return {
        "name": m.name, "cols": m.cols, "rows": m.rows,
        "terrain": sorted([h.q, h.r, t.value] for h, t in m.terrain.items()),
        "roads": _edges(m.roads), "streams": _edges(m.streams), "bridges": _edges(m.bridges),
        "objectives": [_h(h) for h in m.objectives],
        "zones": {k: sorted(_h(h) for h in v) for k, v in m.zones.items()},
        "sections": [{"face": s.face, "col": s.col, "row": s.row, "cols": s.cols, "rows": s.rows}
                     for s in m.sections],
        "flat": m.labels.flat,
    }


def load_map(d: Mapping[str, Any]) -> BattleMap:
    return BattleMap(
        name=d["name"], cols=d["cols"], rows=d["rows"],
        terrain={Hex(q, r): Terrain(t) for q, r, t in d["terrain"]},
        roads=_load_edges(d["roads"]), streams=_load_edges(d["streams"]), bridges=_load_edges(d["bridges"]),
        objectives=tuple(_hex(h) for h in d["objectives"]),
        zones={k: frozenset(_hex(h) for h in v) for k, v in d["zones"].items()},
        sections=tuple(SectionPlacement(**s) for s in d["sections"]),
        labels=Labels(flat=d["flat"]),
    )


def dump_card(c: UnitCard) -> dict[str, Any]:
    """The card in the unit-file format of docs/units.md (catalogue.py)."""
    return card_to_dict(c)


def load_card(d: Mapping[str, Any]) -> UnitCard:
    return card_from_dict(d)


# --------------------------------------------------------------------------- state


def _dump_unit(u: UnitState) -> dict[str, Any]:
    return {"id": u.id, "card": u.card, "side": u.side, "hex": None if u.hex is None else _h(u.hex),
            "facing": u.facing, "disrupted": u.disrupted, "damaged": u.damaged,
            "hits": [h.value for h in u.hits], "carried_by": u.carried_by, "destroyed": u.destroyed}


def _load_unit(d: Mapping[str, Any]) -> UnitState:
    return UnitState(id=d["id"], card=d["card"], side=d["side"], hex=_opt_hex(d["hex"]), facing=d["facing"],
                     disrupted=d["disrupted"], damaged=d["damaged"], hits=tuple(Hit(h) for h in d["hits"]),
                     carried_by=d["carried_by"], destroyed=d["destroyed"])


def _dump_flags(f: PhaseFlags) -> dict[str, Any]:
    act = f.activation
    return {
        "acted": sorted(f.acted), "moved": sorted(f.moved), "attacked": sorted(f.attacked),
        "df_fired": sorted(f.df_fired), "overrun_used": sorted(f.overrun_used),
        "activation": None if act is None else {
            "unit": act.unit, "attacks": act.attacks, "extras": sorted(act.extras), "moved": act.moved,
            "banzai_hex": None if act.banzai_hex is None else _h(act.banzai_hex)},
    }


def _load_flags(d: Mapping[str, Any]) -> PhaseFlags:
    a = d["activation"]
    act = None if a is None else Activation(a["unit"], a["attacks"], frozenset(a["extras"]), a["moved"],
                                            _opt_hex(a["banzai_hex"]))
    return PhaseFlags(frozenset(d["acted"]), frozenset(d["moved"]), frozenset(d["attacked"]),
                      frozenset(d["df_fired"]), frozenset(d["overrun_used"]), act)


def _dump_move(m: MoveInProgress | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {"unit": m.unit, "path": [_h(h) for h in m.path], "step": m.step, "stage": m.stage,
            "face": m.face, "kind": m.kind, "answered": sorted(m.answered), "entering": list(m.entering),
            "held": m.held, "rolled": m.rolled, "auto_done": m.auto_done,
            "df_hexes": [_h(h) for h in m.df_hexes]}


def _load_move(d: Mapping[str, Any] | None) -> MoveInProgress | None:
    if d is None:
        return None
    return MoveInProgress(unit=d["unit"], path=tuple(_hex(h) for h in d["path"]), step=d["step"],
                          stage=d["stage"], face=d["face"], kind=d["kind"], answered=frozenset(d["answered"]),
                          entering=tuple(d["entering"]), held=d["held"], rolled=d["rolled"],
                          auto_done=d["auto_done"], df_hexes=tuple(_hex(h) for h in d["df_hexes"]))


def dump_state(s: MinisState) -> dict[str, Any]:
    return {
        "version": VERSION,
        "map": _memoised(s.map, lambda: dump_map(s.map)),
        "cards": _memoised(s.cards, lambda: [dump_card(c) for _, c in sorted(s.cards.items())]),
        "units": [_dump_unit(u) for u in s.units],
        "turn": s.turn, "phase": s.phase.value, "active": s.active, "first_player": s.first_player,
        "scenario": s.scenario, "extra": dict(s.extra),
        "setup": None if s.setup is None else s.setup.to_doc(),
        "options": {"stacking": s.options.stacking, "default_standing": s.options.default_standing,
                    "cost_set": s.options.cost_set},
        "armies": {k: list(v) for k, v in sorted(s.armies.items())},
        "ready": sorted(s.ready), "chooser": s.chooser, "deploy_done": sorted(s.deploy_done),
        "ends": dict(sorted(s.ends.items())), "objectives": [_h(h) for h in s.objectives],
        "map_locked": s.map_locked, "flags": _dump_flags(s.flags), "move": _dump_move(s.move),
        "standing": dict(sorted(s.standing.items())),
        "destroyed_bridges": _edges(s.destroyed_bridges),
        "used_once": sorted(s.used_once), "overheated": sorted(s.overheated),
        "outcome": None if s.outcome is None else {"winner": s.outcome.winner, "reason": s.outcome.reason},
    }


def load_state(d: Mapping[str, Any]) -> MinisState:
    if d.get("version") != VERSION:
        raise DataError(f"Cannot read a Miniatures snapshot of version {d.get('version')!r}.")
    o = d["options"]
    out = d["outcome"]
    return MinisState(
        map=_loaded_once(b"map", d["map"], lambda: load_map(d["map"])),
        cards=_loaded_once(b"cards", d["cards"],
                           lambda: MappingProxyType({c["key"]: load_card(c) for c in d["cards"]})),
        units=tuple(_load_unit(u) for u in d["units"]),
        turn=d["turn"], phase=Phase(d["phase"]), active=d["active"], first_player=d["first_player"],
        scenario=d["scenario"], extra=dict(d["extra"]),
        setup=None if d["setup"] is None else resolve_scenario(d["setup"]),
        options=GameOptions(o["stacking"], o["default_standing"], o["cost_set"]),
        armies={k: tuple(v) for k, v in d["armies"].items()},
        ready=frozenset(d["ready"]), chooser=d["chooser"], deploy_done=frozenset(d["deploy_done"]),
        ends=dict(d["ends"]), objectives=tuple(_hex(h) for h in d["objectives"]),
        map_locked=d["map_locked"], flags=_load_flags(d["flags"]), move=_load_move(d["move"]),
        standing=dict(d["standing"]), destroyed_bridges=_load_edges(d["destroyed_bridges"]),
        used_once=frozenset(d["used_once"]), overheated=frozenset(d["overheated"]),
        outcome=None if out is None else Outcome(out["winner"], out["reason"]),
    )
