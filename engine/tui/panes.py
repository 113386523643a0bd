"""The panes of the table: board, players, hand, log and choices.

Each pane draws one part of `engine.render.Renderer`'s view of a state for one viewer, so
what a pane shows comes from the pack (`view:`, card texts, building blocks' pictures),
never from a game's name. Everything that comes from a pack or a record reaches the screen
as a Rich `Text` (never parsed as markup: a label such as `[a, b]` stays as it is).
"""

from __future__ import annotations

import inspect
import re

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from engine.cli.seen import lines_of
from engine.codec import log_seen_by
from engine.errors import printable
from engine.render.panels import spoken

NEWS = "bold #ffd75f"  # what happened since the viewer's last decision


def key_of(r) -> object:
    """What a renderable shows, as a value to compare (None: cannot tell). A pane given
    what it already shows is left alone: a Textual update costs a layout of the screen and
    a new rendering of the pane (a Rich table measured again), most of a decision's time."""
    if isinstance(r, Text):
        return (r.plain, str(r.style), tuple((s.start, s.end, str(s.style)) for s in r.spans))
    if isinstance(r, str):
        return r
    if isinstance(r, Group):
        keys = tuple(key_of(x) for x in r.renderables)
        return None if any(k is None for k in keys) else ("group", keys)
    if isinstance(r, RichTable):
        cols = tuple((key_of(c.header), tuple(key_of(x) for x in c._cells), c.max_width)
                     for c in r.columns)
        flat = [k for col in cols for k in (col[0], *col[1])]
        return None if any(k is None for k in flat) else ("table", cols, r.expand)
    if isinstance(r, Panel):
        inner, title = key_of(r.renderable), key_of(r.title) if r.title else ""
        return None if inner is None or title is None else ("panel", inner, title)
    return None


def put(widget: Static, renderable) -> None:
    """`widget.update(renderable)` unless it shows that already."""
    key = key_of(renderable)
    if key is not None and key == getattr(widget, "_shown_key", None):
        return
    widget._shown_key = key  # type: ignore[attr-defined]
    widget.update(renderable)


def _sized(method, S, *args, **opts):
    """A building block's picture, sized to the pane (and `compact`: the legend cut to
    what it shows) as far as the block takes those options."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return method(S, *args)
    if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        opts = {k: v for k, v in opts.items() if k in params}
    return method(S, *args, **opts)


class BoardPane(ScrollableContainer):
    """The board: the building blocks' pictures (a map, a grid), then the turn and zones.
    A picture the block drew with the viewer's numbered choices on it (`render_choices`)
    can be clicked: a click on a choice's number chooses it."""

    class Picked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def compose(self):
        yield Static(id="picture")
        yield Static(id="turn")

    def on_resize(self, event: events.Resize) -> None:
        """The pane's new size (the choices below it came or went, the terminal changed):
        the pictures drawn again to fit it."""
        shown = getattr(self, "shown_with", None)
        if shown is not None:
            self.call_after_refresh(self._again, *shown)

    def _again(self, renderer, S, viewer, choices, decisions: int) -> None:
        if len(S.history) == decisions:  # else the game went on: the next redraw draws it
            self.show(renderer, S, viewer, choices)

    def show(self, renderer, S, viewer, choices: list[str] | None) -> None:
        self.shown_with = (renderer, S, viewer, choices, len(S.history))
        width = max(self.size.width - 2, 40)
        height = max(self.size.height, 8)  # drawn again when the pane has its size (on_resize)
        pictures: list[RenderableType] = []
        self.numbered = False
        d = S.decision() if choices else None
        for ext in S.game.extensions.values():
            pic = None
            with_choices = getattr(ext, "render_choices", None)
            if d is not None and d.player == viewer and callable(with_choices):
                pic = _sized(with_choices, S, viewer, d, choices, width=width, height=height,
                             compact=True)
                self.numbered = pic is not None
            draw = getattr(ext, "render", None)
            if pic is None and callable(draw):
                pic = _sized(draw, S, viewer, width=width, height=height, compact=True)
            if pic is not None:
                pictures.append(Text(pic) if isinstance(pic, str) else pic)
        self.lines = [p.plain for p in pictures if isinstance(p, Text)]
        self.lines = "\n".join(self.lines).split("\n") if self.lines else []
        picture = self.query_one("#picture", Static)
        put(picture, Group(*pictures) if pictures else Text(""))
        picture.display = bool(pictures)
        if all(isinstance(p, Text) for p in pictures):  # its size known: nothing to measure
            picture.styles.width = max((cell_len(line) for line in self.lines), default=1)
            picture.styles.height = max(len(self.lines), 1)
        else:
            picture.styles.width = picture.styles.height = "auto"
        rest: list[RenderableType] = []
        if renderer.spec.turn:
            rest.append(renderer.turn(S, viewer))
        if renderer.spec.zones:
            rest.append(renderer.zones(S))
        put(self.query_one("#turn", Static), Group(*rest))

    def on_click(self, event: events.Click) -> None:
        if not getattr(self, "numbered", False):
            return
        offset = event.get_content_offset(self.query_one("#picture", Static))
        if offset is None or not 0 <= offset.y < len(self.lines):
            return
        line = self.lines[offset.y]
        for m in re.finditer(r"(\d+):\d+", line):
            if m.start() <= offset.x < m.end():
                self.post_message(self.Picked(int(m.group(1))))
                return


