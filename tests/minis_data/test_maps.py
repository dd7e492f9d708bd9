"""Battle maps as data: the eight section faces, the six configurations of M-3.8, the
seam geometry of M-3.6, and the map text format (docs/maps.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine.core.errors import DataError, PlayerError, UnknownName
from engine.core.hexgrid import Hex, Labels
from engine.minis.maps import (
    FACE_NAMES,
    MAP_COLS,
    MAP_ROWS,
    SectionFace,
    assemble,
    build_configuration,
    configurations,
    default_zones,
    face_key,
    format_map_text,
    load_map_text,
    load_section_text,
    seam_hexes,
    section_faces,
    section_map,
)
from engine.minis.model import BattleMap, Terrain, edge

L = Labels()


def h(label: str) -> Hex:
    return L.parse(label)


def labels(hexes: object) -> list[str]:
    return sorted(L.label(x) for x in hexes)  # type: ignore[attr-defined]


# M-3.8, typed from the spec: die roll → name, top row, bottom row.
SPEC_CONFIGURATIONS = {
    1: ("Half and Half", ("Dog-1", "Charlie-1", "Able-1", "Baker-2")),
    2: ("Knife Fight", ("Dog-2", "Charlie-1", "Baker-2", "Able-2")),
    3: ("Highland", ("Dog-2", "Charlie-2", "Baker-1", "Able-1")),
    4: ("Town Fight", ("Baker-2", "Able-2", "Dog-1", "Charlie-1")),
    5: ("Hill 107", ("Charlie-2", "Dog-2", "Baker-2", "Able-2")),
    6: ("Tiger Country", ("Baker-1", "Able-1", "Charlie-2", "Dog-2")),
}
OBJECTIVES = {1: "J8", 2: "K4", 3: "K4", 4: "K5", 5: "I7", 6: "J9"}


def map_fields(m: BattleMap) -> tuple[object, ...]:
    return (m.name, m.cols, m.rows, dict(m.terrain), m.roads, m.streams, m.bridges,
            m.objectives, {k: v for k, v in m.zones.items()})


# ------------------------------------------------------------------ faces


def test_eight_faces_each_9_by_8_with_a_description() -> None:
    faces = section_faces()
    assert tuple(faces) == FACE_NAMES == (
        "Able-1", "Able-2", "Baker-1", "Baker-2", "Charlie-1", "Charlie-2", "Dog-1", "Dog-2")
    for name, face in faces.items():
        assert face.name == name and (face.cols, face.rows) == (9, 8)
        assert face.about
        assert all(face.on_face(x) for x in face.terrain)
        assert Terrain.CLEAR not in face.terrain.values()


def test_faces_follow_the_rough_descriptions_of_unit_facts_3() -> None:
    faces = section_faces()

    def count(name: str, t: Terrain) -> int:
        return sum(1 for v in faces[name].terrain.values() if v is t)

    # Charlie-1: woods with a small town
    assert count("Charlie-1", Terrain.FOREST) >= 25 and 3 <= count("Charlie-1", Terrain.TOWN) <= 6
    # Baker-1: woods with fire lanes: rows 3, 5 and 7 are clear all the way across
    assert count("Baker-1", Terrain.FOREST) >= 30
    for row in (3, 5, 7):
        assert all(L.from_offset(c, row - 1) not in faces["Baker-1"].terrain for c in range(9))
    # Charlie-2 and Dog-2: open with hills and roads; Dog-2 mostly clear
    for name in ("Charlie-2", "Dog-2"):
        assert count(name, Terrain.HILL) >= 3 and count(name, Terrain.FOREST) <= 1
        assert len(faces[name].roads) >= 8
    assert len(faces["Dog-2"].terrain) <= 5


def test_face_roads_link_neighbours_on_the_face_and_exits_leave_it() -> None:
    for face in section_faces().values():
        for a, b in face.roads:
            assert a.distance(b) == 1 and face.on_face(a) and face.on_face(b)
        for a, d in face.exits:
            assert face.on_face(a) and not face.on_face(a.neighbour(d))
        for a, b in face.streams:
            assert a.distance(b) == 1 and (face.on_face(a) or face.on_face(b))
        assert face.bridges <= face.streams


def test_standard_exits_line_up_on_every_face() -> None:
    """Every face's road leaves by A5 to the west and I5 to the east; the A/B faces leave
    north from E1 and the C/D faces south from E8, which meet in configurations 1, 2, 3, 5."""
    W, E, N, S = (L.parse_direction(x) for x in ("SW", "SE", "N", "S"))
    for name, face in section_faces().items():
        expected = {(h("A5"), W), (h("I5"), E)}
        expected.add((h("E1"), N) if name[0] in "AB" else (h("E8"), S))
        assert face.exits == frozenset(expected), name


def test_streams_and_bridges_on_able_1_and_baker_2() -> None:
    faces = section_faces()
    assert faces["Able-1"].bridges == {edge(h("E5"), h("F5"))}
    assert faces["Baker-2"].bridges == {edge(h("D5"), h("E5"))}
    assert edge(h("D6"), h("D7")) in faces["Baker-2"].streams  # the bend towards the pond
    for name in ("Able-2", "Baker-1", "Charlie-1", "Charlie-2", "Dog-1", "Dog-2"):
        assert not faces[name].streams


def test_face_names_are_forgiving() -> None:
    assert face_key("dog 1") == face_key("DOG-1") == face_key("dog_1") == "Dog-1"
    assert section_map("charlie2").name == "Charlie-2"
    with pytest.raises(UnknownName):
        section_map("Easy-1")


def test_section_map_is_the_face_alone() -> None:
    m = section_map("Baker-2")
    assert (m.cols, m.rows) == (9, 8) and m.terrain_at(h("C7")) is Terrain.LAKE
    assert m.bridge(h("D5"), h("E5")) and m.road(h("E1"), h("E2"))
    assert all(m.on_map(a) and m.on_map(b) for a, b in m.streams)


# ------------------------------------------------------------------ configurations


@pytest.mark.parametrize("number", range(1, 7))
def test_configuration_m3_8_layout_name_and_objective(number: int) -> None:
    name, faces = SPEC_CONFIGURATIONS[number]
    c = configurations()[number]
    assert (c.number, c.name, c.faces) == (number, name, faces)
    assert c.objective == h(OBJECTIVES[number])
    m = build_configuration(number)
    assert m.name == name and (m.cols, m.rows) == (19, 16) == (MAP_COLS, MAP_ROWS)
    assert m.objectives == (c.objective,)
    assert [p.face for p in m.sections] == list(faces)
    assert [(p.col, p.row, p.cols, p.rows) for p in m.sections] == [
        (0, 0, 9, 8), (10, 0, 9, 8), (0, 8, 9, 8), (10, 8, 9, 8)]


@pytest.mark.parametrize("number", range(1, 7))
def test_configuration_zones_are_the_5_columns_at_each_short_end(number: int) -> None:
    m = build_configuration(number)
    assert set(m.zones) == {"west", "east"}
    assert {L.to_offset(x)[0] for x in m.zones["west"]} == {0, 1, 2, 3, 4}
    assert {L.to_offset(x)[0] for x in m.zones["east"]} == {14, 15, 16, 17, 18}
    assert len(m.zones["west"]) == len(m.zones["east"]) == 5 * 16
    assert m.zones["west"] <= m.hexes and m.zones["east"] <= m.hexes


@pytest.mark.parametrize("number", range(1, 7))
def test_objective_is_a_fair_playable_hex(number: int) -> None:
    """Not adjacent to the map edge (as M-17.2 asks of a chosen objective), not in a
    deployment zone, within one column of the centre, never in a lake."""
    m = build_configuration(number)
    (obj,) = m.objectives
    assert all(m.on_map(n) for n in obj.neighbours())
    col, _ = L.to_offset(obj)
    assert 8 <= col <= 10
    assert m.terrain_at(obj) is not Terrain.LAKE
    assert not any(obj in z for z in m.zones.values())


def test_objectives_sit_on_the_terrain_their_names_promise() -> None:
    assert build_configuration(4).terrain_at(h("K5")) is Terrain.TOWN  # Town Fight
    assert build_configuration(5).terrain_at(h("I7")) is Terrain.HILL  # Hill 107
    assert build_configuration(3).terrain_at(h("K4")) is Terrain.HILL  # Highland
    assert build_configuration(6).terrain_at(h("J9")) is Terrain.CLEAR  # Tiger Country


@pytest.mark.parametrize("number", range(1, 7))
def test_seam_hexes_are_clear_m3_6(number: int) -> None:
    m = build_configuration(number)
    seam = seam_hexes()
    assert labels(seam) == sorted(f"J{r}" for r in range(1, 17))
    assert all(m.terrain_at(x) is Terrain.CLEAR for x in seam)


@pytest.mark.parametrize("number", range(1, 7))
def test_roads_streams_and_bridges_are_consistent(number: int) -> None:
    m = build_configuration(number)
    for a, b in m.roads | m.streams:
        assert a.distance(b) == 1 and m.on_map(a) and m.on_map(b)
    assert m.bridges == m.roads & m.streams  # M-13.4: a bridge is a road over a stream
    assert len(m.bridges) >= 1


@pytest.mark.parametrize("number", range(1, 7))
def test_roads_connect_across_seams_and_end_only_at_the_map_edge(number: int) -> None:
    m = build_configuration(number)
    degree: dict[Hex, int] = {}
    for a, b in m.roads:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    for x, d in degree.items():
        c, r = L.to_offset(x)
        if d == 1:
            assert c in (0, MAP_COLS - 1) or r in (0, MAP_ROWS - 1), L.label(x)
    # the east-west roads cross the seam column through J5 and J13
    for row in (5, 13):
        j = h(f"J{row}")
        assert m.road(h(f"I{row}"), j) and m.road(j, h(f"K{row}"))
        # … and run from the west edge to the east edge
        assert _road_connected(m, h(f"A{row}"), h(f"S{row}"))


@pytest.mark.parametrize("number, crossing", [(1, True), (2, True), (3, True), (4, False),
                                              (5, True), (6, False)])
def test_north_south_roads_cross_the_horizontal_seam(number: int, crossing: bool) -> None:
    m = build_configuration(number)
    for col in ("E", "O"):
        assert m.road(h(f"{col}8"), h(f"{col}9")) is crossing
        assert _road_connected(m, h(f"{col}5"), h(f"{col}13")) is crossing


def _road_connected(m: BattleMap, a: Hex, b: Hex) -> bool:
    seen, todo = {a}, [a]
    while todo:
        x = todo.pop()
        for n in x.neighbours():
            if n not in seen and m.road(x, n):
                seen.add(n)
                todo.append(n)
    return b in seen


def test_build_configuration_is_cached_and_refuses_other_numbers() -> None:
    assert build_configuration(3) is build_configuration(3)
    with pytest.raises(UnknownName) as e:
        build_configuration(7)
    assert e.value.legal == ("1", "2", "3", "4", "5", "6")


# ------------------------------------------------------------------ seams (M-3.6)


def _face(name: str, streams: list[str] = (), roads: list[tuple[str, str]] = (),  # type: ignore[assignment]
          terrain: dict[str, Terrain] | None = None) -> SectionFace:
    sides = set()
    for token in streams:
        a, d = token.split("/")
        x = h(a)
        sides.add(edge(x, x.neighbour(L.parse_direction(d))))
    return SectionFace(name, "test", {h(k): v for k, v in (terrain or {}).items()},
                       streams=frozenset(sides),
                       roads=frozenset(edge(h(a), h(b)) for a, b in roads))


def test_seam_hexside_is_a_stream_only_if_both_faces_draw_it() -> None:
    plain = _face("Plain")
    top = _face("Top", streams=["A8/S", "C8/S", "B3/N"])
    bottom = _face("Bottom", streams=["C1/N"])
    m = assemble("t", [top, plain, bottom, plain])
    # A8|A9 lies on the seam between top-left and bottom-left: drawn by one face only
    assert not m.stream(h("A8"), h("A9"))
    # C8|C9: both faces draw it
    assert m.stream(h("C8"), h("C9"))
    # B3|B2 is inside the top-left face: its own stream
    assert m.stream(h("B2"), h("B3"))


def test_sides_of_a_seam_hex_belong_to_the_face_whose_full_hex_they_touch() -> None:
    plain = _face("Plain")
    left = _face("Left", streams=["I5/SE"])  # I5 | J5 (half-hex of the left face)
    right = _face("Right", streams=["A3/NW"])  # K3 | J2 (half-hex of the right face)
    m = assemble("t", [left, right, plain, plain])
    assert m.stream(h("I5"), h("J5"))
    assert m.stream(h("K3"), h("J2"))


def test_outer_half_hexes_are_not_on_the_map() -> None:
    m = build_configuration(1)
    assert not m.on_map(L.from_offset(-1, 4)) and not m.on_map(L.from_offset(19, 4))
    assert len(m.hexes) == 19 * 16
    west_exit = h("A5").neighbour(L.parse_direction("SW"))
    assert not m.on_map(west_exit) and not m.road(h("A5"), west_exit)


# ------------------------------------------------------------------ text format

CUSTOM = """\
# a small league map
map Crossing at Dunes
grid
   1 . . F F . . . . . . .
   2 . . F . . M . . H . .
   3 . . . . . . . T T . .
   4 . L . . . . . . . . .
   5 . . . . . . . . . . .
   6 . . . . . . . . . . .
