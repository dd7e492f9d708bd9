"""The players' rule pages for Memoir '44 (docs/rules/memoir.md) and A&A Anniversary
(docs/aa-rules.md) are written in our own words, like the Miniatures page
(tests/test_rules_docs.py): no run of 12 consecutive words in common with the rules
specification they explain.  The specifications live outside the repository, so the
test carries only hashes of their 12-word runs (tests/data/<game>_spec_shingles.txt);
regenerate them when a specification changes with::

    .venv/bin/python -m tests.test_rules_docs_own_words memoir /path/to/spec/memoir.md
    .venv/bin/python -m tests.test_rules_docs_own_words aa /path/to/spec/aa.md
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.rules_docs_helpers import HASH_DIGITS, RUN, shingle_hash, shingles, words

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
PAGES = {"memoir": ROOT / "docs" / "rules" / "memoir.md", "aa": ROOT / "docs" / "aa-rules.md"}


def spec_hashes(game: str) -> frozenset[str]:
    lines = (DATA / f"{game}_spec_shingles.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_hash_file_holds_the_specification_runs(game: str) -> None:
    hashes = spec_hashes(game)
    assert len(hashes) > 5000  # each specification is several thousand words long
    assert all(len(h) == HASH_DIGITS for h in hashes)


@pytest.mark.parametrize("game", sorted(PAGES))
def test_no_run_of_twelve_words_is_shared_with_the_specification(game: str) -> None:
    hashes = spec_hashes(game)
    ws = words(PAGES[game].read_text(encoding="utf-8"))
    shared = [" ".join(ws[i:i + RUN]) for i, h in shingles(ws) if h in hashes]
    assert shared == []


def test_a_planted_run_of_the_specification_would_be_found() -> None:
    """The check can fail: a 12-word run hashed from the Memoir page itself, planted in the
    hash set, is found again in the page."""
    ws = words(PAGES["memoir"].read_text(encoding="utf-8"))
    planted = frozenset({shingle_hash(ws[100:100 + RUN])})
    assert [i for i, h in shingles(ws) if h in planted] == [100]


def _regenerate(game: str, spec: Path) -> None:
    hashes = sorted({h for _, h in shingles(words(spec.read_text(encoding="utf-8")))})
    header = (f"# SHA-256 (first {HASH_DIGITS} hex digits) of every run of {RUN} lower-cased words\n"
              f"# of the rules specification {spec.name}; see tests/test_rules_docs_own_words.py.\n")
    (DATA / f"{game}_spec_shingles.txt").write_text(header + "\n".join(hashes) + "\n", encoding="utf-8")
    print(f"{len(hashes)} hashes written for {game}")


if __name__ == "__main__":
    _regenerate(sys.argv[1], Path(sys.argv[2]))
