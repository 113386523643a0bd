"""At 80x24 the players' pane is shorter than DEFCON Z's table and goal: it scrolls, so
the goal and every player's progress stay within reach rather than being cut off."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from engine.tui.panes import PlayersPane
from tests.tui.conftest import table_app, wait_for_choices


def test_the_goal_below_a_tall_players_table_is_reached_by_scrolling():
    async def run():
        app = table_app("defcon-z", "competitive", seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await wait_for_choices(app, pilot)
            await pilot.pause(0.2)
            pane = app.query_one(PlayersPane)
            body = pane.query_one("#players-body", Static)
            text = "\n".join(body.render_line(y).text for y in range(body.size.height))
            assert "Goal" in text  # the goal line is in the pane's content
            assert pane.virtual_size.height > pane.region.height  # more than fits ...
            pane.scroll_end(animate=False)
            await pilot.pause(0.2)
            assert pane.scroll_y == pane.max_scroll_y > 0  # ... and scrolling reaches its end
    asyncio.run(run())
