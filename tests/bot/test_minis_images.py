"""Issue 18 through the local channel: the close-up posted with each phase map, ``/minis map
zoom:``, and ``/<game> replay`` (generic: the front's hook; Minis: the battle GIF)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.front import BaseFront
from bot.local import DEFAULT_CHANNEL, run_script, stable_id
from bot.minis.front import FRONT, image_name
from bot.replay import phase_reports
from bot.session import History, replay as replay_log
from bot.storage import open_repository
from engine.core.game import rules_for
from engine.minis.state import MinisState, Phase
from render.minis import title_for
from render.minis.replay import MAX_BYTES
from render.minis.sample import example_battle
from tests.bot.minis_scripts import TO_MOVEMENT, run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "minis-standard.txt"
GIF_SIGNATURE = b"GIF89a"


def images(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "img").iterdir())


# --------------------------------------------------------------------------- reports


async def test_a_phase_report_posts_the_map_then_the_closeup_of_the_action(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8 face:SE\nalice: /minis done\n",
                          tmp_path)
    assert code == 0, out
    names = images(tmp_path)
    assert names[-2].endswith("-turn1-movement-axis.png")
    assert names[-1].endswith("-turn1-movement-axis-closeup.png")
    # Both in the report's message, the map first.
    report = out.split("📜 **Turn 1, movement phase (Axis) — report**")[1].split("@bob")[0]
    assert re.findall(r"\[image\] \S+/(\S+)", report) == names[-2:]
    with Image.open(tmp_path / "img" / names[-1]) as close, Image.open(tmp_path / "img" / names[-2]) as full:
        assert close.format == "PNG" and full.format == "PNG"
        # The close-up shows a part of the map, drawn larger: fewer hexes in less width.
        assert close.width < full.width


async def test_a_report_where_nothing_moved_has_no_closeup(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "alice: /minis done\n", tmp_path)
    assert code == 0, out
    report = out.split("📜 **Turn 1, movement phase (Axis) — report**")[1].split("@bob")[0]
    assert "Nothing happened." in report
    assert [n for n in re.findall(r"\[image\] \S+/(\S+)", report)] == [images(tmp_path)[-1]]
    assert not images(tmp_path)[-1].endswith("closeup.png")


# --------------------------------------------------------------------------- zoom


async def test_map_zoom_draws_the_area_around_a_hex(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8 face:SE\n"
                          "carol: /minis map zoom:f8\n", tmp_path)
    assert code == 0, out
    assert "[#table] Turn 1, movement phase. Moves and attacks of this phase shown. Close-up around F8." in out
    assert images(tmp_path)[-1].endswith("-zoom-F8.png")
    with Image.open(tmp_path / "img" / images(tmp_path)[-1]) as im:
        assert im.format == "PNG" and im.width <= 800


async def test_map_zoom_refuses_a_hex_off_the_map_and_says_what_is_legal(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "carol: /minis map zoom:Z99\ncarol: /minis map zoom:hello\n", tmp_path)
    assert code == 0, out
    carol = [line for line in out.splitlines() if line.startswith("[to carol]")]
    assert len(carol) == 2, out
    assert carol[0] == ("[to carol] ⚠️ 'Z99' is not a hex of the map Highland: columns A–S, rows 1–16."
                        " Write it like: /minis map zoom:A1, /minis map zoom:J9, /minis map zoom:S16.")
    assert carol[1].startswith("[to carol] ⚠️ 'hello' is not a hex of the map Highland:")
    # Nothing was drawn for a refused zoom.
    assert not any("zoom" in n for n in images(tmp_path))


# --------------------------------------------------------------------------- replay


async def test_replay_waits_for_the_end_of_the_battle(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "carol: /minis replay\n", tmp_path)
    assert code == 0, out
    assert ("[to carol] ⚠️ This battle is not finished: a replay is made once it is over."
            " Legal: /minis status, /minis log.") in out
    assert not any(n.endswith(".gif") for n in images(tmp_path))


async def test_a_game_without_a_replay_says_so(tmp_path: Path) -> None:
    script = ("!dice 1\nalice: /race new side:red target:50\nbob: /race join\n"
              "alice: /race secret number:2\nbob: /race secret number:3\n"
              "alice: /race concede confirm:true\ncarol: /race replay\n")
    out = io.StringIO()
    code = await run_script(script, database=tmp_path / "r.db", out_dir=tmp_path / "img", seed=5, out=out)
    assert code == 0, out.getvalue()
    assert "[to carol] ⚠️ Dice race has no replay yet. Legal: /race log, /race status." in out.getvalue()
    assert BaseFront().replay([]) is None


async def test_a_conceded_battle_replays_up_to_the_concession(tmp_path: Path) -> None:
    code, out = await run(TO_MOVEMENT + "alice: /minis move unit:ax1 to:F8 face:SE\n"
                          "bob: /minis concede confirm:true\ncarol: /minis replay\n", tmp_path)
    assert code == 0, out
    # set-up, deployment ×2, initiative, and the movement phase it ended in
    assert "[#table] 🎞️ Replay of the battle: 5 phase reports, one frame each" in out
    gif = tmp_path / "img" / images(tmp_path)[-1]
    assert gif.name.endswith("battle-replay.gif")
    with Image.open(gif) as anim:
        assert anim.format == "GIF" and anim.n_frames == 5


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The README's example battle through the local channel, then ``/minis replay``."""
    import asyncio

    tmp = tmp_path_factory.mktemp("example")
    script = EXAMPLE.read_text(encoding="utf-8") + "carol: /minis replay\n"
    out = io.StringIO()
    code = asyncio.run(run_script(script, database=tmp / "e.db", out_dir=tmp / "img", out=out))
    assert code == 0, out.getvalue()[-3000:]
    return tmp, out.getvalue()


