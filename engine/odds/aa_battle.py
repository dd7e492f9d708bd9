"""What both A&A odds engines share: the battle set-up, the end-of-round checks, and the
tally of final states.

A battle is a Markov chain on pairs of side states (attacker, defender).  Round 1 may
start from several states at once, each with its weight: the AA gun's shots at the
attacking aircraft (A-10.5) and shore bombardment (A-10.3) happen before it.  Round 1
may also let units already hit fire back (bombardment casualties still fire in the
first round), hence a separate *firing* state for the defender in round 1.

:func:`BattleSetup.settle` is applied to every state reached after a round (and, with
``after_round=False``, before round 1): it ends the battle when a side is gone
(A-10.4 step 5), sinks defenceless transports (A-10.7), retreats the attacker on its
standing order (A-10.15), and submerges lone submarines when the side asked for it
(A-10.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Generic, Iterable, Iterator, Mapping, Sequence, SupportsFloat, cast, overload

from engine.core.errors import IllegalOrder, PlayerError
from engine.odds.aa_side import CAT_AIR, Side, State
from engine.odds.dist import N

if TYPE_CHECKING:
    from engine.odds.aa import AABattle, AAOdds

ATTACKER, DEFENDER, DRAW = "attacker", "defender", "draw"
RETREAT, STALEMATE, UNFINISHED = "retreat", "stalemate", "unfinished"
OUTCOMES = (ATTACKER, DEFENDER, DRAW, RETREAT, STALEMATE, UNFINISHED)

# Float mode, every engine: masses below TINY are not spread and single dice outcomes
# below CUT are left out; what that leaves out is added to the reported error bound
# (below 4e-14 on the bench battles but one, 5.5e-13; 1e-24 before cost the submarine
# solves a fifth to a third more pairs for bounds of 2e-15 to 2.4e-14).
TINY = 1e-19
CUT = 1e-27

# A retreat by win chance made as the traced solve's correction (the strike pass's,
# engine.odds.aa_strike, and the numpy passes', engine.odds.aa_naval.corrected): an end
# the subtraction took from and left at most RESIDUE of what it was, or at most
# RESIDUE_FLOOR, is rounding's leftover (set to 0, counted in the error bound): no
# stalemate of 1e-17 reported where the battle has none.
RESIDUE = 1e-12
RESIDUE_FLOOR = 1e-15


def rounding_leftover(got: Any, took: Any, scale: Any) -> Any:
    """Whether an end a correction left (``got``: the traced answer's, less what the
    correction's solve ``took``, plus what it adds) is rounding: below 0, or where the
    subtraction took something at most RESIDUE of ``scale`` (what the end was) or
    RESIDUE_FLOOR.  Floats or numpy arrays alike (elementwise): the strike pass's
    tables of ends and the numpy passes' ends by state ask the same rule."""
    return (got < 0.0) | ((took > 0.0) & ((got <= RESIDUE * scale) | (got <= RESIDUE_FLOOR)))

# Retreat by win chance in decimals.  The numpy passes know a chance to within SLACK
# (their rounding), so a chance that close to a number may be on either side of it.
# The attacker retreats where its chance is below the threshold by more than TIE_GAP:
# an exact tie (1 fighter attacking 1 fighter wins exactly 20 %) fights on, as the rule
# says, whichever way the rounding went.  A chance within SLACK of ``threshold -
# TIE_GAP`` leaves its decision open, and the mass reaching it goes into the error bound.
SLACK = 1e-12
TIE_GAP = 1e-11


def win_cut(Ha: int, Hd: int, nA: int, nD: int) -> float:
    """The smallest dice outcome a float win-chance pass takes (sides that score up to
    ``Ha`` and ``Hd`` hits, with ``nA`` and ``nD`` hit points): what it leaves out keeps
    every chance within a hundredth of SLACK.  A state's chance mixes its successors'
    with the round's outcomes; leaving out outcomes below ``cut`` loses at most ``(Ha +
    Hd + 2) * cut`` of that mix (each outcome left out weighs less than ``cut`` against
    the other side's, which sum to 1), divided by the chance that the round moves at all
    (at least 1/6: a side that can hit rolls at least one die hitting on a 1) and then
    carried up, not grown, by the mixes above it: at most ``nA + nD`` rounds deep."""
    return max(CUT, SLACK / (100 * 6 * (Ha + Hd + 2) * (nA + nD + 1)))


def retreat_band(threshold: float) -> tuple[float, float, float]:
    """A retreat by win chance's ``threshold`` in decimals: ``(below, at, above)``.  The
    attacker retreats where its chance is below ``at`` (the threshold less ``TIE_GAP``);
    a chance from ``below`` up to ``above`` leaves the decision open."""
    at = threshold - TIE_GAP
    return at - SLACK, at, at + SLACK


class Offering(PlayerError):
    """A refusal that may offer a battle instead: ``offered``, the battle of the same
    forces scaled down that :func:`engine.odds.aa.aa_odds` found answered and offers
    first (``offer_biggest``), with its odds, computed already (the bot remembers them
    as the reply to that battle)."""

    def __init__(self, message: str, *, legal: Iterable[str] = (),
                 offered: tuple[AABattle, AAOdds] | None = None) -> None:
        super().__init__(message, legal=legal)
        self.offered = offered


class OverLimit(Offering):
    """A battle refused only for a work limit its caller set (Discord's: states, products,
    table cells, a joined wave's starts): without limits it is answered, as the command
    line answers it.  A server that allows big battles computes it anyway
    (``bot.commands.odds``, ``WARROOM_ODDS_BIG``)."""


class TooBig(OverLimit):
    """A battle past one of the work limits (Discord's): the player fixes it with fewer
    units.  :func:`engine.odds.aa.aa_odds` names the battle at a quarter of its size as
    what would be legal (the engines that refuse it do not know the armies), or the
    biggest such battle it found answered (``offered``)."""


class TooManyUnits(Offering, IllegalOrder):
    """A battle with more units on a side than its caller takes (``max_units``:
    Discord's 120; the command line takes up to 9999 of each kind).  Not a work limit:
    a server that computes big battles has it too.  ``offered``: the battle of the same
    forces scaled down alike to fit (or, past the work limits, the biggest such found
    answered), with its odds."""


def too_many_cells(cells: int, max_cells: int, why: str = "") -> TooBig:
    """The table engines' battle states past ``max_cells`` (an API cap; Discord has none):
    refused before any work.  ``why``: what multiplied them, if worth saying."""
    return TooBig(f"This battle is too big for a quick answer: {cells} battle states, the limit here is"
                  f" {max_cells}{why}.  Try fewer units, or the command line.",
                  legal=["/odds aa attacker:… defender:… with fewer units"])


def too_many_states(max_states: int) -> TooBig:
    return TooBig(f"This battle is too big to compute exactly here (more than {max_states:,} battle"
                  " states); try fewer units.", legal=["/odds aa attacker:… defender:… with fewer units"])


@dataclass
class Work:
    """What one answer has done of its work limit (``limit`` outer product terms and
    casualty cells of the numpy submarine solves, :class:`NavalSolver`; None: no limit):
    every solve of the answer (a retreat by win chance's, a second wave's) counts
    against the same."""

    limit: int | None = None
    done: int = 0
    # The most starting points (pairs of states, after AA fire) the second battles of a
    # second wave joined by the first wave's units may have together (None: no limit).
    starts: int | None = None
    # The most cells (attacker states x columns) the merged table engine's table of such
    # a battle may have (None: no limit): what its time and memory grow with.
    table: int | None = None
    # The most cells the submarine solves' mass table may have (attacker states x 2
    # defender states, 8 bytes each; None: no limit), checked before it grows.
    naval_table: int | None = None

    def add(self, n: int) -> None:
        """Count ``n`` more; refuse the battle once past the limit."""
        self.done += n
        if self.limit is not None and self.done > self.limit:
            raise too_much_work(self.limit)


def _second_wave_too_big(what: str) -> OverLimit:
    """A second wave joined by the first wave's units refused for ``what`` it leaves the
    battle they join, with the ways to a smaller one."""
    return OverLimit(
        f"This second wave is too big to compute exactly here: {what}. Try fewer rounds, fewer"
        " aircraft facing AA guns, a strafe (the first wave retreats, the second attacks alone),"
        " or the command line (warroom odds aa), which has no limit.",
        legal=["/odds aa … rounds:1 wave2:…", "/odds aa … retreat_after:2 wave2:…"],
    )


def too_big_table(cells: int, max_table: int) -> OverLimit:
    """The battle a second wave joined by the first wave's units fights has a bigger
    table than ``max_table`` cells: refused before it is fought."""
    return _second_wave_too_big(
        f"the battle the joined forces fight has {cells:,} cells (attacker states times defender"
        f" states and hits), the limit here is {max_table:,}"
    )


def too_many_starts(max_starts: int, rounds: int) -> OverLimit:
    """The first wave's units still fighting after the round limit, joined by the second
    wave, leave more starting points than ``max_starts``: refused before the battle."""
    return _second_wave_too_big(
        f"the first wave's units still fighting after round {rounds} leave more than {max_starts:,}"
        " starting points (pairs of states) for the battle they join"
    )


def chance(p: SupportsFloat) -> float:
    """A chance as reported: a float within [0, 1] (a sure outcome summed in decimals may
    drift past 1 by its rounding, ~1e-16, which the error bound covers: no chance of
    1.0000000000000002 in the JSON)."""
    return min(max(float(p), 0.0), 1.0)


def too_big_naval_table(cells: int, max_cells: int) -> TooBig:
    """The mass table of a submarine battle would pass ``max_cells`` cells (its memory):
    refused before it grows."""
    return TooBig(
        f"This battle is too big to compute exactly here: its table of states would have {cells:,} cells,"
        f" the limit here is {max_cells:,} (submarines striking on both sides, and aircraft that cannot hit"
        " them, make the states of both fleets multiply). Try fewer units, fewer rounds, or a destroyer on"
        " either side; the command line (warroom odds aa) has no limit.",
        legal=["/odds aa attacker:… defender:… kind:sea with fewer units"],
    )


def too_much_work(max_work: int) -> TooBig:
    """The numpy solve of a submarine battle passed its work limit (``max_work`` outer
    product terms and casualty cells): refused before doing more.  (It once also
    advised a destroyer on the side the submarines strike: 40 sub, 20 cru, 10 bat,
    30 fig against 40 sub, 20 car, 10 bat, 30 fig is refused with one on either side.)"""
    return TooBig(
        f"This battle is too big to compute exactly here: it needs more than {max_work:,} steps"
        " (submarines striking every round, and aircraft that cannot hit them, make the states of big"
        " fleets multiply). Try fewer units; the command line (warroom odds aa) has no limit.",
        legal=["/odds aa attacker:… defender:… kind:sea with fewer units"],
    )


@dataclass(frozen=True)
class Start(Generic[N]):
    """One starting point of round 1 and its weight."""

    weight: N
    attacker: State
    defender: State
    defender_fires_as: State


class StateArrays:
    """Pairs of states with a chance each, as arrays: pair ``i`` is ``attackers[a[i]]``
    against ``defenders[d[i]]`` with chance ``w[i]`` (numpy arrays: int, int, float or
    Fraction objects).  For the many pairs of a second wave joined by the first wave's
    units (:class:`StartTable`, :class:`PairTable`)."""

    def __init__(self, attackers: Sequence[State], defenders: Sequence[State], a: Any, d: Any, w: Any) -> None:
        self.attackers, self.defenders = attackers, defenders
        self.a, self.d, self.w = a, d, w

    def __len__(self) -> int:
        return len(self.w)


class StartTable(StateArrays, Sequence[Start[N]]):
    """Round 1's starting points as arrays, for battles with very many of them (a second
    wave joined by the first wave's units, :func:`engine.odds.aa._second_wave_once`):
    start ``i`` is ``attackers[a[i]]`` against ``defenders[d[i]]`` (firing as it stands)
    with weight ``w[i]``.  The merged table engine reads the arrays; every other engine
    iterates :class:`Start` objects, made when asked.  ``rows``: the attackers as one
    int array (a row of counts each), where the caller has it (tens of thousands of
    tuples are otherwise made into arrays again, ~8 ms each time)."""

    def __init__(self, attackers: Sequence[State], defenders: Sequence[State], a: Any, d: Any, w: Any,
                 rows: Any = None) -> None:
        super().__init__(attackers, defenders, a, d, w)
        self.rows = rows

    def attacker_rows(self, ids: Any) -> Any:
        """The attackers ``ids`` (their numbers) as an int64 array, a row each."""
        import numpy as np

        if self.rows is not None:
            return np.ascontiguousarray(self.rows[ids], dtype=np.int64)
        return np.array([self.attackers[i] for i in ids.tolist()], dtype=np.int64)

    @overload
    def __getitem__(self, i: int) -> Start[N]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Start[N]]: ...
    def __getitem__(self, i: int | slice) -> Start[N] | Sequence[Start[N]]:
        if isinstance(i, slice):
            return list(self)[i]
        d, w = self.defenders[int(self.d[i])], self.w[i]
        return Start(cast(N, float(w) if isinstance(w, float) else w), self.attackers[int(self.a[i])], d, d)

    def __iter__(self) -> Iterator[Start[N]]:
        ats, dfs = self.attackers, self.defenders
        for w, i, j in zip(self.w.tolist(), self.a.tolist(), self.d.tolist()):
            yield Start(w, ats[i], dfs[j], dfs[j])

    def used_attackers(self) -> Any:
        """The numbers of the attackers some start has, ascending (``numpy.unique(a)``,
        counted instead of sorted: hundreds of thousands of starts)."""
        import numpy as np  # not at the top: small battles do without it

        return np.flatnonzero(np.bincount(self.a, minlength=len(self.attackers)))

    def used_defenders(self) -> Any:
        """The same for the defenders (``numpy.unique(d)``)."""
        import numpy as np

        return np.flatnonzero(np.bincount(self.d, minlength=len(self.defenders)))


