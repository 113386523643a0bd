"""A whole game of every pack and mode, played at the full-screen table at 80x24.

One person (the test) and one bot. The person reads the choices off the choices pane and
types a number; which number follows the pack's own greedy policy (asked about the labels
on screen), so that long games such as DEFCON Z end in a few dozen decisions. Each game
must reach its end with the result on screen and its autosave marked as finished.
"""

from __future__ import annotations

import asyncio

import pytest

from engine import autosave
from engine.bots import make_bot
from engine.record import last_state
from engine.record import load as load_record
from engine.render.panels import spoken
from tests.tui.conftest import choices_on_screen, table_app, type_number, wait_for_choices

# (pack, mode, seed, params): DEFCON Z with fewer kills to win (as `--set` would have it)
# and a seed where the game is short, so a game through the app stays around a minute
GAMES = [
    ("roll-them-bones", None, 3, {}),
    ("theyre-coming", None, 3, {}),
    ("theyre-coming", "death-comes-knocking", 3, {}),
    ("theyre-coming", "kamikaze", 3, {}),
    ("theyre-coming", "overwhelming-odds", 3, {}),
    ("theyre-coming", "red-runners", 3, {}),
    ("theyre-coming", "romerio", 3, {}),
    ("theyre-coming", "zombie-race", 3, {}),
    ("defcon-z", "competitive", 5, {"win_kills": "4"}),
    ("defcon-z", "cooperative", 5, {"coop_kills": "1"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("pack", "mode", "seed", "params"), GAMES,
                         ids=[f"{p}-{m or 'base'}" for p, m, _, _ in GAMES])
def test_a_whole_game_is_played_through_key_presses_at_80x24(pack, mode, seed, params):
    asyncio.run(_play_out(pack, mode, seed, params))


async def _play_out(pack, mode, seed, params):
    app = table_app(pack, mode, seed=seed, params=params)
    advisor = make_bot("greedy", 5, app.table.game)
    decisions = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while await wait_for_choices(app, pilot):
            shown = choices_on_screen(app)
            state = app.table.state
            wanted = advisor.choose(state, state.decision())
            assert spoken(wanted) in shown  # the screen offers what the rules allow
            await type_number(pilot, shown.index(spoken(wanted)) + 1, len(shown))
            decisions += 1
            assert decisions < 2000
        prompt = str(app.query_one("#prompt").render())
        assert prompt.startswith("Game over: ")
    assert decisions > 0
    done = sorted(autosave.folder().glob("*" + autosave.OVER))
    assert len(done) == 1
    assert last_state(load_record(done[0])).over


@pytest.mark.slow
def test_a_full_length_defcon_z_game_is_played_through_key_presses_at_80x24():
    """DEFCON Z with the pack's own goal (no `--set`): the longest game of the bundled packs,
    played to its end at the table like the shortened ones above."""
    asyncio.run(_play_out("defcon-z", "competitive", 5, {}))
