"""Exact odds of an Axis & Allies Anniversary Edition battle (A-10, A-14).

>>> odds = aa_odds(AABattle.parse("1 inf", "1 inf"), exact=True)
>>> odds.exact["attacker_win"], odds.exact["defender_win"], odds.exact["draw"]
(Fraction(1, 4), Fraction(5, 8), Fraction(1, 8))

:func:`aa_odds` builds the two sides (:mod:`engine.odds.aa_side`), the states round 1
starts from (AA fire, shore bombardment), and runs one of two exact engines: the fast
sequence engine (:mod:`engine.odds.aa_fast`) whenever every hit may land on any unit,
the general one (:mod:`engine.odds.aa_general`) when submarines take part.  Nothing is
sampled.  Float mode leaves out products below 1e-18 (the fast engine's ``eps``) or
masses below 1e-19 (``TINY``, the others) and reports the total left out as
``error_bound``; exact mode computes in fractions.

Modelling choices the rules leave open are listed in ``docs/odds.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from itertools import chain, product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, NoReturn, Sequence, cast

from engine.core.errors import IllegalOrder, PlayerError
from engine.odds import compiled
from engine.odds.aa_battle import (
    ATTACKER, DEFENDER, DRAW, RETREAT, STALEMATE, UNFINISHED, BattleSetup, PairTable, Start, StartTable, Tally,
    OverLimit, TooBig, TooManyUnits, Work, chance, table_cells, too_many_starts,
)  # fmt: skip
from engine.odds.aa_fast import FastEngine, LineTally
from engine.odds.aa_side import ATTACK, DEFENSE, Side, State
from engine.odds.aa_units import (
    AIR, LAND, MOST_OF_A_KIND, RULES_NAMES, SEA, Catalogue, UnitProfile, bombard_limit, catalogue, format_army, parse_army,
    parse_techs, parse_unit_list,
)  # fmt: skip
from engine.odds.dist import N, fire_distribution

if TYPE_CHECKING:  # numpy: imported for big battles only
    from engine.odds.aa_naval import NumberedSides

MODES = ("land", "sea", "amphibious")
EXACT_MAX_UNITS = 20  # fractions grow to thousands of digits beyond this
# The most rounds a round limit or a strafe may name (Discord offers up to 50). A battle
# still fighting after 100 rounds holds next to nothing; a limit of 10**20 rounds looped
# over every round in several engines, and in exact fractions it never ends.
MAX_ROUNDS = 100
# Up to this many battle states the pure-Python sequence engine is as fast as the numpy
# table engine, and a one-shot ``warroom odds`` process skips importing numpy.
# Tables up to this many cells go to the pure-Python engine (no numpy import): it is the
# faster one there (measured: 441 cells 0.9 vs 1.2 ms, 10v10 with an AA gun 0.3 vs
# 1.3 ms); with a round limit its round-by-round walk is slower past ~150 cells.
SMALL_CELLS = 500
SMALL_CELLS_ROUNDS = 150
# The report's sums over a side's final states: by arrays from this many float states on
# (engine.odds.aa_sums; ~3-5 µs a state in the loop, ~70-110 ms of the 22,000 of the
# mixed-air retreat by win chance at 100 a side); fewer, the loop (as quick, no numpy).
SUMS_BY_ARRAYS = 2000
# Armies for the examples of a refusal that has none of its own to show.
LAND_EXAMPLE, SEA_EXAMPLE = "3 inf, 1 tank", "2 des, 1 cru"
# Battles' final states as _run leaves them (``ends``): each battle's share of the whole
# attack (its masses are fractions of it), setup, units kept aside and tally.
Ends = list[tuple[Any, BattleSetup[Any], Mapping[str, int], Tally[Any]]]


_PROFILES: dict[tuple[frozenset[str], str], Mapping[str, UnitProfile]] = {}


@dataclass(frozen=True)
class AABattle:
    """Everything that decides a battle's odds.  Armies map canonical unit names
    (``"infantry"``) to counts; see :func:`engine.odds.aa_units.parse_army`."""

    attacker: Mapping[str, int]
    defender: Mapping[str, int]
    mode: str = "land"
    bombard: Mapping[str, int] = field(default_factory=dict)
    ool_attacker: tuple[str, ...] = ()
    ool_defender: tuple[str, ...] = ()
    rounds: int | None = None
    retreat_below: int = 0
    keep_land_unit: int = 0  # the attacker loses its last N land units last (True: 1)
    submerge_attacker: bool = False
    submerge_defender: bool = False
    tech_attacker: frozenset[str] = frozenset()
    tech_defender: frozenset[str] = frozenset()
    # Issue 19 options.
    low_luck: bool = False  # hits = total combat value // 6, plus one die for the rest
    retreat_after: int | None = None  # strafe: the attacker retreats after this many rounds
    retreat_chance: float | None = None  # retreat when fighting on would win less than this %
    rules: str = "anniversary"  # unit profiles: anniversary, 1942se, global1940
    wave2: Mapping[str, int] = field(default_factory=dict)  # a second battle vs the survivors
    # An amphibious assault's attacking land units that came over land, not from the sea
    # (A-10.3): with the aircraft they are the units a retreat takes away.
    overland: Mapping[str, int] = field(default_factory=dict)
    # retreat_left as given where it is below 1, for validate to refuse (a valid one is
    # retreat_below=K + 1).
    retreat_left: int | None = None

    @classmethod
    def parse(
        cls,
        attacker: str,
        defender: str,
        *,
        mode: str = "land",
        bombard: str = "",
        ool_attacker: str = "",
        ool_defender: str = "",
        tech_attacker: str = "",
        tech_defender: str = "",
        wave2: str = "",
        overland: str = "",
        retreat_left: int | None = None,
        **options: Any,
    ) -> "AABattle":
        """Build a battle from the /odds notation (``"3 inf, 1 art"``).  ``retreat_left=K``
        is the issue's "retreat when the attacker has K units or fewer left": the same
        rule as ``retreat_below=K + 1`` (the two cannot both be given)."""
        if retreat_left is not None:
            # Its own value first: the examples below keep it.
            if not isinstance(retreat_left, int):
                raise IllegalOrder(f"retreat_left is a whole number, not {retreat_left!r}.",
                                   legal=["/odds aa … retreat_left:2"])
            if retreat_left < 1:  # refused by validate, with the other options' faults
                options["retreat_left"] = retreat_left
            elif options.get("retreat_below"):
                raise IllegalOrder(
                    "Give one retreat threshold: retreat_left (K units or fewer left) or "
                    "retreat_below (fewer than K units left).",
                    legal=[f"/odds aa … retreat_left:{retreat_left}",
                           f"/odds aa … retreat_below:{retreat_left + 1}"],
                )  # fmt: skip
            else:
                options["retreat_below"] = retreat_left + 1
        return cls(
            wave2=parse_army(wave2) if wave2.strip() else {},
            overland=parse_army(overland) if overland.strip() else {},
            attacker=parse_army(attacker),
            defender=parse_army(defender),
            mode=mode,
            bombard=parse_army(bombard),
            ool_attacker=parse_unit_list(ool_attacker),
            ool_defender=parse_unit_list(ool_defender, option="ool_defender"),
            tech_attacker=parse_techs(tech_attacker),
            tech_defender=parse_techs(tech_defender),
            **options,
        )

    @property
    def strafes(self) -> bool:
        """The attacker retreats after round ``retreat_after`` (never past the round
        limit: :func:`validate` refuses that)."""
        return self.retreat_after is not None

    @property
    def wave2_joins(self) -> bool:
        """The first wave's units still fighting when the round limit stops it join the
        second wave (a strafe retreats them instead)."""
        return bool(self.wave2) and self.rounds is not None and not self.strafes

    @property
    def fights_on(self) -> bool:
        """An amphibious assault with a retreat (after a round, below a number of units,
        or by win chance): the aircraft and the units that came over land retreat, and
        the units landed from the sea fight on until one side is gone (A-10.3 and its
        ruling).  Not where no land unit came from the sea (aircraft alone, or every
        land unit over land): then everything may retreat, as in a land battle."""
        if self.mode != "amphibious" or not (
            self.retreat_after is not None or self.retreat_below != 0 or self.retreat_chance is not None
            or self.retreat_left is not None
        ):
            return False
        prof = self.profiles("attacker")
        ashore = sum(c for n, c in self.attacker.items() if prof[n].domain == LAND)
        return ashore > sum(self.overland.values())

    def units(self, side: str) -> int:
        army = self.attacker if side == "attacker" else self.defender
        return sum(army.values())

    def key(self) -> tuple[Any, ...]:
        """A hashable key, equal for two battles exactly when they are the same question
        (every field; an army's units in any order, as typed in any order)."""
        return tuple(
            tuple(sorted(value.items())) if isinstance(value, Mapping) else value
            for value in (getattr(self, f.name) for f in fields(self))
        )

    def profiles(self, side: str, cat: Catalogue | None = None) -> Mapping[str, UnitProfile]:
        """Unit profiles of a side: the rules set, then its technologies (memoised for
        the packaged catalogue; read-only)."""
        techs = self.tech_attacker if side == "attacker" else self.tech_defender
        if cat is not None and cat is not catalogue():
            return cat.with_techs(techs, self.rules)
        key = (techs, self.rules)
        got = _PROFILES.get(key)
        if got is None:
            got = _PROFILES[key] = MappingProxyType(catalogue().with_techs(techs, self.rules))
        return got


@dataclass(frozen=True)
class AAOdds:
    """The exact result.  Probabilities are floats; with ``exact=True`` the main ones
    are also in ``exact`` as fractions.

    ``defender_win`` is "the defender holds": the attacker destroyed, retreated, stuck
    in a stalemate or stopped by the round limit (``retreat``, ``stalemate`` and
    ``unfinished`` are those parts).  ``attacker_takes`` is a win with a unit able to
    take the territory left (A-10.10); at sea it equals ``attacker_win``."""

    battle: AABattle
    attacker_win: float
    defender_win: float
    draw: float
    attacker_takes: float
    retreat: float
    stalemate: float
    unfinished: float
    expected_rounds: float
    expected_survivors: Mapping[str, Mapping[str, float]]
    expected_ipc_loss: Mapping[str, float]
    survivors: Mapping[str, tuple[tuple[Mapping[str, int], float], ...]]
    survivor_count: Mapping[str, Mapping[int, float]]
    error_bound: float
    engine: str
    exact: Mapping[str, Fraction] | None = None
    # With a second wave (``wave2``): the whole attack's odds, keys attacker_win,
    # attacker_takes, defender_win, draw.
    second_wave: Mapping[str, float] | None = None
    # An amphibious assault with a retreat (:attr:`AABattle.fights_on`): the whole
    # assault's odds, the landed units fighting on after the others retreat (the keys
    # of ``second_wave``); the fields above end at the retreat.
    fight_on: Mapping[str, float] | None = None
    # And its expected survivors by side and type, units and IPCs lost by side and TUV
    # swing (keys expected_survivors, expected_units_lost, expected_ipc_loss, tuv_swing).
    fight_on_losses: Mapping[str, Any] | None = None

    @property
    def tuv_swing(self) -> float:
        """Expected IPCs the defender loses minus those the attacker loses (TUV swing)."""
        return self.expected_ipc_loss["defender"] - self.expected_ipc_loss["attacker"]

    def expected_units_lost(self, side: str) -> float:
        army = self.battle.attacker if side == "attacker" else self.battle.defender
        return sum(army.values()) - sum(self.expected_survivors[side].values())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the ``warroom odds aa --json`` output)."""
        out: dict[str, Any] = {
            "attacker": format_army(self.battle.attacker),
            "defender": format_army(self.battle.defender),
            "mode": self.battle.mode,
            "attacker_win": self.attacker_win,
            "defender_win": self.defender_win,
            "draw": self.draw,
            "attacker_takes": self.attacker_takes,
            "retreat": self.retreat,
            "stalemate": self.stalemate,
            "unfinished": self.unfinished,
            "expected_rounds": self.expected_rounds,
            "expected_survivors": {k: dict(v) for k, v in self.expected_survivors.items()},
            "expected_ipc_loss": dict(self.expected_ipc_loss),
            "survivor_count": {
                k: {str(n): p for n, p in sorted(v.items())} for k, v in self.survivor_count.items()
            },
            "survivors": {
                k: [{"units": format_army(army), "p": p} for army, p in v]
                for k, v in self.survivors.items()
            },
            "error_bound": self.error_bound,
            "engine": self.engine,
            "tuv_swing": self.tuv_swing,
            "expected_units_lost": {k: self.expected_units_lost(k) for k in ("attacker", "defender")},
            "options": {
                "rules": self.battle.rules,
                "low_luck": self.battle.low_luck,
                "retreat_after": self.battle.retreat_after,
                "retreat_below": self.battle.retreat_below,
                "retreat_chance": self.battle.retreat_chance,
                "wave2": format_army(self.battle.wave2) if self.battle.wave2 else None,
                # only where given (the shape of every other answer stays as it was)
                **({"overland": format_army(self.battle.overland)} if self.battle.overland else {}),
            },
        }
        if self.second_wave is not None:
            out["second_wave"] = dict(self.second_wave)
        if self.fight_on is not None:
            out["fight_on"] = {**self.fight_on, **(self.fight_on_losses or {})}
        if self.exact is not None:
            out["exact"] = {k: str(v) for k, v in self.exact.items()}
        return out


def _armies_example(cat: Catalogue, *options: str, **armies: Mapping[str, int] | str) -> str:
    """A "what would be legal" example: the command with these options and armies (or
    army texts)."""
    shown = (army if isinstance(army, str) else format_army(army, cat, empty="") for army in armies.values())
    return " ".join(["/odds aa …", *options, *(f'{side}:"{text}"' for side, text in zip(armies, shown))])


def _without(army: Mapping[str, int], drop: Callable[[str], bool]) -> dict[str, int]:
    return {n: c for n, c in army.items() if c > 0 and not drop(n)}


def _at_sea(army: Mapping[str, int], units: Mapping[str, UnitProfile], defending: bool) -> dict[str, int]:
    """What of ``army`` can fight at sea: its ships and aircraft; a defender's only
    fighters, as many as its carriers hold (A-14.1)."""
    out = _without(army, lambda n: units[n].domain == LAND or (defending and units[n].domain == AIR))
    if defending:
        room = sum(units[n].carrier_capacity * c for n, c in out.items())
        if room and army.get("fighter"):
            out["fighter"] = min(army["fighter"], room)
    return out


def _ships_ashore(
    battle: AABattle, att: Mapping[str, UnitProfile], dfn: Mapping[str, UnitProfile], cat: Catalogue
) -> list[str]:
    """Legal examples for a land battle with ships in it: the battle at sea, the
    attacker's ships bombarding an amphibious assault, and the land battle without them."""
    legal = []
    sea_a, sea_d = _at_sea(battle.attacker, att, False), _at_sea(battle.defender, dfn, True)
    if sea_a or sea_d:
        legal.append(_armies_example(cat, "kind:sea", attacker=sea_a or SEA_EXAMPLE, defender=sea_d))
    ashore_a = _without(battle.attacker, lambda n: att[n].domain == SEA)
    ashore_d = _without(battle.defender, lambda n: dfn[n].domain == SEA)
    ships_a = _without(battle.attacker, lambda n: att[n].domain != SEA)
    landing = any(att[n].domain == LAND for n in ashore_a)
    if landing and ships_a and all(att[n].bombard for n in ships_a) and not any(p.domain == SEA for p in dfn.values()):
        legal.append(_armies_example(cat, "kind:amphibious", attacker=ashore_a, bombard=ships_a))
    if ashore_a:
        legal.append(_armies_example(cat, attacker=ashore_a, defender=ashore_d))
    return legal


