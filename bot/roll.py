"""Dice notation for ``/roll`` and ``warroom roll``.

d20 (Avrae's dice engine) reads the notation — ``3d6+2``, ``4d6kh3``, ``2d6`` — and we
add what wargames need: a *success test* ``11d6>=4`` that shows every die and counts
the dice meeting the target (d20 alone would compare the total).

d20 draws from the global ``random`` module; we lend it our own recorded dice for the
length of one roll (:func:`_lend_dice`), so quick rolls use the same dice service as
games and a script's ``!dice`` queue works for them too.
"""

from __future__ import annotations

import operator
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import d20
from d20 import expression as d20x

from engine.core.dice import Dice
from engine.core.errors import NotationError

MAX_DICE = 1000
MAX_EXPRESSION = 200
MAX_DETAIL = 1500  # Discord messages hold 2,000 characters
HINT = ("2d6", "3d6+2", "4d6kh3", "11d6>=4")

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
    "==": operator.eq,
}
# A success test: a dice expression ending in a number or ')' then a comparison.  A
# comparison right after a set operator (``4d6k>3``) is d20's own selector syntax.
_SUCCESS = re.compile(r"^(?P<dice>.*[\d)])\s*(?P<op>>=|<=|==|=|>|<)\s*(?P<target>\d+)$")


@dataclass(frozen=True)
class RollResult:
    expression: str
    dice: tuple[int, ...]  # every die rolled, in order (dropped ones included)
    kept: tuple[int, ...]  # the dice that count
    total: int
    successes: int | None  # None unless a success test
    detail: str  # d20's breakdown, e.g. "3d6 (4, 3, 1) + 2 = `10`"
    sides: tuple[int, ...] = ()  # faces of each kept die (100 for d%)
    hits: tuple[bool, ...] = ()  # success test: which kept dice succeed
    faces: tuple[tuple[int, int, bool], ...] = ()  # every die rolled: (value, sides, kept)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "expression": self.expression,
            "dice": list(self.dice),
            "kept": list(self.kept),
            "total": self.total,
        }
        if self.successes is not None:
            out["successes"] = self.successes
        return out

    def text(self) -> str:
        if self.successes is not None:
            shown = ", ".join(str(v) for v in sorted(self.kept, reverse=True))
            word = "success" if self.successes == 1 else "successes"
            return f"**{self.expression}** → {shown} → **{self.successes} {word}**"
        return f"**{self.expression}** → {self.detail}"


class _DiceAsRandom:
    """Looks like the ``random`` module to d20, draws from our dice."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        faces = (stop - start + step - 1) // step
        return start + (self._dice.roll(faces) - 1) * step


@contextmanager
def _lend_dice(dice: Dice) -> Iterator[None]:
    saved = d20x.random
    d20x.random = _DiceAsRandom(dice)
    try:
        yield
    finally:
        d20x.random = saved


def _dice_nodes(node: Any) -> Iterator[Any]:
    if isinstance(node, d20x.Die):
        yield node
        return
    if isinstance(node, d20x.Dice):  # a Dice node lists its dice in .values, not .children
        yield from node.values
        return
    for child in getattr(node, "children", ()):
        yield from _dice_nodes(child)


def _bad(expr: str, why: str = "") -> NotationError:
    shown = expr if len(expr) <= 40 else expr[:37] + "…"
    return NotationError(f"Can't roll '{shown}'{': ' + why if why else ''}.", legal=HINT)


def roll(expression: str, dice: Dice) -> RollResult:
    """Roll ``expression`` with ``dice``; a :class:`NotationError` if it cannot be read."""
    expr = " ".join(expression.split())
    if not expr:
        raise _bad(expr, "give an expression")
    if len(expr) > MAX_EXPRESSION:
        raise _bad(expr, f"at most {MAX_EXPRESSION} characters")
    test = _SUCCESS.match(expr)
    body = test.group("dice") if test else expr
    roller = d20.Roller(d20.RollContext(max_rolls=MAX_DICE))
    try:
        with _lend_dice(dice):
            result = roller.roll(body)
        # d20 evaluates lazily: the total (and a division by zero) only now.
        total = int(result.total)
        detail = str(result)
    except d20.TooManyRolls:
        raise _bad(expr, f"at most {MAX_DICE} dice") from None
    except d20.RollValueError as err:
        raise _bad(expr, str(err).rstrip(".").lower()) from None
    except d20.RollError:
        raise _bad(expr) from None
    except (ZeroDivisionError, OverflowError, RecursionError, ValueError):
        raise _bad(expr, "the numbers do not work out") from None
    nodes = list(_dice_nodes(result.expr))
    all_dice = tuple(int(n.number) for n in nodes)
    kept = tuple(int(n.number) for n in nodes if n.kept)
    faces = tuple((int(n.number), 100 if n.size == "%" else int(n.size), bool(n.kept)) for n in nodes)
    sides = tuple(s for _, s, k in faces if k)
    hits: tuple[bool, ...] = ()
    successes: int | None = None
    if test:
        if not nodes:
            raise _bad(expr, "a success test needs dice, e.g. 11d6>=4")
        if not _only_dice(result.expr):
            raise _bad(expr, "a success test counts dice; write it like 11d6>=4")
        compare = _COMPARE[test.group("op")]
        target = int(test.group("target"))
        hits = tuple(compare(v, target) for v in kept)
        successes = sum(hits)
    if len(detail) > MAX_DETAIL:
        detail = f"{len(all_dice)} dice = `{total}`"
    return RollResult(expr, all_dice, kept, total, successes, detail, sides, hits, faces)


def _only_dice(node: Any) -> bool:
    """True when an expression is dice joined by '+' only (no modifiers to misread)."""
    if isinstance(node, d20x.Expression):
        return _only_dice(node.roll)
    if isinstance(node, d20x.Dice):
        return True
    if isinstance(node, d20x.BinOp):
        return node.op == "+" and _only_dice(node.left) and _only_dice(node.right)
    if isinstance(node, d20x.Parenthetical):
        return _only_dice(node.value)
    return False
