"""Drawing a grid board for the terminal: one character a cell, three columns wide.

The board's own `view:` says what to add to the picture, in the pack's terms:

    view:
      point: exit                 # drawn beside the grid; each row shows its distance to it
      rings: "[['bow', 6], ['spear', 2]]"    # [label, reach] pairs: cells within the
                                             # longest reach are shaded, each label is
                                             # written on the row where its reach ends
      glyph: "str(p.level)"       # optional: a piece's character (default: its kind's glyph)

Expressions are compiled once per game, on first use. A 5-wide board takes about 40
columns, so the picture stays readable in an 80-column terminal.
"""

from __future__ import annotations

import textwrap

from rich.text import Text

from engine.board.cell import Cell
from engine.dsl.values import E
from engine.flow.machine import evaluate

EMPTY = "·"


class _Drawing:
    """What a board's picture needs from the pack, compiled once."""

    def __init__(self, board, game):
        view = board.view
        self.point = board.points.get(view.get("point")) if view.get("point") else None
        self.rings = game.compile_expr(view["rings"]) if view.get("rings") else None
        self.glyph = game.compile_expr(view["glyph"], {"p": "ent"}) if view.get("glyph") else None
        self.glyphs = {k["id"]: str(k.get("glyph") or k["id"][:1].upper())
                       for k in (game.raw.get("kinds") or []) if isinstance(k, dict)}


def drawing(board, game) -> _Drawing:
    if board._drawing is None or board._drawing[0] is not game:
        board._drawing = (game, _Drawing(board, game))
    return board._drawing[1]


def _rings(S, dr: _Drawing) -> list[tuple[str, int]]:
    if dr.rings is None:
        return []
    out = []
    for item in evaluate(S, dr.rings, {}) or []:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[1], int):
            out.append((S.describe(item[0]), item[1]))
    return out


def _glyph(S, dr: _Drawing, uid: int) -> str:
    if dr.glyph is not None:
        text = evaluate(S, dr.glyph, {"p": E(uid)})
        return (S.describe(text) if not isinstance(text, str) else text)[:1] or "?"
    kind = S.ents[uid]["id"]
    return dr.glyphs.get(kind, kind[:1].upper())[:1]


def draw_grid(board, S, viewer, compact: bool = False, width: int = 78) -> Text:
    """The grid with its legend; `compact` (a full-screen table) names in the legend only
    the characters drawn, wrapped to `width`."""
    dr = drawing(board, S.game)
    rings = _rings(S, dr)
    reach = max((r for _, r in rings), default=-1)
    on_cell: dict = {}
    for u in S.zones[board.zone]:
        on_cell.setdefault(S.ents[u].get("cell"), []).append(u)
    point = dr.point
    out = Text()
    out.append("     " + "".join(f"{c:^3}" for c in range(1, board.cols + 1)) + "\n", style="dim")
    if point is not None and point.row < 1:
        _door(out, board, point)
    for r in range(1, board.rows + 1):
        out.append(f"{r:>3}  ", style="dim")
        for c in range(1, board.cols + 1):
            cell = Cell(r, c)
            shade = point is not None and board.dist(cell, point) <= reach
            _cell(out, S, dr, board, on_cell.get(cell), "on grey23" if shade else "")
        if point is not None:
            d = min(board.dist(Cell(r, c), point) for c in range(1, board.cols + 1))
            labels = [label for label, radius in rings if radius == d]
            out.append(f"  {d:>2}", style="dim")
            if labels:
                out.append("  ◂ " + " ".join(labels), style="cyan")
        out.append("\n")
    if point is not None and point.row > board.rows:
        _door(out, board, point)
        melee = [label for label, radius in rings if radius <= 0]
        if melee:
            out.append("  ◂ " + " ".join(melee), style="cyan")
    out.rstrip()
    out.append("\n")
    drawn = set(out.plain) if compact else None
    out.append(legend(dr, board, point, rings, drawn, width), style="dim")
    return out


def legend(dr: _Drawing, board, point, rings, drawn: set[str] | None = None,
           width: int = 78) -> str:
    """What each character of the picture means, in the pack's names (only those in
    `drawn` when given)."""
    parts = [f"{g} {kind}" for kind, g in dr.glyphs.items() if drawn is None or g in drawn]
    parts += [f"{ch} {what}" for ch, what in ((EMPTY, "empty"), ("+", "more than one on a square"))
              if drawn is None or ch in drawn]
    parts.append("rows and columns: row,col")
    if point is not None:
        parts.append(f"right: distance to {point.name}")
        if rings:
            parts.append("shaded: within reach")
    return textwrap.fill(("legend: " if drawn is None else "") + " · ".join(parts),
                         max(width, 20), break_long_words=False, break_on_hyphens=False)


def _cell(out: Text, S, dr: _Drawing, board, uids, shade: str) -> None:
    if not uids:
        out.append(f" {EMPTY} ", style=shade or "dim")
        return
    counted = [u for u in uids if S.ents[u]["id"] not in board.markers]
    shown = counted[0] if counted else uids[0]
    style = "bold" if counted else "yellow"
    text = _glyph(S, dr, shown)
    if counted and len(uids) > 1:
        text += "+" if len(counted) > 1 or len(uids) > len(counted) else ""
    out.append(f" {text:<2}", style=f"{style} {shade}".strip())


def _door(out: Text, board, point) -> None:
    x = 5 + round((point.col - 1) * 3) + 1
    arrow = "▲" if point.row > board.rows else "▼"
    out.append(" " * x + f"{arrow} {point.name}", style="bold magenta")
    if point.row < 1:
        out.append("\n")