def _check_fleets(
    battle: AABattle, att: Mapping[str, UnitProfile], dfn: Mapping[str, UnitProfile], cat: Catalogue
) -> None:
    """A sea battle's refusals (:func:`validate`): land units, defending bombers,
    fighters without carrier room; the examples are the fleets as they can fight."""
    land = [p.short for units in (att, dfn) for p in units.values() if p.domain == LAND]
    if land:
        # Both sides at once, so that the example is legal on its own.
        legal: list[str] = []
        if any(p.domain == SEA for units in (att, dfn) for p in units.values()):
            rest_a, rest_d = _at_sea(battle.attacker, att, False), _at_sea(battle.defender, dfn, True)
            legal.append(_armies_example(cat, attacker=rest_a or SEA_EXAMPLE, defender=rest_d))
        else:  # nothing of it fights at sea
            legal.append("/odds aa … kind:land")
        raise IllegalOrder(
            f"Land units ({', '.join(dict.fromkeys(land))}) never fight at sea: cargo is not in "
            f"the battle (A-10.4).", legal=legal,
        )
    fighters = battle.defender.get("fighter", 0)
    room = sum(p.carrier_capacity * battle.defender[n] for n, p in dfn.items())
    if "bomber" not in dfn and fighters <= room:
        return  # a fleet as it can fight: no example to build
    fitting = _at_sea(battle.defender, dfn, True)  # only the fighters its carriers hold, no bombers
    per = battle.profiles("defender", cat)["carrier"].carrier_capacity
    # Every fighter kept, with the carriers they need (A-14).
    more = dict(battle.defender)
    if fighters > room:
        more["carrier"] = more.get("carrier", 0) + -(-(fighters - room) // per)
    if "bomber" in dfn:
        # Without the bombers: the fighters its carriers hold, or all of them with the
        # carriers they need (nothing left: the sea zone is undefended).
        without = _without(more, lambda n: n == "bomber")
        shown = dict.fromkeys(format_army(d, cat, empty="") for d in (fitting, without))
        raise IllegalOrder("Bombers never defend at sea; only fighters on carriers do (A-14.1).",
                           legal=[_armies_example(cat, defender=d) for d in shown])
    if fighters > room:
        need = "1 defending fighter needs" if fighters == 1 else f"{fighters} defending fighters need"
        raise IllegalOrder(
            f"{need} carriers with room for them: {room} fighter places here ({per} per carrier, "
            f"A-14).", legal=[_armies_example(cat, defender=d) for d in (more, fitting) if d],
        )


def validate(battle: AABattle, cat: Catalogue | None = None) -> None:
    """Refuse battles the rules do not allow, with a message saying what is wrong and
    examples of what would be legal (slash syntax; the command line shows them as
    flags)."""
    cat = cat or catalogue()
    mode = battle.mode
    if mode not in MODES:
        raise IllegalOrder(f"Unknown battle kind '{mode}'.", legal=[f"/odds aa … kind:{m}" for m in MODES])
    for army in (battle.attacker, battle.defender, battle.wave2):
        for n in army:
            sets = cat.profile(n).rules
            if sets and battle.rules not in sets:
                raise IllegalOrder(
                    f"The {n} fights only under the {' or '.join(RULES_NAMES[r] for r in sets)} (spec G-7), "
                    f"not under {RULES_NAMES.get(battle.rules, battle.rules)}.",
                    legal=[f"/odds aa … rules:{r}" for r in sets],
                )
    if sum(battle.attacker.values()) <= 0:
        raise IllegalOrder("The attacker has no units.",
                           legal=[_armies_example(cat, attacker=SEA_EXAMPLE if mode == "sea" else LAND_EXAMPLE)])
    prof_a, prof_d = battle.profiles("attacker", cat), battle.profiles("defender", cat)
    att = {n: prof_a[n] for n, c in battle.attacker.items() if c > 0}
    dfn = {n: prof_d[n] for n, c in battle.defender.items() if c > 0}
    guns = [n for n, p in att.items() if p.is_aa]
    if guns:
        moved = dict(battle.defender)
        for n in guns if mode != "sea" else ():  # an AA gun is a land unit: none at sea
            moved[n] = moved.get(n, 0) + battle.attacker[n]
        rest = _without(battle.attacker, guns.__contains__)
        raise IllegalOrder(
            "AA guns never attack (A-14): list them with the defender.",
            legal=[_armies_example(cat, attacker=rest or LAND_EXAMPLE, defender=moved)],
        )
    if mode in ("land", "amphibious"):
        ships = [p.short for units in (att, dfn) for p in units.values() if p.domain == SEA]
        if ships:
            raise IllegalOrder(f"Ships ({', '.join(dict.fromkeys(ships))}) cannot fight in a land battle (A-14.1).",
                               legal=_ships_ashore(battle, att, dfn, cat))
    else:
        _check_fleets(battle, att, dfn, cat)
    _check_wave2(battle, prof_a, cat)
    # The ships that may bombard (A-14.5), for the examples below.
    bombarding = _without(battle.bombard, lambda u: not cat.profile(u).bombard)
    if battle.bombard and mode != "amphibious":
        # The same attack as a landing where it is one (land units, no ships; with the
        # ships that may bombard), else without the bombardment.
        landing = any(p.domain == LAND for p in att.values()) and not any(p.domain == SEA for p in att.values())
        as_landing = "kind:amphibious" + ("" if bombarding == battle.bombard else
                                          f' bombard:"{format_army(bombarding, cat, empty="1 bat")}"')
        raise IllegalOrder("Shore bombardment happens only in an amphibious assault (A-10.3).",
                           legal=[*([f"/odds aa … {as_landing}"] if landing else []), '/odds aa … bombard:""'])
    if battle.bombard and mode == "amphibious" and not any(p.domain == LAND for p in att.values()):
        raise IllegalOrder(
            "Ships bombard only when land units come ashore from the sea (A-10.3), and this attack lands none.",
            legal=[_armies_example(cat, "kind:amphibious", attacker={**battle.attacker, "infantry": 1},
                                   bombard=bombarding or {"battleship": 1}),
                   _armies_example(cat, "kind:land", attacker=battle.attacker, bombard={})],
        )  # fmt: skip
    for n in battle.bombard:
        if not cat.profile(n).bombard:
            raise IllegalOrder(
                f"'{cat.profile(n).short}' cannot bombard: only battleships and cruisers do (A-14.5).",
                legal=[f'/odds aa … kind:amphibious bombard:"{format_army(bombarding, cat, empty="1 bat")}"'],
            )
    # Whole numbers (Discord and the command line take them so; a caller of the engine
    # may not: 2.5 rounds failed deep in an engine instead, and True read as 1).
    for name, option in (("rounds", "rounds"), ("retreat_after", "retreat_after"),
                         ("retreat_below", "retreat_below"), ("keep_land_unit", "keep_land_units")):  # fmt: skip
        value = getattr(battle, name)
        if value is not None and (not isinstance(value, int) or (isinstance(value, bool) and name != "keep_land_unit")):
            raise IllegalOrder(f"{option} is a whole number, not {value!r}.", legal=[f"/odds aa … {option}:2"])
    if battle.retreat_chance is not None and (
        isinstance(battle.retreat_chance, bool) or not isinstance(battle.retreat_chance, (int, float))
    ):
        raise IllegalOrder(f"retreat_chance is a percentage, not {battle.retreat_chance!r}.",
                           legal=["/odds aa … retreat_chance:30"])
    faults, mends = _range_faults(
        battle.rounds, battle.retreat_after, battle.retreat_chance, battle.retreat_below, battle.retreat_left
    )
    # A landing's own refusals of a retreat first: their examples mend the values too.
    _check_overland(battle, prof_a, cat, mends)
    if faults:
        raise IllegalOrder(" ".join(faults), legal=[_options_example(mends)])
    if battle.retreat_after is not None and battle.rounds is not None and battle.retreat_after > battle.rounds:
        last, strafe = battle.rounds, battle.retreat_after
        raise IllegalOrder(
            f"The battle stops after round {last} (its round limit), before the retreat after round {strafe}.",
            legal=[f"/odds aa … rounds:{last} retreat_after:{last}", f"/odds aa … rounds:{strafe} retreat_after:{strafe}"],
        )
    if battle.keep_land_unit and mode == "sea":
        raise IllegalOrder("Keeping a land unit alive only matters in a land battle: a sea battle has "
                           "none to keep, so leave keep_land out.")
    if battle.keep_land_unit < 0:
        raise IllegalOrder("The land units to keep cannot be negative.", legal=["/odds aa … keep_land_units:2"])
    if (battle.submerge_attacker or battle.submerge_defender) and mode != "sea":
        raise IllegalOrder("Submarines submerge only in sea battles (A-10.6): leave submerge out of this one.")


def _range_faults(
    rounds: int | None,
    retreat_after: int | None,
    retreat_chance: float | None,
    retreat_below: int,
    retreat_left: int | None,
) -> tuple[list[str], dict[str, int]]:
    """What is wrong with the round and retreat options' own values, all at once, and
    the values that mend every one of them, so one example is answered where two
    options were out of range.  The mends keep a strafe within the round limit, even
    where both values are in range (a landing's examples use them; a strafe past the
    limit is refused on its own, in :func:`validate`)."""
    faults: list[str] = []
    mends: dict[str, int] = {}
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        faults.append("The number of rounds must be at least 1." if rounds < 1 else
                      f"At most {MAX_ROUNDS} rounds (or no round limit: a battle fought to the end).")
        mends["rounds"] = min(max(rounds, 1), MAX_ROUNDS)
    if retreat_after is not None and not 1 <= retreat_after <= MAX_ROUNDS:
        faults.append("The attacker can retreat after round 1 at the earliest." if retreat_after < 1 else
                      f"The attacker can retreat after round {MAX_ROUNDS} at the latest (or not at all: a "
                      "battle fought to the end).")
        mends["retreat_after"] = min(max(retreat_after, 1), MAX_ROUNDS)
    if rounds is not None and retreat_after is not None:
        limit, strafe = mends.get("rounds", rounds), mends.get("retreat_after", retreat_after)
        if strafe > limit and "rounds" in mends:  # the value given stays where it can
            mends["rounds"] = strafe
        elif strafe > limit:
            mends["retreat_after"] = limit
    if retreat_chance is not None and not 0 < retreat_chance <= 100:
        faults.append("The win chance to retreat below is a percentage above 0 and at most 100.")
        mends["retreat_chance"] = 30
    if retreat_below < 0:
        faults.append("The retreat threshold cannot be negative.")
        mends["retreat_below"] = 2
    if retreat_left is not None and retreat_left < 1:
        faults.append("retreat_left counts the units left after a round: at least 1.")
        mends["retreat_left"] = 2
    return faults, mends


def _options_example(options: Mapping[str, object], *first: str) -> str:
    """``/odds aa … kind:land rounds:2``: an example setting these options."""
    return " ".join(["/odds aa …", *first, *(f"{k}:{v}" for k, v in options.items())])


def _check_wave2(battle: AABattle, prof_a: Mapping[str, UnitProfile], cat: Catalogue) -> None:
    """Refuse a second wave with units that cannot attack in this battle (refused here,
    not as the second battle's own refusal, whose example would name its attacker)."""
    elsewhere = LAND if battle.mode == "sea" else SEA
    out = [n for n, c in battle.wave2.items() if c > 0 and (prof_a[n].is_aa or prof_a[n].domain == elsewhere)]
    if not out:
        return
    wrong = ", ".join(prof_a[n].short for n in out if not prof_a[n].is_aa)
    if any(prof_a[n].is_aa for n in out):
        reason = "AA guns never attack (A-14)"
    elif elsewhere == LAND:
        reason = f"Land units ({wrong}) never fight at sea (A-10.4)"
    else:
        reason = f"Ships ({wrong}) cannot fight in a land battle (A-14.1)"
    kept = _without(battle.wave2, out.__contains__)
    raise IllegalOrder(f"{reason}: the second wave cannot bring them.", legal=[_armies_example(cat, wave2=kept)])


def _check_overland(
    battle: AABattle, prof_a: Mapping[str, UnitProfile], cat: Catalogue, mends: Mapping[str, int]
) -> None:
    """The refusals of :func:`validate` about units that came over land (``overland``)
    and retreats in an amphibious assault (A-10.3): land units from the sea never
    retreat; the aircraft and the overland units may, and the landed units fight on.
    The examples of a retreat's refusal also mend the round and retreat options out of
    range (``mends``, :func:`_range_faults`)."""
    amphibious = battle.mode == "amphibious"
    land = {n: c for n, c in battle.attacker.items() if c > 0 and prof_a[n].domain == LAND}
    if battle.overland and not amphibious:
        # As a landing: the overland units the attacker has (none: no such example).
        fits = {n: min(c, land[n]) for n, c in battle.overland.items() if land.get(n, 0)}
        raise IllegalOrder("Units that came over land matter only in an amphibious assault, beside those "
                           "landed from the sea (A-10.3): leave overland out of this battle.",
                           legal=[*([_armies_example(cat, "kind:amphibious", overland=fits)]
                                    if battle.mode == "land" and fits else []),
                                  _armies_example(cat, overland={})])  # fmt: skip
    for n, c in battle.overland.items():
        if c > land.get(n, 0):
            fits = {k: min(v, land.get(k, 0)) for k, v in battle.overland.items() if land.get(k, 0)}
            if battle.bombard and sum(fits.values()) >= sum(land.values()):
                fits = {}  # something must land for the ships to bombard
            what = cat.profile(n).short
            if prof_a[n].domain != LAND or prof_a[n].is_aa:  # aircraft, ships, AA guns: never "over land"
                reason = (f"overland lists {what}, which is not an attacking land unit: overland names only the "
                          "attacker's land units that came over land (A-10.3); its aircraft may retreat anyway.")
            else:
                reason = (f"overland lists {c} {what} but the attacker has {land.get(n, 0)} {what} among its land "
                          "units: overland is the part of the attacker's land units that came over land (A-10.3).")
            raise IllegalOrder(reason, legal=[_armies_example(cat, overland=fits)])
    if not amphibious:
        return
    if battle.bombard and land and sum(land.values()) <= sum(battle.overland.values()):
        fewer = dict(battle.overland)
        first = next(iter(fewer))
        fewer[first] -= 1
        fewer = {n: c for n, c in fewer.items() if c > 0}
        raise IllegalOrder(
            "Ships bombard only when land units come ashore from the sea (A-10.3), and every land unit of "
            "this attack came over land (overland).",
            legal=[_armies_example(cat, overland=fewer)],
        )
    if not battle.fights_on:
        return
    retreating = any(prof_a[n].domain == AIR for n, c in battle.attacker.items() if c > 0) or bool(battle.overland)
    # The same question as a land battle (no bombardment, nothing came from the sea).
    as_land = ["kind:land", *(['bombard:""'] if battle.bombard else []), *(['overland:""'] if battle.overland else [])]
    if not retreating:
        legal = [_options_example(mends, *as_land)]
        if land and battle.rounds is None:  # a round limit would be refused in turn (below)
            legal.insert(0, _armies_example(cat, "kind:amphibious", *(f"{k}:{v}" for k, v in mends.items()),
                                            overland={next(iter(land)): 1}))
        raise IllegalOrder(
            "Land units from the sea never retreat (A-10.3), and this assault has no aircraft and no units "
            "that came over land to retreat: name those with overland, or ask about a land battle.",
            legal=legal,
        )
    if battle.rounds is not None:
        raise IllegalOrder(
            "After a retreat in an amphibious assault the landed units fight on until one side is gone "
            "(A-10.3): no round limit there. A land battle takes both.",
            legal=[_options_example({"rounds": battle.rounds, **mends}, *as_land)],
        )


def setup_battle(battle: AABattle, unit: N, cat: Catalogue | None = None) -> tuple[BattleSetup[N], dict[str, int]]:
    """The two sides and round 1's starting states; also the defender's units that stay
    out of the battle (fighters over a carrier attacked only by submarines)."""
    cat = cat or catalogue()
    validate(battle, cat)
    sea = battle.mode == "sea"
    land = not sea
    prof_a = battle.profiles("attacker", cat)
    prof_d = battle.profiles("defender", cat)
    attacker = {n: c for n, c in battle.attacker.items() if c > 0}
    defender = {n: c for n, c in battle.defender.items() if c > 0}
    aside: dict[str, int] = {}
    if sea and all(prof_a[n].submarine for n in attacker) and not any(
        prof_d[n].destroyer for n in defender
    ):
        # A-10.6 / A-14.4: fighters over a carrier attacked only by submarines, with no
        # defending destroyer, do not fight and cannot be chosen as casualties.
        aside = {n: c for n, c in defender.items() if prof_d[n].domain == AIR}
        defender = {n: c for n, c in defender.items() if n not in aside}
    att = _side(
        ATTACK, attacker, prof_a, battle.ool_attacker, (battle.rules, battle.tech_attacker),
        int(battle.keep_land_unit) if land else 0, battle.submerge_attacker and sea, cat is catalogue(),
    )  # fmt: skip
    dfn = _side(
        DEFENSE, defender, prof_d, battle.ool_defender, (battle.rules, battle.tech_defender),
        False, battle.submerge_defender and sea, cat is catalogue(),
    )  # fmt: skip
    starts = _starts(battle, att, dfn, prof_a, prof_d, unit, land)
    setup = BattleSetup(att, dfn, starts, unit, sea=sea, land=land, retreat_below=battle.retreat_below,
                        low_luck=battle.low_luck)  # fmt: skip
    return setup, aside


_SIDES: dict[tuple[object, ...], Side] = {}


def _side(
    role: str,
    army: Mapping[str, int],
    profiles: Mapping[str, UnitProfile],
    order: tuple[str, ...],
    rules: tuple[str, frozenset[str]],
    keep_land: int,
    submerge: bool,
    memo: bool = True,
) -> Side:
    """The side (memoised: a side is immutable and memoises what its states hold, so a
    battle asked again, or with only the other side changed, reuses that work).  The
    profiles follow from the rules set and technologies, which are in the key."""
    if not memo:  # profiles from another catalogue than the packaged one
        return Side(role, army, profiles, order=order, keep_land=keep_land, submerge=submerge)
    key = (role, tuple(army.items()), order, rules, keep_land, submerge)
    got = _SIDES.get(key)
    if got is None:
        if len(_SIDES) > 512:
            _SIDES.clear()
        got = _SIDES[key] = Side(role, army, profiles, order=order, keep_land=keep_land, submerge=submerge)
    return got


def _aa_fire(
    battle: AABattle,
    att: Side,
    dfn: Side,
    prof_a: Mapping[str, UnitProfile],
    prof_d: Mapping[str, UnitProfile],
    unit: N,
    land: bool,
    start: State | None = None,
) -> list[tuple[N, State]]:
    """The attacker's starting states after AA fire before round 1, with their chances
    (from ``start``, a state of the attacker's side: its whole army if None)."""
    start = att.start if start is None else start
    have = att.counts(start)
    aa_value, guns, shots_per_gun, air = _aa_guns(att, dfn, prof_a, prof_d, land)
    if not air:
        return [(unit, start)]
    if shots_per_gun:
        # 1942 Second Edition: every gun fires, at most ``aa_shots`` dice each and never
        # more dice than aircraft; the attacker picks the aircraft lost (its order of loss).
        planes = sum(have[n] for n in air)
        shots = min(planes, shots_per_gun * guns)
        dist = fire_distribution([(aa_value, shots)], unit, battle.low_luck)
        out: list[tuple[N, State]] = []
        for k, w in enumerate(dist):
            if not w:
                continue
            st = list(start)
            for n in air:
                lost = min(k, st[att.slot_of(n)])
                st[att.slot_of(n)] -= lost
                k -= lost
            out.append((w, tuple(st)))
        return out
    # A-10.5: one AA gun fires one die per attacking aircraft; dice are grouped per
    # aircraft type (ruling), hit aircraft are removed at once.
    per_type = {n: fire_distribution([(aa_value, have[n])], unit, battle.low_luck) for n in air}
    outcomes: list[tuple[N, State]] = []
    for shot in product(*(range(len(per_type[n])) for n in air)):
        w = unit
        st = list(start)
        for n, k in zip(air, shot):
            w = w * per_type[n][k]
            st[att.slot_of(n)] -= k
        if w:
            outcomes.append((w, tuple(st)))
    return outcomes


def _aa_guns(
    att: Side, dfn: Side, prof_a: Mapping[str, UnitProfile], prof_d: Mapping[str, UnitProfile], land: bool
) -> tuple[int, int, int, list[str]]:
    """AA fire before round 1 (A-10.5): the guns' hit value, how many guns, their shots
    each (0: one die per aircraft, the Anniversary rule) and the aircraft types fired
    at, in the attacker's order of loss (none: no AA fire)."""
    guns = [n for n in dfn.army if prof_d[n].is_aa]
    aa_value = max((prof_d[n].aa_hit for n in guns), default=0)
    air = [n for n in att.order if prof_a[n].domain == AIR] if land and aa_value else []
    shots_per_gun = max((prof_d[n].aa_shots for n in guns), default=0)
    return aa_value, sum(dfn.army[n] for n in guns), shots_per_gun, air


def _aa_fire_many(
    battle: AABattle, att: Side, dfn: Side, prof_a: Mapping[str, UnitProfile], prof_d: Mapping[str, UnitProfile],
    unit: N, land: bool, forces: Any,
) -> list[tuple[Any, Any, Any]]:
    """:func:`_aa_fire` for many forces at once: ``forces`` (F, slots), states of
    ``att``.  Returns, per pattern of AA hits, ``(f, states, w)``: the forces ``f`` it
    may befall, their states after it and its chances (arrays; the states of one
    pattern are distinct, as the forces are)."""
    import numpy as np

    aa_value, guns, shots_per_gun, air = _aa_guns(att, dfn, prof_a, prof_d, land)
    dtype = float if isinstance(unit, float) else object
    if not air:
        return [(np.arange(len(forces)), forces, np.full(len(forces), unit, dtype=dtype))]
    slots = [att.slot_of(n) for n in air]
    have = forces[:, slots]  # (F, air types)

    def table(most: int) -> Any:
        """``P[c, k]``: the chance of ``k`` hits from ``c`` AA dice."""
        P = np.zeros((most + 1, most + 1), dtype=dtype)
        for c in range(most + 1):
            dist = fire_distribution([(aa_value, c)], unit, battle.low_luck)  # low luck: may be shorter
            P[c, : len(dist)] = dist
        return P

    out: list[tuple[Any, Any, Any]] = []
    if shots_per_gun:  # 1942 Second Edition (see _aa_fire): the k hits by order of loss
        shots = np.minimum(have.sum(axis=1), shots_per_gun * guns)
        P = table(int(shots.max()))
        for k in range(int(shots.max()) + 1):
            f = np.flatnonzero((shots >= k) & (P[shots, k] != 0))
            st = forces[f].copy()
            left = np.full(len(f), k)
            for col, slot in enumerate(slots):
                lost = np.minimum(left, have[f, col])
                st[:, slot] -= lost
                left -= lost
            out.append((f, st, P[shots[f], k]))
        return out
    tables = [table(int(have[:, col].max())) for col in range(len(air))]
    for shot in product(*(range(len(t)) for t in tables)):
        ok = (have >= np.array(shot)).all(axis=1)
        f = np.flatnonzero(ok)
        w = np.full(len(f), unit, dtype=dtype)
        st = forces[f]  # a copy (fancy indexing)
        for col, (slot, k) in enumerate(zip(slots, shot)):
            w = w * tables[col][have[f, col], k]
            st[:, slot] -= k
        nz = w != 0
        out.append((f, st, w) if nz.all() else (f[nz], st[nz], w[nz]))
    return out


def bombarding(battle: AABattle, prof_a: Mapping[str, UnitProfile], landing: int) -> list[tuple[int, int]]:
    """The dice of shore bombardment as (value, dice) pairs: battleships and cruisers
    fire once each, with their attack dice (two for the Global-1940 battleship, G-10),
    at most one ship per land unit landing (A-10.3; every attacking land unit but those
    that came over land lands from the sea here), or under G-10 one of each kind per
    land unit; the strongest ships fire."""
    ships = sorted(
        ((prof_a[n].attack, prof_a[n].attack_dice, n) for n, c in battle.bombard.items() for _ in range(c)),
        key=lambda ship: (ship[0] * ship[1], ship[0]), reverse=True,
    )  # fmt: skip
    if bombard_limit(battle.rules) == "one_per_land_unit":
        ships = ships[:landing]
    else:
        fired: dict[str, int] = {}  # by kind: a damaged battleship is a battleship
        kept = []
        for ship in ships:
            kind = prof_a[ship[2]].damaged_of or ship[2]
            if fired.get(kind, 0) < landing:
                fired[kind] = fired.get(kind, 0) + 1
                kept.append(ship)
        ships = kept
    return [(value, dice) for value, dice, _ in ships]


def _starts(
    battle: AABattle,
    att: Side,
    dfn: Side,
    prof_a: Mapping[str, UnitProfile],
    prof_d: Mapping[str, UnitProfile],
    unit: N,
    land: bool,
) -> list[Start[N]]:
    aa_outcomes = _aa_fire(battle, att, dfn, prof_a, prof_d, unit, land)
    bombard: list[tuple[N, State]] = [(unit, dfn.start)]
    if battle.mode == "amphibious" and battle.bombard:
        landing = sum(c for n, c in att.army.items() if prof_a[n].domain == LAND) - sum(battle.overland.values())
        dist = fire_distribution(bombarding(battle, prof_a, landing), unit, battle.low_luck)
        bombard = [(q, dfn.take(dfn.start, h)) for h, q in enumerate(dist) if q]
    return [
        Start(wa * wd, a, d, dfn.start) for wa, a in aa_outcomes for wd, d in bombard
    ]


def aa_odds(
    battle: AABattle,
    *,
    exact: bool = False,
    engine: str = "auto",
    max_states: int | None = None,
    max_units: int | None = None,
    max_cells: int | None = None,
    eps: float = 1e-18,
    max_work: int | None = None,
    max_starts: int | None = None,
    max_table: int | None = None,
    max_naval_table: int | None = None,
    offer_biggest: bool = False,
) -> AAOdds:
    """Exact odds of ``battle``.

    ``engine`` is ``"auto"`` (fast when no submarine takes part), ``"fast"`` or
    ``"general"``.  ``max_units`` (per side: a battle past it is refused with the same
    battle scaled down alike to fit, :class:`TooManyUnits`; with ``offer_biggest``
    computed and offered, or if past the other limits their offer), ``max_cells`` (size of the fast engine's
    table, checked before any work), ``max_states`` (states the general engine
    processes), ``max_work`` (outer product terms and casualty cells of its numpy
    solves, all of them together, checked before each batch), ``max_starts``
    (starting points of the battle a second wave fights joined by the first wave's
    units still fighting, :attr:`AABattle.wave2_joins`) and ``max_table`` (that
    battle's table in the merged engine: attacker states times columns, checked before
    it is fought) and ``max_naval_table`` (the cells of the submarine solves' mass table,
    its memory, checked before it grows) cap the work and raise a :class:`PlayerError`
    beyond; ``None`` means no cap.  A battle past one of them is refused with the battle
    at a quarter of every force as what would be legal (a joined second wave's with its
    own advice); with ``offer_biggest``, with the biggest battle of the same forces
    scaled down that a few tries found answered under the same limits first
    (:func:`_biggest_answered`; Discord's offer, ``Offering.offered``)."""
    if max_units is not None and max(_sizes(battle).values()) > max_units:
        validate(battle)  # the rules' refusals first: the battle scaled down would have the same fault
        _refuse_oversized(battle, max_units, engine, eps, offer_biggest and not exact,
                          dict(max_states=max_states, max_cells=max_cells, max_work=max_work, max_starts=max_starts,
                               max_table=max_table, max_naval_table=max_naval_table))
    def limits_afresh() -> tuple[int | None, int | None, Work]:
        return max_states, max_cells, Work(max_work, starts=max_starts, table=max_table, naval_table=max_naval_table)

    limits = limits_afresh()
    if exact and max(battle.units("attacker"), battle.units("defender")) > EXACT_MAX_UNITS:
        raise IllegalOrder(
            f"Exact fractions are for small battles (at most {EXACT_MAX_UNITS} units a side); "
            f"the float result is exact to within its printed error bound."
        )
    try:
        if exact:
            return _run(battle, Fraction(1), engine, limits, eps)
        return _run(battle, 1.0, engine, limits, eps)
    except OverLimit as err:
        offered = _biggest_answered(battle, engine, limits_afresh, eps) if offer_biggest and not exact else None
        offer = [] if offered is None else [_scaled_example(battle, offered[0])]
        if isinstance(err, TooBig):  # no advice of its own: the offer, else a quarter of every force
            quarter = _scaled_example(battle, _scaled_battle(battle, QUARTER))
            raise TooBig(err.message, legal=offer or [quarter], offered=offered) from None
        # A joined wave's (fewer rounds, a strafe…): the offer first.
        raise OverLimit(err.message, legal=[*offer, *err.legal], offered=offered) from None


def _forces(battle: AABattle) -> dict[str, dict[str, int]]:
    """The battle's forces by option name (attacker, defender, and wave2 and a landing's
    overland units if any), each without the types it has none of."""
    named = (("attacker", battle.attacker), ("defender", battle.defender), ("wave2", battle.wave2),
             ("overland", battle.overland))
    return {name: {n: c for n, c in army.items() if c > 0} for name, army in named if army}


def _sizes(battle: AABattle) -> dict[str, int]:
    """The units of each side a limit of units a side counts: the attacker, the
    defender and a second wave."""
    return {"attacker": battle.units("attacker"), "defender": battle.units("defender"),
            "second wave": sum(battle.wave2.values())}


def _fitted(battle: AABattle, max_units: int) -> AABattle:
    """``battle`` with every force scaled down alike (:func:`_scaled_battle`: the odds
    stay near, where fitting each force on its own would change who has more) at the
    biggest scale at which no side has more than ``max_units``: the counts change only
    where a count times the scale is whole, and the sides grow with the scale, so that
    scale is the last such point that fits."""
    counts = {c for force in _forces(battle).values() for c in force.values()}
    scales = sorted({k / c for c in counts for k in range(1, c + 1)})
    low, high = 0, len(scales) - 1  # scales[low] is taken when nothing fits: one of each type
    while low < high:
        middle = (low + high + 1) // 2
        if max(_sizes(_scaled_battle(battle, scales[middle])).values()) <= max_units:
            low = middle
        else:
            high = middle - 1
    return _scaled_battle(battle, scales[low])


def _refuse_oversized(battle: AABattle, max_units: int, engine: str, eps: float, offer_biggest: bool,
                      limits: dict[str, Any]) -> NoReturn:
    """Refuse ``battle``, a side of which has more than ``max_units``
    (:class:`TooManyUnits`), with the same battle scaled down to fit
    (:func:`_fitted`) as what would be legal.  With ``offer_biggest`` that battle is
    computed under the same ``limits`` (keywords of :func:`aa_odds`) and offered with its
    odds; one past them is refused in turn, and its own offer (the biggest of the
    same forces found answered) is the one made."""
    side, size = max(_sizes(battle).items(), key=lambda item: item[1])
    message = (f"At most {max_units} units per side here (the {side} has {size}); the command line"
               f" (warroom odds aa) takes up to {MOST_OF_A_KIND} of each kind.")
    fitted = _fitted(battle, max_units)
    offered: tuple[AABattle, AAOdds] | None = None
    if offer_biggest:
        try:
            offered = (fitted, aa_odds(fitted, engine=engine, eps=eps, offer_biggest=True, **limits))
        except OverLimit as refused:
            offered = refused.offered
            if offered is None:  # every try refused: a quarter of it, as for any battle past the limits
                fitted = _scaled_battle(fitted, QUARTER)
    raise TooManyUnits(message, legal=[_scaled_example(battle, fitted if offered is None else offered[0])],
                       offered=offered)


# A refused battle's offer (aa_odds' offer_biggest): how many scaled battles are tried,
# the share of the work limit a try aims at, and how fast the work grows with the
# battle's size until two tries measure it (work ~ scale ** power: the slowest kind,
# submarines and aircraft on both sides and no destroyer, ~6-7 between 25 and 56 a
# side; aiming at half the limit leaves room for a worse guess).
OFFER_TRIES = 3
OFFER_SHARE = 0.5
OFFER_POWER = 6.0


def _scaled(army: Mapping[str, int], scale: float) -> dict[str, int]:
    """A force at ``scale`` of its units (each type rounded up, none left out)."""
    return {n: max(1, math.ceil(c * scale - 1e-9)) for n, c in army.items()}  # k / c of c: k, whatever the rounding


def _scaled_battle(battle: AABattle, scale: float) -> AABattle:
    """``battle`` with every force (attacker, defender, second wave) at ``scale``, and the
    options that count units with them (rounded up, at least 1): a retreat with K units
    left (``retreat_below`` K + 1), the last N land units kept, a landing's units that
    came over land (each type rounded up as the attacker's: still a part of them)."""
    forces = _forces(battle)

    def at(name: str) -> dict[str, int]:
        return _scaled(forces.get(name, {}), scale)

    below, keep = battle.retreat_below, battle.keep_land_unit
    if below > 1:
        below = math.ceil((below - 1) * scale - 1e-9) + 1
    if keep > 1:
        keep = math.ceil(keep * scale - 1e-9)
    return replace(battle, attacker=at("attacker"), defender=at("defender"), wave2=at("wave2"),
                   overland=at("overland"), retreat_below=below, keep_land_unit=keep)


def _scaled_example(battle: AABattle, scaled: AABattle) -> str:
    """``scaled`` (:func:`_scaled_battle`) as an example of what would be legal instead of
    ``battle``: its forces, and the counts of units that changed."""
    options = []
    if scaled.retreat_below != battle.retreat_below:
        options.append(f"retreat_left:{scaled.retreat_below - 1}")
    if scaled.keep_land_unit != battle.keep_land_unit:
        options.append(f"keep_land_units:{scaled.keep_land_unit}")
    return _armies_example(catalogue(), *options, **_forces(scaled))


def _biggest_answered(
    battle: AABattle, engine: str, limits: Callable[[], tuple[int | None, int | None, Work]], eps: float
) -> tuple[AABattle, AAOdds] | None:
    """The biggest battle of ``battle``'s forces scaled down found answered within
    ``limits`` (a fresh set for each try) in at most OFFER_TRIES tries, and its odds;
    or None.  The first try is a quarter (halved while refused); each one answered
    aims the next at OFFER_SHARE of the work limit, from the work it measured (growing
    as OFFER_POWER, or as the two biggest tries answered measured it), below the
    smallest scale refused; without a work limit, halfway there.  The offer is a
    battle answered, not a guess: each try is the battle computed in full (a refused
    try costs up to the limit's work, so a refusal's offer costs a few times its
    work)."""
    answer: tuple[AABattle, AAOdds] | None = None
    refused = 1.0
    done: list[tuple[float, int]] = []  # (scale, work) of the tries answered, the biggest last
    scale = QUARTER
    for _ in range(OFFER_TRIES):
        smaller = _scaled_battle(battle, scale)
        fresh = limits()
        try:
            odds = _run(smaller, 1.0, engine, fresh, eps)
        except OverLimit:
            refused = scale
        except PlayerError:
            return answer  # a scaled battle that is not a legal one
        else:
            answer = (smaller, odds)
            done.append((scale, fresh[2].done))
        if answer is None:
            following = scale / 2
        else:
            best = done[-1][0]
            following = (best + refused) / 2
            limit = fresh[2].limit
            if limit is not None:
                power = OFFER_POWER
                if len(done) > 1:
                    (s1, w1), (s2, w2) = done[-2:]
                    if w1 > 0 and w2 > w1:
                        power = min(max(math.log(w2 / w1) / math.log(s2 / s1), 2.0), 10.0)
                aimed = best * (OFFER_SHARE * limit / max(done[-1][1], 1)) ** (1 / power)
                if aimed < refused:
                    following = aimed
        after = _scaled_battle(battle, following)
        if after == smaller or (answer is not None and (following <= done[-1][0] or after == answer[0])):
            break  # the same forces again (rounded up), or no bigger than the best answered
        scale = following
    return answer


# What a battle past a work limit could ask instead, untried (aa_odds without
# offer_biggest, or where every try was refused): the battle at a quarter
# (:func:`_scaled_battle`).  A battle's work grows with a power of its size past the
# square: the slowest kind (submarines and aircraft on both sides, no destroyer) is
# refused at 100 a side and its quarter answered in ~0.4 s, ~1 s with a retreat by win
# chance, ~1.7 s at 120 a side with one (the slow machine of 2026-12-02).
QUARTER = 0.25


def _run(
    battle: AABattle, unit: N, engine: str, limits: tuple[int | None, int | None, Work], eps: float,
    starts: Sequence[Start[N]] | None = None, report: bool = True, max_table: int | None = None,
    ends: Ends | None = None, share: Any = 1,
) -> AAOdds:
    """``starts``: round 1's starting points instead of the battle's own (a second wave
    against every state the first left, :func:`_second_wave_once`); ``report`` False:
    the chances only, without the survivors and losses (a second wave's battles, whose
    survivors nobody reads: summing them by state is most of a big table's report);
    ``max_table``: the merged table engine's cap on its table (the battle a second wave
    joined by the first wave's units fights, :attr:`Work.table`); ``ends``: where to put
    the battle's ``share`` of the whole attack, setup, units kept aside and tally (its
    final states: a landing's second wave attacks the survivors of the battles the
    landed units fight on, :func:`_fight_on`)."""
    max_states, max_cells, work = limits
    cat = catalogue()
    setup, aside = setup_battle(battle, unit, cat)
    if starts is not None:
        setup = replace(setup, starts=starts)
    subs = setup.attacker.has(setup.attacker.start, "submarine") or setup.defender.has(
        setup.defender.start, "submarine"
    )
    limit = battle.retreat_after if battle.strafes else battle.rounds  # a strafe comes by the round limit
    # A second wave joined by the first wave's units still fighting: the general engine
    # keeps those pairs of states.
    joins = battle.wave2_joins
    # An amphibious assault with a retreat: the engines keep the pairs the attacker
    # retreats from, where the landed units fight on (_fight_on).
    fights_on = battle.fights_on
    # The pairs still fighting after the last round: kept for a joined wave, and after a
    # strafe's round for the landed units fighting on.
    keep_pairs = joins or (fights_on and battle.strafes)
    if fights_on:
        # The merged table engine (decimals, past small battles: with one attacker
        # block too, where AA fire does not split it) and the general engine keep those
        # pairs, and the pairs the attacker retreats from.
        engine = "merged" if (
            engine == "auto" and isinstance(unit, float) and table_cells(setup) > SMALL_CELLS_ROUNDS
        ) else "general"  # fmt: skip
    elif joins:
        # The merged table engine keeps those pairs too (big land battles with AA fire).
        engine = "merged" if (
            engine == "auto" and isinstance(unit, float) and not subs and battle.retreat_chance is None
            and table_cells(setup) > SMALL_CELLS_ROUNDS and _merges(setup)
        ) else "general"  # fmt: skip
    if engine == "auto":
        engine = "general" if subs else "fast"
    if engine == "fast" and subs:
        raise ValueError("the fast engine cannot handle submarines")
    tally: Tally[N]
    unsure = 0.0  # what decisions of a retreat by win chance left open could move
    sides: NumberedSides | None = None
    done: Any = None  # a whole battle already answered (the strike pass's retreat by win chance)
    stuck = stuck_start(setup, battle, unit, pairs=joins)
    if stuck is not None:
        done = stuck
    elif battle.retreat_chance is not None:
        if not isinstance(unit, float):
            raise IllegalOrder(
                "Retreating by win chance is computed in decimals (not exact fractions).",
                legal=["/odds aa … retreat_chance:30", "/odds aa … retreat_left:2"],
            )
        # The strike pass (numba), where one side's submarines strike every round: the
        # whole battle, or with a round limit the pairs to retreat from (its round walk
        # then takes the battle, and keeps the pairs a joined second wave meets).
        struck: tuple[AbstractSet[tuple[State, State]], float] | None = None
        if subs and limit is None and not joins:
            from engine.odds.aa_strike import retreat_by_chance

            done = retreat_by_chance(setup, battle.retreat_chance / 100, max_states, work)
        elif subs:  # a round limit (a joined second wave has one too)
            from engine.odds.aa_strike import retreat_pairs as strike_retreat_pairs

            struck = strike_retreat_pairs(setup, battle.retreat_chance / 100, max_states, work)
        if done is None:  # the pairs to retreat from, then the battle below
            if struck is not None:
                setup = replace(setup, retreat_at=struck[0])
                unsure = struck[1]
            elif subs or engine == "general":  # its own backward pass (the table engine has one)
                from engine.odds.aa_retreat import retreat_pairs

                found: list[NumberedSides] = []
                # Fought to the end: the battle with the retreats may come as the traced
                # solve's correction (engine.odds.aa_naval.corrected).
                fought: list[Tally[float]] | None = [] if limit is None and not keep_pairs and not fights_on else None
                pairs, unsure = retreat_pairs(setup, battle.retreat_chance / 100, max_states, sides=found,
                                              work=work, battle=fought)  # fmt: skip
                setup = replace(setup, retreat_at=pairs)
                sides = found[0] if found else None
                if fought:
                    done = fought[0].add_drift()
            elif engine != "merged":
                engine = "fast"
    small = SMALL_CELLS if limit is None else SMALL_CELLS_ROUNDS
    if done is not None:
        tally = done
        # the strike pass's, or stuck_start's; the numpy passes' corrected (aa_retreat)
        engine = "general" if subs or engine == "general" else "fast"
    elif engine == "merged" and isinstance(unit, float):
        from engine.odds.aa_merged import MergedTable

        merged = MergedTable(setup, max_cells)
        merged.pairs = [] if keep_pairs else None
        merged.retreat_pairs = [] if fights_on else None
        if battle.retreat_chance is not None:  # a landing's (a joined wave has none)
            merged.win_chance_cuts(battle.retreat_chance / 100)
        tally = merged.run(limit)
        engine = "fast"
    elif engine == "fast" and isinstance(unit, float) and (
        table_cells(setup) > small or battle.retreat_chance is not None or (limit is None and _rows_compiled(setup))
    ):
        from engine.odds.aa_merged import table_engine  # numpy: imported for big battles only

        table = table_engine(setup, max_cells, max_table, to_the_end=limit is None and battle.retreat_chance is None)
        table.report_ends = report  # without a report nobody reads the final states
        if battle.retreat_chance is not None:
            table.win_chance_cuts(battle.retreat_chance / 100)
        tally = table.run(limit)
    elif engine == "fast":
        fast = FastEngine(setup, eps=eps, max_cells=max_cells)
        tally = fast.run(limit)
    elif engine == "general":
        from engine.odds.aa_general import GeneralEngine

        # A retreat by win chance: the first solve's stored results (sides) are reused.
        general = GeneralEngine(setup, max_states=max_states, work=work, sides=sides)
        tally = general.run(limit, pairs=keep_pairs, retreats=fights_on, strafe=battle.strafes)
    else:
        raise ValueError(f"unknown engine {engine}")
    tally.dropped += unsure
    if battle.strafes:
        # Strafe: whatever still fights after the last round retreats (A-10.15).
        tally.outcome[RETREAT] += tally.outcome[UNFINISHED]
        tally.outcome[UNFINISHED] -= tally.outcome[UNFINISHED]
    if ends is not None:
        ends.append((share, setup, aside, tally))
    odds = _result(battle, setup, aside, tally, engine, cat, report)
    first_wave = tally  # where the second wave finds the defender's survivors
    if fights_on:
        whole, error, losses, first_wave = _fight_on(battle, setup, aside, tally, cat, limits, eps, odds)
        odds = replace(odds, fight_on=whole, fight_on_losses=losses, error_bound=odds.error_bound + error)
    if battle.wave2:
        second, error = _second_wave(battle, setup, aside, first_wave, cat, limits, eps)
        # The error bound covers the second wave's chances too (its battles' own bounds,
        # weighted; what the first left out already bounds how far its states may be off).
        odds = replace(odds, second_wave=second, error_bound=odds.error_bound + error)
    if odds.error_bound > 1.0:  # no chance is off by more than 1
        odds = replace(odds, error_bound=1.0)
    return odds


def _rows_compiled(setup: BattleSetup[float]) -> bool:
    """Whether the table engine's compiled rows take ``setup`` ahead of the fast engine
    (:func:`engine.odds.aa_table.rows_compiled_first`); only asked where numba is
    loaded, so numpy and the table engine are loaded already."""
    if not compiled.numba_loaded():
        return False
    from engine.odds.aa_table import rows_compiled_first

    return rows_compiled_first(setup)


def stuck_start(setup: BattleSetup[N], battle: AABattle, unit: N, pairs: bool = False) -> Tally[N] | None:
    """The battle at sea whose one start nobody can hit in (aircraft against submarines
    with no destroyer, transports against transports), or None for any other.  Round 1 is
    fought all the same (A-10.4: rounds repeat until a side is gone or the attacker
    retreats, and A-10.9: it retreats at the end of a round) and changes nothing; then
    the end-of-round rules act: a retreat below K units, a strafe or round limit of 1
    (a retreat, or still fighting), a retreat by win chance (fighting on never wins:
    0 % is below any threshold, the ruling of :mod:`engine.odds.aa_retreat`), else a
    stalemate.  Every engine answered that before but the general engine's float passes,
    which settled such a start before round 1: no round fought, and a stalemate where
    the attacker retreats.  ``pairs``: a second wave joins the units still fighting
    after the round limit, so the start, still fighting, is kept (:attr:`Tally.pairs`)."""
    if not setup.sea or len(setup.starts) != 1:
        return None
    start = setup.starts[0]
    if start.defender_fires_as != start.defender:
        return None
    outcome, a, d = setup.settle(start.attacker, start.defender, after_round=False)
    if outcome is not None:
        return None
    for side, st in ((setup.attacker, a), (setup.defender, d)):  # what a start nobody can hit in is made of
        if not all(n == 0 or side.profiles[slot.unit].domain == AIR or side.profiles[slot.unit].submarine
                   or side.profiles[slot.unit].transport for slot, n in zip(side.slots, st)):  # fmt: skip
            return None
    from engine.odds.aa_general import GeneralEngine

    if any(a2s.keys() != {a} or d2s.keys() != {d} for _, a2s, d2s in GeneralEngine(setup).factors(a, d)):
        return None
    tally = Tally.empty(unit)
    tally.rounds = start.weight
    if pairs:
        tally.pairs = {}
    outcome, a, d = setup.settle(a, d)
    if outcome is None:
        limit = battle.retreat_after if battle.strafes else battle.rounds
        if battle.retreat_chance is not None:
            outcome = RETREAT  # the retreat rules act after the last round too
        elif limit == 1:
            outcome = UNFINISHED  # a strafe after round 1 retreats (below)
        else:
            outcome = STALEMATE
    tally.record(outcome, a, d, start.weight, setup.takes(a))
    return tally


class Fights(NamedTuple):
    """A second wave's battles: attacking force ``forces[f[i]]`` against the first
    battle's final defender state ``defenders[d[i]]``, chance ``w[i]`` (numpy arrays;
    ``w`` of Fraction objects in exact mode), each pair once."""

    forces: list[dict[str, int]]
    defenders: list[State]
    f: Any
    d: Any
    w: Any

    def part(self, rows: Any) -> "Fights":
        return Fights(self.forces, self.defenders, self.f[rows], self.d[rows], self.w[rows])


def _second_wave(
    battle: AABattle, setup: BattleSetup[N], aside: Mapping[str, int], tally: Tally[N], cat: Catalogue,
    limits: tuple[int | None, int | None, Work], eps: float, one_solve: bool = True,
) -> tuple[dict[str, float], float]:
    """The whole attack when ``wave2`` attacks whatever the first wave left: for every
    final defender state, the odds of the second battle (same rules, dice, orders of
    loss, technologies; no bombardment, no round limit, no retreat), weighted, and the
    bound on their error (their battles' error bounds, weighted).  Where a round limit
    stopped the first wave with both sides fighting (``tally.pairs``), its units still
    there join the second wave: that force against those survivors.  All these battles
    are one battle with a start per pair (:func:`_second_wave_once`; at sea forces of
    submarines alone make a second) unless ``one_solve`` is False or the states do not
    fit one; the caller's limits apply to it (to each battle otherwise; the work limit
    to all of them together).  The pairs are handled as arrays (a big first wave leaves
    hundreds of thousands)."""
    import numpy as np  # a second wave's pairs as arrays

    from engine.odds.aa_table import sum_by

    prof_w = battle.profiles("attacker", cat)
    sea = battle.mode == "sea"
    wave_takes = any(prof_w[n].takes_territory for n in battle.wave2)
    wave_air = any(prof_w[n].domain == AIR for n in battle.wave2)
    dfn = setup.defender
    zero = setup.unit - setup.unit
    # On land a first wave that took the territory (a land unit left, A-10.10) leaves it
    # to the second, AA guns and all (captured with it).
    took = tally.takes if not sea and tally.takes is not None else zero
    total = {"attacker_win": float(took), "attacker_takes": float(took), "defender_win": 0.0, "draw": 0.0}
    dtype = float if isinstance(setup.unit, float) else object  # exact: Fraction objects
    survivors = _survivors_of(dfn, aside)

    # The forces: the second wave alone (number 0), and joined by the first wave's units
    # in each state it was left in (states with the same units, such as a battleship
    # damaged or not, are one force).
    numbered = _Forces()
    forces = numbered.forces

    numbered.id(battle.wave2)
    d_ids: dict[State, int] = {}
    alone = dict(tally.defender_end)  # the first wave gone: the second attacks alone
    fs, ds, ws = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=dtype)]
    if tally.pairs:
        pairs = PairTable.of(tally.pairs)
        names = sorted({slot.unit for slot in setup.attacker.slots} | set(battle.wave2))
        fid = _state_forces(setup.attacker, pairs.attackers, names, numbered, more=battle.wave2)
        dmap = np.array([d_ids.setdefault(st, len(d_ids)) for st in pairs.defenders], dtype=np.int64)
        u, sums = sum_by(pairs.d, pairs.w, zero)
        for j, mass in zip(u.tolist(), sums.tolist()):
            alone[pairs.defenders[j]] -= mass
        fs.append(fid[pairs.a])
        ds.append(dmap[pairs.d])
        ws.append(pairs.w)
    left = [(st, mass) for st, mass in alone.items() if mass > 0 and dfn.alive(st) > 0]
    # Every other end of the first wave left no defending unit: it won without taking the
    # territory (aircraft alone), both sides died, AA fire shot all its aircraft down over
    # a lone AA gun, or at sea it won (the defender's submarines submerged or not). The
    # second wave walks in (A-10.10's ruling: it wins, and takes the territory with a land
    # unit; at sea it takes what it wins), unless something there still fires at it: AA
    # guns (on land, at its aircraft, A-10.5), or at sea the defender's aircraft kept out
    # of the first battle by its submarines alone (A-10.6): it fights them.
    gone = [(st, mass) for st, mass in alone.items() if mass > 0 and dfn.alive(st) == 0]
    rest = sum((mass for _, mass in gone), zero) - took
    error = 0.0
    if gone and rest > 0:
        # On land the ends with no defending unit are one state (AA guns are never lost,
        # A-10.5); at sea the second wave meets the aircraft kept out, if any.
        at = gone[0][0] if not sea else tuple(0 for _ in dfn.slots)
        if sea and survivors(at):
            left.append((at, rest))
        elif survivors(at) and wave_air:
            # The guns alone: a battle of its own, whose defender never fought (all the
            # aircraft shot down and no land unit: the defender holds, not a trade, as
            # for one battle). In the battle of every other start it would be a trade.
            part, part_error = _shares(float(rest), _run(_wave_battle(battle, battle.wave2, survivors(at)),
                                                           setup.unit, "auto", limits, eps, report=False))
            error += part_error
            for k, value in part.items():
                total[k] += value
        else:
            total["attacker_win"] += float(rest)
            total["attacker_takes"] += float(rest) if sea or wave_takes else 0.0
    ds.append(np.array([d_ids.setdefault(st, len(d_ids)) for st, _ in left], dtype=np.int64))
    fs.append(np.zeros(len(left), dtype=np.int64))  # force 0: the second wave alone
    ws.append(np.array([mass for _, mass in left], dtype=dtype))
    f, d, w = _pairs_summed(fs, ds, ws, len(d_ids), zero)
    fights = Fights(forces, list(d_ids), f, d, w)
    cap = limits[2].starts if battle.wave2_joins else None
    pairs_n = len(w)
    # On land every (force, survivors) pair is at least one start of the joined battle
    # (its outcome "AA fire hits nothing" is that force's own state): refused before the
    # AA fire is worked out.
    if cap is not None and battle.mode != "sea" and pairs_n > cap:
        raise too_many_starts(cap, battle.rounds or 0)
    parts, part_error = _fight_all(battle, fights, survivors, setup.unit, cat, limits, eps, one_solve, cap)
    for k, value in parts.items():
        total[k] += value
    return {k: chance(v) for k, v in total.items()}, error + part_error