class PlayersPane(VerticalScroll):
    """The players' table turned on its side (a column per seat, a row per `view:` column)
    so any number of columns fits a narrow pane; then the goal and progress. It scrolls: on
    a small screen the goal's lines stay within reach below the table."""

    def compose(self):
        yield Static(id="players-body")

    def show(self, renderer, S, viewer) -> None:
        d = S.decision()
        table = RichTable(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=True)
        label_w = max((len(c.label) for c in renderer.spec.players), default=1)
        table.add_column("", style="dim", no_wrap=True, min_width=label_w)
        seat_w = max(4, (self.size.width - label_w - 1) // max(len(S.pl), 1) - 1)
        rows = [renderer.cells(S, i, viewer) for i in range(len(S.pl))]
        for i in range(len(S.pl)):
            head = Text("▶" if d is not None and d.player == i else "", style="yellow")
            head.append(f"P{i}", style="bold" if i == viewer else "")
            if i == viewer:
                head.append(" you", style="bold")
            elif renderer.names and i < len(renderer.names):
                head.append(f" {renderer.names[i]}", style="dim")
            table.add_column(head, no_wrap=True, overflow="ellipsis", max_width=seat_w)
        for c, col in enumerate(renderer.spec.players):
            table.add_row(Text(col.label), *(Text(row[c][1]) for row in rows))
        parts: list[RenderableType] = [table]
        goal = renderer.goal(S, viewer)
        if goal is not None:
            parts.append(goal)
        put(self.query_one("#players-body", Static), Group(*parts))


class HandPane(VerticalScroll):
    """The viewer's own cards with their full text, those playable now marked with the
    numbers of the choices that play them (`Renderer.hand`)."""

    def compose(self):
        yield Static(id="hand")

    def show(self, renderer, S, viewer, choices: list[str] | None = None) -> None:
        body = renderer.hand(S, viewer, choices) if viewer is not None else None
        if body is None:
            body = Text("(spectator: no hand)" if viewer is None else "(no cards)", style="dim")
        put(self.query_one("#hand", Static), body)


class LogPane(RichLog):
    """Every event of the game as the viewer may read it; what happened since their last
    decision highlighted (bold, in yellow). Lines are only added as the game goes (a bot's
    turn costs no redraw of the rest); when the viewer decides, the lines that were news
    are written again without the highlight (`settle`). A new viewer (hot seat), a decision
    taken back or a new width fills it again whole."""

    def reset(self, S, viewer, since: int) -> None:
        self.clear()
        self.viewer, self.upto, self.since = viewer, 0, since
        self.news_at: int | None = None
        self.extend(S)

    def extend(self, S) -> None:
        log = log_seen_by(S, self.viewer)
        if len(log) < self.upto:  # a decision taken back: the log is shorter
            self.reset(S, self.viewer, min(self.since, len(log)))
            return
        if self.upto < self.since:
            for line in lines_of(log[self.upto:self.since], self.viewer):
                self.write(line)
        new = lines_of(log[max(self.upto, self.since):], self.viewer)
        if new and self.news_at is None:
            self.news_at = len(self.lines)
        for line in new:
            line.stylize(NEWS)
            self.write(line)
        self.upto = len(log)
        # the newest lines in view, once the lines written before the pane had its size are in
        self.call_after_refresh(self.scroll_end, animate=False)

    def settle(self, S) -> None:
        """The viewer has decided: what was news is not any more."""
        if self.news_at is None or self._deferred_renders:
            self.since = len(log_seen_by(S, self.viewer))
            self.news_at = None
            self.extend(S)
            return
        del self.lines[self.news_at:]
        self._line_cache.clear()
        log = log_seen_by(S, self.viewer)
        for line in lines_of(log[self.since:self.upto], self.viewer):
            self.write(line)
        self.since = len(log)  # their own decision's lines are no news to them
        self.news_at = None
        self.extend(S)


class ChoicesPane(OptionList):
    """The numbered choices: arrow keys and Enter, a click, or the number typed. Beside
    them, what the highlighted choice does when a building block can draw it (the tile it
    places, turned as it would lie: `choice_picture`)."""

    def show(self, labels: list[str], texts: dict[str, str]) -> None:
        self.clear_options()
        width = len(str(len(labels)))
        options = []
        for k, label in enumerate(labels, 1):
            prompt = Text(f"{k:>{width}}. ", style="bold")
            prompt.append(printable(spoken(label)))
            about = texts.get(label)
            if about:
                prompt.append(f"  {printable(about)}", style="dim")
            options.append(Option(prompt, id=f"c{k}"))
        self.add_options(options)
        self.highlighted = 0 if options else None


class ChoicePicture(Static):
    """The picture of the highlighted choice, beside the choices (hidden when none)."""

    def show(self, S, viewer, shown: list[str], number: int | None) -> None:
        d = S.decision() if shown and number is not None else None
        pic = None
        if d is not None and d.player == viewer:
            for ext in S.game.extensions.values():
                draw = getattr(ext, "choice_picture", None)
                if callable(draw):
                    pic = draw(S, viewer, d, shown, number)
                    if pic is not None:
                        break
        put(self, pic if pic is not None else "")
        self.display = pic is not None


def table_layout(choices: bool) -> ComposeResult:
    """The table's panes, as the game and the replay viewer both lay them out: the board
    and the prompt (and, in a game, the choices) on the left; players, hand and log on the
    right (horde.tcss sizes them)."""
    yield Static(id="title")
    with Horizontal(id="table"):
        with Vertical(id="left"):
            yield BoardPane(id="board")
            yield Static(id="prompt")
            if choices:
                with Horizontal(id="decide"):
                    yield ChoicesPane(id="choices")
                    yield ChoicePicture(id="choice-picture")
        with Vertical(id="right"):
            yield PlayersPane(id="players")
            yield HandPane(id="hand-pane")
            yield LogPane(id="log", wrap=True, markup=False, highlight=False, min_width=20)
    yield Footer()
