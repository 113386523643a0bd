"""`?` shows the pack's words for what is on screen; `u` takes back only what it fairly may."""

from __future__ import annotations

import asyncio

from engine.tui.screens import HelpScreen
from tests.tui.conftest import choices_on_screen, table_app, wait_for_choices


def test_help_explains_the_choices_and_holds_the_glossary():
    async def go():
        app = table_app("roll-them-bones", seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            shown = choices_on_screen(app)
            await pilot.press("question_mark")
            await pilot.pause(0.1)
            assert isinstance(app.screen, HelpScreen)
            text = "\n".join(part.plain for part in app.screen.body)  # what the help shows
            assert all(label in text for label in shown)
            for _section, name, words in app.renderer.glossary():
                assert name in text and (not words or words.split()[0] in text)
            await pilot.press("escape")
            await pilot.pause(0.1)
            assert not isinstance(app.screen, HelpScreen)
            assert choices_on_screen(app) == shown
    asyncio.run(go())


def test_undo_with_nothing_to_take_back_says_why_and_changes_nothing():
    async def go():
        app = table_app("roll-them-bones", seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            history = list(app.table.state.history)
            await pilot.press("u")
            await pilot.pause(0.1)
            assert "can't undo" in str(app.query_one("#title").render())
            assert list(app.table.state.history) == history
    asyncio.run(go())
