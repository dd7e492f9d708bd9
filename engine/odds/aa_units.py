"""A&A Anniversary unit profiles (A-14, technologies A-7) and the army notation of /odds.

Profiles come from the packaged data file ``aa50_units.json``.  An army is written as a
comma-separated list such as ``"3 inf, 1 art, 2 tank, 1 fighter"``: a count (optional,
default 1, ``x`` allowed: ``3x inf``) and a unit name or alias, case-insensitive, plural
``s`` accepted.  :func:`format_army` prints the same notation back.
"""

from __future__ import annotations

import json
import pkgutil
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Iterable, Mapping, cast

from engine.core.errors import DataError, NotationError, UnknownName

LAND, AIR, SEA = "land", "air", "sea"


@dataclass(frozen=True)
class UnitProfile:
    name: str
    short: str
    cost: int
    attack: int
    defense: int
    domain: str
    aliases: tuple[str, ...] = ()
    hits: int = 1
    attack_dice: int = 1
    defense_dice: int = 1
    supported_attack: int = 0
    supports: int = 0
    aa_hit: int = 0
    aa_shots: int = 0  # dice per gun (0: one gun fires one die per aircraft, A-10.5)
    bombard: bool = False
    submarine: bool = False
    destroyer: bool = False
    transport: bool = False
    carrier_capacity: int = 0
    takes_territory: bool = False
    rules: tuple[str, ...] = ()  # the rules sets it exists in (empty: every one)
    damaged_of: str = ""  # a damaged unit of this kind: its profile, one hit left

    @property
    def is_aa(self) -> bool:
        return self.aa_hit > 0

    def value(self, role: str) -> int:
        """Combat value in a role (``attack`` or ``defense``)."""
        return self.attack if role == "attack" else self.defense


@dataclass(frozen=True)
class Technology:
    name: str
    aliases: tuple[str, ...]
    changes: Mapping[str, Mapping[str, int]]


_INT_FIELDS = {
    "cost", "attack", "defense", "hits", "attack_dice", "defense_dice",
    "supported_attack", "supports", "aa_hit", "aa_shots", "carrier_capacity",
}  # fmt: skip
_BOOL_FIELDS = {"bombard", "submarine", "destroyer", "transport", "takes_territory"}


def _key(text: str) -> str:
    """Normalised spelling for name lookups: lower case, no spaces, hyphens or dots."""
    return re.sub(r"[\s_\-.']+", "", text.lower())


@dataclass(frozen=True)
class Catalogue:
    units: tuple[UnitProfile, ...]
    technologies: tuple[Technology, ...]

    def __post_init__(self) -> None:
        names: dict[str, str] = {}
        for u in self.units:
            for alias in (u.name, u.short, *u.aliases):
                k = _key(alias)
                if names.get(k, u.name) != u.name:
                    raise DataError(f"Unit alias '{alias}' names two units.")
                names[k] = u.name
        object.__setattr__(self, "_names", MappingProxyType(names))
        techs: dict[str, str] = {}
        for t in self.technologies:
            for alias in (t.name, *t.aliases):
                techs[_key(alias)] = t.name
        object.__setattr__(self, "_techs", MappingProxyType(techs))

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(u.name for u in self.units)

    def profile(self, name: str) -> UnitProfile:
        for u in self.units:
            if u.name == name:
                return u
        raise UnknownName(f"There is no unit '{name}'.", legal=self.order)

    def resolve(self, word: str) -> str:
        """Canonical unit name for a name, short name or alias (plural ``s`` accepted)."""
        names: Mapping[str, str] = getattr(self, "_names")
        k = _key(word)
        if k in names:
            return names[k]
        if k.endswith("s") and k[:-1] in names:
            return names[k[:-1]]
        # The units of one rules set only (the Global-1940 house rules' tanks) come last.
        raise UnknownName(
            f"Unknown unit '{word.strip()}'.", legal=[u.short for u in sorted(self.units, key=lambda u: bool(u.rules))]
        )

    def resolve_tech(self, word: str) -> str:
        techs: Mapping[str, str] = getattr(self, "_techs")
        k = _key(word)
        if k in techs:
            return techs[k]
        raise UnknownName(
            f"Unknown technology '{word.strip()}'.", legal=[t.name for t in self.technologies]
        )

    def with_techs(self, techs: Iterable[str], rules: str = "anniversary") -> dict[str, UnitProfile]:
        """Profiles by name under a rules set (:data:`RULES_SETS`) with the given
        technologies applied on top (A-7)."""
        out = {u.name: u for u in self.units}
        for unit, fields in rules_changes(rules).items():
            out[unit] = replace(out[unit], **cast(dict[str, Any], dict(fields)))
        for name in techs:
            tech = next(t for t in self.technologies if t.name == self.resolve_tech(name))
            for unit, fields in tech.changes.items():
                out[unit] = replace(out[unit], **cast(dict[str, Any], dict(fields)))
        base = {u.name: u for u in self.units}
        # A damaged battleship: the battleship as it is here, one hit left; where the
        # battleship is unchanged, the catalogue's own object (the game's profiles are the
        # catalogue's very objects, tests/aa/test_units.py).
        for u in self.units:
            if u.damaged_of and out[u.damaged_of] is not base[u.damaged_of]:
                out[u.name] = replace(out[u.damaged_of], name=u.name, short=u.short, aliases=u.aliases, hits=1,
                                      damaged_of=u.damaged_of, rules=u.rules)
        return out


