"""The players' rules page for A&A Miniatures, docs/rules/minis.md (issue 9 §6).

The page must (a) cover every numbered rule of the project's rules specification,
(b) be written in our own words — no run of 12 consecutive words in common with the
specification — and (c) name only slash commands the bot really has.

The specification lives outside the repository (CI does not have it), so the test
carries what it needs as data: the rule numbers below, and in
``tests/data/minis_spec_shingles.txt`` the SHA-256 hashes (first 16 hex digits) of every
12-word run of the specification — hashes only, no text of it.  When the specification
changes, regenerate both with::

    .venv/bin/python -m tests.test_rules_docs /path/to/spec/minis.md

which rewrites the hash file and prints the numbers to paste into ``RULE_NUMBERS``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.commands import load_all
from bot.commands.base import REGISTRY, is_group
from bot.games import load_games
from engine.core.errors import PlayerError
from tests.rules_docs_helpers import HASH_DIGITS, RUN, shingle_hash, shingles, words

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules" / "minis.md"
SHINGLES = Path(__file__).resolve().parent / "data" / "minis_spec_shingles.txt"

# Every rule the specification defines (its M-n sections and M-n.m rules).
SECTIONS = tuple(f"M-{n}" for n in range(1, 19))
RULE_NUMBERS = (
    "M-1.1 M-1.2 M-1.3 M-1.4 M-1.5 M-1.6 "
    "M-2.1 M-2.2 M-2.3 M-2.4 M-2.5 "
    "M-3.1 M-3.2 M-3.3 M-3.4 M-3.5 M-3.6 M-3.7 M-3.8 "
    "M-4.1 M-4.2 M-4.3 M-4.4 "
    "M-5.1 M-5.2 M-5.3 M-5.4 M-5.5 M-5.6 "
    "M-6.1 M-6.2 M-6.3 M-6.4 M-6.5 "
    "M-7.1 M-7.2 M-7.3 M-7.4 M-7.5 M-7.6 M-7.7 M-7.8 M-7.9 M-7.10 "
    "M-8.1 M-8.2 M-8.3 M-8.4 M-8.5 "
    "M-9.1 M-9.2 M-9.3 M-9.4 M-9.5 "
    "M-10.1 M-10.2 M-10.3 M-10.4 "
    "M-11.1 M-11.2 M-11.3 M-11.4 M-11.5 "
    "M-12.1 M-12.2 M-12.3 M-12.4 M-12.5 M-12.6 M-12.7 M-12.8 "
    "M-13.1 M-13.2 M-13.3 M-13.4 M-13.5 M-13.6 "
    "M-14.1 M-14.2 M-14.3 M-14.4 M-14.5 M-14.6 "
    "M-15.1 M-15.2 M-15.3 M-15.4 "
    "M-17.1 M-17.2 M-17.3 M-17.4"
).split()


def spec_hashes() -> frozenset[str]:
    lines = SHINGLES.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def mentions(number: str, text: str) -> bool:
    """``M-7.1`` appears on its own (not as the start of ``M-7.10``)."""
    return re.search(re.escape(number) + r"(?![\d])(?!\.\d)", text) is not None


# --------------------------------------------------------------------------- (a) coverage


def test_the_page_covers_every_rule_of_the_specification() -> None:
    text = doc_text()
    missing = [n for n in (*SECTIONS, *RULE_NUMBERS) if not mentions(n, text)]
    assert missing == []


def test_every_rule_is_stated_in_bold_where_it_is_explained() -> None:
    text = doc_text()
    missing = [n for n in RULE_NUMBERS if f"**{n}**" not in text]
    assert missing == []


def test_mentions_tells_m71_from_m710() -> None:
    assert not mentions("M-7.1", "see **M-7.10**")
    assert mentions("M-7.1", "see **M-7.1**, then M-7.10")
    assert not mentions("M-1", "M-16 and M-1.2")
    assert mentions("M-1", "## M-1 Words")


# --------------------------------------------------------------------------- (b) own words


def test_the_hash_file_holds_the_specification_runs() -> None:
    hashes = spec_hashes()
    assert len(hashes) > 2000  # the specification is a few thousand words long
    assert all(re.fullmatch(r"[0-9a-f]{16}", h) for h in hashes)


def test_no_run_of_twelve_words_is_shared_with_the_specification() -> None:
    hashes = spec_hashes()
    text = doc_text()
    ws = words(text)
    shared = [" ".join(ws[i:i + RUN]) for i, h in shingles(ws) if h in hashes]
    assert shared == []


def test_the_check_would_catch_a_copied_run() -> None:
    # A made-up run, hashed the same way as the specification: the check finds it
    # inside any text, whatever the case and punctuation around it.
    run = "one two three four five six seven eight nine ten eleven twelve".split()
    planted = frozenset({shingle_hash(run)})
    text = "Intro. ONE two, three *four* five six seven eight nine ten eleven twelve! end"
    assert [h for _, h in shingles(words(text)) if h in planted] == [shingle_hash(run)]
    assert [h for _, h in shingles(words(text.replace("seven", "7"))) if h in planted] == []


# --------------------------------------------------------------------------- (c) commands


_CODE = re.compile(r"`([^`]+)`")  # a span may wrap onto the next line
_OPTION = re.compile(r'(?:^|\s)([a-z_]+):("[^"]*"|\S+)')


class Mention(NamedTuple):
    span: str
    path: tuple[str, ...]  # the command's words, e.g. ("minis", "defend", "fire")
    options: tuple[tuple[str, str], ...]  # (name, value as written)


def slash_commands(text: str) -> list[Mention]:
    """Every code span that starts with ``/``."""
    found = []
    for raw in _CODE.findall(text):
        span = " ".join(raw.split())
        if not re.match(r"/[a-z]", span):
            continue
        path: list[str] = []
        for t in span[1:].split():
            if not re.fullmatch(r"[a-z][a-z-]*", t):
                break
            path.append(t)
        options = tuple((n, v.strip('"')) for n, v in _OPTION.findall(span))
        found.append(Mention(span, tuple(path), options))
    return found


def known(path: tuple[str, ...]) -> bool:
    """A command, or a group of commands such as ``/minis defend``."""
    return path in REGISTRY or is_group(path)


def test_every_slash_command_on_the_page_exists() -> None:
    load_games()
    load_all()
    mentions_ = slash_commands(doc_text())
    assert len(mentions_) > 40
    assert [m.span for m in mentions_ if not known(m.path)] == []


def test_every_option_on_the_page_belongs_to_its_command_and_takes_that_value() -> None:
    load_games()
    load_all()
    wrong = []
    for m in slash_commands(doc_text()):
        command = REGISTRY.get(m.path)
        if command is None:
            assert not m.options, m.span  # a group takes no options
            continue
        by_name = {o.name: o for o in command.options}
        for name, value in m.options:
            if name not in by_name:
                wrong.append(f"{m.span}: no option {name}")
            elif "…" not in value:
                try:
                    by_name[name].convert(value)
                except PlayerError as refused:
                    wrong.append(f"{m.span}: {refused}")
    assert wrong == []


def test_the_command_check_refuses_what_does_not_exist() -> None:
    load_games()
    load_all()
    fake = slash_commands("Say `/minis ready` then\n`/minis board unit:al2 transport:al1`.")
    assert [known(m.path) for m in fake] == [False, False]
    real = slash_commands("`/minis transport board unit:al2\n  transport:al1` or `/minis defend`")
    assert [(m.path, m.options) for m in real] == [
        (("minis", "transport", "board"), (("unit", "al2"), ("transport", "al1"))),
        (("minis", "defend"), ()),
    ]
    assert all(known(m.path) for m in real)
    bad_value = slash_commands('`/minis defend fire unit:ax1 at:"the hex"`')[0]
    at = next(o for o in REGISTRY[bad_value.path].options if o.name == "at")
    with pytest.raises(PlayerError):
        at.convert(dict(bad_value.options)["at"])


# --------------------------------------------------------------------------- regeneration


def _regenerate(spec: Path) -> None:
    text = spec.read_text(encoding="utf-8")
    hashes = sorted({h for _, h in shingles(words(text))})
    header = (f"# SHA-256 (first {HASH_DIGITS} hex digits) of every run of {RUN} lower-cased words\n"
              "# of the rules specification minis.md; see tests/test_rules_docs.py.\n")
    SHINGLES.write_text(header + "\n".join(hashes) + "\n", encoding="utf-8")
    numbers = re.findall(r"^- (M-\d+\.\d+)", text, flags=re.MULTILINE)
    print(f"{len(hashes)} hashes written to {SHINGLES}")
    print(" ".join(numbers))


if __name__ == "__main__":
    _regenerate(Path(sys.argv[1]))