def _pairs_summed(fs: list[Any], ds: list[Any], ws: list[Any], n_d: int, zero: Any) -> tuple[Any, Any, Any]:
    """The pairs (force ``fs``, defender state ``ds``: int arrays, a part each) with their
    chances ``ws`` summed by pair: ``(f, d, w)``, the pairs by force then defender (one
    key each, ``f * n_d + d``: a small range, counted rather than sorted)."""
    import numpy as np

    from engine.odds.aa_table import sum_by

    key, w = sum_by(np.concatenate(fs) * max(n_d, 1) + np.concatenate(ds), np.concatenate(ws), zero)
    f, d = np.divmod(key, max(n_d, 1))
    return f, d, w


class _Forces:
    """Attacking forces (units by type), numbered as they first come: equal ones (a
    battleship damaged or not) are one number."""

    def __init__(self) -> None:
        self.forces: list[dict[str, int]] = []
        self._ids: dict[tuple[tuple[str, int], ...], int] = {}

    def id(self, units: Mapping[str, int]) -> int:
        return self.key_id(tuple(sorted((n, c) for n, c in units.items() if c > 0)))

    def key_id(self, key: tuple[tuple[str, int], ...]) -> int:
        """:meth:`id` of the force ``key`` (its units by type, by name, none of 0)."""
        if key not in self._ids:
            self._ids[key] = len(self.forces)
            self.forces.append(dict(key))
        return self._ids[key]