class PairTable(StateArrays, Mapping[tuple[State, State], N]):
    """Pairs of states with their chances as arrays: pair ``i`` is ``attackers[a[i]]``
    against ``defenders[d[i]]``, chance ``w[i]``, each pair once (the pairs still
    fighting after a round limit, :attr:`Tally.pairs`, as the merged table engine keeps
    them: hundreds of thousands for a big battle).  :func:`engine.odds.aa._second_wave`
    reads the arrays; as a mapping (pair -> chance) it is made when asked."""

    def __init__(self, attackers: Sequence[State], defenders: Sequence[State], a: Any, d: Any, w: Any) -> None:
        super().__init__(attackers, defenders, a, d, w)
        self._as_dict: dict[tuple[State, State], N] | None = None

    @classmethod
    def of(cls, pairs: Mapping[tuple[State, State], N]) -> "PairTable[N]":
        """The table of a mapping (pair -> chance), pairs numbered as they come."""
        import numpy as np  # not at the top: small battles do without it

        if isinstance(pairs, PairTable):
            return pairs
        a_ids: dict[State, int] = {}
        d_ids: dict[State, int] = {}
        a = [a_ids.setdefault(st, len(a_ids)) for st, _ in pairs]
        d = [d_ids.setdefault(st, len(d_ids)) for _, st in pairs]
        w = list(pairs.values())
        exact = any(not isinstance(x, float) for x in w)
        return cls(list(a_ids), list(d_ids), np.array(a, dtype=np.int64), np.array(d, dtype=np.int64),
                   np.array(w, dtype=object if exact else float))  # fmt: skip

    def _dict(self) -> dict[tuple[State, State], N]:
        if self._as_dict is None:
            ats, dfs = self.attackers, self.defenders
            self._as_dict = {
                (ats[i], dfs[j]): w for i, j, w in zip(self.a.tolist(), self.d.tolist(), self.w.tolist())
            }
        return self._as_dict

    def __getitem__(self, pair: tuple[State, State]) -> N:
        return self._dict()[pair]

    def __iter__(self) -> Iterator[tuple[State, State]]:
        return iter(self._dict())


