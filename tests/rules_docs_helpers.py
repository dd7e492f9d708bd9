"""Runs of words ("shingles") shared by the own-words tests of the players' rule pages
(tests/test_rules_docs.py, tests/test_rules_docs_own_words.py): a page may not have a run
of ``RUN`` consecutive words in common with the rules specification it explains, which
the tests carry only as SHA-256 hashes (first ``HASH_DIGITS`` hex digits) of its runs."""

from __future__ import annotations

import hashlib
import re

RUN = 12  # words in a run that may not be shared with the specification
HASH_DIGITS = 16

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """Lower-cased words; punctuation, markup and accents' surroundings are separators,
    so a run is found whatever the formatting around it."""
    return _WORD.findall(text.lower())


def shingle_hash(run: list[str]) -> str:
    return hashlib.sha256(" ".join(run).encode("utf-8")).hexdigest()[:HASH_DIGITS]


def shingles(ws: list[str]) -> list[tuple[int, str]]:
    """(index of the first word, hash) of every run of ``RUN`` consecutive words."""
    return [(i, shingle_hash(ws[i:i + RUN])) for i in range(len(ws) - RUN + 1)]