def _survivors_of(dfn: Side, aside: Mapping[str, int]) -> Callable[[State], dict[str, int]]:
    """The defender's units in a final state of a first battle (and those kept aside),
    memoised; a battleship listed as damaged counts as intact again, as one damaged in
    the first wave does (the ruling of docs/odds.md, Second wave)."""
    held: dict[State, dict[str, int]] = {}

    def survivors(st: State) -> dict[str, int]:
        if st not in held:
            units: Counter[str] = Counter()
            for n, c in (Counter(dfn.counts(st)) + Counter(aside)).items():
                units[dfn.profiles[n].damaged_of or n] += c
            held[st] = dict(units)
        return held[st]

    return survivors


def _fight_all(
    battle: AABattle, fights: Fights, survivors: Callable[[State], dict[str, int]], unit: N, cat: Catalogue,
    limits: tuple[int | None, int | None, Work], eps: float, one_solve: bool, cap: int | None,
    kept: list[tuple[float, AAOdds]] | None = None,
    ends: Ends | None = None,
) -> tuple[dict[str, float], float]:
    """Every battle of ``fights`` (a force against the survivors of a first battle's
    final state, :func:`_wave_battle`'s rules): the chances of the outcomes they add to
    the whole attack (their masses in ``fights.w``), and their error bounds, weighted.
    One battle with a start per pair (:func:`_second_wave_once`) unless ``one_solve`` is
    False or the states do not fit one; then a battle per pair (refused beyond ``cap``
    pairs).  ``kept``: where to put each battle's whole report, with its share;
    ``ends``: each battle's setup, kept units and tally, with its share (see
    :func:`_second_wave_once`)."""
    import numpy as np

    prof_w = battle.profiles("attacker", cat)
    total = {"attacker_win": 0.0, "attacker_takes": 0.0, "defender_win": 0.0, "draw": 0.0}
    error = 0.0
    # At sea forces of submarines alone fight apart: the defender's aircraft may stay out
    # of their battles (A-10.6).
    sea = battle.mode == "sea"
    apart = np.array([sea and all(prof_w[n].submarine for n in force) for force in fights.forces], dtype=bool)
    for subs in (False, True):
        rows = np.flatnonzero(apart[fights.f] == subs)
        if not len(rows):
            continue
        group = fights.part(rows)
        once = _second_wave_once(battle, group, survivors, unit, cat, limits, eps, kept, ends) if one_solve else None
        if once is None and cap is not None and len(fights.w) > cap:  # a battle per pair: too many
            raise too_many_starts(cap, battle.rounds or 0)
        parts = [once] if once is not None else []
        for f, j, mass in zip(group.f.tolist(), group.d.tolist(), group.w.tolist()) if once is None else ():
            odds = _run(_wave_battle(battle, fights.forces[f], survivors(group.defenders[j])), 1.0, "auto", limits,
                        eps, report=kept is not None or ends is not None, ends=ends, share=mass)
            if kept is not None:
                kept.append((float(mass), odds))
            parts.append(_shares(float(mass), odds))
        for part, part_error in parts:
            error += part_error
            for k, value in part.items():
                total[k] += value
    return total, error