RULES_SETS = ("anniversary", "1942se", "global1940")
RULES_NAMES = {
    "anniversary": "Anniversary",
    "1942se": "1942 Second Edition",
    "global1940": "Global-1940 house rules",
}


def _packaged(name: str) -> str:
    """A data file of this package, as text.  Read with ``pkgutil.get_data`` (already
    loaded by the command line) rather than ``importlib.resources``, whose import costs
    a one-shot ``warroom odds`` process ~4 ms of its ~65."""
    data = pkgutil.get_data("engine.odds", name)
    if data is None:  # a loader that cannot read files: a broken install, not a player's error
        raise FileNotFoundError(f"engine/odds/{name} cannot be read from this install")
    return data.decode("utf-8")


@lru_cache(maxsize=1)
def _rules_data() -> Mapping[str, Mapping[str, Mapping[str, Any]]]:
    data = json.loads(_packaged("aa_rules_sets.json"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def _rules_set(rules: str) -> Mapping[str, Mapping[str, Any]]:
    data = _rules_data()
    if rules not in data:
        raise UnknownName(
            f"Unknown rules set '{rules}'.", legal=[f"/odds aa … rules:{r}" for r in RULES_SETS]
        )
    return data[rules]


def rules_changes(rules: str) -> Mapping[str, Mapping[str, Any]]:
    """Profile fields that differ from Anniversary in a rules set (data:
    ``aa_rules_sets.json``; Global-1940 values from spec G-7)."""
    return {unit: fields for unit, fields in _rules_set(rules).items() if not unit.startswith("_")}


BOMBARD_LIMITS = ("one_per_land_unit", "one_of_each_kind_per_land_unit")


def bombard_limit(rules: str) -> str:
    """Which listed ships bombard an amphibious assault under a rules set
    (:data:`BOMBARD_LIMITS`; the ``_settings`` of ``aa_rules_sets.json``): A-10.3's one
    ship per landing land unit, or G-10's battleship and cruiser backing each landing
    transport (at most one of each kind per land unit: the odds see no transports)."""
    limit = str(_rules_set(rules).get("_settings", {}).get("bombard_limit", BOMBARD_LIMITS[0]))
    if limit not in BOMBARD_LIMITS:
        raise DataError(f"Rules set {rules}: bombard_limit must be one of {', '.join(BOMBARD_LIMITS)}.")
    return limit


def _profile_from(raw: Mapping[str, Any]) -> UnitProfile:
    try:
        kwargs: dict[str, Any] = {
            "name": str(raw["name"]),
            "short": str(raw["short"]),
            "cost": int(raw["cost"]),
            "attack": int(raw["attack"]),
            "defense": int(raw["defense"]),
            "domain": str(raw["domain"]),
            "aliases": tuple(str(a) for a in raw.get("aliases", ())),
            "rules": tuple(str(r) for r in raw.get("rules", ())),
            "damaged_of": str(raw.get("damaged_of", "")),
        }
        for f in _INT_FIELDS - set(kwargs):
            if f in raw:
                kwargs[f] = int(raw[f])
        for f in _BOOL_FIELDS:
            if f in raw:
                kwargs[f] = bool(raw[f])
    except (KeyError, TypeError, ValueError) as err:
        raise DataError(f"Bad unit profile {raw!r}: {err}") from None
    if kwargs["domain"] not in (LAND, AIR, SEA):
        raise DataError(f"Unit {kwargs['name']}: domain must be land, air or sea.")
    if set(kwargs["rules"]) - set(RULES_SETS):
        raise DataError(f"Unit {kwargs['name']}: rules must name rules sets of {', '.join(RULES_SETS)}.")
    return UnitProfile(**kwargs)


def load_catalogue(text: str) -> Catalogue:
    """Read a catalogue in the format of ``aa50_units.json``."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(f"Unit file is not valid JSON: {err}") from None
    units = tuple(_profile_from(u) for u in raw.get("units", ()))
    known = {u.name for u in units}
    for u in units:
        if u.damaged_of and u.damaged_of not in known:
            raise DataError(f"Unit {u.name}: damaged_of names no unit ({u.damaged_of}).")
    techs = []
    for t in raw.get("technologies", ()):
        changes = {str(u): {str(k): int(v) for k, v in f.items()} for u, f in t["changes"].items()}
        for unit, fields in changes.items():
            if unit not in known:
                raise DataError(f"Technology {t['name']} changes unknown unit {unit}.")
            bad = set(fields) - _INT_FIELDS
            if bad:
                raise DataError(f"Technology {t['name']} changes unknown fields {sorted(bad)}.")
        techs.append(Technology(str(t["name"]), tuple(t.get("aliases", ())), changes))
    return Catalogue(units, tuple(techs))


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The packaged Anniversary Edition catalogue."""
    return load_catalogue(_packaged("aa50_units.json"))


_EMPTY = ("", "nothing", "none", "-")
# The most units of one kind a force may hold: far more than any board (or the command
# line, which has no other cap) can fight, and low enough that a count such as
# "99999999999999999999 inf" is refused as a typo instead of running out of memory.
MOST_OF_A_KIND = 9999
_ITEM = re.compile(
    r"^\s*(?:(?P<n1>\d+)\s*(?:[x*×]\s*)?)?(?P<name>[a-z][a-z .'\-_]*?)\s*(?:[x*×:]?\s*(?P<n2>\d+))?\s*$",
    re.IGNORECASE,
)


_COUNTED = re.compile(r"^\s*(?:(?P<n>\d+)\s*(?:[x*×]\s*)?)?(?P<name>[a-z].*?)\s*$", re.IGNORECASE)


def _resolved(cat: Catalogue, word: str) -> str | None:
    """The unit ``word`` names, or None when it names none."""
    try:
        return cat.resolve(word)
    except UnknownName:
        return None


def parse_army(text: str, cat: Catalogue | None = None) -> dict[str, int]:
    """``"3 inf, 1 art, 2 tanks"`` → ``{"infantry": 3, "artillery": 1, "tank": 2}``.

    Items are separated by commas, ``+`` or ``;``; a repeated unit adds up; zero counts are
    dropped; a name may hold digits (``"2 t-34"``) when a count comes first or none does.
    An empty text (or ``nothing``, ``none``, ``-``) is an empty army."""
    cat = cat or catalogue()
    army: dict[str, int] = {}
    if text.strip().lower() in _EMPTY:
        return army
    for item in re.split(r"[,;+]", text):
        if not item.strip():
            continue
        whole = _COUNTED.match(item)  # a count, then a name that may hold digits ("2 t-34")
        named = _resolved(cat, whole.group("name")) if whole is not None else None
        if whole is not None and named is not None:
            count, name = int(whole.group("n") or 1), named
        else:
            m = _ITEM.match(item)
            if m is None or (m.group("n1") and m.group("n2")):
                raise NotationError(
                    f"Cannot read '{item.strip()}' as a number of units.",
                    legal=["3 inf", "2 tank", "fighter", "1 aa"],
                )
            count = int(m.group("n1") or m.group("n2") or 1)
            name = cat.resolve(m.group("name"))
        if count:
            army[name] = army.get(name, 0) + count
            if army[name] > MOST_OF_A_KIND:
                short = cat.profile(name).short
                raise NotationError(
                    f"Cannot take {army[name]} {short}: at most {MOST_OF_A_KIND} units of a kind in one force.",
                    legal=[f"{MOST_OF_A_KIND} {short}"],
                )
    return {n: army[n] for n in cat.order if n in army}


def format_army(army: Mapping[str, int], cat: Catalogue | None = None, *, empty: str = "nothing") -> str:
    """``{"infantry": 3, "tank": 1}`` → ``"3 inf, 1 tank"`` (readable back by :func:`parse_army`)."""
    cat = cat or catalogue()
    parts = [f"{army[u.name]} {u.short}" for u in cat.units if army.get(u.name, 0) > 0]
    return ", ".join(parts) if parts else empty


def parse_unit_list(text: str, cat: Catalogue | None = None, option: str = "ool_attacker") -> tuple[str, ...]:
    """An order of loss: ``"inf,art,tank,fighter"`` → canonical names, first lost first.
    Each unit type may appear once (``option``: its slash option, for the example of the
    list without the repeats)."""
    cat = cat or catalogue()
    out: list[str] = []
    twice: list[str] = []
    for chunk in re.split(r"[,;>]+", text):
        if not chunk.strip():
            continue
        try:
            names = [cat.resolve(chunk)]
        except UnknownName:
            if len(chunk.split()) < 2:
                raise
            names = [cat.resolve(word) for word in chunk.split()]
        for name in names:
            if name in out:
                twice.append(chunk.strip())
            else:
                out.append(name)
    if twice:
        once = ",".join(cat.profile(n).short for n in out)
        raise NotationError(f"'{twice[0]}' appears twice in the order of loss: list each unit type once.",
                            legal=[f'/odds aa … {option}:"{once}"'])
    return tuple(out)


def parse_techs(text: str, cat: Catalogue | None = None) -> frozenset[str]:
    cat = cat or catalogue()
    return frozenset(cat.resolve_tech(w) for w in re.split(r"[,;+]", text) if w.strip())
