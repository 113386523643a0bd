"""The screens laid over the table: help, passing the device, quitting, jumping to a turn.

The pass-the-device screen is a whole screen, not a dialog over the table: nothing of the
previous player's hand is under it to be seen, and the app runs in the terminal's
alternate screen, so nothing of it stays in the scrollback either.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static


class HelpScreen(ModalScreen[None]):
    """`?`/F1: the text of everything on the screen, from the pack (the choices explained,
    the cards, the glossary of pieces, dice faces and tiles, the keys)."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]

    def __init__(self, body: list[RenderableType]) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Group(*self.body))
        yield Label(Text("Esc closes this help · arrows and PgUp/PgDn scroll", style="dim"))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class PassScreen(Screen[None]):
    """Hot seat: the device goes to the next person; nothing of any hand is on it."""

    BINDINGS = [Binding("enter,space", "ready", "I am P{seat}")]

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Label(Text(f"Pass the device to P{self.seat}", style="bold"))
            yield Label(Text("then press Enter (or click below)"))
            yield Button(f"I am P{self.seat}", id="ready", variant="primary")

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """`q` on a game not saved since its last decisions: leave (it stays autosaved) or not."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(id="quit"):
            yield Label(Text("Leave the game? (y/n)", style="bold"))
            yield Label(Text(f"It is kept in {self.where}; `horde resume --last` goes on "
                             "with it."))
            yield Button("Leave (y)", id="yes", variant="error")
            yield Button("Stay (n)", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class JumpScreen(ModalScreen[int | None]):
    """The replay viewer's `g`: the turn to jump to."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="jump"):
            yield Label("Jump to turn:")
            yield Input(placeholder="a turn number", type="integer", max_length=9)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(int(value) if value.lstrip("-").isdigit() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def explain_lines(lines: list[Text]) -> RenderableType:
    return Text("\n").join(lines)