def start_attackers(starts: Sequence[Start[N]]) -> set[State]:
    """The attacker states round 1 starts from (the blocks of the table engines)."""
    if isinstance(starts, StartTable):
        return {starts.attackers[i] for i in starts.used_attackers().tolist()}
    return {s.attacker for s in starts}


def table_cells(setup: BattleSetup[N]) -> int:
    """Cells of the table engines' table: attacker states (every AA block) x defender's."""
    att, dfn = setup.attacker, setup.defender
    starts = setup.starts
    if isinstance(starts, StartTable):  # many starts: their hit points as one product
        rows = starts.attacker_rows(starts.used_attackers())
        blocks = int((att.hp_counts(rows) + 1).sum()) if len(rows) else 0
    else:
        blocks = sum(att.hp(a) + 1 for a in start_attackers(starts))
    return blocks * (dfn.hp(dfn.start) + 1)


@dataclass
class BattleSetup(Generic[N]):
    attacker: Side
    defender: Side
    starts: Sequence[Start[N]]
    unit: N
    sea: bool = False
    land: bool = True
    retreat_below: int = 0
    low_luck: bool = False
    # The attacker retreats after a round from these live pairs (the retreat by win
    # chance of battles with submarines, engine.odds.aa_retreat, or the strike pass's
    # table of them read as a set, engine.odds.aa_strike.Decided); None: never.
    retreat_at: AbstractSet[tuple[State, State]] | None = None

    def __post_init__(self) -> None:
        self.defender_fought = self.defender.alive(self.defender.start) > 0
        self._settled: dict[tuple[State, State, bool], tuple[str | None, State, State]] = {}
        self._quiet: dict[tuple[State, bool], bool] = {}
        # The attacker states of retreat_at, made on first use (quiet): the passes that
        # never ask (the strike pass's round walk) would spend ~0.1 s on the ~370,000
        # pairs of a retreat by win chance at 100 a side.
        self._retreating: frozenset[State] | None = None

    def quiet(self, st: State, attacker: bool) -> bool:
        """Whether the end-of-round rules leave ``st`` alone whatever the other side
        holds: it still fights, no retreat threshold is reached, it has no lone
        submarines that may submerge nor (defending at sea) transports that may be lost.
        :meth:`settle` of two quiet states is ``(None, a, d)`` (memoised)."""
        key = (st, attacker)
        got = self._quiet.get(key)
        if got is None:
            got = self.calm(st, attacker) and not (attacker and self.retreat_at and st in self._retreating_states())
            self._quiet[key] = got
        return got

    def _retreating_states(self) -> frozenset[State]:
        """The attacker states of :attr:`retreat_at`'s pairs (memoised)."""
        if self._retreating is None:
            # (the numpy passes' decisions know them by number: aa_naval.NumberedPairs)
            known = getattr(self.retreat_at, "attacker_states", None)
            self._retreating = known() if known is not None else frozenset(a for a, _ in self.retreat_at or ())
        return self._retreating

    def calm(self, st: State, attacker: bool) -> bool:
        """:meth:`quiet` apart from a retreat by win chance (``retreat_at``), which acts
        on pairs of states rather than on ``st`` alone."""
        side = self.attacker if attacker else self.defender
        alive = side.alive(st)
        if not alive or (attacker and self.retreats_below(st)):
            return False
        if self.sea and side.submerge and _subs_alone(side, st):
            return False
        if self.sea and not attacker and side.has(st, "transport"):
            # takes a defender's transports only when transports (or transports
            # and submarines) are all it has left: another unit keeps them safe this
            # round, whatever the attacker holds (_defenceless).
            return not side.only(st, ("transport", "submarine"))
        return True

    def calm_unless_air_alone(self, st: State) -> bool:
        """For a defender's state: :meth:`calm`, or not calm only because it holds
        transports beside submarines and nothing else (A-10.7), which lose the transports
        only to an attacker whose fighting units are all aircraft (:meth:`air_alone`).
        :meth:`settle` leaves such a state alone against any quiet attacker state that
        is not aircraft alone."""
        side = self.defender
        if self.calm(st, False):
            return True
        return (self.sea and side.alive(st) > 0 and side.has(st, "submarine")
                and not (side.submerge and _subs_alone(side, st)))  # fmt: skip

    def retreats_below(self, a: State) -> bool:
        """Whether the attacker at ``a`` retreats after a round for having fewer than
        ``retreat_below`` units left (A-10.15), whatever defender state it faces that
        still fights and that the end-of-round rules leave alone (:meth:`calm`, or
        :meth:`calm_unless_air_alone` where ``a`` is not aircraft alone): :meth:`settle`
        then gives ``(RETREAT, a, d)``."""
        return bool(self.retreat_below) and 0 < self.attacker.alive(a) < self.retreat_below

    def air_alone(self, a: State) -> bool:
        """Whether the attacker's fighting units at ``a`` are all aircraft (A-10.7)."""
        return self.attacker.fighting_categories(a) == {CAT_AIR}

    def takes(self, a: State) -> bool:
        """Whether the attacker at ``a`` could take the territory (any battle at sea, or a
        land unit left on land)."""
        return not self.land or self.attacker.has_land(a)

    def can_fire(self, side: Side, st: State) -> bool:
        return any(v > 0 and n > 0 for g in side.dice(st) for v, n in g)  # memoised dice

    def settle(self, a: State, d: State, *, after_round: bool = True) -> tuple[str | None, State, State]:
        """``(outcome or None, attacker state, defender state)`` once the end-of-round
        rules have acted (memoised)."""
        key = (a, d, after_round)
        got = self._settled.get(key)
        if got is None:
            got = self._settle(a, d, after_round)
            if after_round and got[0] is None and self.retreat_at and (got[1], got[2]) in self.retreat_at:
                got = (RETREAT, got[1], got[2])
            self._settled[key] = got
        return got

    def _settle(self, a: State, d: State, after_round: bool) -> tuple[str | None, State, State]:
        att, dfn = self.attacker, self.defender
        for _ in range(2):  # a second pass after submerging
            outcome = self._ended(a, d)
            if outcome is not None:
                return outcome, a, d
            if self.sea and self._defenceless(a, d):
                d = state_without(dfn, d, "transport")
                outcome = self._ended(a, d)
                if outcome is not None:
                    return outcome, a, d
            if after_round and self.retreats_below(a):  # a still fights (_ended)
                return RETREAT, a, d
            if not self.sea:
                return None, a, d
            moved = False
            # a side may submerge its submarines instead of rolling; asked for
            # (per side) when they are the side's last fighting units and no enemy
            # destroyer is in the battle.  The attacker declares first.
            if att.submerge and _subs_alone(att, a) and not dfn.has(d, "destroyer"):
                a = att.submerge_all(a)
                if att.alive(a) == 0:
                    return RETREAT, a, d
                moved = True
            if dfn.submerge and _subs_alone(dfn, d) and not att.has(a, "destroyer"):
                d = dfn.submerge_all(d)
                moved = True
            if not moved:
                return None, a, d
        return None, a, d

    def _ended(self, a: State, d: State) -> str | None:
        a_alive = self.attacker.alive(a) > 0
        d_alive = self.defender.alive(d) > 0
        if a_alive and d_alive:
            return None
        if a_alive:
            return ATTACKER
        if d_alive or not self.defender_fought:
            return DEFENDER
        return DRAW

    def _defenceless(self, a: State, d: State) -> bool:
        """A-10.7: a defender left with only transports, or only transports and
        submarines facing aircraft alone without a destroyer, loses the transports
        without dice when the attacker can still fire."""
        dfn, att = self.defender, self.attacker
        if not dfn.has(d, "transport") or not self.can_fire(att, a):
            return False
        if dfn.only(d, ("transport",)):
            return True
        return dfn.only(d, ("transport", "submarine")) and self.air_alone(a)


