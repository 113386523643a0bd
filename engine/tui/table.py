"""The game at the table, apart from how it is drawn: whose turn, the choices, undo, saving.

The full-screen app (`engine.tui.app`) draws; this class keeps the game. Keeping the two
apart lets the rules of the table (a decision taken back only when fair, every decision
autosaved, bots deciding on a copy of the state) be the same whatever draws them, and
keeps Textual out of everything that does not draw.

Bots decide on their own copy of the state (`bot_steps`), off the UI thread: the state the
screen shows is replaced whole after each of their decisions, never changed under it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine import autosave
from engine.bots import is_human
from engine.cli.session import natural
from engine.cli.undo import Undo
from engine.record import make_record
from engine.record import save as save_record

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import State


@dataclass
class Table:
    game: Game
    specs: list[str]
    bots: list
    state: State
    pack: str
    house: list = field(default_factory=list)
    params: dict = field(default_factory=dict)
    save_to: Path | None = None  # --save FILE: where `s` and the end write the record
    autosave_to: Path | None = None

    def __post_init__(self):
        self.humans = [i for i, b in enumerate(self.bots) if is_human(b)]
        self.undo = Undo()
        self.saved_at = len(self.state.history)  # decisions when last saved with `s`
        if self.autosave_to is None:
            self.autosave_to = autosave.new_path(self.game.pack_id)

    # ---------- the decision ----------
    def decision(self):
        return self.state.decision()

    def human_decision(self):
        """The decision now when a person at the table makes it, else None."""
        d = self.state.decision()
        return d if d is not None and is_human(self.bots[d.player]) else None

    @staticmethod
    def choices(d) -> list[str]:
        """The labels of decision `d` in the order they are numbered (from 1)."""
        return sorted(d.actions, key=natural)

    def choose(self, label: str) -> None:
        """A person's decision (checked legal), applied and autosaved."""
        d = self.state.decision()
        if d is None or label not in d.index:
            raise ValueError(f"not a choice now: {label}")
        before = self.state.clone()
        self.state.apply(label)
        self.undo.applied(before, self.state, d.player, label)
        self.autosave()

    def bot_steps(self) -> Iterator[State]:
        """The bots' decisions up to the next person's (or the end), made on a copy of the
        state; yields each state reached (the caller shows it). Runs off the UI thread."""
        work = self.state.clone()
        while (d := work.decision()) is not None and not is_human(self.bots[d.player]):
            label = self.bots[d.player].choose(work, d)
            before = work.clone()
            work.apply(label)
            self.undo.applied(before, work, None, label)
            yield work.clone()

    def refusal(self, seat: int) -> str | None:
        return self.undo.refusal(seat)

    def take_back(self):
        """The state before the last person's decision, which is taken back; its step."""
        step = self.undo.take_back()
        self.state = step.before
        self.autosave()
        return step

    # ---------- keeping it ----------
    def record(self) -> dict:
        return make_record(self.state, self.pack, self.house, self.params, self.specs)

    @property
    def unsaved(self) -> bool:
        """Decisions made since the game was last saved with `s` (the autosave aside)."""
        return not self.state.over and len(self.state.history) != self.saved_at

    def autosave(self) -> Path | None:
        """The game so far written to its autosave file (renamed when it is over)."""
        if self.autosave_to is None:
            return None
        save_record(self.record(), self.autosave_to)
        if self.state.over:
            self.autosave_to = autosave.finished(self.autosave_to)
            done, self.autosave_to = self.autosave_to, None
            return done
        return self.autosave_to

    def save(self) -> Path:
        """`s`: the record written to --save FILE, or to the autosave file; where."""
        self.saved_at = len(self.state.history)
        if self.save_to is not None:
            save_record(self.record(), self.save_to)
            self.autosave()
            return self.save_to
        return self.autosave() or self.autosave_to or Path(".")
