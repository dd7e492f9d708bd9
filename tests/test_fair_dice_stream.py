"""The derived dice stream itself (engine/core/dice.py, docs/fair-dice.md): the published
test vector, exact unbiasedness of a die of any size, and the statistics of many rolls."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from pathlib import Path

from bot.dice_service import FAIR, SETUP, SYSTEM, stream_key
from engine.core.dice import commitment, entropy_digest, play_key, shuffled, stream_dice, stream_die

DOC = Path(__file__).resolve().parent.parent / "docs" / "fair-dice.md"
SEED = bytes(range(32))
UID = "0123456789abcdef"
ENTROPY = {"red": entropy_digest("alice says hi"), "blue": entropy_digest("bob 12345")}

# The published test vector (docs/fair-dice.md, "Test vector").
VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR_RED_DIGEST = "79270de7b4ac3524045f57c7610e0b523b05ee0f3374ba43f8aa7afd1a25d908"
VECTOR_PLAY_KEY = "728ac10f319a526b71ab871c3764f8ba362e94ed100736a9bab84147cf8f653d"
VECTOR_SETUP_D52 = [34, 5, 18, 35, 17, 33]
VECTOR_RED_D6 = [5, 2, 2, 3, 4, 3, 3, 2, 4, 2, 2, 5]


def test_the_stream_matches_the_published_test_vector() -> None:
    assert commitment(SEED) == VECTOR_COMMITMENT
    assert entropy_digest("  alice says hi ") == VECTOR_RED_DIGEST  # outer spaces do not count
    key = play_key(SEED, UID, ENTROPY)
    assert key.hex() == VECTOR_PLAY_KEY
    assert [stream_die(SEED, f"{UID}/setup", i, 52) for i in range(6)] == VECTOR_SETUP_D52
    assert [stream_die(key, f"{UID}/red", i, 6) for i in range(12)] == VECTOR_RED_D6
    doc = DOC.read_text(encoding="utf-8")
    for published in (VECTOR_COMMITMENT, VECTOR_RED_DIGEST, VECTOR_PLAY_KEY,
                      str(VECTOR_SETUP_D52), str(VECTOR_RED_D6)):
        assert published in doc


def test_the_play_key_depends_on_every_contribution_and_the_setup_stream_on_the_seed_alone() -> None:
    key = play_key(SEED, UID, ENTROPY)
    assert play_key(SEED, UID, {**ENTROPY, "blue": entropy_digest("bob 12346")}) != key
    assert play_key(SEED, UID, {"red": ENTROPY["red"]}) != key
    assert play_key(SEED, "0123456789abcdee", ENTROPY) != key
    assert play_key(bytes(32), UID, ENTROPY) != key
    options = {FAIR: {"v": 1, "entropy": ENTROPY}}
    assert stream_key(SEED, UID, options, "red") == stream_key(SEED, UID, options, SYSTEM) == key
    assert stream_key(SEED, UID, options, SETUP) == SEED
    assert stream_key(SEED, UID, {}, "red") == SEED  # a game from before fair dice


def test_every_face_of_every_die_size_has_exactly_as_many_accepted_values() -> None:
    """The rejection rule keeps the first ``limit`` of the 2^64 values, a multiple of the
    number of sides: every face is reached by exactly ``limit / sides`` of them, and a
    rejected attempt happens with probability below sides / 2^64."""
    for sides in [*range(1, 200), 2**10, 10**6, 2**32 + 1, 2**63 + 5]:
        limit = (1 << 64) - ((1 << 64) % sides)
        assert limit % sides == 0 and limit > (1 << 64) - sides
        per_face = limit // sides
        # values x < limit with x mod sides == face: ceil((limit - face) / sides)
        assert all((limit - face + sides - 1) // sides == per_face for face in (0, sides // 2, sides - 1))


def _chi_square_limit(df: int, z: float = 3.7) -> float:
    """The chi-square value exceeded with probability about 1e-4 (Wilson–Hilferty)."""
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


def _chi_square(counts: Counter[int], sides: int, total: int) -> float:
    expected = total / sides
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, sides + 1))


def test_a_million_d6_pass_the_chi_square_test() -> None:
    key = play_key(SEED, UID, ENTROPY)
    n = 1_000_000
    counts = Counter(stream_die(key, f"{UID}/red", i, 6) for i in range(n))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert _chi_square(counts, 6, n) < _chi_square_limit(5)
    # The test has the power to see a small bias: one byte taken mod 6 (faces 1-4 come
    # up 43 times in 256, faces 5-6 42 times) fails it.
    m = 300_000
    biased = Counter(1 + hashlib.sha256(i.to_bytes(4, "big")).digest()[0] % 6 for i in range(m))
    assert _chi_square(biased, 6, m) > _chi_square_limit(5)


def test_card_draws_from_every_deck_size_are_unbiased() -> None:
    """A card drawn from a deck of n is a die of n sides: every deck size from 2 to 60
    passes the chi-square test, and so does the position of a card after a shuffle."""
    for deck in range(2, 61):
        n = 150 * deck
        counts = Counter(stream_die(SEED, f"{UID}/deck{deck}", i, deck) for i in range(n))
        assert set(counts) <= set(range(1, deck + 1))
        assert _chi_square(counts, deck, n) < _chi_square_limit(deck - 1), deck
    where = Counter(shuffled(stream_dice(SEED, f"{UID}/shuffle{g}"), range(8)).index(0) for g in range(4000))
    assert _chi_square(Counter({k + 1: v for k, v in where.items()}), 8, 4000) < _chi_square_limit(7)