end
road A3 B3 C3 D3 E3 F3 G3 H3 I3 J3 K3
road F3-F4-F5
stream E1/F1 E2/F1 E2/F2 E3/F2 E3/F3 E4/F3
stream E4/SE
bridge E3/F3
objective F4
zone west A1:B6
zone east J1:K6 I6
"""


def test_custom_map_loads_with_every_feature() -> None:
    m = load_map_text(CUSTOM, "dunes.map")
    assert m.name == "Crossing at Dunes" and (m.cols, m.rows) == (11, 6)
    assert m.terrain_at(h("B4")) is Terrain.LAKE and m.terrain_at(h("F2")) is Terrain.MARSH
    assert m.terrain_at(h("H3")) is Terrain.TOWN and m.terrain_at(h("A1")) is Terrain.CLEAR
    assert m.road(h("K3"), h("J3")) and m.road(h("F4"), h("F5"))
    assert m.stream(h("E4"), h("F4")) and m.stream(h("F1"), h("E1"))
    assert m.bridges == {edge(h("E3"), h("F3"))}
    assert m.objectives == (h("F4"),)
    assert labels(m.zones["east"]) == ["I6"] + [f"{c}{r}" for c in "JK" for r in range(1, 7)]
    assert len(m.zones["west"]) == 12


def test_custom_map_without_zones_gets_west_and_east() -> None:
    text = "map Wide\ngrid\n" + ("." * 12 + "\n") * 4 + "end\n"
    m = load_map_text(text)
    assert m.zones == default_zones(12, 4)
    assert {L.to_offset(x)[0] for x in m.zones["east"]} == {7, 8, 9, 10, 11}


def test_layout_maps_use_the_section_faces() -> None:
    text = "map Four Dogs\nlayout dog-2 Dog-1 / DOG-1 dog2\nobjective J8\nzone west A1:C16\n"
    m = load_map_text(text)
    assert [p.face for p in m.sections] == ["Dog-2", "Dog-1", "Dog-1", "Dog-2"]
    assert set(m.zones) == {"west"} and len(m.zones["west"]) == 48
    own = {"Dog-2": section_faces()["Dog-2"], "Dog-1": section_faces()["Dog-1"]}
    with pytest.raises(DataError, match="no section face 'Able-1'"):
        load_map_text("map X\nlayout Able-1 Dog-1 / Dog-1 Dog-2\n", faces=own)


@pytest.mark.parametrize("number", range(1, 7))
def test_configurations_round_trip_through_the_grid_form(number: int) -> None:
    m = build_configuration(number)
    back = load_map_text(format_map_text(m), "round-trip")
    assert map_fields(back) == map_fields(m)


def test_custom_map_round_trips() -> None:
    m = load_map_text(CUSTOM)
    text = format_map_text(m)
    assert map_fields(load_map_text(text)) == map_fields(m)
    assert format_map_text(load_map_text(text)) == text


def _line(text: str, n: int) -> str:
    return text.splitlines()[n - 1]


BAD = [
    # (what, replace this, with this, line, message)
    ("unknown terrain letter", "   2 . . F . . M", "   2 . . F . . X", 5, "'X' at F2 is not a terrain letter"),
    ("ragged grid", "   3 . . . . . . . T T . .", "   3 . . . . . . . T T .", 6, "row 3 has 10 hexes; the grid is 11 wide"),
    ("row number", "   4 . L", "   5 . L", 7, "this is grid row 4, not 5"),
    ("road between non-adjacent hexes", "road F3-F4-F5", "road F3-F5", 12, "road F3 → F5: the hexes are not adjacent"),
    ("road off the map", "road F3-F4-F5", "road F3-F4-F5-F6-F7", 12, "F7 is off the map"),
    ("stream not on a hexside", "stream E4/SE", "stream E4/G4", 14, "E4 and G4 are not adjacent"),
    ("stream on the map edge", "stream E4/SE", "stream A1/N", 14, "is on the edge of the map"),
    ("stream token", "stream E4/SE", "stream E4", 14, "stream 'E4' is not a hexside"),
    ("bridge not on a road", "bridge E3/F3", "bridge E3/F3 E2/F2", 15, "there is no road across"),
    ("bridge not on a stream", "bridge E3/F3", "bridge E3/F3 G3/H3", 15, "there is no stream across"),
    ("road crossing a stream", "bridge E3/F3\n", "", 11, "crosses the stream on that hexside; declare it a bridge"),
    ("objective off the map", "objective F4", "objective F9", 16, "F9 is off the map"),
    ("zone off the map", "zone west A1:B6", "zone west A1:B7", 17, "B7 is off the map"),
    ("zone name", "zone west A1:B6", "zone West A1:B6", 17, "write 'zone <name> <hexes>'"),
    ("unknown keyword", "objective F4", "objectiv F4", 16, "unknown keyword 'objectiv' (did you mean 'objective'?)"),
    ("exit in a whole map", "objective F4", "exit K3/SE", 16, "'exit' is only for section faces"),
    ("bad label", "objective F4", "objective 4F", 16, "'4F' is not a hex label"),
    ("second grid", "objective F4", "grid\n.\nend", 16, "a second grid"),
    ("end without grid", "objective F4", "end", 16, "'end' without a 'grid'"),
]


@pytest.mark.parametrize("what, old, new, line, message", BAD, ids=[b[0] for b in BAD])
def test_map_errors_name_the_line(what: str, old: str, new: str, line: int, message: str) -> None:
    assert old in CUSTOM
    with pytest.raises(DataError) as e:
        load_map_text(CUSTOM.replace(old, new, 1), "dunes.map")
    assert e.value.message.startswith(f"dunes.map line {line}: "), e.value.message
    assert message in e.value.message


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty map text"),
        ("# only a comment\n", "empty map text"),
        ("grid\n..\nend\n", "line 1: the first line must be 'map <name>' or 'section <name>'"),
        ("map\n", "line 1: 'map' needs a name"),
        ("map A\nmap B\n", "line 2: a second 'map' line"),
        ("map A\n", "a map needs a 'grid'"),
        ("map A\ngrid\n...\n", "line 2: the grid has no 'end' line"),
        ("map A\ngrid\nend\n", "line 2: the grid is empty"),
        ("map A\ngrid ...\n", "line 2: the grid rows start on the line after 'grid'"),
        ("map A\nlayout Dog-1 Dog-2 Able-1 Able-2\n", "line 2: write the layout as"),
        ("map A\nlayout Dog-1 Dog-2 / Able-1 Easy-2\n", "line 2: there is no section face 'Easy-2'"),
        ("map A\nlayout Dog-1 Dog-2 / Able-1 Able-2\ngrid\n.\nend\n", "either a grid or a layout"),
        ("map A\nlayout Dog-1 Dog-2 / Able-1 Able-2\nroad J5 J6\n", "line 3: 'road' belongs in"),
        ("map A\nlayout Dog-1 Dog-2 / Able-1 Able-2\nobjective T1\n", "line 3: T1 is off the map"),
        ("map A\ngrid\n.....\nend\n", "too narrow for the default zones"),
        ("section Able-1\ngrid\n.........\nend\n", "this is a section face"),
        ("map A\ngrid\n...........\nend\nobjective\n", "line 5: 'objective' needs at least one hex"),
    ],
)
def test_more_map_errors(text: str, message: str) -> None:
    with pytest.raises(DataError) as e:
        load_map_text(text, "m")
    assert message in e.value.message


FACE = section_faces()


def _face_text(**changes: str) -> str:
    from importlib import resources

    text = resources.files("engine.minis").joinpath("data/maps/able-1.map").read_text("utf-8")
    for old, new in changes.items():
        assert old.replace("_", " ") in text
        text = text.replace(old.replace("_", " "), new)
    return text


def test_section_face_text_errors() -> None:
    assert load_section_text(_face_text(), "able-1.map").streams == FACE["Able-1"].streams
    small = "section Able-1\ngrid\n" + "........\n" * 8 + "end\n"
    with pytest.raises(DataError, match=r"line 2: a section face is 9 columns × 8 rows, not 8 × 8"):
        load_section_text(small, "able-1.map")
    with pytest.raises(DataError, match=r"line 18: exit E2/N stays on the face; use 'road E2 E1'"):
        load_section_text(_face_text(**{"exit A5/SW": "exit E2/N A5/SW"}), "able-1.map")
    with pytest.raises(DataError, match="a section face has no objective"):
        load_section_text(_face_text() + "objective E4\n", "able-1.map")
    with pytest.raises(DataError, match="this is a whole map"):
        load_section_text(CUSTOM, "x")
    with pytest.raises(DataError, match="line 21: bridge E5/F5 is not on a stream and a road"):
        load_section_text(_face_text(**{"road E1 E2 E3 E4 E5": "road E1 E2 E3 E4"}).replace(
            "road A5 B5 C5 D5 E5 F5 G5 H5 I5", "road A5 B5 C5 D5 E5"), "able-1.map")


# ------------------------------------------------------------------ properties

letters = st.sampled_from(list(".HFTML"))


@st.composite
def grid_maps(draw: st.DrawFn) -> str:
    cols, rows = draw(st.integers(11, 16)), draw(st.integers(3, 8))
    grid = [[draw(letters) for _ in range(cols)] for _ in range(rows)]
    lines = ["map Random", "grid"] + [" ".join(r) for r in grid] + ["end"]
    hexes = [L.from_offset(c, r) for c in range(cols) for r in range(rows)]
    inside = set(hexes)
    roads, streams = set(), set()
    for _ in range(draw(st.integers(0, 8))):
        a = draw(st.sampled_from(hexes))
        b = a.neighbour(draw(st.integers(0, 5)))
        if b in inside:
            if draw(st.booleans()):
                roads.add(edge(a, b))
            else:
                streams.add(edge(a, b))
    for a, b in sorted(roads):
        lines.append(f"road {L.label(a)} {L.label(b)}")
    for a, b in sorted(streams):
        lines.append(f"stream {L.label(a)}/{L.label(b)}")
    for a, b in sorted(roads & streams):
        lines.append(f"bridge {L.label(a)}/{L.label(b)}")
    lines.append(f"objective {L.label(draw(st.sampled_from(hexes)))}")
    return "\n".join(lines) + "\n"


@given(grid_maps())
@settings(max_examples=60, deadline=None)
def test_random_maps_round_trip(text: str) -> None:
    m = load_map_text(text)
    assert map_fields(load_map_text(format_map_text(m))) == map_fields(m)


@given(st.lists(st.sampled_from(
    ["map X", "section S", "grid", "end", ". . F", "...........", "road A1 B1", "road A1 C1",
     "stream A1/B1", "stream A1/N", "bridge A1/B1", "exit A1/N", "objective B2", "zone west A1",
     "layout Dog-1 Dog-2 / Able-1 Able-2", "about x", "zone", "junk", "# c", ""]),
    max_size=12))
@settings(max_examples=200, deadline=None)
def test_any_text_gives_a_map_or_a_player_error(lines: list[str]) -> None:
    try:
        m = load_map_text("\n".join(lines))
    except PlayerError:
        return
    assert isinstance(m, BattleMap)
