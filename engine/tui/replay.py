"""`horde replay RECORD` in a terminal: the table as a viewer of a recorded game.

The same panes as at play (`engine.tui.panes`), shown for the whole table or one seat's
eyes, stepped through the record's decisions: → and ← step, Home and End go to the start
and the end, `g` jumps to a turn, `v` changes whose view it is. A designer can watch the
game `horde check` shrank, or a game `horde sim` wrote out, instead of reading a dump.
States are rebuilt from the record as they are first shown, and kept (a step back is free).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from engine.errors import HordeError, printable
from engine.render import Renderer
from engine.render.panels import result_text
from engine.tui.help import help_body
from engine.tui.panes import BoardPane, HandPane, LogPane, PlayersPane, table_layout
from engine.tui.screens import HelpScreen, JumpScreen


class ReplayApp(App[None]):
    CSS_PATH = "horde.tcss"
    TITLE = "horde replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: the scrolling panes would take arrows, Home and End for themselves
        Binding("right,n,space", "step(1)", "Next", priority=True),
        Binding("left,p,backspace", "step(-1)", "Back", priority=True),
        Binding("home", "go(0)", "Start", show=False, priority=True),
        Binding("end", "go(-1)", "End", show=False, priority=True),
        Binding("g", "jump", "Turn"),
        Binding("v", "viewer", "View"),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q,ctrl+c", "quit", "Quit"),
    ]

    def __init__(self, record: dict, where: str) -> None:
        from engine.record import replay
        super().__init__()
        self.record = record
        self.steps = replay(record, where)  # the states, made as they are needed
        self.states = [next(self.steps)]
        self.done = False
        self.renderer = Renderer(self.states[0].game, names=record["bots"] or None)
        self.at = 0
        self.viewer: int | None = None

    def compose(self) -> ComposeResult:
        yield from table_layout(choices=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stepping keys belong to the table only: in the jump dialog they edit the turn."""
        if action in ("step", "go") and len(self.screen_stack) > 1:
            return False
        return True

    def on_mount(self) -> None:
        self.call_after_refresh(self.show)

    def on_resize(self, event: events.Resize) -> None:
        self.screen.set_class(event.size.width < 100, "-narrow")
        self.call_after_refresh(self.show)

    def state_at(self, k: int):
        """The state after decision k (0: the start), or the last one if there are fewer."""
        while not self.done and len(self.states) <= k:
            try:
                self.states.append(next(self.steps))
            except StopIteration:
                self.done = True
            except HordeError as exc:  # a record that goes wrong part way: shown up to there
                self.done = True
                self.notify(str(exc), severity="error", timeout=10, markup=False)
        return min(k, len(self.states) - 1)

    @property
    def total(self) -> int:
        return len(self.record["decisions"])

    def show(self) -> None:
        S = self.states[self.at]
        title = self.renderer.header(S, self.viewer)
        title.append(f" · decision {self.at}/{self.total}", style="bold")
        self.query_one("#title", Static).update(title)
        self.query_one(BoardPane).show(self.renderer, S, self.viewer, None)
        self.query_one(PlayersPane).show(self.renderer, S, self.viewer)
        self.query_one(HandPane).show(self.renderer, S, self.viewer)
        previous = self.states[self.at - 1] if self.at else None
        log = self.query_one(LogPane)
        log.reset(S, self.viewer, len(previous.log) if previous is not None else 0)
        self.query_one("#prompt", Static).update(self.prompt(S))

    def prompt(self, S) -> Text:
        if S.over:
            return Text(f"Game over: {printable(result_text(S))}", style="bold green")
        d = S.decision()
        nxt = self.record["decisions"][self.at] if self.at < self.total else None
        text = Text(printable(f"P{d.player} decides at {d.point}"), style="bold")
        if nxt is not None:
            text.append(" and plays ")
            text.append(nxt, style="bold cyan")
        else:
            text.append(" (the record stops here)", style="yellow")
        return text

    def action_step(self, by: int) -> None:
        self.at = self.state_at(max(0, self.at + by))
        self.show()

    def action_go(self, k: int) -> None:
        self.at = self.state_at(self.total if k < 0 else k)
        self.show()

    def action_jump(self) -> None:
        self.push_screen(JumpScreen(), self.jump_to)

    def jump_to(self, turn: int | None) -> None:
        if turn is None:
            return
        k = 0
        while True:
            k = self.state_at(k)
            if self.states[k].turns >= turn or k >= self.total or self.done and \
                    k == len(self.states) - 1:
                break
            k += 1
        self.at = k
        self.show()

    def action_viewer(self) -> None:
        """The whole table, then each seat's eyes in turn."""
        seats = len(self.states[0].pl)
        self.viewer = 0 if self.viewer is None else (self.viewer + 1 if self.viewer + 1 < seats
                                                     else None)
        self.show()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(help_body(self.renderer, self.states[self.at], None, [])))
