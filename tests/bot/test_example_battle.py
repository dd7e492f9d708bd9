"""examples/minis-standard.txt: a whole Standard battle through `warroom local`.

The example is run the way the README tells a new player to run it — the `warroom`
command line, a fresh temporary database (no --db), images written to --out — and must
end in an Allied victory by objective control at the end of turn 7 (M-4.2), with one
map image per phase report.  Every die that matters is scripted in the example, so a
run without a seed and a run with one print the same story.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from tests.bot.local_scripts import blocks
from tests.storage.suite_backend import script_db_args

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path("examples") / "minis-standard.txt"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_IMAGE_BYTES = 1024 * 1024
VICTORY = "🏆 The Allies win the battle: the allies control the objective at the end of turn 7 (M-4.2)"
# A phase header as the bot narrates it: "— Turn 3, assault phase: Axis —".
PHASE_HEADER = re.compile(r"— Turn (\d+), (\w+) phase(?:: (\w+))? —")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    images: Path


def warroom() -> list[str]:
    """The installed `warroom` command next to this interpreter (else the same CLI)."""
    exe = Path(sys.executable).with_name("warroom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bot.cli"]


def play(out_dir: Path, *extra: str) -> Run:
    done = subprocess.run(
        [*warroom(), "local", "--script", str(SCRIPT), "--out", str(out_dir), *extra, *script_db_args()],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=300,
    )
    return Run(done.returncode, done.stdout, done.stderr, out_dir)


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The example from a fresh database, with unseeded (operating-system) dice."""
    return play(tmp_path_factory.mktemp("battle") / "images")


def phases_played(out: str) -> set[tuple[int, str, str | None]]:
    """Every phase the battle went through except the casualty phases, which the bot
    runs inside the order that ends a turn and narrates in that order's reply."""
    return {(int(t), phase, side or None) for t, phase, side in PHASE_HEADER.findall(out)
            if phase != "casualty"}


def test_the_example_runs_cleanly_from_a_fresh_database(battle: Run) -> None:
    assert battle.code == 0, battle.out[-3000:] + battle.err
    assert "Traceback" not in battle.err, battle.err
    # No failed !expect checkpoint, no bug id, and no order the bot refused.
    assert "!! " not in battle.out
    assert "⚠️" not in battle.out


def test_the_battle_ends_in_an_allied_victory_by_objective_at_turn_7_m_4_2(battle: Run) -> None:
    # Announced once when it happens and once in the final phase report (with the map).
    assert battle.out.count("🏆") == 2 and battle.out.count(VICTORY) == 2
    # The victory is the last thing that happens: only its phase report and map follow.
    report = battle.out.rindex("📜")
    assert battle.out.index(VICTORY) < report < battle.out.rindex(VICTORY)
    assert battle.out.index(VICTORY) > battle.out.index("End of turn 7.")
    assert "End of turn 8." not in battle.out
    # Won on the map, not by concession and not by wiping out the other side.
    assert "concede" not in battle.out.lower()
    assert "no units left" not in battle.out


def test_every_turn_ran_its_phases_and_its_casualty_phase_m_5(battle: Run) -> None:
    played = phases_played(battle.out)
    assert {(1, "deployment", "Allies"), (1, "deployment", "Axis")} <= played
    for turn in range(1, 8):
        assert (turn, "initiative", None) in played
        for phase in ("movement", "assault"):
            assert {(turn, phase, "Axis"), (turn, phase, "Allies")} <= played
        assert f"☠️ Casualty phase, turn {turn}:" in battle.out


def test_one_map_per_phase_report_each_with_its_closeup_when_something_happened(battle: Run) -> None:
    written = sorted(battle.images.glob("*.png"))
    maps = [p for p in written if not p.stem.endswith("-closeup")]
    closeups = [p for p in written if p.stem.endswith("-closeup")]
    reports = [b for b in blocks(battle.out) if b.startswith("[#table] 📜 **")]
    printed = re.findall(r"\[image\] (\S+)", battle.out)
    assert len(maps) == len(reports)
    assert sorted(Path(p).name for p in printed) == [p.name for p in written]
    # Every phase played has its report (plus the set-up report before deployment).
    assert len(maps) >= len(phases_played(battle.out)) + 1
    # A close-up follows its map in the same report (issue 18): every movement and
    # assault phase moved or fired, so each has one; the set-up and deployment do not.
    for close in closeups:
        number, name = close.name.split("-", 1)
        assert (battle.images / f"{int(number) - 1:04d}-{name.replace('-closeup', '')}").exists(), close.name
    # Exactly the reports where nothing moved or fired go without one.
    bare = [p.name.split("-", 1)[1] for p in maps
            if not (battle.images / f"{int(p.name[:4]) + 1:04d}-{p.stem.split('-', 1)[1]}-closeup.png").exists()]
    assert bare == ["setup.png", "turn1-deployment-allies.png", "turn1-deployment-axis.png",
                    *(f"turn{t}-initiative.png" for t in range(1, 6)),
                    "turn6-initiative.png", "turn6-movement-axis.png", "turn6-assault-axis.png",
                    "turn7-initiative.png", "turn7-movement-allies.png", "turn7-assault-allies.png"]
    assert len(closeups) == len(maps) - len(bare) == 24


def test_every_image_is_a_png_under_one_megabyte(battle: Run) -> None:
    written = sorted(battle.images.glob("*.png"))
    assert written
    for path in written:
        data = path.read_bytes()
        assert data.startswith(PNG_SIGNATURE), path.name
        assert len(data) < MAX_IMAGE_BYTES, (path.name, len(data))
        with Image.open(path) as image:
            assert image.format == "PNG"
            image.verify()


def test_army_lists_stay_secret_until_deployment_m_2_5(battle: Run) -> None:
    shown = blocks(battle.out)
    first_deployment = next(i for i, b in enumerate(shown) if "deployed at" in b)
    before = "\n".join(shown[:first_deployment])
    public = "\n".join(b for b in shown[:first_deployment] if b.startswith("[#"))
    for card in ("Panzer", "Sd Kfz", "MG 42", "Kar 98k", "Sherman", "Garand", "Bazooka", "Red Devil"):
        assert card not in public, card
    assert "[to alice] Your army (5 units, 50 points): Panzer IV Ausf. G" in before
    assert "[to bob] Your army (5 units, 40 points): M4A1 Sherman" in before


def test_the_story_does_not_depend_on_the_seed(battle: Run, tmp_path: Path) -> None:
    seeded = play(tmp_path / "images", "--seed", "7")
    assert seeded.code == 0, seeded.out[-3000:] + seeded.err
    # The same text once the image folder is taken out of the paths (and the dice
    # commitment, seed and game id, which are the seed's by design: docs/fair-dice.md).
    def story(run: Run) -> str:
        return re.sub(r"\b[0-9a-f]{64}\b|\b[0-9a-f]{16}\b", "HEX", run.out.replace(str(run.images), "OUT"))

    assert story(seeded) == story(battle)
    # And the same pictures.
    ours = {p.name: p.read_bytes() for p in battle.images.glob("*.png")}
    theirs = {p.name: p.read_bytes() for p in seeded.images.glob("*.png")}
    assert ours == theirs
