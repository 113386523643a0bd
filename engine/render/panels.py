"""The terminal view of a state: players table, turn panel, zones, log, whose decision.

`Renderer(game)` compiles the pack's `view:` once; `render(state, viewer)` builds a Rich
renderable for one viewer (a seat, or None for a spectator). Building blocks such as a
board add their own picture through an extension method `render(state, viewer)`. Every
dynamic string goes through `Text`, never through Rich markup: labels and dice such as
`[a, b]` would otherwise be read as markup tags. Every text of the pack or of a record
(title, labels, log lines, bots' names) passes `engine.errors.printable` here, before Rich
measures it, so it can neither drive the terminal nor be cut short by a table. Everything
is sized to stay readable in an 80-column terminal.
"""

from __future__ import annotations

import re
import textwrap

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engine.codec import log_seen_by
from engine.dsl.values import P
from engine.errors import PackError, printable
from engine.flow.machine import evaluate
from engine.private import private_fields
from engine.render import table
from engine.render.spec import spec_of
from engine.render.values import show

LOG_LINES = 8


class Renderer:
    def __init__(self, game, names: list[str] | None = None):
        self.game = game
        self.spec = spec_of(game)
        # per seat, e.g. "random"; shown next to P<n> (a record's names are anyone's text)
        self.names = [printable(n) for n in names] if names else names
        self.points = point_texts(game)
        self.id_names = table.id_names(game)  # `lamp-2` -> `Oil lamp (2 uses)` in the log
        self.private = _private_columns(game, self.spec.players)

    # ---------- the whole screen ----------
    def render(self, S, viewer: int | None = None, log: RenderableType | None = None,
               choices: list[str] | None = None) -> RenderableType:
        """The screen for `viewer`; `log` in place of the last lines of the log; `choices`:
        the labels of `viewer`'s decision as they are numbered (from 1), for a building
        block that can show them on its picture (`render_choices`) and for the hand's
        marks. The goal shows with the viewer's progress only (the players table has the
        others'), the hand with its cards' texts."""
        parts: list[RenderableType] = [self.header(S, viewer), self.players(S, viewer)]
        if self.spec.players and any(col.help for col in self.spec.players):
            parts.append(self.columns_legend())
        goal = table.goal(S, viewer, self.spec, only=viewer)
        if goal is not None:
            parts.append(goal)
        parts += self.extensions(S, viewer, choices)
        if self.spec.turn:
            parts.append(self.turn(S, viewer))
        if self.spec.zones:
            parts.append(self.zones(S))
        hand = self.hand(S, viewer, choices)
        if hand is not None:
            parts.append(hand)
        parts.append(self.log(S, viewer) if log is None else log)
        parts.append(Text(self.status(S), style="bold green" if S.over else "bold"))
        return Group(*parts)

    # ---------- the panes besides the board (engine.render.table) ----------
    def hand(self, S, viewer: int | None, choices: list[str] | None = None
             ) -> RenderableType | None:
        """The viewer's own cards with their texts, those playable now marked (with their
        numbers among `choices` when given); None when it holds none."""
        return table.hand(S, viewer, self.spec, choices)

    def goal(self, S, viewer: int | None = None) -> RenderableType | None:
        """The pack's goal line and each player's progress toward it; None if it has none."""
        return table.goal(S, viewer, self.spec)

    def glossary(self) -> list[tuple[str, str, str]]:
        """(section, name, text) for every card, piece, die face, column and tile the
        pack gives words."""
        return table.glossary(self.game, self.spec)

    def header(self, S, viewer: int | None) -> Text:
        g = self.game
        text = Text(printable(g.title), style="bold")
        if g.mode:
            text.append(f" · {printable(g.mode)}")
        text.append(f" · turn {S.turns}", style="dim")
        text.append(" · spectator" if viewer is None else f" · seen by P{viewer}", style="dim")
        return text

    def seat_name(self, S, i: int, viewer: int | None) -> Text:
        d = S.decision()
        text = Text("▶ " if d is not None and d.player == i else "  ", style="yellow")
        text.append(f"P{i}", style="bold" if i == viewer else "")
        if i == viewer:
            text.append(" (you)")
        elif self.names and i < len(self.names):
            text.append(f" {self.names[i]}", style="dim")
        return text

    def cells(self, S, i: int, viewer: int | None) -> list[tuple[str, str]]:
        """Seat `i`'s row of the players table as (label, text) pairs, seen by `viewer`."""
        out = []
        for k, col in enumerate(self.spec.players):
            text = self.cell(S, i, k, viewer).plain
            out.append((printable(col.label), text.lstrip("█░ ")))  # a bar reads as its numbers
        return out

    def cell(self, S, i: int, k: int, viewer: int | None) -> Text:
        """Column `k` of seat `i`'s row, seen by `viewer`: hidden where it reads a private
        field of a seat not the viewer's (engine.private)."""
        if k in self.private and i != viewer:
            return Text("hidden", style="dim")
        col = self.spec.players[k]
        L = {"p": P(i)}
        high = evaluate(S, col.max, L) if col.max is not None else None
        return show(S, evaluate(S, col.value, L), viewer, high, col.text)

    def players(self, S, viewer: int | None) -> Table:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("Player", no_wrap=True)
        for col in self.spec.players:
            table.add_column(Text(printable(col.label)), overflow="fold")
        for i in range(len(S.pl)):
            cells = [self.seat_name(S, i, viewer)]
            cells += [self.cell(S, i, k, viewer) for k in range(len(self.spec.players))]
            table.add_row(*cells)
        return table

    def columns_legend(self) -> Text:
        """What the players table's columns mean, from their `help:` words."""
        words = printable(" · ".join(f"{col.label} {col.help}"
                                     for col in self.spec.players if col.help))
        return Text(textwrap.fill("columns: " + words, 78, break_on_hyphens=False), style="dim")

    def extensions(self, S, viewer: int | None, choices: list[str] | None = None
                   ) -> list[RenderableType]:
        out: list[RenderableType] = []
        d = S.decision() if choices else None
        for ext in self.game.extensions.values():
            draw = getattr(ext, "render", None)
            with_choices = getattr(ext, "render_choices", None)
            pic = None
            if d is not None and d.player == viewer and callable(with_choices):
                pic = with_choices(S, viewer, d, choices)
            if pic is None and callable(draw):
                pic = draw(S, viewer)
            if pic is not None:
                out.append(Text(printable(pic)) if isinstance(pic, str) else pic)
        return out

    def choice_words(self, S, d, shown: list[str]) -> dict[str, dict[str, str]]:
        """label -> {parameter: words} that building blocks give the choices `shown` of
        decision `d` (`choice_words`), where they know better than a value's own type."""
        out: dict[str, dict[str, str]] = {}
        for ext in self.game.extensions.values():
            words = getattr(ext, "choice_words", None)
            if callable(words):
                for label, params in words(S, d.player, d, shown).items():
                    out.setdefault(label, {}).update(params)
        return out

    def turn(self, S, viewer: int | None) -> Panel:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(overflow="fold")
        for col in self.spec.turn:
            high = evaluate(S, col.max, {}) if col.max is not None else None
            grid.add_row(Text(printable(col.label)), show(S, evaluate(S, col.value, {}), viewer, high,
                                               col.text))
        return Panel(grid, title=f"P{S.cur}'s turn", title_align="left", box=box.ROUNDED,
                     expand=False)

    def zones(self, S) -> Text:
        text = Text()
        for k, name in enumerate(self.spec.zones):
            if k:
                text.append(" · ", style="dim")
            text.append(printable(name), style="dim")
            if self.game.zones[name].per_player:
                sizes = ", ".join(f"P{i} {len(S.zones.get(f'{name}#{i}', []))}"
                                  for i in range(len(S.pl)))
                text.append(f" {sizes}")
            else:
                text.append(f" {len(S.zones.get(name, []))}")
        return text

    def log(self, S, viewer: int | None = None, lines: int = LOG_LINES) -> Text:
        """The last lines of the log as `viewer` may read it (`log_seen_by`)."""
        out = [line for line in (log_line(e, self.id_names) for e in log_seen_by(S, viewer))
               if line][-lines:]
        return Text("\n".join(out), style="italic") if out else Text("")

    def status(self, S) -> str:
        d = S.decision()
        if d is None:
            return f"Game over: {result_text(S)}"
        about = self.points.get(d.point)
        return f"P{d.player} to decide ({d.point}" + (f": {about})" if about else ")")


