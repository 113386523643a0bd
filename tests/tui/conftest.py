"""Driving the full-screen table as a person does: keys read off the app's own widgets.

`table_app` builds the app for a pack (one human seat, bots elsewhere, a fixed seed) with
its autosaves in a temporary data folder. `decide` reads the numbered choices off the
choices pane (not the engine) and types the number of the one wanted, as a person would.
"""

from __future__ import annotations

import pytest

from engine.api import load
from engine.bots import make_bot
from engine.tui.app import TableApp
from engine.tui.panes import ChoicesPane
from engine.tui.table import Table


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))


def table_app(pack: str, mode: str | None = None, specs=("human", "random"), seed: int = 1,
              params: dict | None = None, bots: list | None = None) -> TableApp:
    game = load(pack, mode=mode, params=params or {})
    made = bots or [make_bot(s, 10 + k, game) for k, s in enumerate(specs)]
    state = game.new_state(players=len(specs), seed=seed)
    return TableApp(Table(game, list(specs), made, state, pack, [], dict(params or {})))


async def wait_for_choices(app, pilot, limit: float = 60.0) -> bool:
    """Until a person has choices on screen (True) or the game is over (False)."""
    waited = 0.0
    while not app.ended:
        if app.query_one(ChoicesPane).option_count and app.shown:
            return True
        await pilot.pause(0.02)
        waited += 0.02
        if waited > limit:
            raise AssertionError("no choices came on screen")
    return False


def choices_on_screen(app) -> list[str]:
    """The labels the choices pane shows, as numbered ("3. pass" -> "pass")."""
    pane = app.query_one(ChoicesPane)
    out = []
    for k in range(pane.option_count):
        text = str(pane.get_option_at_index(k).prompt)
        number, _, label = text.partition(". ")
        assert number.strip() == str(k + 1), text
        out.append(label.split("  ")[0])
    return out


async def type_number(pilot, number: int, count: int) -> None:
    """The digits of `number`, then Enter when a longer number could still follow."""
    await pilot.press(*str(number))
    if number * 10 <= count:
        await pilot.press("enter")