def _fight_on(
    battle: AABattle, setup: BattleSetup[N], aside: Mapping[str, int], tally: Tally[N], cat: Catalogue,
    limits: tuple[int | None, int | None, Work], eps: float, first: AAOdds,
) -> tuple[dict[str, float], float, dict[str, Any] | None, Tally[N]]:
    """The whole of an amphibious assault with a retreat (:attr:`AABattle.fights_on`):
    where the attacker retreats (``tally``'s pairs: still fighting after the strafe's
    round, or retreating below its number of units or by win chance), the aircraft and the units that
    came over land leave and the units landed from the sea fight on against the
    defender's survivors until one side is gone (A-10.3 and its ruling; the battle goes
    on: no new AA fire, no bombardment, no retreat).  Where none of them is left the
    retreat ends the assault: the defender holds.  Returns the whole assault's chances
    (the keys of :func:`_second_wave`), the error bound its later battles add, and (when
    ``first``, the odds up to the retreat, has a report) its expected survivors and
    losses (:attr:`AAOdds.fight_on_losses`), and what a second wave attacks: where one
    follows, the whole assault's final defender states and the mass that took the
    territory (a tally with those alone), else ``tally``."""
    import numpy as np

    zero = setup.unit - setup.unit
    prof_a = battle.profiles("attacker", cat)
    out = tally.outcome
    total = {"attacker_win": out[ATTACKER], "attacker_takes": tally.takes if tally.takes is not None else zero,
             "defender_win": out[DEFENDER] + out[STALEMATE] + out[UNFINISHED], "draw": out[DRAW]}
    whole = {k: float(v) for k, v in total.items()}
    # The pairs retreated from: after the strafe's round (the pairs still fighting then,
    # arrays from the merged table engine) and below the number of units.
    tables = [PairTable.of(kept) for kept in (tally.pairs, tally.retreats) if kept]
    expected = {who: dict(first.expected_survivors[who]) for who in ("attacker", "defender")}
    report = bool(first.expected_survivors)
    # The whole assault's ends for a second wave: the first part's, those where the
    # landed units fight on replaced by the ends of their battles (below).
    after: Tally[N] = tally if not battle.wave2 else Tally(
        dict(out), defender_end=dict(tally.defender_end), takes=tally.takes if tally.takes is not None else zero)
    if not tables:
        losses = _whole_losses(battle, cat, expected) if report else None
        return {k: chance(v) for k, v in whole.items()}, 0.0, losses, after
    numbered = _Forces()
    forces = numbered.forces

    d_ids: dict[State, int] = {}
    fs: list[Any] = []
    ds: list[Any] = []
    ws: list[Any] = []
    # The units landed from the sea in each attacker state: its land units but those that
    # came over land.  **Ruling** (docs/odds.md): within a type the landed units are lost
    # first (they can never retreat; the ones that came over land can), so a type's
    # overland units are the last of it to go.
    landed = sorted({slot.unit for slot in setup.attacker.slots if prof_a[slot.unit].domain == LAND})
    for table in tables:
        fid = _state_forces(setup.attacker, table.attackers, landed, numbered, less=battle.overland)
        dmap = np.array([d_ids.setdefault(st, len(d_ids)) for st in table.defenders], dtype=np.int64)
        f, w = fid[table.a], table.w
        gone = f < 0  # nobody landed is left: everything retreats, the defender holds
        if gone.any():
            whole["defender_win"] += float(w[gone].sum() if w.dtype != object else sum(w[gone].tolist(), zero))
        fs.append(f[~gone])
        ds.append(dmap[table.d[~gone]])
        ws.append(w[~gone])
    error = 0.0
    f, d, w = _pairs_summed(fs, ds, ws, len(d_ids), zero)
    if len(w):
        fights = Fights(forces, list(d_ids), f, d, w)
        survivors = _survivors_of(setup.defender, aside)
        later: list[tuple[float, AAOdds]] | None = [] if report else None
        ends: Ends | None = [] if battle.wave2 else None
        parts, error = _fight_all(battle, fights, survivors, setup.unit, cat, limits, eps, True, None, later, ends)
        for k, value in parts.items():
            whole[k] += value
        if ends is not None:
            _fought_on_ends(setup.defender, aside, fights, ends, after)
        # The survivors: those at the end of the first part, but where the landed units
        # fight on, theirs and the defender's at the end of that battle instead.
        for f, j, mass in zip(fights.f.tolist(), fights.d.tolist(), fights.w.tolist()) if report else ():
            for who, units in (("attacker", forces[f]), ("defender", survivors(fights.defenders[j]))):
                for n, c in units.items():
                    expected[who][n] = expected[who].get(n, 0.0) - float(mass) * c
        for share, odds in later or ():
            for who in ("attacker", "defender"):
                for n, v in odds.expected_survivors[who].items():
                    expected[who][n] = expected[who].get(n, 0.0) + share * v
    losses = _whole_losses(battle, cat, expected) if report else None
    return {k: chance(v) for k, v in whole.items()}, error, losses, after


