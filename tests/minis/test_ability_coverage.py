"""Every ability name of the catalogue contract (KNOWN_ABILITIES) is implemented by a
rule module and exercised by a test in this directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.minis.catalogue import KNOWN_ABILITIES, load_catalogue

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "minis"
RULE_FILES = [p for p in ENGINE.glob("*.py") if p.name not in ("catalogue.py", "maps.py", "model.py")]
TEST_FILES = list(Path(__file__).resolve().parent.glob("test_*.py"))


def _text(files: list[Path]) -> str:
    return "\n".join(p.read_text("utf-8") for p in files if p.name != Path(__file__).name)


RULES_TEXT = _text(RULE_FILES)
TESTS_TEXT = _text(TEST_FILES)
TEST_MODULES = {p.stem for p in TEST_FILES}  # a module of its own tests it too (test_transport)


@pytest.mark.parametrize("name", KNOWN_ABILITIES)
def test_every_known_ability_has_a_rule_and_a_test(name: str) -> None:
    assert f'"{name}"' in RULES_TEXT, f"no rule module names {name!r}"
    snake = name.lower().replace("-", "_").replace(" ", "_").replace("!", "")
    tested = f"test_{snake}" in TEST_MODULES or f"test_{snake}" in TESTS_TEXT or f'"{name}"' in TESTS_TEXT
    assert tested, f"no test mentions {name!r}"


def test_every_ability_on_a_catalogue_card_is_known() -> None:
    used = {a.name for c in load_catalogue().values() for a in c.abilities}
    assert used <= set(KNOWN_ABILITIES)
