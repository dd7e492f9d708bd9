"""Pairings: round-robin (Berger-style circle method) and Swiss (maximum-weight matching).

Both are pure functions over small values, deterministic for the same inputs.  Sides
are written ``+1`` (the league's first side, which plays the role of White) and ``-1``
(the second side).

**Round-robin** (:func:`round_robin_round`): players are numbered by seed ``0..n-1``
(an odd count gets a phantom ``n``: whoever meets it has the bye).  With ``N`` slots
(even) and ``m = N - 1``, round ``t`` (0-based) pairs slot ``i`` with slot ``j`` when
``i + j ≡ t (mod m)``; the slot with ``2i ≡ t`` meets the last slot.  Over ``m`` rounds
every two slots meet exactly once.  Sides: in ``i`` vs ``j`` (``i < j``, both rotating)
the lower number takes the first side when ``i + j`` is odd, the higher one when it is
even; the last slot takes the first side in odd rounds.  This is the colour rule of the
Berger tables: every player's first-side and second-side games differ by at most one,
and no player has the same side more than twice in a row.  A double round-robin plays
the same rounds again with the sides swapped.

**Swiss** (:func:`swiss_round`): one maximum-weight matching (networkx's
``max_weight_matching`` with ``maxcardinality=True``, exact integer weights) over the
complete graph of the players still in the league, plus a "bye" node when their count
is odd.  Each edge's weight is a number whose digits, from most to least significant,
encode five criteria, so the matching optimises them lexicographically:

1. no rematch (and no second bye): the number of pairs that never met is maximal —
   zero rematches whenever a pairing without rematches exists;
2. the bye goes to the lowest-ranked player who has not had one (among the choices
   that keep criterion 1 at its best);
3. score groups: the sum over pairs of the squared score difference is minimal (players
   meet their own score group; as few and as small "floats" as possible);
4. side balance: each player has a preferred side (absolute when their balance is ±2 or
   more or they had the same side twice in a row; strong at ±1; mild to alternate at
   0), and the sum of unmet preferences (1, 4 or 16 by strength) is minimal;
5. within a score group the top half meets the bottom half (1–5, 2–6, 3–7, 4–8 in a
   group of eight), and a player who floats down is the lowest of their group and meets
   the highest of the group below.

The ranking handed in decides "lowest-ranked" and the halves: by score, then by seed
(the league's seeding order), as the Dutch system does with pairing numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Sequence

import networkx as nx

FIRST, SECOND = 1, -1

_BYE = "bye"  # the phantom node of the Swiss matching
_ABSOLUTE, _STRONG, _MILD = 3, 2, 1
_UNMET_COST = {0: 0, _MILD: 1, _STRONG: 4, _ABSOLUTE: 16}


@dataclass(frozen=True)
class PairingPlan:
    """A round's pairs in board order, each ``(first-side player, second-side player)``,
    and the player with the bye (or None)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


# -- round-robin -------------------------------------------------------------------

def round_robin_length(players: int, *, double: bool = False) -> int:
    """The number of rounds of a round-robin of ``players`` players."""
    if players < 2:
        return 0
    per_cycle = players - 1 if players % 2 == 0 else players
    return per_cycle * (2 if double else 1)


def round_robin_round(seeds: Sequence[int], number: int, *, double: bool = False) -> PairingPlan:
    """Round ``number`` (1-based) of the round-robin of ``seeds`` (player ids in seeding
    order).  See the module docstring for the schedule and the side rule."""
    total = round_robin_length(len(seeds), double=double)
    if not 1 <= number <= total:
        raise ValueError(f"a round-robin of {len(seeds)} players has rounds 1..{total}, not {number}")
    slots: list[int | None] = list(seeds) + ([None] if len(seeds) % 2 else [])
    size = len(slots)
    m = size - 1
    cycle, t = divmod(number - 1, m)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for i in range(m):
        j = (t - i) % m
        if i == j:
            a, b = i, size - 1
            first = a if t % 2 == 0 else b
        elif i < j:
            a, b = i, j
            first = a if (a + b) % 2 == 1 else b
        else:
            continue
        second = b if first == a else a
        if cycle == 1:
            first, second = second, first
        pa, pb = slots[first], slots[second]
        if pa is None or pb is None:
            bye = pb if pa is None else pa
            continue
        pairs.append((pa, pb))
    order = {pid: k for k, pid in enumerate(seeds)}
    pairs.sort(key=lambda p: min(order[p[0]], order[p[1]]))
    return PairingPlan(tuple(pairs), bye)


# -- Swiss -------------------------------------------------------------------------

@dataclass(frozen=True)
class SwissPlayer:
    """What the Swiss pairing needs to know of a player still in the league.

    ``sides``: the sides of their games so far, in round order (``+1``/``-1``; forfeited
    games are left out).  ``opponents``: everyone they have been paired with (a forfeit
    counts: they are not paired again)."""

    id: int
    score: Fraction
    opponents: frozenset[int] = frozenset()
    sides: tuple[int, ...] = ()
    had_bye: bool = False

    @property
    def balance(self) -> int:
        return sum(self.sides)


def side_preference(sides: Sequence[int]) -> tuple[int, int]:
    """(wanted side, strength): strength 3 absolute, 2 strong, 1 mild, 0 none."""
    if not sides:
        return 0, 0
    balance = sum(sides)
    last_two = tuple(sides[-2:])
    if balance <= -2 or last_two == (SECOND, SECOND):
        return FIRST, _ABSOLUTE
    if balance >= 2 or last_two == (FIRST, FIRST):
        return SECOND, _ABSOLUTE
    if balance == -1:
        return FIRST, _STRONG
    if balance == 1:
        return SECOND, _STRONG
    return -sides[-1], _MILD