def _fought_on_ends(
    dfn: Side, aside: Mapping[str, int], fights: Fights,
    ends: Ends, after: Tally[N],
) -> None:
    """Into ``after`` (a landing's ends, :func:`_fight_on`): the defender's states where
    the landed units fought on (``fights``) leave, and the final states of those battles
    (``ends``: each with the share of the whole its masses are fractions of) come, as
    states of the first battle's defender ``dfn`` (the same units, less those it kept
    aside); the territory taken there too."""
    zero = after.outcome[ATTACKER] - after.outcome[ATTACKER]
    for j, mass in zip(fights.d.tolist(), fights.w.tolist()):
        st = fights.defenders[j]
        after.defender_end[st] = after.defender_end.get(st, zero) - mass
    for share, setup, kept, tally in ends:
        held = _survivors_of(setup.defender, kept)
        for st, mass in tally.defender_end.items():
            units = Counter(held(st))
            units.subtract(aside)
            st1 = dfn.state_of({n: c for n, c in units.items() if c > 0})
            after.defender_end[st1] = after.defender_end.get(st1, zero) + share * mass
        after.takes = (after.takes if after.takes is not None else zero) + share * (
            tally.takes if tally.takes is not None else zero)


def _whole_losses(battle: AABattle, cat: Catalogue, expected: Mapping[str, Mapping[str, float]]) -> dict[str, Any]:
    """A whole assault's expected survivors by type (``expected``), and from them the
    units and IPCs each side loses and the TUV swing (the keys of the JSON's)."""
    survivors = {who: {n: max(v, 0.0) for n, v in units.items()} for who, units in expected.items()}
    lost: dict[str, float] = {}
    ipcs: dict[str, float] = {}
    for who, army in (("attacker", battle.attacker), ("defender", battle.defender)):
        costs = battle.profiles(who, cat)
        lost[who] = sum(army.values()) - sum(survivors[who].values())
        ipcs[who] = sum(costs[n].cost * (c - survivors[who].get(n, 0.0)) for n, c in army.items())
    return {"expected_survivors": survivors, "expected_units_lost": lost, "expected_ipc_loss": ipcs,
            "tuv_swing": ipcs["defender"] - ipcs["attacker"]}


