"""The table as a full-screen app: `horde play` and `horde resume` in a terminal.

Everything stays in view, as on a real table: the board, the players with the goal, the
viewer's hand with every card's text, a log that keeps every event of the game, and the
choices. Bots think in a thread of their own so the screen answers keys meanwhile; the
game is autosaved after every person's decision (and on `q`, Ctrl-C, SIGTERM, SIGHUP or a
crash), so nothing is lost (`engine.autosave`). The game itself is kept by
`engine.tui.table.Table`; this module only draws it and takes keys.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static

from engine.errors import printable
from engine.render import Renderer
from engine.render.panels import result_text
from engine.tui.help import help_body
from engine.tui.panes import (
    BoardPane,
    ChoicePicture,
    ChoicesPane,
    HandPane,
    LogPane,
    PlayersPane,
    put,
    table_layout,
)
from engine.tui.screens import HelpScreen, PassScreen, QuitScreen
from engine.tui.table import Table

SHOW_EVERY = 0.2  # seconds between two redraws while the bots play


class TableApp(App[None]):
    """One game at the table, for one person, several (hot seat) or none (bots only)."""

    CSS_PATH = "horde.tcss"
    TITLE = "horde"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save"),
        Binding("q", "quit_game", "Quit"),
        Binding("ctrl+c", "interrupt", "Stop", show=False, priority=True),
        *[Binding(str(k), f"digit({k})", show=False) for k in range(10)],
    ]

    def __init__(self, table: Table, delay: float = 0.0) -> None:
        super().__init__()
        self.table = table
        self.renderer = Renderer(table.game, names=table.specs)
        self.delay = delay
        self.viewer: int | None = table.humans[0] if len(table.humans) == 1 else None
        self.holder: int | None = None  # the person who has the device (hot seat)
        self.seen: dict[int | None, int] = {}  # log length at each viewer's last decision
        self.shown: list[str] = []  # the choices on screen, as numbered
        self.typed = ""  # digits typed so far toward a choice number
        self.thinking: threading.Thread | None = None
        self.stop = threading.Event()
        self.ended = False
        self.stopped = False  # left before the end (q, Ctrl-C, a signal)
        self.interrupted = False
        self.message = ""
        self.failed: Exception | None = None

    # ---------- layout ----------
    def compose(self) -> ComposeResult:
        yield from table_layout(choices=True)

    def on_mount(self) -> None:
        self._signals()
        self.query_one(LogPane).reset(self.table.state, self.viewer,
                                      len(self.table.state.log))
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        self.screen.set_class(event.size.width < 100, "-narrow")
        self.call_after_refresh(self.rewrap)

    def rewrap(self) -> None:
        """A new size: the board redrawn to fit, the log wrapped again."""
        log = self.query_one(LogPane)
        if hasattr(log, "viewer"):
            log.reset(self.table.state, log.viewer, log.since)
        self.redraw()

    def _signals(self) -> None:
        """SIGTERM and SIGHUP (a closed terminal) leave as Ctrl-C does: saved first."""
        import asyncio
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(sig, self.action_interrupt)
        except (NotImplementedError, RuntimeError, AttributeError, ValueError):
            pass  # not on this platform or not the main thread (tests): Ctrl-C still saves

    def _handle_exception(self, error: Exception) -> None:
        """A bug in the table: the game is saved first, then the app closes. Without
        HORDE_DEBUG the command prints one line about it (`engine.cli.app`), not
        Textual's traceback."""
        self.failed = error
        try:
            self.table.autosave()
        except Exception:  # the error being reported matters more
            pass
        if os.environ.get("HORDE_DEBUG"):
            super()._handle_exception(error)
            return
        self._return_code = 1
        if self._exception is None:
            self._exception = error  # run_test raises it again, for tests
            self._exception_event.set()
        self._close_messages_no_wait()

    # ---------- drawing ----------
    def redraw(self) -> None:
        S, viewer = self.table.state, self.viewer
        title = self.renderer.header(S, viewer)
        if self.message:
            title.append(f" · {self.message}", style="yellow")
        put(self.query_one("#title", Static), title)
        self.query_one(BoardPane).show(self.renderer, S, viewer, self.shown or None)
        self.query_one(PlayersPane).show(self.renderer, S, viewer)
        self.query_one(HandPane).show(self.renderer, S, viewer, self.shown or None)
        put(self.query_one("#prompt", Static), self.prompt_text())

    def prompt_text(self) -> Text:
        S = self.table.state
        if S.over:
            return Text(f"Game over: {printable(result_text(S))} · q leaves", style="bold green")
        d = S.decision()
        if d is None:
            return Text("")
        if not self.shown:
            return Text(f"P{d.player} ({printable(self.table.specs[d.player])}) is thinking…", style="dim")
        about = self.renderer.points.get(d.point)
        return Text(printable(f"P{d.player}, your choice" + (f": {about}" if about else f" ({d.point})")),
                    style="bold")

    # ---------- the game going on ----------
    def advance(self) -> None:
        """Show the next decision: a person's choices (after passing the device when it is
        someone else's turn at a shared table), or the bots' turns in their thread."""
        S = self.table.state
        if S.over:
            self.game_over()
            return
        d = self.table.human_decision()
        if d is None:
            self.shown = []
            self.clear_choices()
            if self.table.humans:  # the table stays as it was until a person decides again
                put(self.query_one("#prompt", Static), self.prompt_text())
            else:
                self.redraw()
            self.think()
            return
        if len(self.table.humans) > 1 and self.holder != d.player:
            self.holder = None
            self.viewer = None  # the table behind the pass screen shows no hand
            self.shown = []
            self.clear_choices()
            self.redraw()
            self.query_one(LogPane).reset(S, None, len(S.log))
            self.push_screen(PassScreen(d.player), lambda _: self.hand_to(d.player))
            return
        self.present(d)

    def hand_to(self, seat: int) -> None:
        self.holder = self.viewer = seat
        self.present(self.table.state.decision())

    def present(self, d) -> None:
        S = self.table.state
        self.viewer = d.player
        self.shown = self.table.choices(d)
        self.typed = ""
        log = self.query_one(LogPane)
        if getattr(log, "viewer", -1) != self.viewer:
            log.reset(S, self.viewer, self.seen.get(self.viewer, 0))
        else:
            log.extend(S)
        self.redraw()
        self.query_one(ChoicesPane).show(self.shown, {})
        self.query_one(ChoicesPane).focus()

    def decide(self, number: int) -> None:
        """The person chooses choice `number` (from 1) of those on screen."""
        if not self.shown or not 1 <= number <= len(self.shown) or self.ended:
            return
        label = self.shown[number - 1]
        self.shown = []
        self.message = ""
        self.clear_choices()
        self.table.choose(label)
        self.seen[self.viewer] = len(self.table.state.log)
        self.query_one(LogPane).settle(self.table.state)
        self.advance()

    def think(self) -> None:
        """The bots' decisions up to a person's, in a thread: the screen stays live."""
        if self.thinking is not None and self.thinking.is_alive():
            return
        self.thinking = threading.Thread(target=self._bots, daemon=True, name="bots")
        self.thinking.start()

    def _bots(self) -> None:
        shown = time.monotonic()
        latest = None
        try:
            for latest in self.table.bot_steps():
                if self.stop.is_set():
                    return
                # the screen follows a few times a second (each step in a demo with --delay)
                if self.delay > 0 or time.monotonic() - shown > SHOW_EVERY:
                    self.call_from_thread(self.bot_moved, latest)
                    shown = time.monotonic()
                if self.delay > 0:
                    time.sleep(self.delay)
            if not self.stop.is_set():
                self.call_from_thread(self.bots_done, latest)
        except Exception as exc:  # a bug in a bot or in drawing: reported, the game saved
            if self.stop.is_set() or not self.is_running:
                return  # the app closed meanwhile
            try:
                self.call_from_thread(self._handle_exception, exc)
            except Exception:
                return

    def bot_moved(self, state) -> None:
        if self.stop.is_set():
            return
        self.table.state = state
        self.query_one(LogPane).extend(state)
        if not self.table.humans or state.over:
            self.redraw()

    def bots_done(self, state) -> None:
        if state is not None:
            self.table.state = state
            self.query_one(LogPane).extend(state)
        self.table.autosave()
        self.advance()

    def game_over(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.shown = []
        self.clear_choices()
        viewer = self.viewer if len(self.table.humans) == 1 else None
        self.viewer = viewer
        self.query_one(LogPane).reset(self.table.state, viewer, self.seen.get(viewer, 0))
        self.saved_to = self.table.autosave()
        self.redraw()

    def clear_choices(self) -> None:
        self.query_one(ChoicesPane).clear_options()
        self.query_one(ChoicePicture).show(self.table.state, self.viewer, [], None)

    # ---------- keys ----------
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.query_one(ChoicePicture).show(self.table.state, self.viewer, self.shown,
                                           event.option_index + 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.decide(event.option_index + 1)

    def on_board_pane_picked(self, event: BoardPane.Picked) -> None:
        self.decide(event.number)

    def action_digit(self, k: int) -> None:
        """A digit chooses at once when no longer number starts with the digits typed;
        else it highlights that choice and waits for the next digit or Enter."""
        if not self.shown:
            return
        typed = self.typed + str(k)
        n = len(self.shown)
        if not typed.lstrip("0") or int(typed) > n:
            typed = str(k) if k and k <= n else ""
        self.typed = typed
        if not typed:
            return
        number = int(typed)
        if number * 10 > n:
            self.decide(number)
        else:
            self.query_one(ChoicesPane).highlighted = number - 1

    def action_help(self) -> None:
        self.push_screen(HelpScreen(help_body(self.renderer, self.table.state, self.viewer,
                                              self.shown)))

    def action_undo(self) -> None:
        if not self.shown or self.viewer is None:
            self.note("nothing to take back now")
            return
        why = self.table.refusal(self.viewer)
        if why is not None:
            self.note(f"can't undo: {why}")
            return
        step = self.table.take_back()
        self.seen[self.viewer] = min(self.seen.get(self.viewer, 0), len(self.table.state.log))
        self.present(self.table.state.decision())
        self.note(f"P{step.seat} takes back {step.label}")

    def action_save(self) -> None:
        where = self.table.save()
        self.note(f"saved to {where}")

    def note(self, text: str) -> None:
        self.message = text
        self.notify(text, timeout=4, markup=False)
        self.redraw()

    def action_quit_game(self) -> None:
        if self.ended or not self.table.unsaved:
            self.leave()
            return
        where = str(self.table.autosave_to or self.table.save_to)
        self.push_screen(QuitScreen(where), lambda yes: self.leave() if yes else None)

    def action_interrupt(self) -> None:
        """Ctrl-C (or a signal): leave at once, the game saved as it is on screen."""
        self.interrupted = True
        self.leave()

    def leave(self) -> None:
        self.stop.set()
        if not self.ended:
            self.stopped = True
            self.table.autosave()
            if self.table.save_to is not None:
                self.table.save()
        self.exit()


def run(table: Table, delay: float = 0.0) -> TableApp:
    """Play `table`'s game in the app until it ends or the players leave; the app (its
    table holds the last state)."""
    app = TableApp(table, delay)
    app.run()
    return app

