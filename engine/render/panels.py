"""The terminal view of a state: players table, turn panel, zones, log, whose decision.

`Renderer(game)` compiles the pack's `view:` once; `render(state, viewer)` builds a Rich
renderable for one viewer (a seat, or None for a spectator). Building blocks such as a
board add their own picture through an extension method `render(state, viewer)`. Every
dynamic string goes through `Text`, never through Rich markup: labels and dice such as
`[a, b]` would otherwise be read as markup tags. Everything is sized to stay
readable in an 80-column terminal.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from engine.dsl.values import P
from engine.flow.machine import evaluate
from engine.render.spec import compile_view
from engine.render.values import show

LOG_LINES = 8


class Renderer:
    def __init__(self, game, names: list[str] | None = None):
        self.game = game
        self.spec = compile_view(game)
        self.names = names  # per seat, e.g. "random"; shown next to P<n>

    # ---------- the whole screen ----------
    def render(self, S, viewer: int | None = None) -> RenderableType:
        parts: list[RenderableType] = [self.header(S, viewer), self.players(S, viewer)]
        parts += self.extensions(S, viewer)
        if self.spec.turn:
            parts.append(self.turn(S, viewer))
        if self.spec.zones:
            parts.append(self.zones(S))
        parts.append(self.log(S))
        parts.append(Text(self.status(S), style="bold green" if S.over else "bold"))
        return Group(*parts)

    def header(self, S, viewer: int | None) -> Text:
        g = self.game
        text = Text(g.title, style="bold")
        if g.mode:
            text.append(f" · {g.mode}")
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

    def players(self, S, viewer: int | None) -> Table:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("Player", no_wrap=True)
        for col in self.spec.players:
            table.add_column(col.label, overflow="fold")
        for i in range(len(S.pl)):
            L = {"p": P(i)}
            cells = [self.seat_name(S, i, viewer)]
            for col in self.spec.players:
                high = evaluate(S, col.max, L) if col.max is not None else None
                cells.append(show(S, evaluate(S, col.value, L), viewer, high, col.text))
            table.add_row(*cells)
        return table

    def extensions(self, S, viewer: int | None) -> list[RenderableType]:
        out: list[RenderableType] = []
        for ext in self.game.extensions.values():
            draw = getattr(ext, "render", None)
            if callable(draw):
                pic = draw(S, viewer)
                if pic is not None:
                    out.append(Text(pic) if isinstance(pic, str) else pic)
        return out

    def turn(self, S, viewer: int | None) -> Panel:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(overflow="fold")
        for col in self.spec.turn:
            high = evaluate(S, col.max, {}) if col.max is not None else None
            grid.add_row(Text(col.label), show(S, evaluate(S, col.value, {}), viewer, high,
                                               col.text))
        return Panel(grid, title=f"P{S.cur}'s turn", title_align="left", box=box.ROUNDED,
                     expand=False)

    def zones(self, S) -> Text:
        text = Text()
        for k, name in enumerate(self.spec.zones):
            if k:
                text.append(" · ", style="dim")
            text.append(name, style="dim")
            if self.game.zones[name].per_player:
                sizes = ", ".join(f"P{i} {len(S.zones.get(f'{name}#{i}', []))}"
                                  for i in range(len(S.pl)))
                text.append(f" {sizes}")
            else:
                text.append(f" {len(S.zones.get(name, []))}")
        return text

    def log(self, S, lines: int = LOG_LINES) -> Text:
        out = [line for line in (log_line(e) for e in S.log) if line][-lines:]
        return Text("\n".join(out), style="italic") if out else Text("")

    def status(self, S) -> str:
        d = S.decision()
        if d is None:
            return f"Game over: {result_text(S)}"
        return f"P{d.player} to decide ({d.point})"


def log_line(entry: dict) -> str | None:
    """The line a log entry gets in the log panel, or None for entries not worth a line."""
    t = entry.get("t")
    if t == "msg":
        return f"  {entry.get('text', '')}"
    if t == "turn":
        return f"— turn {entry.get('n')}: P{entry.get('p')} —"
    if t == "act" and entry.get("a") != "pass":
        return f"  P{entry.get('p')} plays {entry.get('a')}"
    return None


def result_text(S) -> str:
    """How a finished game ended, in words."""
    if not S.over:
        return "not finished"
    if S.winners:
        names = [f"P{w}" for w in S.winners]
        if len(names) == 1:
            return f"{names[0]} wins"
        return f"{', '.join(names[:-1])} and {names[-1]} win"
    if S.limit_hit:
        return "turn limit reached: no winner"
    if all(v < 0 for v in S.returns()):
        return "everyone loses" if len(S.pl) > 1 else "P0 loses"
    return "no winner"
