"""The A&A Miniatures unit catalogue: stat cards as data (docs/units.md).

The built-in cards live in ``engine/minis/data/units.json`` (revised card values, with
the 2005 printed cost where known).  A league can add its own cards in the same JSON
format; every field is validated and a bad file is refused with a
:class:`~engine.core.errors.DataError` naming the card, the field and what is allowed.

Ability *names* are a contract with the rules: each name in :data:`KNOWN_ABILITIES` is
implemented by exactly one rule (M-14).  The card's ``text`` is our own one-line
paraphrase of what the ability does.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator, Mapping

from engine.core.errors import DataError, UnknownName
from engine.minis.model import ALLIES, AXIS, SIDES, Ability, Attack, UnitCard, UnitType
from engine.core.documents import MAX_DEPTH, nesting_depth

FORMAT = "warroom-minis-units"
FORMAT_VERSION = 1

KNOWN_ABILITIES: tuple[str, ...] = (
    "Close Assault",
    "Hand to Hand",
    "Coordinated Fire",
    "Bravery Enforcement",
    "Tally-Ho!",
    "Pinpointer",
    "Exert Will",
    "Banzai Charge",
    "Transport",
    "Exposed Transport",
    "Gun Transport",
    "Fighting Platform",
    "Blast",
    "Bombardment",
    "Indirect Fire",
    "Fixed Howitzer",
    "Open Back",
    "Enhanced Range",
    "Extended Range",
    "Armor-Piercing Rounds",
    "Superior Armor",
    "Heavy Armor",
    "Sideskirts",
    "Overrun",
    "Overheat",
    "Double Shot",
    "Suppressive Fire",
    "Gung Ho",
    "Forest Camouflage",
    "Weak Suspension",
    "Trench Crossing",
    "All Guns Blazing",
    "Strike and Fade",
    "Relocate",
    "High Gear",
    "Seasoned Crew",
    "Ruthless",
    "Fanatic",
    "Command Dependent",
    "Urban Combat",
    "Shrapnel",
    "Inaccurate",
    "Hull-Mounted Flamethrower",
    "Tall Silhouette",
    "Additional Hull-Mounted Cannon",
    "Bridge Demolition",
    "Excellent Suspension",
    "Highly Flammable",
    "Overlapping Fire",
    "Limited Range",
)

# Abilities printed with a number ("Close Assault 7"); every other ability has none.
NUMBERED_ABILITIES: frozenset[str] = frozenset(
    {
        "Close Assault",
        "Hand to Hand",
        "Enhanced Range",
        "Extended Range",
        "Superior Armor",
        "Strike and Fade",
        "Relocate",
        "High Gear",
        "Shrapnel",
        "Inaccurate",
        "Limited Range",
    }
)

# Abilities that attack with dice of their own, stored on the ability as
# ``vs_soldier`` / ``vs_vehicle`` (at least one of them is required).
ATTACK_ABILITIES: frozenset[str] = frozenset({"Additional Hull-Mounted Cannon"})

# Command effects only work on a Commander card (M-14.5).
COMMAND_EFFECTS: frozenset[str] = frozenset(
    {"Bravery Enforcement", "Tally-Ho!", "Pinpointer", "Exert Will", "Banzai Charge"}
)

# Nations of the catalogue and their side (M-1.4).  Other nations may be used by custom
# cards; their side is then taken as written.
NATIONS: Mapping[str, str] = {
    "USA": ALLIES,
    "UK": ALLIES,
    "USSR": ALLIES,
    "France": ALLIES,
    "China": ALLIES,
    "Canada": ALLIES,
    "Australia": ALLIES,
    "Poland": ALLIES,
    "Germany": AXIS,
    "Italy": AXIS,
    "Japan": AXIS,
    "Romania": AXIS,
    "Hungary": AXIS,
    "Finland": AXIS,
}

KNOWN_SUBTYPES: Mapping[UnitType, tuple[str, ...]] = {
    UnitType.SOLDIER: (
        "Artillery", "Commander", "Cavalry", "Motorcycle", "Paratrooper", "Sniper",
        "Spotter", "Hero",
    ),
    UnitType.VEHICLE: (
        "Tank", "Tank Destroyer", "Assault Gun", "Artillery", "Half-Track", "Armored Car",
        "Car", "Truck", "Spotter",
    ),
}

COST_SETS: tuple[str, ...] = ("revised", "2005")

_FIELDS_REQUIRED = (
    "key", "name", "nation", "side", "type", "year", "cost", "speed", "defense",
    "vs_soldier", "vs_vehicle",
)
_FIELDS_OPTIONAL = ("short_name", "subtype", "cost_2005", "abilities", "initiative", "notes")
_ABILITY_FIELDS = ("name", "value", "text", "vs_soldier", "vs_vehicle")
_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SHORT_NAME_MAX = 12
_MAX_DICE = 40


def _where(key: str | None, field: str) -> str:
    return f"card '{key}', field '{field}'" if key else f"field '{field}'"


def _int(d: Mapping[str, Any], field: str, key: str | None, lo: int, hi: int) -> int:
    v = d[field]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise DataError(
            f"{_where(key, field)}: {json.dumps(v)} is not allowed.",
            legal=(f"a whole number from {lo} to {hi}",),
        )
    return v


def _str(d: Mapping[str, Any], field: str, key: str | None, max_len: int) -> str:
    v = d[field]
    if not isinstance(v, str) or not v.strip() or len(v) > max_len:
        raise DataError(
            f"{_where(key, field)}: {json.dumps(v)} is not allowed.",
            legal=(f"a non-empty text of at most {max_len} characters",),
        )
    return v


def _attack(v: Any, key: str | None, field: str) -> Attack:
    legal = ("a list of 3 entries [short, medium, long], each a number of dice from 1 to "
             f"{_MAX_DICE} or null where it cannot attack, e.g. [9, 9, 7] or [2, null, null]",)
    if not isinstance(v, list) or len(v) != 3:
        raise DataError(f"{_where(key, field)}: {json.dumps(v)} is not allowed.", legal=legal)
    out: list[int | None] = []
    for x in v:
        if x is None:
            out.append(None)
        elif isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= _MAX_DICE:
            raise DataError(
                f"{_where(key, field)}: {json.dumps(x)} dice is not allowed"
                + (" (write null for a range it cannot attack at)." if x == 0 else "."),
                legal=legal,
            )
        else:
            out.append(x)
    return (out[0], out[1], out[2])


def _unknown_fields(d: Mapping[str, Any], allowed: tuple[str, ...], what: str) -> None:
    for f in d:
        if f not in allowed:
            close = difflib.get_close_matches(f, allowed, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise DataError(f"{what}: unknown field '{f}'{hint}.", legal=allowed)


def _ability_from_dict(d: Any, key: str | None) -> Ability:
    if not isinstance(d, dict):
        raise DataError(
            f"{_where(key, 'abilities')}: each ability must be an object, not {json.dumps(d)}.",
            legal=('{"name": "Close Assault", "value": 7, "text": "…"}',),
        )
    what = f"card '{key}', ability" if key else "ability"
    _unknown_fields(d, _ABILITY_FIELDS, what)
    name = d.get("name")
    if name not in KNOWN_ABILITIES:
        close = difflib.get_close_matches(str(name), KNOWN_ABILITIES, n=3, cutoff=0.5)
        raise DataError(
            f"{what} {json.dumps(name)} is not a known ability.",
            legal=close or KNOWN_ABILITIES,
        )
    value = d.get("value")
    if name in NUMBERED_ABILITIES:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 40:
            raise DataError(
                f"{what} '{name}' needs a number ('value'), not {json.dumps(value)}.",
                legal=("a whole number from 1 to 40, as printed after the name",),
            )
    elif value is not None:
        raise DataError(
            f"{what} '{name}' takes no number, but has value {json.dumps(value)}.",
            legal=tuple(sorted(NUMBERED_ABILITIES)),
        )
    text = d.get("text", "")
    if not isinstance(text, str) or len(text) > 300:
        raise DataError(f"{what} '{name}': text must be a string of at most 300 characters.")
    vs_s = _attack(d["vs_soldier"], key, f"{name}.vs_soldier") if "vs_soldier" in d else None
    vs_v = _attack(d["vs_vehicle"], key, f"{name}.vs_vehicle") if "vs_vehicle" in d else None
    if name in ATTACK_ABILITIES and vs_s is None and vs_v is None:
        raise DataError(
            f"{what} '{name}' needs its own attack numbers.",
            legal=('"vs_vehicle": [12, 10, 8] and/or "vs_soldier": [...]',),
        )
    if name not in ATTACK_ABILITIES and (vs_s is not None or vs_v is not None):
        raise DataError(
            f"{what} '{name}' does not attack with dice of its own.",
            legal=tuple(sorted(ATTACK_ABILITIES)),
        )
    return Ability(name, value, text, vs_s, vs_v)


def card_from_dict(d: Mapping[str, Any]) -> UnitCard:
    """One card from its JSON object (docs/units.md), validated field by field."""
    if not isinstance(d, dict):
        raise DataError(f"a card must be a JSON object, not {json.dumps(d)[:40]}.")
    raw_key = d.get("key")
    key = raw_key if isinstance(raw_key, str) else None
    _unknown_fields(d, _FIELDS_REQUIRED + _FIELDS_OPTIONAL, f"card '{key}'" if key else "card")
    for f in _FIELDS_REQUIRED:
        if f not in d:
            raise DataError(f"{_where(key, f)}: missing.", legal=_FIELDS_REQUIRED)
    if not isinstance(raw_key, str) or not _KEY.match(raw_key) or len(raw_key) > 40:
        raise DataError(
            f"field 'key': {json.dumps(raw_key)} is not allowed.",
            legal=("lower-case letters, digits and single hyphens, at most 40 characters, "
                   "e.g. 'm4a1-sherman'",),
        )
    name = _str(d, "name", key, 60)
    short = d.get("short_name")
    if short is None:
        short = name[:SHORT_NAME_MAX].strip()
    elif not isinstance(short, str) or not short.strip() or len(short) > SHORT_NAME_MAX:
        raise DataError(
            f"{_where(key, 'short_name')}: {json.dumps(short)} is not allowed.",
            legal=(f"a non-empty text of at most {SHORT_NAME_MAX} characters",),
        )
    nation = _str(d, "nation", key, 30)
    side = d["side"]
    if side not in SIDES:
        raise DataError(f"{_where(key, 'side')}: {json.dumps(side)} is not allowed.", legal=SIDES)
    if nation in NATIONS and NATIONS[nation] != side:
        raise DataError(
            f"{_where(key, 'side')}: {nation} fights for the {NATIONS[nation]}, not the {side}.",
            legal=(NATIONS[nation],),
        )
    try:
        utype = UnitType(d["type"])
    except ValueError:
        raise DataError(
            f"{_where(key, 'type')}: {json.dumps(d['type'])} is not allowed.",
            legal=tuple(t.value for t in UnitType),
        ) from None
    subtype = d.get("subtype")
    if subtype is not None and subtype not in KNOWN_SUBTYPES[utype]:
        raise DataError(
            f"{_where(key, 'subtype')}: {json.dumps(subtype)} is not a {utype.value} subtype.",
            legal=("null",) + KNOWN_SUBTYPES[utype],
        )
    year = _int(d, "year", key, 1930, 1950)
    cost = _int(d, "cost", key, 0, 999)
    cost_2005 = _int(d, "cost_2005", key, 0, 999) if d.get("cost_2005") is not None else None
    speed = _int(d, "speed", key, 0, 12)
    defense = d["defense"]
    if (
        not isinstance(defense, list)
        or len(defense) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 20 for x in defense)
    ):
        raise DataError(
            f"{_where(key, 'defense')}: {json.dumps(defense)} is not allowed.",
            legal=("[front, rear], whole numbers from 1 to 20, e.g. [5, 4]; Soldiers repeat "
                   "the same number, e.g. [4, 4]",),
        )
    vs_soldier = _attack(d["vs_soldier"], key, "vs_soldier")
    vs_vehicle = _attack(d["vs_vehicle"], key, "vs_vehicle")
    raw_abilities = d.get("abilities", [])
    if not isinstance(raw_abilities, list):
        raise DataError(f"{_where(key, 'abilities')}: must be a list of ability objects.")
    abilities = tuple(_ability_from_dict(a, key) for a in raw_abilities)
    seen: set[str] = set()
    for a in abilities:
        if a.name in seen:
            raise DataError(f"card '{key}': ability '{a.name}' is listed twice.")
        seen.add(a.name)
    initiative = _int(d, "initiative", key, 0, 6) if "initiative" in d else 0
    if initiative and subtype != "Commander":
        raise DataError(
            f"{_where(key, 'initiative')}: only a Commander has an initiative bonus (M-5.1).",
            legal=("subtype 'Commander'", "initiative 0"),
        )
    for a in abilities:
        if a.name in COMMAND_EFFECTS and subtype != "Commander":
            raise DataError(
                f"card '{key}': '{a.name}' is a command effect and needs subtype 'Commander'."
            )
    notes = d.get("notes", "")
    if not isinstance(notes, str):
        raise DataError(f"{_where(key, 'notes')}: must be a text.")
    return UnitCard(
        key=raw_key,
        name=name,
        nation=nation,
        side=side,
        type=utype,
        subtype=subtype,
        year=year,
        cost=cost,
        speed=speed,
        defense_front=defense[0],
        defense_rear=defense[1],
        vs_soldier=vs_soldier,
        vs_vehicle=vs_vehicle,
        abilities=abilities,
        initiative=initiative,
        cost_2005=cost_2005,
        short_name=short,
        notes=notes,
    )


def _attack_list(a: Attack) -> list[int | None]:
    return list(a)


def card_to_dict(card: UnitCard) -> dict[str, Any]:
    """The JSON object of a card (inverse of :func:`card_from_dict`)."""
    abilities: list[dict[str, Any]] = []
    for a in card.abilities:
        ad: dict[str, Any] = {"name": a.name}
        if a.value is not None:
            ad["value"] = a.value
        ad["text"] = a.text
        if a.vs_soldier is not None:
            ad["vs_soldier"] = _attack_list(a.vs_soldier)
        if a.vs_vehicle is not None:
            ad["vs_vehicle"] = _attack_list(a.vs_vehicle)
        abilities.append(ad)
    out: dict[str, Any] = {
        "key": card.key,
        "name": card.name,
        "short_name": card.short_name,
        "nation": card.nation,
        "side": card.side,
        "type": card.type.value,
        "subtype": card.subtype,
        "year": card.year,
        "cost": card.cost,
        "cost_2005": card.cost_2005,
        "speed": card.speed,
        "defense": [card.defense_front, card.defense_rear],
        "vs_soldier": _attack_list(card.vs_soldier),
        "vs_vehicle": _attack_list(card.vs_vehicle),
        "abilities": abilities,
    }
    if card.initiative:
        out["initiative"] = card.initiative
    out["notes"] = card.notes
    return out


def _normal(text: str) -> str:
    """Lower-case ASCII letters and digits only: 'SS-Hauptsturmführer' → 'sshauptsturmfuhrer'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", ascii_text.lower())