def _subs_alone(side: Side, st: State) -> bool:
    return side.has(st, "submarine") and side.only(st, ("submarine",))


def state_without(side: Side, st: State, flag: str) -> State:
    """``st`` with no unit of the profile ``flag`` (A-10.7: a defender's lost transports)."""
    return tuple(
        0 if getattr(side.profiles[s.unit], flag) else n for s, n in zip(side.slots, st)
    )


@dataclass
class Tally(Generic[N]):
    """Where the probability mass ended."""

    outcome: dict[str, N]
    attacker_end: dict[State, N] = field(default_factory=dict)
    defender_end: dict[State, N] = field(default_factory=dict)
    takes: N | None = None
    rounds: N | None = None
    # Probability mass left out by float pruning (0 in exact mode): a bound on the error
    # of every probability reported.
    dropped: float = 0.0
    # The pairs of states still fighting when a round limit stopped the battle, with
    # their chances (None: not kept), when asked (a second wave joining the first
    # wave's units still fighting, engine.odds.aa): a dict from the general engine, a
    # PairTable from the merged table engine.
    pairs: dict[tuple[State, State], N] | PairTable[N] | None = None
    # The pairs of states the attacker retreated from, with their chances (None: not
    # kept), when asked (an amphibious assault's landed units fight on from them,
    # engine.odds.aa): a dict from the general engine, a PairTable from the merged one.
    retreats: dict[tuple[State, State], N] | PairTable[N] | None = None

    @classmethod
    def empty(cls, unit: N) -> "Tally[N]":
        zero = unit - unit
        return cls({o: zero for o in OUTCOMES}, takes=zero, rounds=zero)

    def add_drift(self) -> "Tally[N]":
        """Add the rounding drift of the total (``|1 - recorded - left out|``, float mode)
        to the mass left out, so that the error bound covers it; returns the tally."""
        recorded = float(sum(self.outcome.values()))
        self.dropped += abs(1.0 - recorded - self.dropped)
        return self

    def record(self, outcome: str, a: State, d: State, mass: N, takes: bool) -> None:
        self.outcome[outcome] += mass
        if outcome == UNFINISHED and isinstance(self.pairs, dict):
            self.pairs[(a, d)] = self.pairs.get((a, d), mass - mass) + mass
        elif outcome == RETREAT and isinstance(self.retreats, dict):
            self.retreats[(a, d)] = self.retreats.get((a, d), mass - mass) + mass
        self.attacker_end[a] = self.attacker_end.get(a, mass - mass) + mass
        self.defender_end[d] = self.defender_end.get(d, mass - mass) + mass
        if takes and outcome == ATTACKER and self.takes is not None:
            self.takes += mass
