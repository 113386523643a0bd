"""Bad input at the table never crashes it and loses nothing: keys that mean nothing, a
terminal shrunk to 40x12, a paste of 5,000 characters, Ctrl-C while a bot thinks, `q`."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

import pytest
from textual import events

from engine import autosave
from engine.bots import make_bot
from engine.record import last_state
from engine.record import load as load_record
from tests.tui.conftest import choices_on_screen, table_app, type_number, wait_for_choices


class SlowBot:
    """A bot that thinks until it is told to stop (or a minute has passed)."""

    def __init__(self, inner):
        self.inner, self.started, self.release = inner, threading.Event(), threading.Event()

    def choose(self, state, d):
        self.started.set()
        self.release.wait(60)
        return self.inner.choose(state, d)


def test_keys_that_mean_nothing_a_tiny_terminal_and_a_huge_paste_change_nothing():
    async def go():
        app = table_app("theyre-coming", seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            before = choices_on_screen(app)
            history = list(app.table.state.history)
            await pilot.press("x", "z", "f5", "tab", "escape", "!", "0", "pagedown", "ctrl+z")
            await pilot.resize_terminal(40, 12)
            await pilot.pause(0.2)
            app.screen.post_message(events.Paste("9" * 5000))
            app.query_one("#choices").post_message(events.Paste("q" * 5000))
            await pilot.pause(0.2)
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.2)
            assert app.is_running and not app.ended
            assert list(app.table.state.history) == history
            await wait_for_choices(app, pilot)
            assert choices_on_screen(app) == before
            await type_number(pilot, 1, len(before))  # and the game goes on
            await wait_for_choices(app, pilot)
            assert len(app.table.state.history) > len(history)
    asyncio.run(go())


def test_ctrl_c_while_a_bot_thinks_leaves_the_game_saved_and_resumable():
    async def go():
        app = table_app("roll-them-bones", seed=4)
        game = app.table.game
        slow = SlowBot(make_bot("random", 3, game))
        app.table.bots[1] = slow
        async with app.run_test(size=(80, 24)) as pilot:
            mine = 0
            while not slow.started.is_set():
                if app.shown:
                    shown = choices_on_screen(app)
                    await type_number(pilot, len(shown), len(shown))
                    mine += 1
                await pilot.pause(0.05)
            await pilot.press("ctrl+c")
            await pilot.pause(0.2)
        slow.release.set()
        return app, mine
    app, mine = asyncio.run(go())
    assert app.interrupted and app.stopped
    saved = sorted(autosave.folder().glob("*.json"))
    assert len(saved) == 1
    state = last_state(load_record(saved[0]))
    assert list(state.history) == list(app.table.state.history)
    assert mine and len(state.history) >= mine
    assert autosave.last() == saved[0]


def test_q_asks_first_and_resume_last_goes_on_with_the_game(tmp_path):
    async def go():
        app = table_app("theyre-coming", seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            shown = choices_on_screen(app)
            await type_number(pilot, 1, len(shown))
            assert await wait_for_choices(app, pilot)
            await pilot.press("q")
            await pilot.pause(0.1)
            assert type(app.screen).__name__ == "QuitScreen"
            await pilot.press("n")
            await pilot.pause(0.1)
            assert app.is_running and type(app.screen).__name__ == "Screen"
            await pilot.press("q")
            await pilot.pause(0.1)
            await pilot.press("y")
            await pilot.pause(0.1)
        return app
    app = asyncio.run(go())
    assert app.stopped and not app.interrupted
    made = len(app.table.state.history)
    out = subprocess.run([sys.executable, "-c", "from engine.cli.app import main; main()",
                          "resume", "--last", "--plain"], input="q\n", capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"resumed after {made} decisions" in out.stdout


def test_resume_last_without_a_game_says_so(horde):
    result = horde("resume", "--last")
    assert result.exit_code == 1
    assert "no unfinished game" in result.output


def test_a_bug_in_the_table_leaves_the_game_saved():
    async def go():
        app = table_app("theyre-coming", seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            shown = choices_on_screen(app)

            def broken(*args):
                raise RuntimeError("a bug")
            app.present = broken  # the next decision's drawing fails
            await type_number(pilot, 1, len(shown))
            await pilot.pause(0.2)
        return app
    with pytest.raises(RuntimeError, match="a bug"):  # run_test raises the app's error again
        asyncio.run(go())
    saved = sorted(autosave.folder().glob("*.json"))
    assert len(saved) == 1
    assert len(load_record(saved[0])["decisions"]) >= 1
