"""examples/aa-1942-round1.txt: the whole first round of 1942 through `warroom local`,
from a fresh database (every die that matters scripted; its `!expect` lines checked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path("examples") / "aa-1942-round1.txt"


def warroom() -> list[str]:
    exe = Path(sys.executable).with_name("warroom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bot.cli"]


def test_the_first_round_of_1942_plays_through(tmp_path: Path) -> None:
    out_dir = tmp_path / "images"
    done = subprocess.run([*warroom(), "local", "--script", str(SCRIPT), "--out", str(out_dir)],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "!! " not in done.stdout and "Traceback" not in done.stderr
    # The one refusal is the one the example shows on purpose (Japan's phase, not bob's).
    assert done.stdout.count("⚠️") == 1 and "It is Japan's research phase." in done.stdout
    # Every power's turn, China's own phases included, and round 2 begins with Japan.
    for power in ("Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States", "China"):
        assert f"{power}: mobilise new units ended." in done.stdout, power
    assert "🗓️ **Round 2: 🇯🇵 Japan's turn.**" in done.stdout
    # A map after every phase report, plus the /aa map asked for at the end.
    images = sorted(out_dir.glob("*.png"))
    reports = done.stdout.count("📜 **Round")
    assert len(images) == reports + 1
    assert images[-1].name.endswith("aa-asia.png")
    assert Image.open(images[0]).size[0] > 1500  # the world map
