"""Checking a game's dice from its export (docs/fair-dice.md): the seed against the
commitment, then every die of the log against the stream it came from.

:func:`verify_export` is pure (no bot, no database): ``warroom verify --export FILE``
and ``/verify`` both call it.  It walks the log rows in order, keeping each stream's
position the way the game did: every die takes the next position of its row's stream;
an ``undo to N`` row gives the positions of the orders it takes back to their streams, so
a re-issued order must show the very same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from bot.dice_service import SEED_ONLY, SETUP, stream_label
from engine.core.dice import FAIR_SCHEME, commitment, play_key, stream_die
from engine.core.words import plural

SCHEMES = (FAIR_SCHEME, SEED_ONLY)


class BadExport(ValueError):
    """The file is not a Warroom game export (or cannot be checked yet)."""


def all_match(dice: int) -> str:
    """``all 11 dice match``; ``the only die matches`` (a game's or a quick roll's check)."""
    return "the only die matches" if dice == 1 else f"all {dice} dice match"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    dice: int  # dice checked (all of them when ok)
    problem: str = ""  # the first mismatch, in words

    def text(self) -> str:
        if self.ok:
            return f"✅ {all_match(self.dice)} the revealed seed and its commitment."
        return f"❌ {self.problem} ({plural(self.dice, 'die', 'dice')} matched before that)."


def _hex(value: Any, what: str) -> bytes:
    try:
        return bytes.fromhex(str(value))
    except ValueError:
        raise BadExport(f"the {what} is not hexadecimal") from None


def verify_export(data: Mapping[str, Any]) -> Verdict:
    """Recompute every die of an export; the first mismatch (or "all N dice match")."""
    if not isinstance(data, Mapping) or not isinstance(data.get("orders"), list):
        raise BadExport("this is not a Warroom game export (no orders)")
    if data.get("scheme") not in SCHEMES:
        raise BadExport(f"unknown dice scheme {str(data.get('scheme'))[:40]!r}")
    game = data.get("game") or {}
    uid = str(game.get("uid", ""))
    if data.get("seed") is None:
        raise BadExport("the export has no seed yet: it is revealed when the game ends;"
                        " export the log again then")
    seed = _hex(data["seed"], "seed")
    if commitment(seed) != str(data.get("commitment", "")).lower():
        return Verdict(False, 0, "the seed does not match the commitment (its SHA-256 differs)")
    entropy = {str(k): str(v) for k, v in dict(data.get("entropy") or {}).items()}
    play = play_key(seed, uid, entropy) if data["scheme"] == FAIR_SCHEME else seed
    positions: dict[str, int] = {}
    alive: list[Mapping[str, Any]] = []
    checked = 0
    expected_seq = None
    for row in data["orders"]:
        seq = int(row["seq"])
        if expected_seq is not None and seq != expected_seq:
            return Verdict(False, checked, f"log row {expected_seq} is missing (the next row is {seq})")
        expected_seq = seq + 1
        if row["kind"] == "undo":
            target = int(str(row["text"]).split()[-1])
            for taken in [r for r in alive if int(r["seq"]) > target and r["kind"] in ("order", "timeout")]:
                stream = str(taken["stream"])
                positions[stream] = positions.get(stream, 0) - len(taken["dice"])
                alive.remove(taken)
            continue
        alive.append(row)
        stream = str(row.get("stream") or SETUP)
        key = seed if stream == SETUP else play
        for n, (value, sides) in enumerate(row["dice"], 1):
            index = positions.get(stream, 0)
            derived = stream_die(key, stream_label(uid, stream), index, int(sides))
            if value is None or int(value) != derived:
                what = f"{row['kind']} by {row['seat']}" if row.get("seat") else str(row["kind"])
                text = f": {row['text']}" if row.get("text") and row["kind"] == "order" else ""
                return Verdict(False, checked, f"log row {seq} ({what}{text}), die {n}: the log says {value}"
                               f" (d{sides}) but die {index} of the {stream} stream is {derived}")
            positions[stream] = index + 1
            checked += 1
    recorded = {str(k): int(v) for k, v in dict(data.get("dice_positions") or {}).items()}
    for stream in sorted(set(recorded) | set(positions)):
        if recorded.get(stream, 0) != positions.get(stream, 0):
            return Verdict(False, checked, f"the {stream} stream: the log uses {positions.get(stream, 0)} dice"
                           f" but the game recorded {recorded.get(stream, 0)} (orders are missing)")
    return Verdict(True, checked)
