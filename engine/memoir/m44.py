"""Import of the Memoir '44 Scenario Editor's ``.m44`` files (base game only).

A ``.m44`` file is one JSON object (``game_info``, ``board``, ``text``, ``packs``…).  Its
hexes are ``{row, col}`` with row 0 on top and a doubled column, so ``(row, col)`` is the
hex named ``chr(ord('A') + col // 2) + str(row + 1)``.  Player 1 sits at the top.

What imports: the STANDARD board on the countryside or beach face; hills, woods,
buildings (towns), hedgerows, rivers and river bends, bridges and bunkers; sandbags,
wire and hedgehogs; infantry, armor and artillery of any nation's figures (``inf``,
``tank``, ``gun`` with the suffixes us/brit/ru = Allies, ger/jp = Axis; ``inf2`` =
Special Forces, ``tank2`` = elite armor); medal tags (1, 4, 6 for the Allies; 2, 5, 7 for
the Axis; 0 for either) as 1-medal temporary objectives (permanent when the tag says so);
battle stars (ignored).  Anything else — expansion terrain, units, tags, board sizes or
faces — is refused with a message naming every item that is not supported.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core.errors import DataError
from engine.core.hexgrid import Hex
from engine.memoir.board import LABELS, on_board
from engine.memoir.scenario import Objective, Scenario, UnitSpec, _slugify, check_scenario

TERRAIN = {"hills": "hill", "woods": "forest", "buildings": "town", "hedgerow": "hedgerow", "river": "river",
           "curve": "river"}
RECT = {"bunker": "bunker", "bridge": "bridge"}
OBSTACLES = {"sand": "sandbags", "wire": "wire", "hedgehog": "hedgehog"}
UNIT_PREFIX = {"inf": ("infantry", None), "inf2": ("infantry", "special-forces"), "tank": ("armor", None),
               "tank2": ("armor", "elite"), "gun": ("artillery", None)}
NATIONS = {"us": "allies", "brit": "allies", "ru": "allies", "ger": "axis", "jp": "axis"}
MEDALS = {"medal1": "allies", "medal4": "allies", "medal6": "allies", "medal2": "axis", "medal5": "axis",
          "medal7": "axis", "medal0": "both"}
IGNORED_TAGS = {"tag1"}  # battle star: a reminder on the board, no rule
FACES = {"COUNTRY": "countryside", "BEACH": "beach"}


def _up(value: Any) -> str:
    return str(value or "").strip().upper()


def _items(value: Any) -> list[Any]:
    if isinstance(value, Mapping) and "item" in value:
        value = value["item"]
    if isinstance(value, Mapping):
        return [value]
    return list(value or [])


def _side(info: Mapping[str, Any], player: str) -> str:
    side = _up(info.get(f"side_{player}"))
    if side not in ("AXIS", "ALLIES"):
        raise DataError(f"game_info.side_{player} must be AXIS or ALLIES, not {info.get(f'side_{player}')!r}.")
    return side.lower()


def _number(info: Mapping[str, Any], key: str) -> int:
    try:
        value = int(info[key])
    except (KeyError, TypeError, ValueError):
        raise DataError(f"game_info.{key} is missing or not a number.") from None
    if not 1 <= value <= 12:
        raise DataError(f"game_info.{key} must be from 1 to 12, not {value}.")
    return value


def scenario_from_m44(doc: Mapping[str, Any]) -> Scenario:
    if not isinstance(doc, Mapping):
        raise DataError("A .m44 file is one JSON object.")
    info = doc.get("game_info")
    board = doc.get("board")
    if not isinstance(info, Mapping) or not isinstance(board, Mapping):
        raise DataError("Not a .m44 scenario: it needs \"game_info\" and \"board\".")
    unsupported: list[str] = []
    btype = _up(board.get("type") or "STANDARD")
    if btype != "STANDARD":
        unsupported.append(f"board type {btype} (only the standard 13x9 board)")
    face_raw = _up(board.get("face") or "COUNTRY")
    face = FACES.get(face_raw)
    if face is None:
        unsupported.append(f"board face {face_raw}")
        face = "countryside"
    top = _side(info, "player1")
    bottom = _side(info, "player2")
    if top == bottom:
        raise DataError("Both players of the .m44 file are on the same side.")
    starting = _up(info.get("starting") or "PLAYER1")
    if starting not in ("PLAYER1", "PLAYER2"):
        unsupported.append(f"starting player {starting}")
        starting = "PLAYER1"
    first = top if starting == "PLAYER1" else bottom
    cards = {top: _number(info, "cards_player1"), bottom: _number(info, "cards_player2")}
    medals = {top: _number(info, "victory_player1"), bottom: _number(info, "victory_player2")}

    merged: dict[tuple[int, int], dict[str, Any]] = {}
    for entry in _items(board.get("hexagons")):
        if not isinstance(entry, Mapping):
            continue
        try:
            row, col = int(entry["row"]), int(entry["col"])
        except (KeyError, TypeError, ValueError):
            raise DataError(f"A hexagon without row/col: {entry!r}.") from None
        slot = merged.setdefault((row, col), {"tags": []})
        for key in ("terrain", "rect_terrain", "obstacle", "unit"):
            if entry.get(key):
                slot[key] = entry[key]
        slot["tags"] += _items(entry.get("tags"))

    terrain: dict[Hex, str] = {}
    obstacles: dict[Hex, tuple[str, str | None]] = {}
    units: list[UnitSpec] = []
    objectives: list[Objective] = []
    bunker_owner: dict[Hex, str | None] = {}
    for (row, col), slot in sorted(merged.items()):
        if row % 2 != col % 2:
            raise DataError(f"Hexagon row {row}, col {col}: the column must have the row's parity.")
        h = LABELS.from_offset(col // 2, row)
        where = f"{LABELS.label(h)} (row {row}, col {col})"
        if not on_board(h):
            unsupported.append(f"hexagon {where} off the standard board")
            continue
        t = slot.get("terrain")
        if t:
            name = str(t.get("name", "")).strip()
            if name.lower() in TERRAIN:
                terrain[h] = TERRAIN[name.lower()]
            else:
                unsupported.append(f"terrain '{name}' on {where}")
        r = slot.get("rect_terrain")
        if r:
            name = str(r.get("name", "")).strip()
            key = name.lower()
            if key == "bridge":
                terrain[h] = "bridge"
            elif key == "bunker":
                owner = r.get("original_owner") or slot.get("original_owner")
                bunker_owner[h] = str(owner).lower() if _up(owner) in ("AXIS", "ALLIES") else None
                obstacles[h] = ("bunker", None)
            else:
                unsupported.append(f"'{name}' on {where}")
        o = slot.get("obstacle")
        if o:
            name = str(o.get("name", "")).strip()
            if name.lower() in OBSTACLES:
                if h in obstacles:
                    unsupported.append(f"two obstacles on {where}")
                else:
                    obstacles[h] = (OBSTACLES[name.lower()], None)
            else:
                unsupported.append(f"obstacle '{name}' on {where}")
        u = slot.get("unit")
        if u:
            name = str(u.get("name", "")).strip().lower()
            spec = _unit(name)
            if spec is None:
                unsupported.append(f"unit '{u.get('name')}' on {where}")
            else:
                typ, badge, side = spec
                figures = u.get("nbr_units")
                n: int | None = None
                if figures not in (None, ""):
                    try:
                        n = int(figures)
                    except (TypeError, ValueError):
                        raise DataError(f"The unit on {where} has nbr_units {figures!r}.") from None
                units.append(UnitSpec(h, side, typ, badge, n))
        for tag in slot["tags"]:
            name = str(tag.get("name", "") if isinstance(tag, Mapping) else tag).strip().lower()
            if name in MEDALS:
                med = tag.get("medal") if isinstance(tag, Mapping) else None
                kind = "temporary"
                worth = 1
                if isinstance(med, Mapping):
                    if med.get("majority") or med.get("turn_start") or med.get("last_to_occupy") \
                            or med.get("sole_control"):
                        unsupported.append(f"medal rule on {where} (majority/turn-start/last-to-occupy)")
                    if med.get("permanent"):
                        kind = "permanent"
                    if med.get("counts_for") not in (None, ""):
                        try:
                            worth = int(med["counts_for"])
                        except (TypeError, ValueError):
                            worth = 1
                objectives.append(Objective(h, MEDALS[name], kind, worth))
            elif name not in IGNORED_TAGS:
                unsupported.append(f"tag '{name}' on {where}")
    # bunkers without a recorded owner belong to the side of the unit on them, else nobody
    by_hex = {u.hex: u.side for u in units}
    for h, (kind, _) in list(obstacles.items()):
        if kind == "bunker":
            obstacles[h] = ("bunker", bunker_owner.get(h) or by_hex.get(h))
    if unsupported:
        shown = sorted(set(unsupported))
        raise DataError("This .m44 scenario uses what the base game engine does not support: "
                        + "; ".join(shown[:12]) + (f" (and {len(shown) - 12} more)" if len(shown) > 12 else "")
                        + ".")
    text = doc.get("text") or {}
    loc: Mapping[str, Any] = {}
    if isinstance(text, Mapping) and text:
        loc = text.get("en") or next(iter(text.values()))
        if not isinstance(loc, Mapping):
            loc = {}
    name = str(loc.get("name") or "Imported scenario").strip()
    brief = " ".join(str(loc.get(k) or "").strip() for k in ("description", "rules", "victory")).strip()
    sc = Scenario(name=name, slug=_slugify(name) or "imported", face=face, top=top, first=first,
                  cards=(cards["axis"], cards["allies"]), medals=(medals["axis"], medals["allies"]),
                  terrain=tuple(sorted(terrain.items())),
                  obstacles=tuple(sorted((h, k, o) for h, (k, o) in obstacles.items())),
                  units=tuple(units), objectives=tuple(objectives), briefing=brief, source="m44")
    check_scenario(sc)
    return sc


def _unit(name: str) -> tuple[str, str | None, str] | None:
    for suffix, side in NATIONS.items():
        if name.endswith(suffix):
            prefix = name[: -len(suffix)]
            if prefix in UNIT_PREFIX:
                typ, badge = UNIT_PREFIX[prefix]
                return typ, badge, side
    return None