def test_the_example_battle_replays_under_8_mb_one_frame_per_phase_report(example_run: tuple[Path, str]) -> None:
    tmp, out = example_run
    reports = out.count("[#table] 📜 **")
    assert reports == 38
    assert f"[#table] 🎞️ Replay of the battle: {reports} phase reports, one frame each" in out
    gif = max((tmp / "img").glob("*battle-replay.gif"))
    data = gif.read_bytes()
    assert data.startswith(GIF_SIGNATURE)
    assert len(data) < MAX_BYTES == 8 * 1024 * 1024
    with Image.open(gif) as anim:
        assert anim.n_frames == reports


async def _stored_history(tmp: Path) -> History:
    """The example battle's order log as the bot stored it, re-run (bot.session.replay)."""
    repo = await open_repository(str(tmp / "e.db"))
    try:
        game = await repo.last_game(stable_id("channel", DEFAULT_CHANNEL))
        assert game is not None and game.status == "finished"
        return replay_log(rules_for("minis"), await repo.orders(game.id))
    finally:
        await repo.close()


async def test_replay_frames_are_the_reports_as_the_bot_posted_them(example_run: tuple[Path, str]) -> None:
    """bot/replay.py cuts the re-run log exactly as the bot cut it while playing: the same
    38 reports, named as the bot named them, as render's own cut of the example battle."""
    tmp, out = example_run
    reports = phase_reports(FRONT, rules_for("minis"), await _stored_history(tmp))
    ours = [title_for(r.events) or "Set-up" for r in reports]
    assert ours == [title_for(r.events) or "Set-up" for r in example_battle()]
    assert ours[0] == "Set-up" and ours[-1] == "Turn 7 · Assault (Allies) · Casualties"
    posted = re.findall(r"\[image\] \S+/\d{4}-(\S+)\.png", out)
    assert [image_name(r.events)[:-4] for r in reports] == [n for n in posted if not n.endswith("-closeup")]


async def test_replay_frames_use_the_public_view_only(example_run: tuple[Path, str]) -> None:
    """Army lists are secret until deployment (M-2.5): the set-up frame's state holds no
    unit and no army list, though the full state already holds both armies then."""
    tmp, _ = example_run
    rules = rules_for("minis")
    history = await _stored_history(tmp)
    reports = phase_reports(FRONT, rules, history)
    first = reports[0].state
    assert isinstance(first, MinisState)
    assert first.units == () and not any(first.armies.values())
    full_at_setup = next(s for _, s in history.states if s.phase is Phase.DEPLOYMENT)
    assert len(full_at_setup.units) == 10 and all(full_at_setup.armies.values())
    # No frame knows an army list or a standing order (the public knows neither).
    assert all(not r.state.armies and not r.state.standing for r in reports)
    assert any(s.standing for _, s in history.states)
