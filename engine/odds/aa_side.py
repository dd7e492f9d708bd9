"""One side of an A&A battle for the odds calculators: what it holds, the order in which
it loses units, and the dice it rolls.

A side's *state* is a tuple of counts, one per *slot*.  Each unit type present has a
slot for its intact units; a two-hit unit (battleship, A-10.8) has a second slot for
damaged ones; submarines that may submerge (A-10.6) have a slot for submerged ones,
which have left the battle (they never roll and are never casualties).

Casualties follow a *loss order*: a sequence of steps computed from the state.  Every
intact battleship first absorbs a hit (the issue's rule: battleships absorb a side's
first hits, whatever order the player gives), then units are lost by type in the order
of loss; transports always come last (A-10.7); with ``keep_land`` (N) the last N units
able to take the territory are moved to the very end (A-10.10).  The order of loss is a list of
types; all units of one type go before the next type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, cast

from engine.odds.aa_casualties import CAT_AIR as CAT_AIR
from engine.odds.aa_casualties import CAT_OTHER as CAT_OTHER
from engine.odds.aa_casualties import CAT_SUB as CAT_SUB
from engine.odds.aa_casualties import earliest
from engine.odds.aa_units import AIR, UnitProfile

ATTACK, DEFENSE = "attack", "defense"

# Target categories (what a unit is, for hit restrictions, A-10.6).

State = tuple[int, ...]
Dice = tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]


@dataclass(frozen=True)
class Slot:
    unit: str
    kind: str  # "ok" | "damaged" | "submerged"


@dataclass(frozen=True)
class Step:
    """One casualty step: a hit on a unit of ``category`` moves one unit from slot
    ``source`` to slot ``target`` (damage) or removes it (``target`` is -1)."""

    category: int
    source: int
    target: int


def default_order(profiles: Iterable[UnitProfile], role: str) -> list[str]:
    """Lowest combat value in the role first, cheaper first on ties (the issue's default);
    transports are placed last by :class:`Side` in any case."""
    units = [p for p in profiles if not p.is_aa]
    units.sort(key=lambda p: (p.transport, p.value(role), p.cost, p.name))
    return [p.name for p in units]


def loss_type_order(
    profiles: Mapping[str, UnitProfile], role: str, preferred: Sequence[str] = ()
) -> list[str]:
    """The full type order of loss: the player's list first (``preferred``), then the
    remaining types in the default order; AA guns never (they are never casualties);
    transports always last."""
    rest = [n for n in default_order(profiles.values(), role) if n not in preferred]
    order = [n for n in preferred if n in profiles and not profiles[n].is_aa] + rest
    return [n for n in order if not profiles[n].transport] + [
        n for n in order if profiles[n].transport
    ]


class Side:
    """A side's units, slots, loss order and dice (immutable once built)."""

    def __init__(
        self,
        role: str,
        army: Mapping[str, int],
        profiles: Mapping[str, UnitProfile],
        *,
        order: Sequence[str] = (),
        keep_land: int = 0,
        submerge: bool = False,
    ) -> None:
        self.role = role
        self.profiles = dict(profiles)
        self.army = {u: n for u, n in army.items() if n > 0}
        self.keep_land = keep_land
        self.submerge = submerge
        slots: list[Slot] = []
        for name in self.army:
            prof = profiles[name]
            slots.append(Slot(name, "ok"))
            if prof.hits >= 2:
                slots.append(Slot(name, "damaged"))
            if prof.submarine and submerge:
                slots.append(Slot(name, "submerged"))
        self.slots: tuple[Slot, ...] = tuple(slots)
        self.index = {(s.unit, s.kind): i for i, s in enumerate(self.slots)}
        # The slots whose units fight (not submerged, not AA guns), and per question
        # asked of states (a profile flag, a set of them) the slots that answer it: each
        # state's answer then reads only those counts.
        self._fighting = tuple(i for i, s in enumerate(self.slots)
                               if s.kind != "submerged" and not self.profiles[s.unit].is_aa)  # fmt: skip
        self._slots_for: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._slot_units = tuple(s.unit for s in self.slots)
        self._units = tuple(dict.fromkeys(self._slot_units))  # in the slots' order
        self.start: State = tuple(self.army[s.unit] if s.kind == "ok" else 0 for s in self.slots)
        present = {n: profiles[n] for n in self.army}
        self.order = loss_type_order(present, role, order)
        self._cat = tuple(_category(profiles[s.unit]) for s in self.slots)
        self._steps_cache: dict[State, tuple[Step, ...]] = {}
        # Answers about states are asked again and again by the engines: memoised.
        self._memo: dict[tuple[object, ...], Any] = {}
        self._dice_plan: Any = None
        # What the engines derive from this side (loss sequences with their dice), kept
        # with it: a side is memoised across battles (engine.odds.aa._side).
        self.engine_memo: dict[tuple[object, ...], Any] = {}
        self._finals: dict[State, tuple[dict[str, int], int, tuple[tuple[str, int], ...], int]] = {}

    # -- what a state holds -------------------------------------------------------------

    def slot_of(self, unit: str, kind: str = "ok") -> int:
        return self.index.get((unit, kind), -1)

    def count(self, st: State, unit: str, kinds: Sequence[str] = ("ok", "damaged")) -> int:
        return sum(st[i] for k in kinds if (i := self.slot_of(unit, k)) >= 0)

    def counts(self, st: State) -> dict[str, int]:
        """Units by type (damaged and submerged included): the survivors of a final state."""
        out = dict.fromkeys(self._units, 0)
        for unit, n in zip(self._slot_units, st):
            if n:
                out[unit] += n
        return out

    def state_of(self, army: Mapping[str, int]) -> State:
        """The state holding ``army`` (units by type of this side), every unit intact and
        none submerged: the inverse of :meth:`counts` for such states."""
        st = [0] * len(self.slots)
        for n, c in army.items():
            st[self.slot_of(n)] = c
        return tuple(st)

    def final(self, st: State) -> tuple[dict[str, int], int, tuple[tuple[str, int], ...], int]:
        """A final state as the report needs it (memoised): units by type, their cost,
        the types still present as a sorted-by-slot key, and how many are not AA guns."""
        got = self._finals.get(st)
        if got is None:
            counts = self.counts(st)
            cost = sum(self.profiles[n].cost * c for n, c in counts.items())
            present = tuple((n, c) for n, c in counts.items() if c > 0)
            fighting = sum(c for n, c in counts.items() if not self.profiles[n].is_aa)
            got = self._finals[st] = (counts, cost, present, fighting)
        return got

    def alive(self, st: State) -> int:
        """Units still fighting (AA guns and submerged submarines excluded)."""
        key = ("alive", st)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = sum(map(st.__getitem__, self._fighting))
        return int(got)

    def _flagged(self, flag: str) -> tuple[int, ...]:
        """The slots not submerged whose units have the profile flag (:meth:`has`), found
        once."""
        got = self._slots_for.get(("has", flag))
        if got is None:
            got = self._slots_for[("has", flag)] = tuple(
                i for i, s in enumerate(self.slots) if s.kind != "submerged" and getattr(self.profiles[s.unit], flag))
        return got

    def _flagless(self, flags: tuple[str, ...]) -> tuple[int, ...]:
        """The fighting slots whose units have none of the profile flags (:meth:`only`),
        found once."""
        got = self._slots_for.get(("only", flags))
        if got is None:
            got = self._slots_for[("only", flags)] = tuple(
                i for i in self._fighting if not any(getattr(self.profiles[self.slots[i].unit], f) for f in flags))
        return got

    def has(self, st: State, predicate: str) -> bool:
        """Whether a unit with the given profile flag is still fighting."""
        key = ("has", st, predicate)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = any(map(st.__getitem__, self._flagged(predicate)))
        return bool(got)

    def has_land(self, st: State) -> bool:
        return self.has(st, "takes_territory")

    def fighting_categories(self, st: State) -> frozenset[int]:
        key = ("categories", st)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = frozenset(self._cat[i] for i in self._fighting if st[i])
        return frozenset(got)

    def only(self, st: State, allowed: Iterable[str]) -> bool:
        """Whether every fighting unit has one of the ``allowed`` profile flags."""
        flags = tuple(allowed)
        key = ("only", st, flags)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = not any(map(st.__getitem__, self._flagless(flags)))
        return bool(got)

    def hp(self, st: State) -> int:
        """Hits this side can still absorb (the length of its loss order)."""
        return len(self.steps(st))

    def hp_counts(self, sv: Any) -> Any:
        """:meth:`hp` of many states at once, ``sv`` (n, slots) count rows: a unit's hit
        points do not depend on the others (the loss order only orders them), so each
        slot's, :meth:`hp` of one unit in it, times its count."""
        import numpy as np  # for big tables only

        per = self.engine_memo.get(("hp-per-slot",))
        if per is None:
            one = [tuple(int(i == k) for i in range(len(self.slots))) for k in range(len(self.slots))]
            per = self.engine_memo[("hp-per-slot",)] = np.array([self.hp(st) for st in one], dtype=np.int64)
        return sv @ per

    # -- casualties -------------------------------------------------------------------------

    def steps(self, st: State) -> tuple[Step, ...]:
        cached = self._steps_cache.get(st)
        if cached is not None:
            return cached
        steps: list[Step] = []
        for step, slots in self.step_runs():
            n = _units_in(st, slots)
            if n:
                steps += [step] * n
        if self.keep_land:  # keep the last N land units until nothing else is left
            kept: list[Step] = []
            for k in range(len(steps) - 1, -1, -1):
                if len(kept) == int(self.keep_land):
                    break
                if self.profiles[self.slots[steps[k].source].unit].takes_territory:
                    kept.append(steps.pop(k))
            steps += reversed(kept)
        result = tuple(steps)
        self._steps_cache[st] = result
        return result

    def first_step(self, st: State, excluded: int) -> Step | None:
        """The first step of the loss order of ``st`` not of category ``excluded`` (3: any
        step), as :meth:`steps` orders them; None where there is none.  Read from the
        runs (one test per unit type) unless kept land units reorder the steps."""
        if self.keep_land:
            return next((x for x in self.steps(st) if x.category != excluded), None)
        for step, slots in self.step_runs():
            if step.category != excluded and _units_in(st, slots):
                return step
        return None

    def step_runs(self) -> tuple[tuple[Step, tuple[int, ...]], ...]:
        """The loss order before the kept land units move last (:meth:`steps`), as runs
        (memoised): each run is one casualty taken as many times as there are units in
        its slots."""
        got = self.engine_memo.get(("step-runs",))
        if got is None:
            runs: list[tuple[Step, tuple[int, ...]]] = []
            for name in self.order:  # intact battleships absorb first
                ok = self.slot_of(name)
                if self.profiles[name].hits >= 2:
                    runs.append((Step(self._cat[ok], ok, self.slot_of(name, "damaged")), (ok,)))
            for name in self.order:
                ok = self.slot_of(name)
                if self.profiles[name].hits >= 2:
                    dmg = self.slot_of(name, "damaged")
                    runs.append((Step(self._cat[ok], dmg, -1), (ok, dmg)))
                else:
                    runs.append((Step(self._cat[ok], ok, -1), (ok,)))
            got = self.engine_memo[("step-runs",)] = tuple(runs)
        return cast(tuple[tuple[Step, tuple[int, ...]], ...], got)

    def sequence(self, st: State) -> tuple[State, ...]:
        """The states after 0, 1, 2 … steps of the loss order from ``st`` (memoised):
        ``sequence(st)[n]`` is ``take(st, n)`` for ``n`` up to :meth:`hp`."""
        key = ("sequence", st)
        got = self._memo.get(key)
        if got is None:
            out = [st]
            cur = list(st)
            for step in self.steps(st):
                _apply(cur, step)
                out.append(tuple(cur))
            got = self._memo[key] = tuple(out)
        return cast(tuple[State, ...], got)

    def take(self, st: State, n: int) -> State:
        """The state after the first ``n`` steps of the loss order (unrestricted hits)."""
        if n <= 0:
            return st
        key = ("take", st, n)
        got = self._memo.get(key)
        if got is None:
            out = list(st)
            for step in self.steps(st)[:n]:
                _apply(out, step)
            got = self._memo[key] = tuple(out)
        return cast(State, got)

    def take_hits(self, st: State, sub_hits: int, air_hits: int, any_hits: int) -> State:
        """Apply hits of three classes (A-10.6): submarine hits never land on aircraft,
        aircraft hits (without a friendly destroyer) never on submarines, other hits
        anywhere.  The owner takes as many hits as possible (A-10.14) and, among those
        choices, loses the earliest units of the loss order it can: going down the
        order, a step is taken whenever the hits can still all be assigned with it
        (:func:`engine.odds.aa_casualties.earliest`).  Surplus hits are lost."""
        if not sub_hits and not air_hits:
            return self.take(st, any_hits)
        key = ("take", st, sub_hits, air_hits, any_hits)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._take_hits(st, sub_hits, air_hits, any_hits)
        return cast(State, got)

    def _take_hits(self, st: State, sub_hits: int, air_hits: int, any_hits: int) -> State:
        steps = self.steps(st)
        out = list(st)
        for k in earliest((step.category for step in steps), sub_hits, air_hits, any_hits):
            _apply(out, steps[k])
        return tuple(out)

    def submerge_all(self, st: State) -> State:
        out = list(st)
        for i, s in enumerate(self.slots):
            if s.kind == "ok" and self.profiles[s.unit].submarine:
                sub = self.slot_of(s.unit, "submerged")
                out[sub] += out[i]
                out[i] = 0
        return tuple(out)

    # -- dice ----------------------------------------------------------------------------------

    def dice(self, st: State) -> Dice:
        """``(value, dice)`` groups this side rolls in its role, split by who rolls them:
        submarines, aircraft, everything else.  AA guns and submerged submarines roll
        nothing; a damaged battleship rolls as an intact one; infantry paired with
        artillery attack at their supported value (A-14.2, support on attack only).
        The lists are shared (memoised): do not modify them."""
        key = ("dice", st)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._dice(st)
        return cast(Dice, got)

    def dice_key(self, st: State) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The dice of ``st`` as a hashable value (memoised): states rolling the same
        dice share casualty distributions."""
        key = ("dice_key", st)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = tuple(tuple(g) for g in self.dice(st))
        return cast(tuple[tuple[tuple[int, int], ...], ...], got)

    def _dice(self, st: State) -> Dice:
        plan = self._dice_plan
        if plan is None:
            plan = self._dice_plan = self._make_dice_plan()
        supporters, units = plan
        subs: list[tuple[int, int]] = []
        air: list[tuple[int, int]] = []
        other: list[tuple[int, int]] = []
        supported = 0
        for idx, k in supporters:
            supported += _units_in(st, idx) * k
        for idx, per, group, value, boosted in units:
            n = _units_in(st, idx)
            if not n:
                continue
            groups = subs if group == CAT_SUB else air if group == CAT_AIR else other
            if boosted and supported:
                s = min(n, supported)
                supported -= s
                groups.append((boosted, s * per))
                n -= s
            groups.append((value, n * per))
        return subs, air, other

    def dice_counts(self, sv: Any) -> Any:
        """:meth:`dice` for many states at once, as arrays: ``sv`` (n, slots) count rows;
        returns ``D[category, n, t]``, the dice rolled at target number ``t`` (0-6,
        higher values as 6) by submarines, aircraft and everything else
        (``CAT_SUB``, ``CAT_AIR``, ``CAT_OTHER``)."""
        import numpy as np  # for big tables only (engine.odds.aa_merged)

        plan = self._dice_plan
        if plan is None:
            plan = self._dice_plan = self._make_dice_plan()
        supporters, units = plan
        out = np.zeros((3, len(sv), 7), dtype=np.int64)
        supported = np.zeros(len(sv), dtype=np.int64)
        for idx, k in supporters:
            supported += sv[:, list(idx)].sum(axis=1) * k
        for idx, per, group, value, boosted in units:
            n = sv[:, list(idx)].sum(axis=1)
            if boosted:  # infantry supported by artillery, as many as there are supporters
                s = np.minimum(n, supported)
                supported -= s
                out[group, :, min(boosted, 6)] += s * per
                n = n - s
            out[group, :, min(value, 6)] += n * per
        return out

    def _make_dice_plan(self) -> tuple[list[tuple[tuple[int, ...], int]], list[tuple[tuple[int, ...], int, int, int, int]]]:
        """Per unit type, once: its ok/damaged slots, dice per unit, who rolls them, its
        value and supported value (artillery support on attack only, A-14.2)."""
        attack = self.role == ATTACK
        slots = {
            name: tuple(i for k in ("ok", "damaged") if (i := self.slot_of(name, k)) >= 0) for name in self.army
        }
        supporters = [(slots[n], self.profiles[n].supports) for n in self.army
                      if attack and self.profiles[n].supports]  # fmt: skip
        units = []
        for name in self.army:
            p = self.profiles[name]
            if p.is_aa:
                continue
            per = p.attack_dice if attack else p.defense_dice
            units.append((slots[name], per, _category(p), p.value(self.role),
                          p.supported_attack if attack else 0))  # fmt: skip
        return supporters, units


def _units_in(st: State, slots: tuple[int, ...]) -> int:
    """The units of ``st`` in ``slots`` (one unit type's: ok, then damaged or submerged):
    read directly where it has one slot, as most types do."""
    return st[slots[0]] if len(slots) == 1 else sum(map(st.__getitem__, slots))


def _category(p: UnitProfile) -> int:
    if p.submarine:
        return CAT_SUB
    if p.domain == AIR:
        return CAT_AIR
    return CAT_OTHER


def _apply(out: list[int], step: Step) -> None:
    out[step.source] -= 1
    if step.target >= 0:
        out[step.target] += 1
