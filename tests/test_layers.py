"""style.md habit 1: engine/ imports the standard library only; render/ may import
engine/ and Pillow but never Discord or the bot; only bot/ imports everything."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


# Issue 19: the odds tables may use numpy (pure computation), with BLAS kept to one thread,
# and numba for the loops numpy cannot vectorise (engine/odds/aa_strike_kernel.py, and
# aa_merged_kernel.py: the merged engine's additions into a big table), through one
# module that compiles them (engine/odds/compiled.py).
ALLOWED = {
    "engine/odds/": {"numpy", "threadpoolctl"},
    "engine/odds/compiled.py": {"numba", "llvmlite"},  # llvmlite: numba's own, for a prefetch
}


def test_engine_imports_only_the_standard_library() -> None:
    for path, names in _imports("engine").items():
        allowed = set().union(*(v for k, v in ALLOWED.items() if path.replace("\\", "/").startswith(k)))
        outside = {n for n in names if n != "engine" and n not in sys.stdlib_module_names} - allowed
        assert not outside, f"{path} imports {outside}"


def test_engine_never_uses_the_clock_or_global_random() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for banned in ("datetime.now", "time.time(", "random.random(", "random.randint(",
                       "random.choice(", "random.shuffle(", "random.seed("):
            assert banned not in text, f"{path} uses {banned}"


def test_render_never_imports_discord_or_the_bot() -> None:
    for path, names in _imports("render").items():
        assert not names & {"discord", "bot", "aiosqlite"}, f"{path} imports {names}"
        outside = {n for n in names if n not in sys.stdlib_module_names} - {"engine", "render", "PIL"}
        assert not outside, f"{path} imports {outside}"


def test_only_the_discord_adapter_imports_discord() -> None:
    for path, names in _imports("bot").items():
        if "discord" in names:
            assert path == "bot/discord_app.py", f"{path} imports discord"
