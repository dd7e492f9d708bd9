"""A&A Miniatures battle maps as data: the eight section faces, the six configurations
of M-3.8, and custom maps, all in one text format (docs/maps.md).

Geometry (M-3.6, our own sections; see docs/maps.md for the drawing):

* The battlefield is flat-top, odd-q (columns B, D, … sit half a hex lower), columns
  A… along the long axis.  A 2×2 layout is 19 columns × 16 rows.
* A section face has 9 full columns × 8 rows.  Its west and east edges are straight
  lines through the centres of a column of half-hexes; its north and south edges follow
  the hexsides.  Two faces side by side therefore share one column of *seam hexes*
  (column J), each made of two halves: ordinary hexes that never hold hex-filling
  terrain.  Faces above one another meet along hexsides (no half-hexes there).
* The half-hexes on the outer west and east edges are not part of the map.
* A hexside on a seam is drawn by every face that touches it; it is a stream only if
  all of them draw it (M-3.6: half stream, half clear counts as clear).
* Roads leave a face only through declared exits; the standard exits line up across
  every seam of the six configurations.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

from engine.core.errors import DataError, NotationError, UnknownName
from engine.core.hexgrid import Hex, Labels
from engine.minis.model import BattleMap, Edge, SectionPlacement, Terrain, edge

LABELS = Labels(flat=True)

SECTION_COLS = 9
SECTION_ROWS = 8
SEAM_COL = SECTION_COLS  # the shared column of half-hex pairs (J)
MAP_COLS = 2 * SECTION_COLS + 1  # 19
MAP_ROWS = 2 * SECTION_ROWS  # 16
ZONE_DEPTH = 5  # M-3.4: deploy within 5 hexes of your end

TERRAIN_LETTERS: Mapping[str, Terrain] = MappingProxyType(
    {
        ".": Terrain.CLEAR,
        "H": Terrain.HILL,
        "F": Terrain.FOREST,
        "T": Terrain.TOWN,
        "M": Terrain.MARSH,
        "L": Terrain.LAKE,
    }
)
LETTER_OF: Mapping[Terrain, str] = MappingProxyType({t: c for c, t in TERRAIN_LETTERS.items()})

KEYWORDS = (
    "map", "section", "about", "grid", "end", "layout", "road", "exit", "stream", "bridge",
    "objective", "zone",
)

FACE_NAMES: tuple[str, ...] = tuple(
    f"{letter}-{side}" for letter in ("Able", "Baker", "Charlie", "Dog") for side in (1, 2)
)

# Where the four faces of a 2×2 layout sit: offset (column, row) of their A1 hex.
# Column offsets are even, so a face keeps its odd-q shape wherever it is placed.
_PLACES: tuple[tuple[int, int], ...] = (
    (0, 0),
    (SECTION_COLS + 1, 0),
    (0, SECTION_ROWS),
    (SECTION_COLS + 1, SECTION_ROWS),
)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, eq=False)
class SectionFace:
    """One side of a map section, in its own labels (A1 … I8).

    ``streams`` and ``exits`` may name a hexside whose far hex lies off the face (a
    half-hex of the seam, or a hex of the neighbouring face)."""

    name: str
    about: str
    terrain: Mapping[Hex, Terrain]  # non-clear hexes only
    roads: frozenset[Edge] = frozenset()  # links between two hexes of the face
    exits: frozenset[tuple[Hex, int]] = frozenset()  # (hex, direction) a road leaves by
    streams: frozenset[Edge] = frozenset()
    bridges: frozenset[Edge] = frozenset()
    cols: int = SECTION_COLS
    rows: int = SECTION_ROWS

    def __post_init__(self) -> None:
        object.__setattr__(self, "terrain", MappingProxyType(dict(self.terrain)))

    def on_face(self, h: Hex) -> bool:
        c, r = LABELS.to_offset(h)
        return 0 <= c < self.cols and 0 <= r < self.rows


@dataclass(frozen=True)
class Configuration:
    """A die-rolled battlefield of M-3.8: four faces (top row, then bottom row) and the
    objective hex (M-3.2)."""

    number: int
    name: str
    top_left: str
    top_right: str
    bottom_left: str
    bottom_right: str
    objective: Hex

    @property
    def faces(self) -> tuple[str, str, str, str]:
        return (self.top_left, self.top_right, self.bottom_left, self.bottom_right)

    @property
    def layout(self) -> str:
        return f"{self.top_left} {self.top_right} / {self.bottom_left} {self.bottom_right}"


# --------------------------------------------------------------------------- parsing


@dataclass
class _Doc:
    source: str
    kind: str = ""  # "map" or "section"
    name: str = ""
    about: str = ""
    grid: list[tuple[int, str]] = field(default_factory=list)  # (line, letters)
    grid_line: int = 0
    layout: tuple[int, list[str]] | None = None
    roads: list[tuple[int, list[str]]] = field(default_factory=list)
    exits: list[tuple[int, str]] = field(default_factory=list)
    streams: list[tuple[int, str]] = field(default_factory=list)
    bridges: list[tuple[int, str]] = field(default_factory=list)
    objectives: list[tuple[int, str]] = field(default_factory=list)
    zones: list[tuple[int, str, list[str]]] = field(default_factory=list)


def _fail(source: str, line: int, message: str, legal: Iterable[str] = ()) -> DataError:
    where = f"{source} line {line}" if line else source
    return DataError(f"{where}: {message}", legal=tuple(legal))


def _parse(text: str, source: str) -> _Doc:
    doc = _Doc(source)
    in_grid = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if in_grid:
            if line.strip().lower() == "end":
                in_grid = False
                continue
            doc.grid.append((n, line))
            continue
        word, _, rest = line.strip().partition(" ")
        word = word.lower().rstrip(":")
        rest = rest.strip()
        if not doc.kind and word not in ("map", "section"):
            raise _fail(source, n, "the first line must be 'map <name>' or 'section <name>'.",
                        ("map My Battlefield", "section Able-1"))
        if word in ("map", "section"):
            if doc.kind:
                raise _fail(source, n, f"a second '{word}' line; one map per file.")
            if not rest:
                raise _fail(source, n, f"'{word}' needs a name.")
            doc.kind, doc.name = word, rest
        elif word == "about":
            doc.about = rest
        elif word == "grid":
            if doc.grid_line:
                raise _fail(source, n, "a second grid; one grid per file.")
            if rest:
                raise _fail(source, n, "the grid rows start on the line after 'grid'.")
            doc.grid_line, in_grid = n, True
        elif word == "end":
            raise _fail(source, n, "'end' without a 'grid' before it.")
        elif word == "layout":
            doc.layout = (n, rest.split())
        elif word == "road":
            doc.roads.append((n, [t for t in re.split(r"[\s\-]+", rest) if t]))
        elif word in ("exit", "stream", "bridge", "objective"):
            tokens = rest.split()
            if not tokens:
                raise _fail(source, n, f"'{word}' needs at least one {_WHAT[word]}.")
            target = {"exit": doc.exits, "stream": doc.streams, "bridge": doc.bridges,
                      "objective": doc.objectives}[word]
            target.extend((n, t) for t in tokens)
        elif word == "zone":
            zname, _, spec = rest.partition(" ")
            if not re.fullmatch(r"[a-z][a-z0-9_-]{0,19}", zname) or not spec.strip():
                raise _fail(source, n, "write 'zone <name> <hexes>', the name in lower case.",
                            ("zone west A1:E16", "zone hill G6 G7 H7"))
            doc.zones.append((n, zname, spec.split()))
        else:
            close = difflib.get_close_matches(word, KEYWORDS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise _fail(source, n, f"unknown keyword '{word}'{hint}.", KEYWORDS)
    if in_grid:
        raise _fail(source, doc.grid_line, "the grid has no 'end' line.")
    if not doc.kind:
        raise _fail(source, 0, "empty map text.", ("map My Battlefield", "section Able-1"))
    return doc


_WHAT = {
    "exit": "hexside such as I5/SE",
    "stream": "hexside such as C4/D4 or C4/SE",
    "bridge": "hexside such as C4/D4",
    "objective": "hex such as J8",
}


def _grid(doc: _Doc) -> tuple[int, int, dict[Hex, Terrain]]:
    """Columns, rows and non-clear terrain of the grid block."""
    if not doc.grid:
        raise _fail(doc.source, doc.grid_line, "the grid is empty.")
    width = 0
    terrain: dict[Hex, Terrain] = {}
    for r, (n, line) in enumerate(doc.grid):
        body = line.strip()
        m = re.match(r"^(\d+)\s+(.*)$", body)
        if m:
            if int(m.group(1)) != r + 1:
                raise _fail(doc.source, n, f"this is grid row {r + 1}, not {m.group(1)}.")
            body = m.group(2)
        letters = body.replace(" ", "").replace("\t", "")
        if r == 0:
            width = len(letters)
        elif len(letters) != width:
            raise _fail(doc.source, n, f"row {r + 1} has {len(letters)} hexes; the grid is "
                        f"{width} wide (rows must all be the same length).")
        for c, ch in enumerate(letters):
            t = TERRAIN_LETTERS.get(ch.upper())
            if t is None:
                raise _fail(doc.source, n,
                            f"'{ch}' at {LABELS.label(LABELS.from_offset(c, r))} is not a "
                            "terrain letter.",
                            [f"{k} {v.value}" for k, v in TERRAIN_LETTERS.items()])
            if t is not Terrain.CLEAR:
                terrain[LABELS.from_offset(c, r)] = t
    return width, len(doc.grid), terrain


class _Board:
    """The hexes a document may refer to, for label parsing with line numbers."""

    def __init__(self, doc: _Doc, cols: int, rows: int) -> None:
        self.doc, self.cols, self.rows = doc, cols, rows
        self.what = "face" if doc.kind == "section" else "map"

    def inside(self, h: Hex) -> bool:
        c, r = LABELS.to_offset(h)
        return 0 <= c < self.cols and 0 <= r < self.rows

    def extent(self) -> str:
        return f"A1 … {LABELS.label(LABELS.from_offset(self.cols - 1, self.rows - 1))}"

    def hex(self, line: int, token: str, *, inside: bool = True) -> Hex:
        try:
            h = LABELS.parse(token)
        except NotationError:
            raise _fail(self.doc.source, line, f"'{token}' is not a hex label.",
                        ("a column letter then a row number, e.g. F7",)) from None
        if inside and not self.inside(h):
            raise _fail(self.doc.source, line, f"{token.upper()} is off the {self.what}.",
                        (self.extent(),))
        return h

    def side(self, line: int, token: str, keyword: str) -> tuple[Hex, Hex, int]:
        """A hexside ``HEX/HEX`` or ``HEX/DIR``: (hex on the board, other hex, direction)."""
        left, slash, right = token.partition("/")
        if not slash or not left or not right:
            raise _fail(self.doc.source, line,
                        f"{keyword} '{token}' is not a hexside.", (_WHAT[keyword],))
        a = self.hex(line, left, inside=False)
        if right.upper() in LABELS.direction_names:
            d = LABELS.parse_direction(right)
            b = a.neighbour(d)
        else:
            b = self.hex(line, right, inside=False)
            if a.distance(b) != 1:
                raise _fail(self.doc.source, line,
                            f"{keyword} {token.upper()}: {left.upper()} and {right.upper()} "
                            "are not adjacent, so they share no hexside.",
                            [f"{left.upper()}/{LABELS.label(x)}" for x in a.neighbours()
                             if self.inside(x)])
            d = a.direction_to(b)
        if not self.inside(a):
            if self.inside(b):
                a, b, d = b, a, (d + 3) % 6
            else:
                raise _fail(self.doc.source, line,
                            f"{keyword} {token.upper()} is not on a hexside of the {self.what}.",
                            (self.extent(),))
        return a, b, d


def _lines(doc: _Doc, board: _Board) -> tuple[
    set[Edge], set[tuple[Hex, int]], set[Edge], set[Edge]
]:
    """Roads, exits, streams and bridges of a document, checked against its board."""
    src = doc.source
    roads: set[Edge] = set()
    line_of: dict[Edge, int] = {}
    for n, tokens in doc.roads:
        if len(tokens) < 2:
            raise _fail(src, n, "a road needs at least two hexes, e.g. 'road A5 B5 C4'.")
        hexes = [board.hex(n, t) for t in tokens]
        for a, b in zip(hexes, hexes[1:]):
            if a.distance(b) != 1:
                raise _fail(src, n, f"road {LABELS.label(a)} → {LABELS.label(b)}: the hexes "
                            "are not adjacent (a road links neighbouring hexes).",
                            [LABELS.label(x) for x in a.neighbours() if board.inside(x)])
            roads.add(edge(a, b))
            line_of.setdefault(edge(a, b), n)
    exits: set[tuple[Hex, int]] = set()
    for n, token in doc.exits:
        if doc.kind != "section":
            raise _fail(src, n, "'exit' is only for section faces; a whole map uses 'road'.")
        a, b, d = board.side(n, token, "exit")
        if board.inside(b):
            raise _fail(src, n, f"exit {token.upper()} stays on the face; use "
                        f"'road {LABELS.label(a)} {LABELS.label(b)}'.")
        exits.add((a, d))
        line_of.setdefault(edge(a, b), n)
    streams: set[Edge] = set()
    for n, token in doc.streams:
        a, b, _ = board.side(n, token, "stream")
        if doc.kind == "map" and not board.inside(b):
            raise _fail(src, n, f"stream {token.upper()} is on the edge of the map, not on a "
                        "hexside between two of its hexes.", (board.extent(),))
        streams.add(edge(a, b))
    bridges: set[Edge] = set()
    exit_edges = {edge(a, a.neighbour(d)) for a, d in exits}
    for n, token in doc.bridges:
        a, b, _ = board.side(n, token, "bridge")
        e = edge(a, b)
        if e not in streams or (e not in roads and e not in exit_edges):
            missing = " and no ".join(
                w for w, ok in (("stream", e in streams),
                                ("road", e in roads or e in exit_edges)) if not ok
            )
            raise _fail(src, n, f"bridge {token.upper()} is not on a stream and a road: "
                        f"there is no {missing} across that hexside.")
        bridges.add(e)
    for e in sorted((roads | exit_edges) & streams - bridges):
        raise _fail(src, line_of[e], f"the road {LABELS.label(e[0])}-{LABELS.label(e[1])} crosses the "
                    "stream on that hexside; declare it a bridge (M-13.4).",
                    (f"bridge {LABELS.label(e[0])}/{LABELS.label(e[1])}",))
    return roads, exits, streams, bridges


def _zone_hexes(doc: _Doc, board: _Board, line: int, token: str) -> set[Hex]:
    first, colon, last = token.partition(":")
    a = board.hex(line, first)
    if not colon:
        return {a}
    b = board.hex(line, last)
    (c0, r0), (c1, r1) = LABELS.to_offset(a), LABELS.to_offset(b)
    return {LABELS.from_offset(c, r)
            for c in range(min(c0, c1), max(c0, c1) + 1)
            for r in range(min(r0, r1), max(r0, r1) + 1)}


def _objectives_and_zones(
    doc: _Doc, board: _Board, cols: int
) -> tuple[tuple[Hex, ...], dict[str, frozenset[Hex]]]:
    if doc.kind == "section" and (doc.objectives or doc.zones):
        n = (doc.objectives or [(doc.zones[0][0], "")])[0][0]
        raise _fail(doc.source, n, "a section face has no objective or zones; put them in "
                    "the map that lays the faces out.")
    objectives = tuple(dict.fromkeys(board.hex(n, t) for n, t in doc.objectives))
    zones: dict[str, set[Hex]] = {}
    for n, zname, tokens in doc.zones:
        hexes = zones.setdefault(zname, set())
        for t in tokens:
            hexes |= _zone_hexes(doc, board, n, t)
    if doc.kind == "map" and not zones:
        if cols < 2 * ZONE_DEPTH + 1:
            depth = max(1, (cols - 1) // 2)
            last = board.rows
            raise _fail(doc.source, 0, f"the map is {cols} columns wide, too narrow for the "
                        f"default zones (the first and last {ZONE_DEPTH} columns); declare "
                        "zones.",
                        (f"zone west A1:{LABELS.label(LABELS.from_offset(depth - 1, last - 1))}",
                         f"zone east {LABELS.label(LABELS.from_offset(cols - depth, 0))}:"
                         f"{LABELS.label(LABELS.from_offset(cols - 1, last - 1))}"))
        return objectives, default_zones(cols, board.rows)
    return objectives, {k: frozenset(v) for k, v in zones.items()}


def default_zones(cols: int, rows: int) -> dict[str, frozenset[Hex]]:
    """M-3.4/M-3.5: the first and last 5 columns, named "west" and "east"."""
    return {
        "west": frozenset(LABELS.from_offset(c, r) for c in range(ZONE_DEPTH) for r in range(rows)),
        "east": frozenset(LABELS.from_offset(c, r)
                          for c in range(cols - ZONE_DEPTH, cols) for r in range(rows)),
    }


# --------------------------------------------------------------------------- faces


def face_key(name: str) -> str:
    """'dog 1', 'DOG-1', 'dog1' → 'Dog-1' (or the name unchanged if it is no face)."""
    m = re.fullmatch(r"\s*([A-Za-z]+)[\s_\-]*([12])\s*", name)
    return f"{m.group(1).capitalize()}-{m.group(2)}" if m else name.strip()


def load_section_text(text: str, name: str = "section") -> SectionFace:
    """One section face from the map text format (``section <name>`` with a 9 × 8 grid)."""
    doc = _parse(text, name)
    if doc.kind != "section":
        raise _fail(name, 0, "this is a whole map, not a section face.", ("section Able-1",))
    if doc.layout:
        raise _fail(name, doc.layout[0], "a section face has a grid, not a layout.")
    if not doc.grid_line:
        raise _fail(name, 0, "a section face needs a grid.")
    cols, rows, terrain = _grid(doc)
    if (cols, rows) != (SECTION_COLS, SECTION_ROWS):
        raise _fail(name, doc.grid_line, f"a section face is {SECTION_COLS} columns × "
                    f"{SECTION_ROWS} rows, not {cols} × {rows}.")
    board = _Board(doc, cols, rows)
    roads, exits, streams, bridges = _lines(doc, board)
    _objectives_and_zones(doc, board, cols)
    return SectionFace(face_key(doc.name), doc.about, terrain, frozenset(roads),
                       frozenset(exits), frozenset(streams), frozenset(bridges))


def _data_text(filename: str) -> str:
    return resources.files("engine.minis").joinpath("data/maps", filename).read_text("utf-8")


@lru_cache(maxsize=None)
def _faces() -> Mapping[str, SectionFace]:
    out: dict[str, SectionFace] = {}
    for name in FACE_NAMES:
        face = load_section_text(_data_text(f"{name.lower()}.map"), f"{name.lower()}.map")
        if face.name != name:
            raise DataError(f"{name.lower()}.map: names the face '{face.name}'.")
        out[name] = face
    return MappingProxyType(out)


def section_faces() -> Mapping[str, SectionFace]:
    """The eight built-in faces, Able-1 … Dog-2."""
    return _faces()


def _face(name: str, faces: Mapping[str, SectionFace], source: str, line: int) -> SectionFace:
    key = face_key(name)
    if key in faces:
        return faces[key]
    raise _fail(source, line, f"there is no section face '{name}'.", tuple(faces))


# --------------------------------------------------------------------------- assembly


def _to_global(h: Hex, dc: int, dr: int) -> Hex:
    c, r = LABELS.to_offset(h)
    return LABELS.from_offset(c + dc, r + dr)


def _owners(a: Hex, b: Hex) -> frozenset[int]:
    """Which layout places (0 TL, 1 TR, 2 BL, 3 BR) draw part of the hexside a|b."""
    (ca, ra), (cb, rb) = LABELS.to_offset(a), LABELS.to_offset(b)
    if ca == SEAM_COL and cb == SEAM_COL:
        across = {0, 1}  # a side between two seam hexes is cut by the seam line
    elif SEAM_COL in (ca, cb):
        across = {0} if min(ca, cb) < SEAM_COL else {1}
    else:
        across = {0} if ca < SEAM_COL else {1}
    down = {0 if r < SECTION_ROWS else 1 for r in (ra, rb)}
    return frozenset(2 * v + h for v in down for h in across)


def assemble(
    name: str,
    layout: Sequence[SectionFace],
    *,
    objectives: Sequence[Hex] = (),
    zones: Mapping[str, frozenset[Hex]] | None = None,
) -> BattleMap:
    """Lay four faces out 2 × 2 (top-left, top-right, bottom-left, bottom-right)."""
    if len(layout) != 4:
        raise DataError(f"{name}: a layout has 4 faces, not {len(layout)}.")
    hexes = {LABELS.from_offset(c, r) for c in range(MAP_COLS) for r in range(MAP_ROWS)}
    terrain: dict[Hex, Terrain] = {}
    roads: set[Edge] = set()
    marks: dict[Edge, set[int]] = {}
    bridges: set[Edge] = set()
    for place, (face, (dc, dr)) in enumerate(zip(layout, _PLACES)):
        for h, t in face.terrain.items():
            terrain[_to_global(h, dc, dr)] = t
        for a, b in face.roads:
            roads.add(edge(_to_global(a, dc, dr), _to_global(b, dc, dr)))
        for a, d in face.exits:
            ga = _to_global(a, dc, dr)
            gb = ga.neighbour(d)
            if gb in hexes:  # an exit at the outer edge leads off the battlefield
                roads.add(edge(ga, gb))
        for a, b in face.streams:
            e = edge(_to_global(a, dc, dr), _to_global(b, dc, dr))
            if e[0] in hexes and e[1] in hexes:
                marks.setdefault(e, set()).add(place)
        for a, b in face.bridges:
            bridges.add(edge(_to_global(a, dc, dr), _to_global(b, dc, dr)))
    streams = {e for e, who in marks.items() if _owners(*e) <= who}
    sections = tuple(
        SectionPlacement(face.name, dc, dr, SECTION_COLS, SECTION_ROWS)
        for face, (dc, dr) in zip(layout, _PLACES)
    )
    for h in objectives:
        if h not in hexes:
            raise DataError(f"{name}: objective {LABELS.label(h)} is off the map.")
    return BattleMap(
        name=name,
        cols=MAP_COLS,
        rows=MAP_ROWS,
        terrain=terrain,
        roads=frozenset(roads),
        streams=frozenset(streams),
        bridges=frozenset(bridges & streams & roads),
        objectives=tuple(objectives),
        zones=dict(zones) if zones is not None else default_zones(MAP_COLS, MAP_ROWS),
        sections=sections,
        labels=LABELS,
    )


def seam_hexes() -> frozenset[Hex]:
    """The hexes of a 2 × 2 layout made of two half-hexes (column J)."""
    return frozenset(LABELS.from_offset(SEAM_COL, r) for r in range(MAP_ROWS))


def section_map(name: str) -> BattleMap:
    """One face alone as a 9 × 8 map (no zones), e.g. for drawing it."""
    faces = section_faces()
    key = face_key(name)
    if key not in faces:
        raise UnknownName(f"There is no section face '{name}'.", legal=tuple(faces))
    f = faces[key]
    return BattleMap(
        name=f.name, cols=f.cols, rows=f.rows, terrain=f.terrain, roads=f.roads,
        streams=frozenset(e for e in f.streams if f.on_face(e[0]) and f.on_face(e[1])),
        bridges=frozenset(e for e in f.bridges if f.on_face(e[0]) and f.on_face(e[1])),
        sections=(SectionPlacement(f.name, 0, 0, f.cols, f.rows),), labels=LABELS,
    )


# --------------------------------------------------------------------------- maps


def load_map_text(
    text: str, name: str = "custom", *, faces: Mapping[str, SectionFace] | None = None
) -> BattleMap:
    """A whole map in the text format: either a ``grid`` of any size, or a ``layout`` of
    four section faces (the built-in ones, or ``faces``).  Errors are
    :class:`DataError` with the line number."""
    doc = _parse(text, name)
    if doc.kind != "map":
        raise _fail(name, 0, "this is a section face; a playable map starts with 'map <name>' "
                    "and lays faces out with 'layout'.", ("map My Battlefield",))
    if doc.layout and doc.grid_line:
        raise _fail(name, doc.layout[0], "a map has either a grid or a layout, not both.")
    if doc.layout:
        return _layout_map(doc, faces if faces is not None else section_faces())
    if not doc.grid_line:
        raise _fail(name, 0, "a map needs a 'grid' (or a 'layout' of section faces).")
    cols, rows, terrain = _grid(doc)
    board = _Board(doc, cols, rows)
    roads, _, streams, bridges = _lines(doc, board)
    objectives, zones = _objectives_and_zones(doc, board, cols)
    return BattleMap(
        name=doc.name, cols=cols, rows=rows, terrain=terrain, roads=frozenset(roads),
        streams=frozenset(streams), bridges=frozenset(bridges), objectives=objectives,
        zones=zones, labels=LABELS,
    )


def _layout_map(doc: _Doc, faces: Mapping[str, SectionFace]) -> BattleMap:
    assert doc.layout is not None
    n, tokens = doc.layout
    if len(tokens) != 5 or tokens[2] != "/":
        raise _fail(doc.source, n, "write the layout as top-left top-right / bottom-left "
                    "bottom-right.", ("layout Dog-1 Charlie-1 / Able-1 Baker-2",))
    chosen = [_face(t, faces, doc.source, n) for t in tokens[:2] + tokens[3:]]
    for kw, items in (("road", doc.roads), ("exit", doc.exits), ("stream", doc.streams),
                      ("bridge", doc.bridges)):
        if items:
            raise _fail(doc.source, items[0][0], f"'{kw}' belongs in a section face or a grid "
                        "map; a layout takes its roads and streams from its faces.")
    board = _Board(doc, MAP_COLS, MAP_ROWS)
    objectives, zones = _objectives_and_zones(doc, board, MAP_COLS)
    return assemble(doc.name, chosen, objectives=objectives, zones=zones)


def format_map_text(battle_map: BattleMap) -> str:
    """A whole map in the text format (``grid`` form); ``load_map_text`` reads it back to
    an equal map."""
    L = battle_map.labels
    out = [f"map {battle_map.name}", "grid"]
    for r in range(battle_map.rows):
        row = " ".join(LETTER_OF[battle_map.terrain_at(L.from_offset(c, r))]
                       for c in range(battle_map.cols))
        out.append(f"{r + 1:>3} {row}")
    out.append("end")
    for a, b in sorted(battle_map.roads):
        out.append(f"road {L.label(a)} {L.label(b)}")
    for a, b in sorted(battle_map.streams):
        out.append(f"stream {L.label(a)}/{L.label(b)}")
    for a, b in sorted(battle_map.bridges):
        out.append(f"bridge {L.label(a)}/{L.label(b)}")
    if battle_map.objectives:
        out.append("objective " + " ".join(L.label(h) for h in battle_map.objectives))
    for zname, hexes in battle_map.zones.items():
        out.append(f"zone {zname} " + " ".join(_runs(L, hexes)))
    return "\n".join(out) + "\n"


def _runs(L: Labels, hexes: frozenset[Hex]) -> list[str]:
    """Zone hexes as column runs 'A1:A16' (single hexes as 'A1')."""
    by_col: dict[int, list[int]] = {}
    for h in hexes:
        c, r = L.to_offset(h)
        by_col.setdefault(c, []).append(r)
    out: list[str] = []
    for c in sorted(by_col):
        runs: list[list[int]] = []
        for r in sorted(by_col[c]):
            if runs and r == runs[-1][1] + 1:
                runs[-1][1] = r
            else:
                runs.append([r, r])
        for start, stop in runs:
            a, b = L.label(L.from_offset(c, start)), L.label(L.from_offset(c, stop))
            out.append(a if start == stop else f"{a}:{b}")
    return out


# --------------------------------------------------------------------------- configurations


@lru_cache(maxsize=None)
def _configurations() -> Mapping[int, Configuration]:
    out: dict[int, Configuration] = {}
    for number in range(1, 7):
        filename = f"configuration-{number}.map"
        doc = _parse(_data_text(filename), filename)
        if doc.layout is None or len(doc.objectives) != 1:
            raise DataError(f"{filename}: a configuration needs a layout and one objective.")
        faces = [face_key(t) for t in doc.layout[1] if t != "/"]
        bm = load_map_text(_data_text(filename), filename)
        out[number] = Configuration(number, doc.name, faces[0], faces[1], faces[2], faces[3],
                                    bm.objectives[0])
    return MappingProxyType(out)


def configurations() -> Mapping[int, Configuration]:
    """The six die-rolled configurations of M-3.8, by number."""
    return _configurations()


@lru_cache(maxsize=None)
def build_configuration(number: int) -> BattleMap:
    """The battlefield of configuration 1–6 (M-3.8), zones "west"/"east" (M-3.4)."""
    if number not in configurations():
        raise UnknownName(f"There is no map configuration {number}.",
                          legal=[str(n) for n in configurations()])
    return load_map_text(_data_text(f"configuration-{number}.map"),
                         f"configuration-{number}.map")