def _private_columns(game, columns) -> frozenset[int]:
    """The players table's columns that read a private field (`p.cup`, engine.private):
    another seat's row shows them hidden. A column whose reads are not known counts."""
    names = {name for name, _ in private_fields(game)}
    if not names:
        return frozenset()
    return frozenset(k for k, col in enumerate(columns)
                     if col.value.facts is None or names & col.value.facts.reads)


def log_line(entry: dict, names: dict[str, str] | None = None) -> str | None:
    """The line a log entry gets in the log panel, or None for entries not worth a line;
    `names`: ids as players read them (`table.id_names`), for a log message's words.
    Printable, as what the pack's rules wrote may be anything."""
    t = entry.get("t")
    if t == "msg":
        text = singular(str(entry.get("text", "")))
        return f"  {printable(table.named(text, names) if names else text)}"
    if t == "turn":
        return f"— turn {entry.get('n')}: P{entry.get('p')} —"
    if t == "act" and entry.get("a") != "pass":
        return f"  P{entry.get('p')} plays {printable(spoken(str(entry.get('a'))))}"
    return None


# `card=old-key#37`: the uid that tells apart two labels of identical cards
_UID = re.compile(r"(?<=[\w-])#\d+(?=[),])")


def spoken(label: str) -> str:
    """A label as a person reads it: without the entity numbers that only tell two
    identical cards apart (`play(card=old-key#37)` -> `play(card=old-key)`)."""
    return _UID.sub("", label)


