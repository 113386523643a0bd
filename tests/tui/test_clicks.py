"""A click chooses: on a line of the choices pane, or on a choice's number where the board
shows it (a tile placement's `3:90`)."""

from __future__ import annotations

import asyncio
import re

from engine.tui.panes import BoardPane
from tests.tui.conftest import choices_on_screen, table_app, type_number, wait_for_choices


def test_a_click_on_a_choice_line_chooses_it():
    async def go():
        app = table_app("theyre-coming", seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            shown = choices_on_screen(app)
            assert len(shown) >= 2
            history = len(app.table.state.history)
            pane = app.query_one("#choices")
            # the list fits its pane: the line above the bottom border is the last choice's
            await pilot.click("#choices", offset=(4, pane.region.height - 2))
            await pilot.pause(0.1)
            assert app.table.state.history[history] == shown[-1]
    asyncio.run(go())


def test_a_click_on_a_numbered_placement_on_the_map_places_the_tile_there():
    async def go():
        app = table_app("defcon-z", "competitive", seed=1)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(20):  # pass until the person is to place a tile
                assert await wait_for_choices(app, pilot)
                shown = choices_on_screen(app)
                if any(label.startswith("place(") for label in shown):
                    break
                await type_number(pilot, shown.index("pass") + 1 if "pass" in shown else 1,
                                  len(shown))
            board = app.query_one(BoardPane)
            assert board.numbered
            spot = next((y, m) for y, line in enumerate(board.lines)
                        for m in re.finditer(r"(\d+):\d+", line))
            y, m = spot
            history = len(app.table.state.history)
            await pilot.click("#picture", offset=(m.start() + 1, y))
            await pilot.pause(0.1)
            assert app.table.state.history[history] == shown[int(m.group(1)) - 1]
    asyncio.run(go())