def _unmet(pref: tuple[int, int], side: int) -> int:
    wanted, strength = pref
    return 0 if wanted in (0, side) else _UNMET_COST[strength]


def _side_costs(pa: tuple[int, int], pb: tuple[int, int]) -> tuple[int, int]:
    """(cost if a takes the first side, cost if b takes it)."""
    return _unmet(pa, FIRST) + _unmet(pb, SECOND), _unmet(pa, SECOND) + _unmet(pb, FIRST)


def swiss_round(ranked: Sequence[SwissPlayer]) -> PairingPlan:
    """Pair one Swiss round.  ``ranked`` is every player to pair, best first (by score,
    then seed).  See the module docstring for what the pairing guarantees."""
    n = len(ranked)
    if len({p.id for p in ranked}) != n:
        raise ValueError("a player is listed twice")
    if n == 0:
        return PairingPlan((), None)
    if n == 1:
        return PairingPlan((), ranked[0].id)

    rank = {p.id: k for k, p in enumerate(ranked)}
    denominator = lcm(*(p.score.denominator for p in ranked))
    prefs = {p.id: side_preference(p.sides) for p in ranked}

    # Score groups, best first, and each player's place in theirs.
    groups: list[list[SwissPlayer]] = []
    for p in ranked:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    group_of: dict[int, int] = {}
    place: dict[int, int] = {}
    for g, members in enumerate(groups):
        for k, p in enumerate(members):
            group_of[p.id], place[p.id] = g, k

    def fresh(a: SwissPlayer, b: SwissPlayer) -> int:
        return 0 if (b.id in a.opponents or a.id in b.opponents) else 1

    def score_penalty(a: SwissPlayer, b: SwissPlayer) -> int:
        d = (a.score - b.score) * denominator
        return int(d * d)

    def order_penalty(a: SwissPlayer, b: SwissPlayer) -> int:
        if rank[a.id] > rank[b.id]:
            a, b = b, a
        ga, gb = group_of[a.id], group_of[b.id]
        if ga == gb:
            size = len(groups[ga])
            return abs((place[b.id] - place[a.id]) - size // 2)
        return (len(groups[ga]) - 1 - place[a.id]) + place[b.id]

    pairs = [(a, b) for i, a in enumerate(ranked) for b in ranked[i + 1:]]
    t3 = {(a.id, b.id): score_penalty(a, b) for a, b in pairs}
    t4 = {(a.id, b.id): min(_side_costs(prefs[a.id], prefs[b.id])) for a, b in pairs}
    t5 = {(a.id, b.id): order_penalty(a, b) for a, b in pairs}
    m2 = n
    m3 = max(t3.values())
    m4 = max(_UNMET_COST.values()) * 2
    m5 = max(max(t5.values()), 0)
    edges = (n + 1) // 2
    b5 = 1
    low5 = m5 * b5
    b4 = edges * low5 + 1
    low4 = m4 * b4 + low5
    b3 = edges * low4 + 1
    low3 = m3 * b3 + low4
    b2 = edges * low3 + 1
    low2 = m2 * b2 + low3
    b1 = edges * low2 + 1

    graph: nx.Graph[int | str] = nx.Graph()
    for a, b in pairs:
        key = (a.id, b.id)
        weight = (fresh(a, b) * b1 + (m3 - t3[key]) * b3 + (m4 - t4[key]) * b4
                  + (m5 - t5[key]) * b5)
        graph.add_edge(a.id, b.id, weight=weight)
    if n % 2:
        for p in ranked:
            weight = ((0 if p.had_bye else 1) * b1 + (rank[p.id] + 1) * b2 + m3 * b3 + m4 * b4
                      + m5 * b5)
            graph.add_edge(p.id, _BYE, weight=weight)

    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    bye: int | None = None
    matched: list[tuple[int, int]] = []
    for u, v in matching:
        if u == _BYE or v == _BYE:
            bye = int(v if u == _BYE else u)
            continue
        a_id, b_id = int(u), int(v)
        if rank[a_id] > rank[b_id]:
            a_id, b_id = b_id, a_id
        matched.append((a_id, b_id))
    if len(matched) * 2 + (bye is not None) != n:
        raise AssertionError("the matching left a player out")  # cannot happen: complete graph

    by_id = {p.id: p for p in ranked}
    matched.sort(key=lambda ab: (-max(by_id[ab[0]].score, by_id[ab[1]].score), rank[ab[0]]))
    board_pairs: list[tuple[int, int]] = []
    for board, (high, low) in enumerate(matched, start=1):
        board_pairs.append(_assign_sides(high, low, prefs[high], prefs[low], board))
    return PairingPlan(tuple(board_pairs), bye)


def _assign_sides(high: int, low: int, ph: tuple[int, int], pl: tuple[int, int], board: int) -> tuple[int, int]:
    """Who takes the first side: the cheaper assignment; on a tie the higher-ranked
    player's preference, then the lower-ranked one's, then alternate by board (the
    higher-ranked player takes the first side on odd boards)."""
    high_first, low_first = _side_costs(ph, pl)
    if high_first != low_first:
        return (high, low) if high_first < low_first else (low, high)
    if ph[0] != 0:
        return (high, low) if ph[0] == FIRST else (low, high)
    if pl[0] != 0:
        return (low, high) if pl[0] == FIRST else (high, low)
    return (high, low) if board % 2 == 1 else (low, high)
