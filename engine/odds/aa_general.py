"""The general exact engine: any A&A battle, submarines included.

States are pairs of side states (count tuples, :mod:`engine.odds.aa_side`).  A round
(A-10.4, A-10.6):

1. *Surprise strike*: each side's submarines fire first unless an enemy destroyer is in
   the battle; their hits never land on aircraft; units they hit are removed before
   they can fire (both sides' submarines strike from the state at the start of the
   round, so a submarine hit by the other side's strike still strikes back).
2. *General fire*, both sides at once from what is left: submarines that did not strike
   (an enemy destroyer cancelled it), aircraft (hits on submarines only with a friendly
   destroyer in the battle), everything else.
3. The end-of-round rules (:meth:`BattleSetup.settle`).

With no round limit the chain is solved exactly as a directed acyclic graph: every
transition except "nobody is hit" lowers the number of hits the two sides can still
absorb, so states are processed from the most to the fewest hit points, each once; the
"nobody is hit" loop of a state is summed in closed form (its mass is divided by
``1 - p_loop``).  A state where no hit is possible any more is a stalemate.  In float
mode that solve runs in :mod:`engine.odds.aa_naval` (states numbered, numpy arithmetic);
the dict-based one here serves exact fractions and checks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic

from engine.odds.aa_battle import (
    CUT, DEFENDER, STALEMATE, TINY, UNFINISHED, BattleSetup, Tally, Work, too_many_states,
)
from engine.odds.aa_side import CAT_AIR, CAT_SUB, Side, State
from engine.odds.dist import N, convolve, fire_distribution

if TYPE_CHECKING:  # numpy: imported for float solves only
    from engine.odds.aa_naval import NumberedSides

Pair = tuple[State, State]
Dist = dict[State, N]


class GeneralEngine(Generic[N]):
    def __init__(
        self, setup: BattleSetup[N], max_states: int | None = None, *, vectorised: bool = True,
        work: Work | None = None, sides: NumberedSides | None = None,
    ) -> None:
        self.setup: BattleSetup[N] = setup
        # Float mode, no round limit: the numpy solve (engine.odds.aa_naval) unless
        # ``vectorised`` is False (the dict-based solve below, kept to check it against).
        self.vectorised = vectorised
        self.unit: N = setup.unit
        self.zero: N = setup.unit - setup.unit
        self.max_states = max_states
        self.work = work  # the numpy solve's work limit (NavalSolver)
        self.seen = 0
        # The numbered sides of an earlier numpy solve of this battle, to reuse
        # (NavalSolver.sides; a retreat by win chance solves it twice).
        self.sides = sides
        self._fire: dict[tuple[int, State, bool, bool], tuple[list[N], list[N], list[N]]] = {}
        self._cas: dict[tuple[object, ...], Dist[N]] = {}
        self._cas_quick: dict[tuple[object, ...], Dist[N]] = {}
        self._dists: dict[tuple[tuple[int, int], ...], list[N]] = {}
        self._strike: dict[tuple[int, State, int, State], Dist[N]] = {}

    # -- one side's dice and casualties ---------------------------------------------------

    def fire(self, side: Side, st: State, subs_fire: bool, air_any: bool) -> tuple[list[N], list[N], list[N]]:
        """Hit distributions of a side's general fire by class (submarine, aircraft,
        unrestricted)."""
        key = (id(side), st, subs_fire, air_any)
        got = self._fire.get(key)
        if got is None:
            subs, air, other = side.dice(st)
            unit = self.unit
            dist = self._dist
            sub_d = dist(subs) if subs_fire else [unit]
            if air_any:
                air_d, any_d = [unit], dist(air + other)
            else:
                air_d, any_d = dist(air), dist(other)
            got = (sub_d, air_d, any_d)
            self._fire[key] = got
        return got

    def _dist(self, groups: list[tuple[int, int]]) -> list[N]:
        """Hit distribution of dice groups (memoised: many states roll the same dice)."""
        key = tuple(groups)
        got = self._dists.get(key)
        if got is None:
            got = self._dists[key] = fire_distribution(groups, self.unit, self.setup.low_luck)
        return got

    def casualties(
        self, target: Side, t_st: State, shooter: Side, s_st: State, subs_fire: bool, air_any: bool
    ) -> Dist[N]:
        quick = (id(target), t_st, s_st, subs_fire, air_any)
        got = self._cas_quick.get(quick)
        if got is not None:
            return got
        cats = target.fighting_categories(t_st)
        # Keyed by the shooter's dice, not its state: many states roll the same dice.
        key = (id(target), t_st, shooter.dice_key(s_st), subs_fire, air_any or CAT_SUB not in cats)
        got = self._cas.get(key)
        if got is not None:
            self._cas_quick[quick] = got
            return got
        got = self._casualties(target, t_st, shooter, s_st, subs_fire, air_any, cats)
        self._cas[key] = self._cas_quick[quick] = got
        return got

    def _casualties(
        self, target: Side, t_st: State, shooter: Side, s_st: State, subs_fire: bool, air_any: bool,
        cats: frozenset[int],
    ) -> Dist[N]:
        # A restriction that cannot matter (no aircraft / no submarine to protect) is
        # dropped: the hits are then taken in plain loss order.
        sub_d, air_d, any_d = self.fire(shooter, s_st, subs_fire, air_any or CAT_SUB not in cats)
        out: Dist[N] = {}
        if len(air_d) == 1 and (CAT_AIR not in cats or len(sub_d) == 1):
            # No restriction can bind: the hits are taken in plain loss order.
            seq = target.sequence(t_st)
            last = len(seq) - 1
            for h, p in enumerate(convolve(sub_d, any_d)):
                if p:
                    nxt = seq[h if h < last else last]
                    out[nxt] = out.get(nxt, self.zero) + p
            return out
        # Float mode: hit combinations less likely than CUT are left out (their mass
        # shows in the final balance, added to the error bound).
        cut = CUT if isinstance(self.unit, float) else self.zero
        for hs, ps in enumerate(sub_d):
            if ps <= cut:
                continue
            for ha, pa in enumerate(air_d):
                pp = ps * pa
                if pp <= cut:
                    continue
                # Unrestricted hits never change where the restricted ones go: they
                # take the first steps left in loss order (Side.take on the result).
                if CAT_AIR in cats:
                    base, extra = target.take_hits(t_st, hs, ha, 0), 0
                else:  # nothing for submarine fire to spare
                    base, extra = target.take_hits(t_st, 0, ha, 0), hs
                seq = target.sequence(base)
                last = len(seq) - 1
                for hy, py in enumerate(any_d, extra):
                    q = pp * py
                    if q <= cut:
                        continue
                    nxt = seq[hy if hy < last else last]
                    out[nxt] = out.get(nxt, self.zero) + q
        return out

    def strike(self, target: Side, t_st: State, shooter: Side, s_st: State) -> Dist[N]:
        """A-10.6 surprise strike of ``shooter``'s submarines on ``target``."""
        key = (id(target), t_st, id(shooter), s_st)
        got = self._strike.get(key)
        if got is None:
            subs, _, _ = shooter.dice(s_st)
            got = {}
            for h, p in enumerate(fire_distribution(subs, self.unit, self.setup.low_luck)):
                if p:
                    nxt = target.take_hits(t_st, h, 0, 0)
                    got[nxt] = got.get(nxt, self.zero) + p
            self._strike[key] = got
        return got

    # -- one round --------------------------------------------------------------------------

    def factors(self, a: State, d: State, d_fires_as: State | None = None) -> list[tuple[N, Dist[N], Dist[N]]]:
        """One round from (a, d) as a mixture over the surprise strikes' results:
        ``(weight, attacker's next states, defender's next states)``, the two
        independent given the strikes (A-10.6).  ``d_fires_as``: the defender's state
        its general fire is rolled from (bombarded defenders still fire, A-10.3)."""
        att, dfn = self.setup.attacker, self.setup.defender
        a_strike = att.has(a, "submarine") and not dfn.has(d, "destroyer")
        d_strike = dfn.has(d, "submarine") and not att.has(a, "destroyer")
        a1s: Dist[N] = self.strike(att, a, dfn, d) if d_strike else {a: self.unit}
        d1s: Dist[N] = self.strike(dfn, d, att, a) if a_strike else {d: self.unit}
        out: list[tuple[N, Dist[N], Dist[N]]] = []
        for a1, pa in a1s.items():
            a_air_any = att.has(a1, "destroyer")
            for d1, pd in d1s.items():
                d_air_any = dfn.has(d1, "destroyer")
                shooter_d = d1 if d_fires_as is None else d_fires_as
                a2s = self.casualties(att, a1, dfn, shooter_d, not d_strike, d_air_any)
                d2s = self.casualties(dfn, d1, att, a1, not a_strike, a_air_any)
                out.append((pa * pd, a2s, d2s))
        return out

    def round(self, a: State, d: State, d_fires_as: State | None = None) -> dict[Pair, N]:
        """One round from (a, d) as a distribution over the next pairs of states."""
        out: dict[Pair, N] = {}
        for w, a2s, d2s in self.factors(a, d, d_fires_as):
            for a2, qa in a2s.items():
                wa = w * qa
                for d2, qd in d2s.items():
                    key = (a2, d2)
                    out[key] = out.get(key, self.zero) + wa * qd
        return out

    # -- the whole battle ---------------------------------------------------------------------

    def run(self, rounds: int | None = None, pairs: bool = False, retreats: bool = False,
            strafe: bool = False) -> Tally[N]:
        """The battle, or its first ``rounds`` rounds; with ``pairs`` the pairs of
        states still fighting after the last of them are kept (``Tally.pairs``), with
        ``retreats`` those the attacker retreated from (``Tally.retreats``); a
        ``strafe``: what still fights after the last round retreats (A-10.15), which
        the strike pass's round walk may add up with its other retreats."""
        setup = self.setup
        tally: Tally[N] = Tally.empty(self.unit)
        if pairs:
            tally.pairs = {}
        if retreats:
            tally.retreats = {}
        after: dict[Pair, N] = {}
        if isinstance(self.unit, float) and self.vectorised and self.plain_starts():
            # Round 1 is like any other: the numpy solve (or round walk) starts from the
            # starts.
            from engine.odds.aa_naval import NavalSolver  # numpy: float mode only

            after = self.plain_pairs(tally)
            if self._strike_solve(after, tally, rounds, strafe=strafe):
                return tally.add_drift()
            solver = NavalSolver(setup, self.max_states, self.seen, self.sides, work=self.work)
            if rounds is None:
                self.seen = solver.solve(after, tally)
            else:
                solver.walk(after, rounds, tally)
            return tally.add_drift()
        if isinstance(self.unit, float) and self.vectorised and self.plain_starts(by_chance=False):
            # A start where a retreat by win chance acts (after round 1 only): the strike
            # pass fights round 1 from it like any other, where it takes the battle.
            trial: Tally[N] = Tally.empty(self.unit)
            if pairs:
                trial.pairs = {}
            if retreats:
                trial.retreats = {}
            begun = self.plain_pairs(trial)
            if self._strike_solve(begun, trial, rounds, starts=True, strafe=strafe):
                return trial.add_drift()
        for start in setup.starts:
            a, d = start.attacker, start.defender
            # Bombarded defenders still fire in round 1: no early end then.
            if start.defender_fires_as == d:
                outcome, a, d = setup.settle(a, d, after_round=False)
            else:
                outcome = None if setup.attacker.alive(a) else DEFENDER
            if outcome is not None:
                tally.record(outcome, a, d, start.weight, self.setup.takes(a))
                continue
            assert tally.rounds is not None
            tally.rounds += start.weight
            fires_as = start.defender_fires_as if start.defender_fires_as != d else None
            for (a2, d2), p in self.round(a, d, fires_as).items():
                self._add(after, tally, a2, d2, start.weight * p)
        if rounds is None and isinstance(self.unit, float) and self.vectorised:
            from engine.odds.aa_naval import NavalSolver  # numpy: float mode only

            if not self._strike_solve(after, tally, None):
                solver = NavalSolver(setup, self.max_states, self.seen, work=self.work)
                self.seen = solver.solve(after, tally)
        elif rounds is None:
            self._solve(after, tally)
        elif isinstance(self.unit, float) and self.vectorised:
            from engine.odds.aa_naval import NavalSolver  # numpy: float mode only

            NavalSolver(setup, self.max_states, self.seen, work=self.work).walk(after, rounds - 1, tally)
        else:
            # Round by round; in float mode masses below TINY are not spread (their sum
            # goes to the error bound), as in the solve without a round limit.
            tiny = TINY if isinstance(self.unit, float) else None
            for r in range(rounds - 1):
                nxt: dict[Pair, N] = {}
                for (a, d), m in after.items():
                    if tiny is not None and m < tiny:
                        tally.dropped += float(m)
                        continue
                    mix = self.factors(a, d)
                    if len(mix) == 1 and mix[0][1].keys() == {a} and mix[0][2].keys() == {d}:
                        tally.record(STALEMATE, a, d, m, False)
                        continue
                    assert tally.rounds is not None
                    tally.rounds += m
                    if r == rounds - 2 and tally.pairs is None:  # last round: each side's share only
                        self._last_round(tally, mix, m)
                        continue
                    for w, a2s, d2s in mix:
                        mw = m * w
                        for a2, qa in a2s.items():
                            mwa = mw * qa
                            if tiny is not None and mwa < tiny:
                                tally.dropped += float(mwa)
                                continue
                            for d2, qd in d2s.items():
                                x = mwa * qd
                                if tiny is not None and x < tiny:
                                    tally.dropped += float(x)
                                    continue
                                self._add(nxt, tally, a2, d2, x)
                after = nxt
            for (a, d), m in after.items():
                tally.record(UNFINISHED, a, d, m, False)
        if isinstance(self.unit, float):  # and what the cut hit combinations left out
            tally.add_drift()
        return tally

    def _last_round(self, tally: Tally[N], mix: list[tuple[N, Dist[N], Dist[N]]], m: N) -> None:
        """Record the last round of a round-limited battle from one pair (mass ``m``):
        where both sides are left quiet (:meth:`BattleSetup.quiet`) the battle is simply
        unfinished, so only each side's share of it is added up (one term per state, not
        per pair); every other pair of results is settled one by one."""
        setup = self.setup
        quiet = setup.quiet
        zero = self.zero
        for w, a2s, d2s in mix:
            mw = m * w
            qa_quiet: list[tuple[State, N]] = []
            loud_a: list[tuple[State, N]] = []
            for a2, q in a2s.items():
                (qa_quiet if quiet(a2, True) else loud_a).append((a2, q))
            qd_quiet: list[tuple[State, N]] = []
            loud_d: list[tuple[State, N]] = []
            for d2, q in d2s.items():
                (qd_quiet if quiet(d2, False) else loud_d).append((d2, q))
            if qa_quiet and qd_quiet:
                sa = sum((q for _, q in qa_quiet), zero)
                sd = sum((q for _, q in qd_quiet), zero)
                tally.outcome[UNFINISHED] += mw * sa * sd
                a_end, d_end = tally.attacker_end, tally.defender_end
                for a2, q in qa_quiet:
                    a_end[a2] = a_end.get(a2, zero) + mw * q * sd
                for d2, q in qd_quiet:
                    d_end[d2] = d_end.get(d2, zero) + mw * q * sa
            for a_list, d_list in ((qa_quiet, loud_d), (loud_a, qd_quiet), (loud_a, loud_d)):
                for a2, qa in a_list:
                    for d2, qd in d_list:
                        outcome, a3, d3 = setup.settle(a2, d2)
                        tally.record(UNFINISHED if outcome is None else outcome, a3, d3, mw * qa * qd,
                                     setup.takes(a3))  # fmt: skip

    def _strike_solve(self, after: dict[Pair, Any], tally: Tally[Any], rounds: int | None,
                      starts: bool = False, strafe: bool = False) -> bool:
        """Solve from ``after`` (or walk ``rounds`` rounds) in the compiled pass of
        :mod:`engine.odds.aa_strike` when the battle is one where a side's submarines
        strike every round (float mode); False (nothing recorded) otherwise.
        ``starts``: ``after`` are round 1's starts, where a retreat by win chance
        (``retreat_at``) does not act yet; ``strafe``: as :meth:`run`'s."""
        from engine.odds import aa_strike  # numpy; its kernel numba, compiled on first use

        setup: Any = self.setup
        if not aa_strike.ENABLED or not aa_strike.applies(setup):
            return False
        solver = aa_strike.StrikeSolver(setup, self.max_states, self.seen, work=self.work)
        if rounds is not None:
            return solver.walk(after, rounds, tally, starts=starts, strafe=strafe)
        seen = solver.solve(after, tally, starts=starts)
        if seen is None:
            return False
        self.seen = seen
        return True

    def plain_pairs(self, tally: Tally[N]) -> dict[Pair, N]:
        """Where round 1 starts when it is like any other (:meth:`plain_starts`): the
        starts' pairs once the end-of-round rules acted, with their weights; the starts
        those rules settle at once are recorded into ``tally``."""
        setup = self.setup
        pairs: dict[Pair, N] = {}
        for start in setup.starts:
            outcome, a, d = setup.settle(start.attacker, start.defender, after_round=False)
            if outcome is not None:
                tally.record(outcome, a, d, start.weight, setup.takes(a))
            else:
                pairs[(a, d)] = pairs.get((a, d), self.zero) + start.weight
        return pairs

    def plain_starts(self, by_chance: bool = True) -> bool:
        """Whether round 1 is an ordinary round from every start: no bombarded defender
        firing back (A-10.3), and no standing retreat order the starting pair already
        meets (it only applies after a round, A-10.15); with ``by_chance`` False, a
        retreat by win chance (``retreat_at``) from a start is allowed."""
        setup = self.setup
        for start in setup.starts:
            if start.defender_fires_as != start.defender:
                return False
            if setup.retreat_below and setup.attacker.alive(start.attacker) < setup.retreat_below:
                return False
            if by_chance and setup.retreat_at and (start.attacker, start.defender) in setup.retreat_at:
                return False  # a retreat by win chance from the start: after round 1 only
        return True

    def _add(self, into: dict[Pair, N], tally: Tally[N], a: State, d: State, m: N) -> None:
        outcome, a, d = self.setup.settle(a, d)
        if outcome is not None:
            tally.record(outcome, a, d, m, self.setup.takes(a))
        else:
            into[(a, d)] = into.get((a, d), self.zero) + m

    def _spread(self, a: State, d: State) -> tuple[list[tuple[N, Dist[N], Dist[N]]], N, bool]:
        """Count the state (against ``max_states``) and give its round as a mixture
        (:meth:`factors`), the chance that the round changes nothing (the loop summed in
        closed form) and whether the round can lead anywhere else (if not: stalemate)."""
        self.seen += 1
        if self.max_states is not None and self.seen > self.max_states:
            raise too_many_states(self.max_states)
        mix = self.factors(a, d)
        loop = self.zero
        moves = False
        for w, a2s, d2s in mix:
            qa = a2s.get(a)
            qd = d2s.get(d)
            if qa and qd:
                loop += w * qa * qd
            if len(a2s) > 1 or len(d2s) > 1 or not qa or not qd:
                moves = True
        return mix, loop, moves

    def _solve(self, initial: dict[Pair, N], tally: Tally[N]) -> None:
        att, dfn = self.setup.attacker, self.setup.defender
        settle = self.setup.settle
        potential: Callable[[Pair], int] = lambda s: att.hp(s[0]) + dfn.hp(s[1])
        buckets: dict[int, dict[Pair, N]] = {}
        for s, m in initial.items():
            buckets.setdefault(potential(s), {})[s] = m
        # Where a round's result goes: a final outcome, or a live state and its level.
        dest: dict[Pair, tuple[str | None, State, State, int]] = {}
        ended: dict[tuple[str, State, State], N] = {}
        level = max(buckets, default=-1)
        # Float mode leaves out masses below TINY (summed in ``dropped``, the error
        # bound); exact mode keeps everything.
        tiny = self.zero if not isinstance(self.unit, float) else TINY
        dropped = 0.0
        while level >= 0:
            bucket = buckets.pop(level, None)
            level -= 1
            if not bucket:
                continue
            for (a, d), m in bucket.items():
                if m < tiny:  # float mode: a state this unlikely is not spread
                    dropped += float(m)
                    continue
                mix, loop, moves = self._spread(a, d)
                if not moves:
                    tally.record(STALEMATE, a, d, m, False)
                    continue
                m_eff = m / (1 - loop)
                assert tally.rounds is not None
                tally.rounds += m_eff
                for w, a2s, d2s in mix:
                    mw = m_eff * w
                    for a2, qa in a2s.items():
                        mwa = mw * qa
                        if mwa < tiny:
                            if not (a2 == a and len(d2s) == 1 and d in d2s):
                                dropped += float(mwa)
                            continue
                        same_a = a2 == a
                        for d2, qd in d2s.items():
                            if same_a and d2 == d:
                                continue
                            pair = (a2, d2)
                            got = dest.get(pair)
                            if got is None:
                                outcome, a3, d3 = settle(a2, d2)
                                lv = -1 if outcome is not None else potential((a3, d3))
                                got = dest[pair] = (outcome, a3, d3, lv)
                            outcome, a3, d3, lv = got
                            x = mwa * qd
                            if x < tiny:
                                dropped += float(x)
                                continue
                            if outcome is not None:
                                k = (outcome, a3, d3)
                                ended[k] = ended.get(k, self.zero) + x
                            else:
                                b = buckets.get(lv)
                                if b is None:
                                    b = buckets[lv] = {}
                                key = (a3, d3)
                                b[key] = b.get(key, self.zero) + x
        for (outcome, a3, d3), m in ended.items():
            tally.record(outcome, a3, d3, m, self.setup.takes(a3))
        tally.dropped += dropped