def result_text(S) -> str:
    """How a finished game ended, in words, with the reason the end rule that fired gives
    (its `why:`): "P2 wins: at the exit with 15 points"."""
    head = _result_head(S)
    if not S.over:
        return head
    try:
        reason = table.why(S, spec_of(S.game))
    except PackError:  # a view that does not compile: the result without its reason
        reason = None
    if reason is None and not S.limit_hit:  # ended by an effect (`win`): its line says why
        reason = _last_words(S.log)
    return f"{head}: {singular(reason)}" if reason else head


def _last_words(log: list) -> str | None:
    """The log line written just before the game ended, if the end came right after it."""
    if len(log) >= 2 and log[-1].get("t") == "end" and log[-2].get("t") == "msg":
        return str(log[-2].get("text", "")) or None
    return None


def _result_head(S) -> str:
    if not S.over:
        return "not finished"
    if S.winners:
        names = [f"P{w}" for w in S.winners]
        if len(names) == 1:
            return f"{names[0]} wins"
        return f"{', '.join(names[:-1])} and {names[-1]} win"
    if S.limit_hit:
        return "turn limit reached: no winner"
    if len(S.pl) == 1 and S.losers:  # a solo game lost: say so, with its score
        score = _score(S)
        return "P0 loses" + (f" with a score of {score}" if score is not None else "")
    if all(v < 0 for v in S.returns()):
        return "everyone loses"
    return "no winner"


def _score(S):
    from engine.scores import ScoresError, score_of

    try:
        return score_of(S.game, S)
    except ScoresError:
        return None


# "1 points" -> "1 point": a pack writes `'{} points'` for any count. Only a plain
# plural after a lone 1 (not "11", "1.5" or "-1"), and not words such as "bus" or "this".
_ONE_PLURAL = re.compile(r"(?<![\d.,-])\b1 ([a-z]+[^sui])s\b(?!')")


def singular(text: str) -> str:
    """`text` with "1 <word>s" made singular ("1 points" -> "1 point")."""
    return _ONE_PLURAL.sub(r"1 \1", text)


def point_texts(game) -> dict[str, str]:
    """The words a pack gives its decision points (`text:` on an ask or window), printable."""
    texts: dict[str, str] = {}
    _collect_points(game.raw, texts)
    return texts


def _collect_points(node, into: dict) -> None:
    if isinstance(node, dict):
        point = node.get("ask", node.get("window"))
        if isinstance(point, str) and isinstance(node.get("text"), str):
            into.setdefault(point, printable(node["text"]))
        for v in node.values():
            _collect_points(v, into)
    elif isinstance(node, list):
        for v in node:
            _collect_points(v, into)
