"""No overlapping labels: at the stacking maximum (M-6.2: two units per side, at most
one Vehicle, which may carry a passenger, M-15) every unit number, counter and marker
in a hex has its own box, and a full hex never touches its neighbours' tokens."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hexgrid import Hex
from engine.minis.model import ALLIES, AXIS
from engine.minis.state import Hit, UnitState
from render.core.canvas import Drawn, boxes_overlap
from render.core.legibility import problems
from render.minis import render_board
from render.minis.board import overlapping
from render.minis.sample import demo_state
from render_helpers import CARDS, L, ascii_map, hx, make_state, unit

LABEL_KINDS = ("unit-id", "hex-label", "pip-passenger", "pip-disrupted", "pip-damaged", "pip-hit",
               "overlay-label", "overlay-fire", "title", "legend", "roster", "roster-head", "frame-column", "frame-row")


def readable_overlaps(items: tuple[Drawn, ...]) -> list[tuple[Drawn, Drawn]]:
    """Overlapping label boxes, except a hex label drawn again on top of a marker (a
    facing wedge or a fire burst) with a halo: it stays readable."""
    order = {id(it): i for i, it in enumerate(items)}
    out = []
    for a, b in overlapping(items, LABEL_KINDS):
        first, later = (a, b) if order[id(a)] < order[id(b)] else (b, a)
        if later.kind == "hex-label" and first.kind == "overlay-fire":
            continue
        out.append((a, b))
    return out


def _worst_full_hex(where: str, base: int = 10) -> list[UnitState]:
    """Four units in one hex with the widest content: two-digit ids, a Vehicle carrying a
    passenger with face-up Disrupted and Damaged and two face-down hits (M-9.1 allows
    two for a damaged Vehicle), Soldiers with a face-up Disrupted and two face-down hits."""
    return [
        unit(f"ax{base}", "rifle-ax", where, disrupted=True, hits=(Hit.DISRUPTED, Hit.DESTROYED)),
        unit(f"ax{base + 1}", "mg-ax", where, disrupted=True, hits=(Hit.DISRUPTED,)),
        unit(f"al{base}", "tank-al", where, facing=2, disrupted=True, damaged=True,
             hits=(Hit.DISRUPTED, Hit.DESTROYED)),
        unit(f"al{base + 1}", "rifle-al", where, disrupted=True, hits=(Hit.DISRUPTED, Hit.DISRUPTED)),
        unit(f"al{base + 2}", "bazooka-al", where, carried_by=f"al{base}"),
    ]


def _in_hex(items: tuple[Drawn, ...], h: Hex) -> list[Drawn]:
    return [it for it in items if it.hex == h and it.kind in LABEL_KINDS]


def test_full_hex_labels_do_not_overlap() -> None:
    m = ascii_map([". . .", ". . .", ". . ."])
    out = render_board(make_state(m, _worst_full_hex("B2")))
    items = _in_hex(out.items, hx("B2"))
    kinds = sorted(it.kind for it in items)
    assert kinds.count("unit-id") == 4 and "pip-passenger" in kinds and "pip-damaged" in kinds
    assert "hex-label" not in kinds  # a full hex covers its label (listed in the roster)
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            assert not boxes_overlap(a.box, b.box), (a, b)
    # every number and counter sits inside its own token
    tokens = {it.owner: it.box for it in out.items if it.kind == "token" and it.hex == hx("B2")}
    for it in items:
        x0, y0, x1, y1 = tokens[it.owner]
        assert x0 <= it.box[0] and it.box[2] <= x1 and y0 <= it.box[1] and it.box[3] <= y1, it


def test_tokens_of_neighbouring_full_hexes_never_touch() -> None:
    """Every hex of a block full to the stacking limit with the widest tokens: no token
    box meets another one."""
    m = ascii_map([". . . . .", ". . . . .", ". . . . .", ". . . . ."])
    units: list[UnitState] = []
    for i, h in enumerate(sorted(m.hexes)):
        units += _worst_full_hex(L.label(h), base=10 + 3 * i)
    out = render_board(make_state(m, units), legend=False, roster=False)
    tokens = [it for it in out.items if it.kind == "token"]
    assert len(tokens) == 4 * len(m.hexes)
    for i, a in enumerate(tokens):
        for b in tokens[i + 1:]:
            assert not boxes_overlap(a.box, b.box), (a.owner, b.owner)


unit_counters = st.tuples(st.booleans(), st.booleans(),
                          st.lists(st.sampled_from([Hit.DISRUPTED, Hit.DAMAGED, Hit.DESTROYED]), max_size=3))


def legal_full_hex(where: str, numbers: list[int], counters: list[tuple[bool, bool, list[Hit]]],
                   vehicle_slot: int, passenger: bool, facing: int) -> list[UnitState]:
    """Two units a side in ``where``, one of them a Vehicle (M-6.2), maybe carrying a
    passenger (M-15), each with the given face-up and face-down counters."""
    sides = [AXIS, AXIS, ALLIES, ALLIES]
    units = []
    for i, (side, n, (dis, dmg, hits)) in enumerate(zip(sides, numbers, counters)):
        prefix = "ax" if side == AXIS else "al"
        vehicle = i == vehicle_slot
        card = ("tank-ax" if side == AXIS else "tank-al") if vehicle else ("rifle-ax" if side == AXIS else "rifle-al")
        units.append(UnitState(f"{prefix}{n}", card, side, hx(where), facing if vehicle else None, dis,
                               dmg and vehicle, tuple(hits)))
    if passenger:
        carrier = units[vehicle_slot]
        units.append(UnitState(f"{carrier.id[:2]}99", "rifle-ax" if carrier.side == AXIS else "rifle-al",
                               carrier.side, hx(where), carried_by=carrier.id))
    return units


full_hexes = st.tuples(st.lists(st.integers(1, 15), min_size=4, max_size=4, unique=True),
                       st.lists(unit_counters, min_size=4, max_size=4), st.integers(0, 3), st.booleans(),
                       st.integers(0, 5))


@settings(max_examples=40, deadline=None)
@given(full_hexes)
def test_any_legal_full_hex_keeps_labels_apart(args: tuple[list[int], list[tuple[bool, bool, list[Hit]]], int, bool,
                                                           int]) -> None:
    units = legal_full_hex("B2", *args)
    m = ascii_map([". . .", ". . .", ". . ."])
    out = render_board(make_state(m, units), legend=False, roster=False)
    items = _in_hex(out.items, hx("B2"))
    assert sum(it.kind == "unit-id" for it in items) == 4
    for i, a in enumerate(items):
        for b in items[i + 1:]:
            assert not boxes_overlap(a.box, b.box), (a, b)


def test_no_text_overlaps_anywhere_in_the_demo_battle() -> None:
    out = render_board(demo_state())
    assert readable_overlaps(out.items) == []


def test_cards_used_by_the_helpers_exist() -> None:
    assert {"rifle-ax", "mg-ax", "tank-al", "rifle-al", "bazooka-al"} <= set(CARDS)


WIDE = ascii_map([". " * 19] * 16)


@settings(max_examples=30, deadline=None)
@given(full_hexes)
def test_any_legal_full_hex_reads_on_a_phone(args: tuple[list[int], list[tuple[bool, bool, list[Hit]]], int, bool,
                                                         int]) -> None:
    """On a standard-width map (19 columns, shown at 57 %), any legal full hex keeps every
    unit number ≥ 5 px and every counter ≥ 3 px on the phone (hits stack when needed),
    and the hits shown add up to the unit's face-down counters."""
    units = legal_full_hex("J8", *args)
    out = render_board(make_state(WIDE, units), legend=False, roster=False)
    assert out.image.width > 900
    mine = [it for it in out.items if it.hex == hx("J8")]
    assert problems(mine, out.image.width) == []
    for u in units[:4]:
        shown = sum(int(it.text or 1) for it in mine if it.owner == u.id and it.kind == "pip-hit")
        assert shown == len(u.hits)
