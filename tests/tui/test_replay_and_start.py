"""`horde replay` as a viewer at the table, and Textual kept out of a plain start."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from engine.api import load
from engine.bots import make_bot
from engine.record import make_record
from engine.tui.replay import ReplayApp


def _record(pack: str = "theyre-coming", seed: int = 4) -> dict:
    game = load(pack)
    state = game.new_state(players=2, seed=seed)
    bots = [make_bot("random", k, game) for k in range(2)]
    while (d := state.decision()) is not None:
        state.apply(bots[d.player].choose(state, d))
    return make_record(state, pack, [], {}, ["random", "random"])


def _title(app) -> str:
    return str(app.query_one("#title").render())


def test_replay_steps_jumps_and_changes_whose_view():
    record = _record()
    total = len(record["decisions"])

    async def go():
        app = ReplayApp(record, "game.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert f"decision 0/{total}" in _title(app) and "spectator" in _title(app)
            await pilot.press("right", "right", "right")
            assert f"decision 3/{total}" in _title(app)
            await pilot.press("left")
            assert f"decision 2/{total}" in _title(app)
            assert "plays" in str(app.query_one("#prompt").render())
            await pilot.press("v")
            assert "seen by P0" in _title(app)
            await pilot.press("v", "v")
            assert "spectator" in _title(app)
            await pilot.press("g")
            await pilot.pause()
            await pilot.press("3", "enter")
            await pilot.pause()
            assert app.states[app.at].turns >= 3
            assert app.at == 0 or app.states[app.at - 1].turns < 3
            await pilot.press("end")
            assert f"decision {total}/{total}" in _title(app)
            assert str(app.query_one("#prompt").render()).startswith("Game over")
    asyncio.run(go())


def test_a_plain_game_never_imports_textual():
    code = ("import sys; from engine.cli.app import main; sys.argv = ['horde', 'play', "
            "'roll-them-bones', '--players', 'random,random', '--seed', '1', '--plain']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "assert 'textual' not in sys.modules, 'textual imported'\nprint('no textual')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout and "no textual" in out.stdout


def test_play_without_a_terminal_plays_plain(horde, tmp_path):
    result = horde("play", "roll-them-bones", "--players", "random,random", "--seed", "1")
    assert result.exit_code == 0
    assert "Game over" in result.output  # the line-by-line game, not the app
