"""Small wording helpers shared by every game's text."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 figure``, ``4 figures``; ``plural(1, "die", "dice")`` → ``1 die``."""
    return f"{n} {word if n == 1 else many or word + 's'}"
