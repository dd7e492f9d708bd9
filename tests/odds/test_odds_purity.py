"""House rule: engine/odds imports only the standard library and engine/; render/chart.py
only the standard library and Pillow."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_engine_odds_is_standard_library_only() -> None:
    files = sorted((ROOT / "engine" / "odds").glob("*.py"))
    assert files
    for f in files:
        extra = imported(f) - set(sys.stdlib_module_names) - {"engine"}
        assert not extra, f"{f.name} imports {extra}"


def test_chart_uses_pillow_only() -> None:
    extra = imported(ROOT / "render" / "chart.py") - set(sys.stdlib_module_names) - {"PIL"}
    assert not extra
