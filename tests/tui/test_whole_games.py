"""A whole game of every pack and mode, played at the full-screen table at 80x24.

One person (the test) and one bot. The person reads the choices off the choices pane and
types a number; which number follows the pack's own greedy policy (asked about the labels
on screen), so that long games such as DEFCON Z end in a few hundred decisions. Each game
must reach its end with the result on screen and its autosave marked as finished.
"""

from __future__ import annotations

import asyncio

import pytest

from engine import autosave
from engine.bots import make_bot
from engine.record import last_state
from engine.record import load as load_record
from tests.tui.conftest import choices_on_screen, table_app, type_number, wait_for_choices

GAMES = [
    ("roll-them-bones", None),
    ("theyre-coming", None),
    ("theyre-coming", "death-comes-knocking"),
    ("theyre-coming", "kamikaze"),
    ("theyre-coming", "overwhelming-odds"),
    ("theyre-coming", "red-runners"),
    ("theyre-coming", "romerio"),
    ("theyre-coming", "zombie-race"),
    ("defcon-z", "competitive"),
    ("defcon-z", "cooperative"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("pack", "mode"), GAMES, ids=[f"{p}-{m or 'base'}" for p, m in GAMES])
def test_a_whole_game_is_played_through_key_presses_at_80x24(pack, mode):
    asyncio.run(_play_out(pack, mode))


async def _play_out(pack, mode):
    app = table_app(pack, mode, seed=3)
    advisor = make_bot("greedy", 5, app.table.game)
    decisions = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while await wait_for_choices(app, pilot):
            shown = choices_on_screen(app)
            state = app.table.state
            wanted = advisor.choose(state, state.decision())
            assert wanted in shown  # the screen offers what the rules allow
            await type_number(pilot, shown.index(wanted) + 1, len(shown))
            decisions += 1
            assert decisions < 2000
        prompt = str(app.query_one("#prompt").render())
        assert prompt.startswith("Game over: ")
    assert decisions > 0
    done = sorted(autosave.folder().glob("*" + autosave.OVER))
    assert len(done) == 1
    assert last_state(load_record(done[0])).over
