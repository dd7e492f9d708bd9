"""The Memoir '44 board (E-2): 9 rows of 13/12 pointy-top hexes, A1…M9, three sections.

Coordinates: axial :class:`~engine.core.hexgrid.Hex` with the pointy-top "odd-r" labels of
:class:`~engine.core.hexgrid.Labels` (``flat=False``): ``r`` is the row (0 = row 1, the top
edge), odd rows (2, 4, 6, 8) are shifted half a hex to the right, and the column letter is
the offset column.  So A2 touches A1, B1, A3 and B3 (E-2.1).  The spec's "doubled column"
(E-2.3) is ``c = 2 × column + (r mod 2)``; the sections are ranges of it (E-2.4), and the
two dotted lines run through the 8 hexes with ``c`` = 7 or 17 (E-2.5), which belong to both
sections they separate.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core.errors import NotationError
from engine.core.hexgrid import Hex, Labels

LABELS = Labels(flat=False)
ROWS = 9
SEATS: tuple[str, str] = ("axis", "allies")
SECTIONS: tuple[str, str, str] = ("left", "centre", "right")

# E-2.4, seen from the bottom seat: inclusive ranges of the doubled column.
_SECTION_RANGES = {"left": (0, 7), "centre": (7, 17), "right": (17, 24)}


def other(seat: str) -> str:
    return "allies" if seat == "axis" else "axis"


def row_length(r: int) -> int:
    return 13 if r % 2 == 0 else 12


def column(h: Hex) -> int:
    return LABELS.to_offset(h)[0]


def doubled_column(h: Hex) -> int:
    """E-2.3: ``c = 2 × letter index + (r mod 2)``."""
    return 2 * column(h) + (h.r % 2)


def on_board(h: Hex) -> bool:
    if not 0 <= h.r < ROWS:
        return False
    return 0 <= column(h) < row_length(h.r)


@lru_cache(maxsize=1)
def all_hexes() -> tuple[Hex, ...]:
    """The 113 hexes, row by row, left to right."""
    return tuple(LABELS.from_offset(c, r) for r in range(ROWS) for c in range(row_length(r)))


BOARD: frozenset[Hex] = frozenset(all_hexes())


def label(h: Hex) -> str:
    return LABELS.label(h)


def hex_key(h: Hex) -> tuple[int, int]:
    """Sort key by hex name (letter first, then row): "lowest hex name" in E-19.4."""
    return (column(h), h.r)


def parse_hex(text: str) -> Hex:
    """A hex name such as ``G5`` (case-insensitive); refuses hexes off the board."""
    try:
        h = LABELS.parse(text)
    except NotationError:
        raise NotationError(f"'{text}' is not a hex name", legal=("a letter A-M then a row 1-9, e.g. G5",)) from None
    if not on_board(h):
        raise NotationError(f"{text.strip().upper()} is not on the board (rows 1-9; A-M on odd rows, A-L on even rows)",
                            legal=("A1", "M1", "L2", "G5", "M9"))
    return h


def sections_of(h: Hex, seat: str, top: str) -> frozenset[str]:
    """E-2.4–E-2.6: the sections (1 or 2) of ``h`` as named from ``seat``'s side; ``top`` is
    the seat at the top edge, whose left is the bottom seat's right."""
    return _sections(h, seat == top)


@lru_cache(maxsize=512)
def _sections(h: Hex, flipped: bool) -> frozenset[str]:
    c = doubled_column(h)
    found = {name for name, (lo, hi) in _SECTION_RANGES.items() if lo <= c <= hi}
    if flipped:
        swap = {"left": "right", "right": "left", "centre": "centre"}
        found = {swap[s] for s in found}
    return frozenset(found)


def absolute_section(section: str, seat: str, top: str) -> str:
    """A section named from ``seat``'s side, as named from the bottom seat (our absolute frame)."""
    if seat == top and section != "centre":
        return "right" if section == "left" else "left"
    return section


def relative_section(section: str, seat: str, top: str) -> str:
    """The inverse of :func:`absolute_section` (the swap is its own inverse)."""
    return absolute_section(section, seat, top)


def baseline_row(seat: str, top: str) -> int:
    """E-2.8: row index (0-based) of a seat's own edge."""
    return 0 if seat == top else ROWS - 1


def backward(h: Hex, seat: str, top: str) -> tuple[Hex, ...]:
    """E-14.1: the (at most two) adjacent hexes one row nearer ``seat``'s own baseline,
    on the board."""
    if seat == top:
        cands = (Hex(h.q, h.r - 1), Hex(h.q + 1, h.r - 1))
    else:
        cands = (Hex(h.q - 1, h.r + 1), Hex(h.q, h.r + 1))
    return tuple(c for c in cands if on_board(c))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    return _neighbours(h)


@lru_cache(maxsize=256)
def _neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(n for n in h.neighbours() if n in BOARD)


def within(h: Hex, radius: int) -> tuple[Hex, ...]:
    """Board hexes at distance ≤ radius, in board order."""
    return tuple(x for x in all_hexes() if x.distance(h) <= radius)


SECTION_ALIASES = {"left": "left", "l": "left", "centre": "centre", "center": "centre", "c": "centre",
                   "right": "right", "r": "right"}


def parse_section(text: str) -> str:
    key = text.strip().lower()
    if key not in SECTION_ALIASES:
        raise NotationError(f"'{text}' is not a section", legal=SECTIONS)
    return SECTION_ALIASES[key]
