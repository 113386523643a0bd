"""Drawing a tile map in a terminal: squares, pieces and players, cropped to fit.

Each square is two characters: what stands on it (a player's seat number, a piece's glyph)
over its background (`.` street, `#` building, blank for squares nobody enters; the first
character of any other kind). Tiles are separated by one blank column, and the line above
each row of tiles names the one-of-a-kind tiles in it (cut short, with the full names in
the legend below). Column numbers run along the top and row numbers down the left, in
the `x,y` system of the labels (`move(to=1,0)`: column 1, row 0), and tile numbers
(`t-1`) over them and beside each row of tiles, for labels that name a tile. A map wider than the terminal is
cropped around the viewer's pawn (or around all pawns), so the part that matters shows.
"""

from __future__ import annotations

import textwrap

from rich.text import Text

from engine.board.tilepieces import sq_key

SQ_W = 2
TILE_W = 3 * SQ_W + 1  # squares plus a gap column
TILE_H = 4  # a label line plus three square lines
ROW_W = 4  # the row numbers on the left
BACKGROUND = {"street": ".", "building": "#"}
STYLE = {"building": "dim"}


def _glyphs(game) -> dict[str, str]:
    out = {}
    for k in game.raw.get("kinds") or []:
        out[k["id"]] = (k.get("glyph") or k["id"][:1]).strip()[:1] or "?"
    return out


def _window(lo: int, hi: int, focus: list[int], size: int) -> tuple[int, int]:
    """The `size` positions of lo..hi to show, centred on the focus positions."""
    if hi - lo + 1 <= size:
        return lo, hi
    centre = (min(focus) + max(focus)) // 2 if focus else (lo + hi) // 2
    start = min(max(centre - size // 2, lo), hi - size + 1)
    return start, start + size - 1


def render(board, S, viewer=None, width: int = 80, height: int = 44) -> Text:
    m = board.map(S)
    if not m.tiles:
        return Text("(no tiles on the table)")
    glyph = _glyphs(S.game)
    pawns: dict = {}
    psq = board.player_square
    if psq:
        for i, rec in enumerate(S.pl):
            sq = rec.get(psq)
            if sq is not None:
                pawns.setdefault(sq, []).append(i)
    focus_sq = [S.pl[viewer].get(psq)] if psq and viewer is not None and \
        S.pl[viewer].get(psq) is not None else list(pawns)
    xs = [p[0] for p in m.tiles]
    ys = [p[1] for p in m.tiles]
    x0, x1 = _window(min(xs), max(xs), [sq[0] // 3 for sq in focus_sq], max((width - ROW_W) // TILE_W, 1))
    y0, y1 = _window(min(ys), max(ys), [sq[1] // 3 for sq in focus_sq], max(height // TILE_H, 1))
    index = S.vars["@tiles"]["at"]
    ents = S.ents
    out = Text()
    if (x0, x1, y0, y1) != (min(xs), max(xs), min(ys), max(ys)):
        out.append(f"(map cropped to tiles {x0}..{x1} × {y0}..{y1})\n", style="italic")
    out.append(" " * ROW_W + "".join(f"t{tx}".ljust(TILE_W) for tx in range(x0, x1 + 1))
               .rstrip() + "\n", style="dim")
    out.append(_ruler(x0, x1), style="dim")
    names: dict[str, str] = {}  # a tile's short label -> its full name, for the legend
    for ty in range(y0, y1 + 1):
        label = []
        for tx in range(x0, x1 + 1):
            uid = m.uid_at.get((tx, ty))
            td = board.tiles.get(ents[uid]["id"]) if uid in ents else None
            name = td.name if td is not None and td.count == 1 else ""
            short = name[:TILE_W - 1]
            if short != name:
                names[short] = name
            label.append(short.ljust(TILE_W))
        out.append(f"t{ty}".rjust(ROW_W - 1) + " ", style="dim")
        out.append("".join(label).rstrip() + "\n", style="bold")
        for r in range(3):
            out.append(f"{ty * 3 + r:>{ROW_W - 1}} ", style="dim")
            for tx in range(x0, x1 + 1):
                shape = m.tiles.get((tx, ty))
                for c in range(3):
                    if shape is None:
                        out.append(" " * SQ_W)
                        continue
                    sq = (tx * 3 + c, ty * 3 + r)
                    _square(out, m.kind[sq], pawns.get(sq, ()),
                            [ents[u]["id"] for u in index.get(sq_key(sq), ())], glyph, board)
                out.append(" ")
            out.append("\n")
    out.append(_legend(glyph, names), style="dim")
    return out


def _ruler(x0: int, x1: int) -> str:
    """The column numbers over the squares (a square is `x,y`: column x, row y), one per
    square when they fit in its two characters, else the first of each tile's three."""
    xs = range(x0 * 3, x1 * 3 + 3)
    if all(len(str(x)) <= SQ_W for x in xs):
        cells = [f"{x:>{SQ_W}}" + (" " if x % 3 == 2 else "") for x in xs]
    else:
        cells = [f"{tx * 3}…".ljust(TILE_W) for tx in range(x0, x1 + 1)]
    return " " * ROW_W + "".join(cells).rstrip() + "\n"


def _legend(glyph: dict, names: dict[str, str]) -> str:
    """What the characters of the map mean, and the full names of the tiles cut short."""
    parts = [". street", "# building", "0-9 a pawn (its seat)", "* pawns"]
    parts += [f"{g} {kind}" for kind, g in glyph.items()]
    lines = ["legend: " + " · ".join(parts),
             "squares: column,row (numbers on top and left) · tiles: t numbers "
             "(at=-1,0: column t-1, row t0)"]
    if names:
        lines.append("tiles: " + " · ".join(f"{short} = {full}" for short, full in names.items()))
    return "\n".join(textwrap.fill(line, 78, break_long_words=False, break_on_hyphens=False)
                     for line in lines)


def _square(out: Text, kind: str, seats, kinds: list[str], glyph: dict, board) -> None:
    if kind in board.rules.blocked:
        out.append(" " * SQ_W)
        return
    bg = BACKGROUND.get(kind, kind[:1])
    marks: list[tuple[str, str]] = []
    if seats:
        marks.append((str(seats[0]) if len(seats) == 1 else "*", "bold cyan"))
    for k in kinds:
        marks.append((glyph.get(k, k[:1]), "bold"))
    for ch, style in marks[:SQ_W]:
        out.append(ch, style=style)
    if len(marks) < SQ_W:
        out.append(bg * (SQ_W - len(marks)), style=STYLE.get(kind, ""))
