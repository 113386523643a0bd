"""An interactive game at the terminal: people and bots at one table.

Human seats choose from numbered lists (or type a label); bots play by themselves. With
one person at the table their view is drawn before each of their decisions; with several
(hot seat) a "pass the device" screen comes first, so nobody sees another's hand; with
nobody (a demo) the spectator view is drawn after every decision. End of input, or `q` at
a prompt, stops the game politely, keeping what was played (it can still be saved, and
`horde resume` goes on with it later).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from engine.bots import is_human
from engine.errors import did_you_mean
from engine.game import Game
from engine.render import Renderer


class InputEnded(Exception):
    """stdin is closed, or a player typed `q`: the player has left the table."""


QUIT = frozenset({"q", "quit", "exit"})  # unless a pack has an action of that name


def read_line(prompt: str, console: Console) -> str:
    console.print(Text(prompt), end="")
    console.file.flush()
    line = sys.stdin.readline()
    if not line:
        console.print()
        raise InputEnded
    return line.strip()


@dataclass
class Session:
    game: Game
    specs: list[str]
    bots: list
    seed: int
    console: Console
    delay: float = 0.0
    stopped: bool = False

    def __post_init__(self):
        self.humans = [i for i, b in enumerate(self.bots) if is_human(b)]
        self.renderer = Renderer(self.game, names=self.specs)

    def draw(self, state, viewer: int | None) -> None:
        self.console.print(Rule(style="dim"))
        self.console.print(self.renderer.render(state, viewer))

    def run(self, state=None):
        """Play to the end (or until input ends); returns the last state. With `state`, go
        on from there (a resumed game)."""
        if state is None:
            state = self.game.new_state(players=len(self.specs), seed=self.seed)
        played = len(state.history)
        self.console.print(Text(f"{self.game.title}: {len(self.specs)} players "
                                f"({', '.join(self.specs)}), seed {self.seed}"
                                + (f", resumed after {played} decisions" if played else ""),
                                style="bold"))
        demo = not self.humans
        if demo:
            self.draw(state, None)
        holder: int | None = None  # the human who has the device now
        try:
            while (d := state.decision()) is not None:
                bot = self.bots[d.player]
                if is_human(bot):
                    if len(self.humans) > 1 and holder != d.player:
                        self.hand_over(d.player)
                    holder = d.player
                    self.draw(state, d.player)
                    label = self.ask(state, d)
                else:
                    label = bot.choose(state, d)
                    if not demo and label != "pass":
                        self.console.print(Text(f"P{d.player} ({self.specs[d.player]}) "
                                                f"plays {label}", style="cyan"))
                state.apply(label)
                if demo:
                    self.draw(state, None)
                    if self.delay > 0:
                        time.sleep(self.delay)
        except InputEnded:
            self.stopped = True
            n = len(state.history)
            self.console.print(Text(f"Stopped: the game ends after {n} decision"
                                    f"{'' if n == 1 else 's'}.", style="yellow"))
            return state
        if not demo:  # the demo drew the final state already; its last line is the result
            self.draw(state, self.humans[0] if len(self.humans) == 1 else None)
        return state

    def hand_over(self, seat: int) -> None:
        """Hide the last private view and wait until the next person holds the device."""
        self.console.clear()
        self.console.print(Panel(Text(f"Pass the device to P{seat}, then press Enter",
                                      justify="center"), style="bold"))
        read_line("", self.console)
        self.console.clear()

    def ask(self, state, d) -> str:
        """The label the person at seat `d.player` picks: by number or by typing it."""
        self.console.print(Text(f"P{d.player}, your choice ({d.point}):", style="bold"))
        for k, label in enumerate(d.actions, 1):
            self.console.print(Text(f"  {k:>2}. {label}"))
        while True:
            answer = read_line(f"P{d.player}> ", self.console)
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(d.actions):
                return d.actions[int(answer) - 1]
            if answer in d.index:
                return answer
            if answer.lower() in QUIT:
                raise InputEnded
            if answer:
                hint = did_you_mean(answer, d.actions)
                self.console.print(Text(f"'{answer}' is not a choice here; type 1-"
                                        f"{len(d.actions)}, a label, or q to stop"
                                        + (f" ({hint})" if hint else ""), style="red"))
