"""JSON dump and load of a whole game state (the bot's snapshot).

The state is frozen dataclasses all the way down, so the codec walks their type hints:
hexes are written as names ("G5"), tuples as lists, dataclasses as objects, the
scenario in full (a snapshot loads without the file it came from).
``load_state(dump_state(s)) == s`` (tested over random games).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Any, Mapping, Union

from engine.core.errors import DataError
from engine.core.game import Outcome
from engine.core.hexgrid import Hex
from engine.memoir import scenario as scenario_module
from engine.memoir import state as state_module
from engine.memoir.board import label, parse_hex
from engine.memoir.state import MemoirState

VERSION = 1
_NAMESPACE = {**vars(scenario_module), **vars(state_module), "Outcome": Outcome, "Hex": Hex}


@lru_cache(maxsize=64)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=_NAMESPACE)


def dump(value: Any) -> Any:
    if isinstance(value, Hex):
        return label(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {str(k): dump(v) for k, v in value.items()}
    return value


def load(tp: Any, raw: Any) -> Any:
    origin = typing.get_origin(tp)
    if tp is Hex:
        return parse_hex(raw)
    if tp in (int, str, bool):
        if not isinstance(raw, tp):
            raise DataError(f"expected {tp.__name__}, found {raw!r}")
        return raw
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if raw is None and type(None) in args:
            return None
        for a in args:
            if a is type(None):
                continue
            try:
                return load(a, raw)
            except (DataError, TypeError, KeyError, ValueError):
                continue
        raise DataError(f"cannot read {raw!r} as {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], v) for v in raw)
        return tuple(load(a, v) for a, v in zip(args, raw, strict=True))
    if origin is dict:
        k_t, v_t = typing.get_args(tp)
        return {load(k_t, k): load(v_t, v) for k, v in raw.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {f.name: load(hints[f.name], raw[f.name]) for f in dataclasses.fields(tp) if f.name in raw}
        return tp(**kwargs)
    if tp is Any:
        return raw
    raise DataError(f"cannot read type {tp}")


def dump_state(state: MemoirState) -> dict[str, Any]:
    body = dump(state)
    assert isinstance(body, dict)
    return {"version": VERSION, **body}


def load_state(data: Mapping[str, Any]) -> MemoirState:
    if data.get("version") != VERSION:
        raise DataError(f"Unknown Memoir '44 snapshot version {data.get('version')!r}.")
    body = {k: v for k, v in data.items() if k != "version"}
    try:
        out = load(MemoirState, body)
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(f"Not a Memoir '44 snapshot: {e}.") from None
    assert isinstance(out, MemoirState)
    return out