def _state_forces(att: Side, states: Sequence[State], names: Sequence[str], numbered: _Forces,
                  more: Mapping[str, int] | None = None, less: Mapping[str, int] | None = None) -> Any:
    """The force (its number in ``numbered``; -1: no unit at all) of each of the attacker's
    ``states``: its units of the types ``names`` (ascending), plus ``more`` (a second wave joining
    them), less ``less`` (to none of a type at the least).  States with the same units by
    type (a battleship damaged or not) are one force, numbered in the order the states
    first show them.  As arrays: a big first battle leaves tens of thousands of states
    (~0.3 s as a Counter per state)."""
    import numpy as np

    from engine.odds.aa_table import row_ids

    col = {n: j for j, n in enumerate(names)}
    by_slot = np.zeros((len(att.slots), len(names)), dtype=np.int64)
    for j, slot in enumerate(att.slots):
        if slot.unit in col:
            by_slot[j, col[slot.unit]] = 1

    def per_type(army: Mapping[str, int]) -> Any:
        out = np.zeros(len(names), dtype=np.int64)
        for n, c in army.items():
            out[col[n]] += c
        return out

    counts = np.array(states, dtype=np.int64).reshape(len(states), len(att.slots)) @ by_slot
    if more:
        counts += per_type(more)
    if less:
        counts = np.maximum(counts - per_type(less), 0)
    first, at = row_ids(counts)
    ids = np.zeros(len(first), dtype=np.int64)
    assert list(names) == sorted(names), "a force's key lists its units by name"
    for u in np.argsort(first, kind="stable").tolist():
        key = tuple((names[j], c) for j, c in enumerate(counts[first[u]].tolist()) if c > 0)
        ids[u] = numbered.key_id(key) if key else -1
    return ids[at]


def _wave_battle(battle: AABattle, attacker: Mapping[str, int], defender: Mapping[str, int]) -> AABattle:
    """A second battle, ``attacker`` against ``defender``: the first battle's rules,
    dice, orders of loss and technologies; no bombardment, no round limit, no retreat."""
    return AABattle(
        attacker=dict(attacker), defender=dict(defender), mode="land" if battle.mode == "amphibious" else battle.mode,
        ool_attacker=battle.ool_attacker, ool_defender=battle.ool_defender,
        tech_attacker=battle.tech_attacker, tech_defender=battle.tech_defender,
        low_luck=battle.low_luck, rules=battle.rules, keep_land_unit=battle.keep_land_unit,
    )  # fmt: skip


def _shares(share: float, odds: AAOdds) -> tuple[dict[str, float], float]:
    """What a second battle with chance ``share`` adds to the whole attack's odds, and
    to its error bound."""
    return ({"attacker_win": share * odds.attacker_win, "attacker_takes": share * odds.attacker_takes,
             "defender_win": share * odds.defender_win, "draw": share * odds.draw},
            share * odds.error_bound)  # fmt: skip


