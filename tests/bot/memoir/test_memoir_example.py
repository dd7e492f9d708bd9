"""examples/memoir-pegasus.txt: Pegasus Bridge played to a medal victory through
`warroom local`, the way the README tells a new player to run it — the command line, a
fresh temporary database, unseeded dice (every die that matters is scripted), images to
--out.  Its `!expect` checkpoints must all hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path("examples") / "memoir-pegasus.txt"
VICTORY = "🏆 **Allies win** — the allies reached 4 medals (E-17.4) (medals: Axis 0, Allies 4)."


def warroom() -> list[str]:
    exe = Path(sys.executable).with_name("warroom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bot.cli"]


def test_the_example_plays_to_an_allied_medal_victory(tmp_path: Path) -> None:
    out_dir = tmp_path / "images"
    done = subprocess.run([*warroom(), "local", "--script", str(SCRIPT), "--out", str(out_dir)],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "!! " not in done.stdout and "⚠️" not in done.stdout
    assert done.stdout.count(VICTORY) == 2  # when it happens, and in the final report
    reports = sorted(out_dir.glob("*memoir-turn*.png"))
    assert [p.name.split("-", 1)[1] for p in reports] == [f"memoir-turn{n}.png" for n in range(1, 10)]
    for p in reports:
        with Image.open(p) as im:
            assert im.width == 1046 and im.height > 1000
    # the hand went to alice alone
    assert "[to alice] 🃏 **Your hand** (Allies, 6 cards)" in done.stdout
    public = "\n".join(b for b in done.stdout.split("\n[") if b.startswith("#table"))
    assert "Assault Centre" not in public and "Attack Left" not in public
