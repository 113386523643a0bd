"""A stand-in for the game app, for testing `horde serve` before the app itself exists.

Installed as the `sitecustomize` of the processes a test starts, it replaces `horde play`
with a tiny Textual app whenever TEXTUAL_DRIVER is set (as textual-serve sets it for each
browser tab), and keeps the app's contract: the game's choices on screen, a click on one
chooses it, bots play by themselves, and the record of the game is written to the data
folder after every decision.
"""

from __future__ import annotations

import functools
import os

import engine.cli.play as play_module

_real_play = play_module.play


@functools.wraps(_real_play)
def play(pack, mode=None, house=None, set_=None, players=None, seed=None, **options):
    if not os.environ.get("TEXTUAL_DRIVER"):
        return _real_play(pack, mode, house, set_, players, seed, **options)
    from engine.bots import make_bot
    from engine.cli.common import load_game, parse_sets
    from engine.record import make_record
    from engine.sim.seeds import bot_seed

    game = load_game(pack, mode, house, set_)
    specs = play_module.seat_specs(players, game)
    seed = 1 if seed is None else seed
    bots = [make_bot(spec, bot_seed(seed, 0, s), game) for s, spec in enumerate(specs)]
    table = _table_class()(game.new_state(players=len(specs), seed=seed), specs, bots,
                           lambda state: make_record(state, pack, house or [], parse_sets(set_), specs))
    table.run()


play_module.play = play


def _table_class():
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.widgets import Button, Static

    from engine.bots import is_human
    from engine.cli.session import natural
    from engine.record import save
    from engine.scores import data_dir

    class Table(App):
        CSS = "Button { width: 100%; }"

        def __init__(self, state, specs, bots, record):
            super().__init__()
            self.state, self.specs, self.bots, self.record = state, specs, bots, record

        def compose(self):
            yield Static(id="status")
            yield VerticalScroll(id="choices")

        def on_mount(self) -> None:
            self.advance()

        def advance(self) -> None:
            while (d := self.state.decision()) is not None and not is_human(self.bots[d.player]):
                self.state.apply(self.bots[d.player].choose(self.state, d))
            path = data_dir() / "games" / "stand-in.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            save(self.record(self.state), path)
            self.query_one("#status", Static).update(
                f"{len(self.state.history)} decisions" + (", game over" if d is None else ""))
            choices = self.query_one("#choices", VerticalScroll)
            choices.remove_children()
            if d is not None:
                choices.mount_all(Button(label, name=label) for label in sorted(d.actions, key=natural))

        def on_button_pressed(self, event) -> None:
            self.state.apply(event.button.name)
            self.advance()

    return Table