def _second_wave_once(
    battle: AABattle, fights: Fights, survivors: Callable[[State], dict[str, int]], unit: N,
    cat: Catalogue, limits: tuple[int | None, int | None, Work], eps: float,
    kept: list[tuple[float, AAOdds]] | None = None, ends: Ends | None = None,
) -> tuple[dict[str, float], float] | None:
    """The second battles, each attacking force of ``fights`` against each final state
    of the first it meets (with its chance; the state's units are ``survivors(state)``,
    battleships repaired, A-10.8), as one battle whose round 1 starts from every one of
    those pairs with its chance: the engines share their states and casualty
    distributions, and the caller's work limits apply once.
    Each start is a force as a state of the union of the forces, after the AA fire
    before round 1 at its aircraft (A-10.5), and the survivors as a state of the whole
    defending army; forces that AA fire leaves alike, against the same survivors, are
    one start (a table of chances by attacker and defender state: far fewer starts than
    forces times AA outcomes).  At sea the general engine takes it (the survivors need
    not be on one loss sequence); aircraft of a defender without a destroyer stay out
    when the attacker is all submarines (A-10.6, as :func:`setup_battle` decides for one
    battle: the caller keeps forces of submarines alone apart).  On land the table
    engines take it: the survivors are steps of the defender's loss order, and the AA
    guns are never casualties.  Returns the chances of the whole attack these battles
    add (the keys of :func:`_second_wave`) and their error bound, or None where the
    survivors do not fit one battle (then each is fought on its own).  ``ends``: where
    to put the battle's setup, kept units and tally, with the share of the whole its
    masses are fractions of."""
    import numpy as np  # not at the top: a battle without a second wave may not need it

    from engine.odds.aa_table import row_ids

    sea = battle.mode == "sea"
    used, f_at = np.unique(fights.f, return_inverse=True)  # the forces that fight
    forces = [fights.forces[f] for f in used.tolist()]
    # The forces' units by type (types as they first come), as one array: thousands of
    # forces for a big first wave.
    kinds = list(dict.fromkeys(chain.from_iterable(forces)))
    by_kind = np.array([[force.get(n, 0) for n in kinds] for force in forces], dtype=np.int64).reshape(len(forces), len(kinds))
    army = dict(zip(kinds, by_kind.max(axis=0, initial=0).tolist()))
    second = _wave_battle(battle, army, battle.defender)
    setup, _ = setup_battle(second, unit, cat)
    prof_a, prof_d = second.profiles("attacker", cat), second.profiles("defender", cat)
    subs_only = sea and all(prof_a[n].submarine for n, c in army.items() if c > 0)
    guns = {n: c for n, c in second.defender.items() if prof_d[n].is_aa}
    att, dfn = setup.attacker, setup.defender
    on_sequence = set() if sea else set(dfn.sequence(dfn.start))

    def target(st: State) -> State | None:
        """The second battle's defender state for the first's final state ``st`` (None:
        off this battle's states)."""
        held = survivors(st)
        if subs_only and not any(prof_d[n].destroyer for n in held):
            held = {n: c for n, c in held.items() if prof_d[n].domain != AIR}
        if any(held.get(n, 0) != c for n, c in guns.items()) or not set(held) <= set(dfn.army):
            return None
        d = dfn.state_of(held)
        return None if not sea and d not in on_sequence else d

    zero = unit - unit
    live = fights.w.sum() if fights.w.dtype != object else sum(fights.w.tolist(), zero)
    exact = not isinstance(unit, float)
    d_ids: dict[State, int] = {}
    used_d, d_at = np.unique(fights.d, return_inverse=True)
    d_of = []
    for j in used_d.tolist():
        d = target(fights.defenders[j])
        if d is None:
            return None
        d_of.append(d_ids.setdefault(d, len(d_ids)))
    # S[f, d]: force f's chance to meet defender start d (two final states may be one).
    cells = f_at.ravel() * len(d_ids) + np.array(d_of, dtype=np.int64)[d_at.ravel()]
    if exact:
        S = np.zeros((len(forces), len(d_ids)), dtype=object)
        np.add.at(S.reshape(-1), cells, fights.w / live)
    else:  # the same sums in the same order (each cell's terms as they come), ~50 times faster
        S = np.bincount(cells, fights.w / live, len(forces) * len(d_ids)).reshape(len(forces), len(d_ids))
    force_states = np.zeros((len(forces), len(att.slots)), dtype=np.int64)  # each force's state (Side.state_of)
    for j, n in enumerate(kinds):
        force_states[:, att.slot_of(n)] = by_kind[:, j]
    if force_states.max(initial=0) < 2**14:  # their AA outcomes in a quarter of the memory
        force_states = force_states.astype(np.int16)
    fired = _aa_fire_many(second, att, dfn, prof_a, prof_d, unit, not sea, force_states)
    # The attacker starts: every force's states after AA fire, alike ones one start.
    every = np.concatenate([st for _, st, _ in fired])
    first, a_at = row_ids(every)
    states = every[first]
    # W[a, d]: the start's chance, each force's AA outcomes x its defender starts (within
    # a pattern of AA hits the states are distinct, so += adds every product).
    W = np.zeros((len(states), len(d_ids)), dtype=S.dtype)
    if fired and not exact and compiled.numba_loaded():  # the same sums in the same order, one loop
        from engine.odds.aa_merged_kernel import add_rows

        add_rows(W, a_at.ravel(), S, np.concatenate([f for f, _, _ in fired]),
                 np.concatenate([w for _, _, w in fired]).astype(float))  # fmt: skip
    else:
        at = 0
        for f, _, w in fired:
            W[a_at[at : at + len(f)]] += w[:, None] * S[f]
            at += len(f)
    rows, cols = np.nonzero(W)
    cap = limits[2].starts if battle.wave2_joins else None
    if cap is not None and len(rows) > cap:
        raise too_many_starts(cap, battle.rounds or 0)
    if not len(rows):
        return None
    table: StartTable[N] = StartTable([tuple(r) for r in states.tolist()], list(d_ids), rows, cols, W[rows, cols],
                                      rows=states)  # fmt: skip
    del fired, every, first, a_at, W, S  # the battle's table needs their memory (up to GBs)
    # Arrays for the land table engines; Start objects for the others (sea, fractions).
    starts: Sequence[Start[N]] = table if not (sea or exact) else list(table)
    table_cap = limits[2].table if battle.wave2_joins else None
    odds = _run(second, unit, "general" if sea else "auto", limits, eps, starts=starts,
                report=kept is not None or ends is not None, max_table=table_cap, ends=ends, share=live)
    if kept is not None:  # the battle's own report too, with its share of the whole
        kept.append((float(live), odds))
    return _shares(float(live), odds)


def _merges(setup: BattleSetup[Any]) -> bool:
    """Whether the table engines take ``setup`` as the merged engine (numpy: imported
    for big battles only)."""
    from engine.odds.aa_merged import merges

    return merges(setup)


def _state_sums(
    side: Side, end: Mapping[State, N], names: tuple[str, ...], extra: Mapping[str, int],
    profiles: Mapping[str, UnitProfile], zero: N,
) -> tuple[dict[str, N], N, N, dict[tuple[tuple[str, int], ...], N], dict[int, N]]:
    """Expected units by type, expected cost left, total mass, mass by survivors and by
    number of units left, over the final states ``end`` (``extra``: units kept out of
    the battle, added to every final state)."""
    exp: dict[str, N] = {n: zero for n in names}
    cost = zero
    grouped: dict[tuple[tuple[str, int], ...], N] = {}
    by_count: dict[int, N] = {}
    total = zero
    for st, mass in end.items():
        total += mass
        final, st_cost, key, k = side.final(st)
        if extra:
            final = dict(final)
            for n, c in extra.items():
                final[n] = final.get(n, 0) + c
            st_cost = sum(profiles[n].cost * c for n, c in final.items())
            key = tuple((n, c) for n, c in final.items() if c > 0)
            k = sum(c for n, c in final.items() if not profiles[n].is_aa)
        for n, c in key:
            exp[n] = exp.get(n, zero) + mass * c
        cost += mass * st_cost
        grouped[key] = grouped.get(key, zero) + mass
        by_count[k] = by_count.get(k, zero) + mass
    return exp, cost, total, grouped, by_count


def _army_cost(side: Side) -> tuple[tuple[str, ...], int]:
    """The side's unit types (in the battle's order) and their cost (memoised)."""
    got = side.engine_memo.get(("army-cost",))
    if got is None:
        got = side.engine_memo[("army-cost",)] = (
            tuple(side.army), sum(side.profiles[n].cost * c for n, c in side.army.items())
        )
    return cast(tuple[tuple[str, ...], int], got)


def _result(
    battle: AABattle,
    setup: BattleSetup[N],
    aside: Mapping[str, int],
    tally: Tally[N],
    engine: str,
    cat: Catalogue,
    report: bool = True,
) -> AAOdds:
    """The odds from ``tally``; without ``report``, no expected survivors, losses or
    survivor charts (empty)."""
    o = tally.outcome
    won, held, draw = o[ATTACKER], o[DEFENDER] + o[RETREAT] + o[STALEMATE] + o[UNFINISHED], o[DRAW]
    takes = tally.takes if tally.takes is not None else won - won
    zero = won - won
    ends = {
        "attacker": (setup.attacker, tally.attacker_end, {}),
        "defender": (setup.defender, tally.defender_end, aside),
    }
    expected: dict[str, dict[str, float]] = {}
    loss: dict[str, float] = {}
    survivors: dict[str, tuple[tuple[Mapping[str, int], float], ...]] = {}
    counts: dict[str, dict[int, float]] = {}
    for who, (side, end, extra) in ends.items() if report else ():
        profiles = side.profiles
        if extra:
            army = battle.attacker if who == "attacker" else battle.defender
            start_cost = sum(profiles[n].cost * c for n, c in army.items())
            names = tuple(n for n in army if army[n] > 0)
        else:  # the side's army is the battle's (units present): memoised with the side
            names, start_cost = _army_cost(side)
        # Sums in the engine's number type (exact fractions stay exact), then floats.
        fast = tally.side_report(who, names) if isinstance(tally, LineTally) and not extra else None
        if fast is None and not extra and isinstance(zero, float) and len(end) >= SUMS_BY_ARRAYS:
            from engine.odds.aa_sums import side_report  # (numpy: loaded by such a battle)

            fast = side_report(side, cast(Mapping[State, float], end), names)
        if fast is not None:
            expected[who], cost, total, survivors[who], counts[who] = fast
        else:
            exp, cost, total, grouped, by_count = _state_sums(side, end, names, extra, profiles, zero)
            expected[who] = {n: float(v) for n, v in exp.items()}
            survivors[who] = tuple(
                (dict(k), float(p)) for k, p in sorted(grouped.items(), key=lambda kv: (-kv[1], kv[0]))
            )
            counts[who] = {k: float(p) for k, p in sorted(by_count.items())}
            if max(counts[who].values(), default=0.0) > 1.0:  # all the mass, drifted past 1
                survivors[who] = tuple((k, chance(p)) for k, p in survivors[who])
                counts[who] = {k: chance(p) for k, p in counts[who].items()}
        missing = 1 - total  # pruned mass (float mode): counted as if nothing changed
        loss[who] = float(start_cost - cost - missing * start_cost)
    exact = None
    if isinstance(won, Fraction):
        exact = {"attacker_win": won, "defender_win": held, "draw": draw, "attacker_takes": takes}
        exact = {k: Fraction(v) for k, v in exact.items()}
    chances = [float(won), float(held), float(draw), float(takes), float(o[RETREAT]), float(o[STALEMATE]),
               float(o[UNFINISHED])]  # fmt: skip
    if max(chances) > 1.0:  # sums of masses, never negative
        chances = [chance(p) for p in chances]
    return AAOdds(
        battle=battle,
        attacker_win=chances[0],
        defender_win=chances[1],
        draw=chances[2],
        attacker_takes=chances[3],
        retreat=chances[4],
        stalemate=chances[5],
        unfinished=chances[6],
        expected_rounds=float(tally.rounds if tally.rounds is not None else 0),
        expected_survivors=expected,
        expected_ipc_loss=loss,
        survivors=survivors,
        survivor_count=counts,
        error_bound=tally.dropped,
        engine=engine,
        exact=exact,
    )
