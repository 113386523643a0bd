"""An interactive game at the terminal: people and bots at one table.

Human seats choose from numbered lists (or type a label); bots play by themselves. With
one person at the table their view is drawn before each of their decisions; with several
(hot seat) a "pass the device" screen comes first, so nobody sees another's hand; with
nobody (a demo) the spectator view is drawn after every decision. End of input, or `q` at
a prompt, or Ctrl-C, stops the game politely, keeping what was played (it can still be
saved, and `horde resume` goes on with it later).

Before each of a person's decisions they see everything that happened since their last
one (`engine.cli.seen`); at a prompt `?` explains the choices, `rules`, `log` and `view`
show the pack's summary, the whole log and their screen again, and `u` takes back their
last decision when nothing left to chance or hidden has come out since (`engine.cli.undo`).
A bot that thinks longer than THINK_AFTER seconds shows a "thinking…" line with the time
it has taken.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from engine.bots import is_human
from engine.cli.seen import Feed, explain, glossary_text, lines_of, rules_text
from engine.cli.undo import WORDS as UNDO_WORDS
from engine.cli.undo import Undo
from engine.codec import log_seen_by
from engine.errors import did_you_mean, printable
from engine.game import Game
from engine.render import Renderer
from engine.render.panels import spoken

SCROLLBACK = "\x1b[3J"  # erase the terminal's saved lines (xterm and most others)


class InputEnded(Exception):
    """stdin is closed, or a player typed `q`: the player has left the table."""


class TakeBack(Exception):
    """The person at the prompt takes back their last decision (`u`), which they may."""


QUIT = frozenset({"q", "quit", "exit"})  # unless a pack has an action of that name


def read_line(prompt: str, console: Console) -> str:
    console.print(Text(prompt), end="")
    console.file.flush()
    line = sys.stdin.readline()
    if not line:
        console.print()
        raise InputEnded
    return line.strip()


FEED_ROOM = 16  # lines of news that fit in the board's log panel on a 45-row screen
THINK_AFTER = 0.5  # seconds a bot may think before the "thinking…" line shows


@dataclass
class Session:
    game: Game
    specs: list[str]
    bots: list
    seed: int
    console: Console
    delay: float = 0.0
    stopped: bool = False
    interrupted: bool = False  # stopped by Ctrl-C rather than `q` or the end of input
    keep: Callable | None = None  # called with the state to autosave it (`autosave.Keeper`)

    def _keep(self, state) -> None:
        if self.keep is not None:
            self.keep(state)

    def __post_init__(self):
        self.humans = [i for i, b in enumerate(self.bots) if is_human(b)]
        self.renderer = Renderer(self.game, names=self.specs)
        self.feed = Feed(self.renderer)
        self.undo = Undo()
        self.back = False  # a decision was just taken back

    def draw(self, state, viewer: int | None, news: list[Text] | None = None) -> None:
        """The board for `viewer`, with `news` (what it has not seen yet) as its log:
        inside the board when it fits, else before the board, in full. When `viewer` is
        to decide, its choices are numbered as they are listed (a map may show them)."""
        self.console.print(Rule(style="dim"))
        if news is not None and len(news) > FEED_ROOM:
            self.console.print(Text("\n").join(news))
            self.console.print(Rule(style="dim"))
            news = []
        log = Text("\n").join(news) if news is not None else None
        d = state.decision()
        shown = sorted(d.actions, key=natural) if d is not None and d.player == viewer else None
        self.console.print(self.renderer.render(state, viewer, log=log, choices=shown))

    def run(self, state=None):
        """Play to the end (or until a player stops); returns the last state. With
        `state`, go on from there (a resumed game)."""
        if state is None:
            state = self.game.new_state(players=len(self.specs), seed=self.seed)
        played = len(state.history)
        n = len(self.specs)
        self.console.print(Text(f"{printable(self.game.title)}: {n} player{'' if n == 1 else 's'} "
                                f"({printable(', '.join(self.specs))}), seed {self.seed}"
                                + (f", resumed after {played} decisions" if played else ""),
                                style="bold"))
        demo = not self.humans
        if demo:
            self.draw(state, None)
        if played:  # a resumed game's news starts where it goes on
            for seat in self.humans:
                self.feed.start(state, seat)
        holder: int | None = None  # the human who has the device now
        try:
            while (d := state.decision()) is not None:
                bot = self.bots[d.player]
                if is_human(bot):
                    if len(self.humans) > 1 and holder != d.player:
                        self.hand_over(d.player)
                    holder = d.player
                    news = self.feed.take(state, d.player)
                    back, self.back = self.back, False
                    # a decision taken back: no news, but the last lines of the log again
                    self.draw(state, d.player, None if back and not news else news)
                    self._keep(state)  # the bots' turns since, before the person thinks
                    try:
                        label = self.ask(state, d)
                    except TakeBack:
                        state = self.take_back(d.player)
                        continue
                else:
                    with Thinking(self.console, f"P{d.player} ({self.specs[d.player]})"):
                        label = bot.choose(state, d)
                before = state.clone()
                state.apply(label)
                self.undo.applied(before, state, d.player if is_human(bot) else None, label)
                if is_human(bot):
                    self._keep(state)
                if demo:
                    self.draw(state, None)
                    if self.delay > 0:
                        time.sleep(self.delay)
        except (InputEnded, KeyboardInterrupt) as exc:
            self._keep(state)
            self.stopped = True
            self.interrupted = isinstance(exc, KeyboardInterrupt)
            n = len(state.history)
            self.console.print()
            self.console.print(Text(f"Stopped: the game ends after {n} decision"
                                    f"{'' if n == 1 else 's'}.", style="yellow"))
            return state
        except Exception:
            self._keep(state)  # a bug in a bot or the rules: the game so far stays resumable
            raise
        self._keep(state)
        if not demo:  # the demo drew the final state already; its last line is the result
            one = self.humans[0] if len(self.humans) == 1 else None
            since = None if one is not None else min(self.feed.seen.values(), default=0)
            self.draw(state, one, self.feed.take(state, one, since))
        return state

    def take_back(self, seat: int):
        """The state before `seat`'s last decision, which it takes back; what everyone
        was shown is cut back to it, so the news starts again from there."""
        step = self.undo.take_back()
        state = step.before
        for who, seen in list(self.feed.seen.items()):
            self.feed.seen[who] = min(seen, len(state.log))
        self.feed.row[seat] = self.renderer.cells(state, seat, seat)
        self.console.print(Text(f"P{seat} takes back {spoken(step.label)}", style="yellow"))
        self.back = True
        return state

    def hand_over(self, seat: int) -> None:
        """Hide the last private view and wait until the next person holds the device."""
        self.wipe()
        self.console.print(Panel(Text(f"Pass the device to P{seat}, then press Enter",
                                      justify="center"), style="bold"))
        read_line("", self.console)
        self.wipe()

    def wipe(self) -> None:
        """Clear the screen and the terminal's scrollback (ESC[3J), so nothing of the
        previous player's view can be scrolled back to."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(SCROLLBACK)
            self.console.file.flush()

    def ask(self, state, d) -> str:
        """The label the person at seat `d.player` picks: by number or by typing it."""
        shown = sorted(d.actions, key=natural)
        self.choices(d, shown)
        while True:
            answer = read_line(f"P{d.player}> ", self.console)
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(shown):
                return shown[int(answer) - 1]
            if answer in d.index:
                return answer
            word = answer.lower()
            if word in QUIT:
                raise InputEnded
            if word in UNDO_WORDS:
                why = self.undo.refusal(d.player)
                if why is None:
                    raise TakeBack
                self.console.print(Text(f"can't undo: {why}", style="red"))
                continue
            if word in HELP:
                self.say(explain(state, d, self.renderer, shown))
            elif word in GLOSSARY:
                self.say(glossary_text(self.renderer))
            elif word == "rules":
                self.say(rules_text(self.game, state, self.renderer))
            elif word == "log":
                self.say(lines_of(log_seen_by(state, d.player), d.player, self.renderer.id_names))
            elif word in VIEW:
                self.draw(state, d.player)
                self.choices(d, shown)
            elif answer:
                hint = did_you_mean(answer, d.actions)
                self.console.print(Text(f"'{answer}' is not a choice here; type 1-"
                                        f"{len(d.actions)}, a label, ? for help, u to undo, or q to stop"
                                        + (f" ({hint})" if hint else ""), style="red"))

    def choices(self, d, shown: list[str]) -> None:
        """The numbered choices; more than FOLD_AFTER of them in columns, read downwards,
        so a long list does not push the board off the screen."""
        self.console.print(Text(f"P{d.player}, your choice ({d.point}):", style="bold"))
        items = [f"  {k:>2}. {printable(spoken(label))}" for k, label in enumerate(shown, 1)]
        width = max(len(i) for i in items) + 2
        cols = max(1, min(self.console.width // width, -(-len(items) // FOLD_AFTER)))
        if len(items) <= FOLD_AFTER or cols == 1:
            rows = [[i] for i in items]
        else:
            per = -(-len(items) // cols)
            rows = [items[r::per] for r in range(per)]
        for row in rows:
            self.console.print(Text("".join(i.ljust(width) for i in row).rstrip()))

    def say(self, lines: list[Text]) -> None:
        self.console.print(Text("\n").join(lines))


HELP = frozenset({"?", "help", "h"})
GLOSSARY = frozenset({"glossary", "words"})
FOLD_AFTER = 10  # choices listed one a line; more go in columns (a 45-row screen)


def natural(label: str) -> list:
    """The sort key that puts `cell=8,1` before `cell=10,1` (and -2 before -1)."""
    return [(0, int(t), "") if re.fullmatch(r"-?\d+", t) else (1, 0, t)
            for t in re.findall(r"-?\d+|[^-\d]+|-", label)]
VIEW = frozenset({"view", "hand", "board"})


class Thinking:
    """`P1 (mcts) thinking… 2.4 s` on the terminal while a bot takes longer than
    THINK_AFTER seconds, updated a few times a second and wiped when it has chosen."""

    def __init__(self, console: Console, who: str):
        self.console, self.who = console, who
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self):
        if self.console.is_terminal:
            self.thread = threading.Thread(target=self._show, daemon=True)
            self.thread.start()
        return self

    def _show(self) -> None:
        start = time.monotonic()
        if self.done.wait(THINK_AFTER):
            return
        out = self.console.file
        while not self.done.wait(0.2):
            out.write(f"\r{printable(self.who)} thinking… {time.monotonic() - start:.1f} s")
            out.flush()
        out.write("\r\x1b[K")
        out.flush()

    def __exit__(self, *exc):
        self.done.set()
        if self.thread is not None:
            self.thread.join()
        return False