class Catalogue(Mapping[str, UnitCard]):
    """An immutable set of unit cards by key, in file order, with forgiving look-up."""

    def __init__(
        self,
        cards: tuple[UnitCard, ...] | list[UnitCard],
        *,
        cost_set: str = "revised",
        cost_fallbacks: tuple[str, ...] = (),
    ) -> None:
        by_key: dict[str, UnitCard] = {}
        for c in cards:
            if c.key in by_key:
                raise DataError(f"card '{c.key}' is defined twice; keys must be unique.")
            by_key[c.key] = c
        self._cards = by_key
        self.cost_set = cost_set
        # Keys whose 2005 cost is unknown, so the "2005" set uses the revised cost.
        self.cost_fallbacks = cost_fallbacks

    def __getitem__(self, key: str) -> UnitCard:
        return self._cards[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"<Catalogue {len(self)} cards, {self.cost_set} costs>"

    def cards(self) -> tuple[UnitCard, ...]:
        return tuple(self._cards.values())

    def side(self, side: str) -> tuple[UnitCard, ...]:
        return tuple(c for c in self._cards.values() if c.side == side)

    def find(self, name_or_key: str) -> UnitCard:
        """A card by key, name or short name, ignoring case and punctuation; a unique
        partial name also works ('garand', 'red devil', 'pz iv').  Otherwise
        :class:`UnknownName` with the closest names."""
        query = _normal(name_or_key)
        if not query:
            raise UnknownName("Which unit? The name is empty.", legal=self._some_names())
        cards = list(self._cards.values())
        for c in cards:
            if query in (_normal(c.key), _normal(c.name), _normal(c.short_name)):
                return c
        partial = [c for c in cards
                   if query in _normal(c.name) or query in _normal(c.short_name)
                   or query in _normal(c.key)]
        if not partial:
            words = [w for w in re.split(r"[^a-z0-9]+", name_or_key.lower()) if w]
            partial = [c for c in cards
                       if words and all(w in _normal(c.name + " " + c.short_name) for w in words)]
        if len(partial) == 1:
            return partial[0]
        if partial:
            raise UnknownName(
                f"'{name_or_key.strip()}' matches several units; say which.",
                legal=[c.name for c in partial],
            )
        names = {_normal(c.name): c.name for c in cards}
        names.update({_normal(c.short_name): c.name for c in cards})
        close = difflib.get_close_matches(query, list(names), n=5, cutoff=0.5)
        suggestions = list(dict.fromkeys(names[n] for n in close))
        raise UnknownName(
            f"There is no unit called '{name_or_key.strip()}'.",
            legal=suggestions or self._some_names(),
        )

    def _some_names(self) -> list[str]:
        return [c.name for c in self._cards.values()]


def _parse_document(text: str, source: str) -> list[UnitCard]:
    if nesting_depth(text) > MAX_DEPTH:
        raise DataError(f"{source}: the document is nested too deeply (more than {MAX_DEPTH} levels).")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(
            f"{source}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}."
        ) from None
    if not isinstance(doc, dict) or "cards" not in doc:
        raise DataError(
            f"{source}: expected a JSON object with a 'cards' list.",
            legal=('{"format": "warroom-minis-units", "version": 1, "cards": [ … ]}',),
        )
    if doc.get("format", FORMAT) != FORMAT:
        raise DataError(f"{source}: 'format' must be '{FORMAT}'.", legal=(FORMAT,))
    if doc.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise DataError(f"{source}: unsupported version {json.dumps(doc.get('version'))}.",
                        legal=(str(FORMAT_VERSION),))
    extra = set(doc) - {"format", "version", "source", "cards"}
    if extra:
        raise DataError(f"{source}: unknown top-level field '{sorted(extra)[0]}'.",
                        legal=("format", "version", "source", "cards"))
    raw = doc["cards"]
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{source}: 'cards' must be a non-empty list of card objects.")
    out: list[UnitCard] = []
    for i, d in enumerate(raw, start=1):
        try:
            out.append(card_from_dict(d))
        except DataError as e:
            raise DataError(f"{source}, card #{i}: {e.message}", legal=e.legal) from None
    return out


def _with_cost_set(cards: list[UnitCard], cost_set: str) -> Catalogue:
    if cost_set not in COST_SETS:
        raise UnknownName(f"There is no cost set '{cost_set}'.", legal=COST_SETS)
    if cost_set == "revised":
        return Catalogue(cards, cost_set=cost_set)
    out: list[UnitCard] = []
    fallbacks: list[str] = []
    for c in cards:
        if c.cost_2005 is None:
            fallbacks.append(c.key)
            note = "2005 cost unknown: the revised cost is used."
            notes = f"{c.notes} {note}".strip() if note not in c.notes else c.notes
            out.append(_replace(c, notes=notes))
        else:
            out.append(_replace(c, cost=c.cost_2005))
    return Catalogue(out, cost_set=cost_set, cost_fallbacks=tuple(fallbacks))


def _replace(card: UnitCard, **changes: Any) -> UnitCard:
    return replace(card, **changes)


@lru_cache(maxsize=None)
def _builtin_cards() -> tuple[UnitCard, ...]:
    text = resources.files("engine.minis").joinpath("data/units.json").read_text("utf-8")
    return tuple(_parse_document(text, "units.json"))


def load_catalogue(cost_set: str = "revised") -> Catalogue:
    """The built-in catalogue (cached).  ``cost_set="2005"`` uses the 2005 printed
    costs; cards whose 2005 cost is unknown keep their revised cost, are listed in
    ``Catalogue.cost_fallbacks`` and say so in their notes."""
    return _cached_catalogue(cost_set)


@lru_cache(maxsize=None)
def _cached_catalogue(cost_set: str) -> Catalogue:
    return _with_cost_set(list(_builtin_cards()), cost_set)


def load_custom_cards(text: str, *, base: Catalogue | None = None) -> Catalogue:
    """A league's own cards (same JSON format as units.json), validated.  With ``base``,
    the result holds the base cards followed by the new ones (a key already in the base
    is refused).  An ability without ``text`` takes the wording of the same ability in
    the built-in catalogue."""
    cards = _parse_document(text, "custom cards")
    builtin_texts: dict[str, str] = {}
    for c in _builtin_cards():
        for a in c.abilities:
            builtin_texts.setdefault(a.name, _generic_text(a))
    filled: list[UnitCard] = []
    for c in cards:
        if base is not None and c.key in base:
            raise DataError(
                f"custom cards: key '{c.key}' is already used by '{base[c.key].name}'; "
                "choose another key."
            )
        abilities = tuple(
            a if a.text else _replace_ability(a, builtin_texts.get(a.name, ""), a.value)
            for a in c.abilities
        )
        filled.append(_replace(c, abilities=abilities))
    if base is None:
        return Catalogue(filled, cost_set="custom")
    return Catalogue(list(base.cards()) + filled, cost_set=base.cost_set,
                     cost_fallbacks=base.cost_fallbacks)


def _generic_text(a: Ability) -> str:
    """The wording of an ability with its number replaced by a placeholder."""
    if a.value is None:
        return a.text
    return re.sub(rf"\b{a.value}\b", "{n}", a.text)


def _replace_ability(a: Ability, template: str, value: int | None) -> Ability:
    text = template.replace("{n}", str(value)) if value is not None else template
    return replace(a, text=text)
