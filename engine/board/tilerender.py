"""Drawing a tile map in a terminal: squares, pieces and players, cropped to fit.

Each square is two characters: what stands on it (a player's seat number, a piece's glyph)
over its background (`.` street, `#` building, blank for squares nobody enters; the first
character of any other kind). Tiles are separated by one blank column, and the line above
each row of tiles names the one-of-a-kind tiles in it (cut short, with the full names in
the legend below). Column numbers run along the top and row numbers down the left, in
the `x,y` system of the labels (`move(to=1,0)`: column 1, row 0), and tile numbers
(`t-1`) over them and beside each row of tiles, for labels that name a tile. A map wider than the terminal is
cropped around the viewer's pawn (or around all pawns), so the part that matters shows.

When a person is to place a tile (`offers`, see `placement_offers`), the free positions
where it fits join the map, each holding the numbers of the choices that put it there
with their rotation (`3:90`: choice 3, turned 90° clockwise), and the tile itself is
drawn below in each rotation offered: the map alone is enough to choose.

A full-screen table asks for the `compact` map instead: the crop centred on the free
positions when placing, rows that hold only free positions drawn one line a choice, and
one legend line naming only what the crop shows; the tile being placed is drawn per
choice (`choice_picture`) beside the choices, and the whole legend is in its help.
"""

from __future__ import annotations

import textwrap

from rich.text import Text

from engine.board.tilepieces import is_cell, sq_key
from engine.render.values import zone_visible

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


def placement_offers(board, S, viewer, d, shown: list[str]):
    """(the tile being placed, {position: [(choice number, rotation)]}) when the choices
    `shown` (numbered from 1) put a tile next to the map, else None. A choice places a
    tile when it binds one free position and one rotation; the tile is the one off the
    stack and off the map, in a zone `viewer` sees, that fits wherever they say."""
    m = board.map(S)
    offers: dict = {}
    for k, label in enumerate(shown, 1):
        action, args = d.bindings[label]
        if action is None:
            continue
        at = [v for v in args.values() if is_cell(v) and v in m.frontier]
        rot = [v for v in args.values() if type(v) is int and v in (0, 90, 180, 270)]
        if len(at) == 1 and len(rot) == 1 and len(args) == 2:
            offers.setdefault(at[0], []).append((k, rot[0]))
    if not offers:
        return None
    wanted = {(at, rot) for at, pairs in offers.items() for _, rot in pairs}
    for ent in S.ents.values():
        td = board.tiles.get(ent["id"])
        where = ent.get("@z")
        if td is None or where in (board.stack, board.placed, None) \
                or not zone_visible(S.game, where, viewer):  # never a tile it may not see
            continue
        if wanted <= set(m.placements(td)):
            return td, offers
    return None


def placement_words(board, S, viewer, d, shown: list[str]) -> dict[str, dict[str, str]]:
    """For `?`: label -> {parameter: what it is} for the choices that place a tile (a
    tile position is not a square)."""
    found = placement_offers(board, S, viewer, d, shown)
    if found is None:
        return {}
    offered = {k: (at, rot) for at, pairs in found[1].items() for k, rot in pairs}
    out = {}
    for k, label in enumerate(shown, 1):
        if k not in offered:
            continue
        (x, y), rot = offered[k]
        _, args = d.bindings[label]
        out[label] = {name: (f"turned {rot}° clockwise" if type(v) is int else
                             f"the tile position t{x}, t{y} (column t{x}, row t{y}; "
                             f"{k}:{rot} on the map)") for name, v in args.items()}
    return out


def _rows(y0: int, y1: int, focus: list[int], tall, room: int) -> tuple[int, int]:
    """The rows of lo..hi to show, centred on the focus rows, as many as fit in `room`
    lines when row `ty` takes `tall(ty)` lines (at least the focus's middle row)."""
    centre = (min(focus) + max(focus)) // 2 if focus else (y0 + y1) // 2
    lo = hi = min(max(centre, y0), y1)
    used = tall(lo)
    while True:
        grown = False
        for ty in (hi + 1, lo - 1):
            if y0 <= ty <= y1 and used + tall(ty) <= room:
                used += tall(ty)
                lo, hi = min(lo, ty), max(hi, ty)
                grown = True
        if not grown:
            return lo, hi


def render(board, S, viewer=None, width: int = 80, height: int = 44, offers=None,
           compact: bool = False) -> Text:
    placing, offers = offers if offers is not None else (None, {})
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
    xs = [p[0] for p in (*m.tiles, *offers)]
    ys = [p[1] for p in (*m.tiles, *offers)]
    focus = [(sq[0] // 3, sq[1] // 3) for sq in focus_sq] or list(offers)
    if compact and offers:
        focus = list(offers)  # the choices in view first
    x0, x1 = _window(min(xs), max(xs), [f[0] for f in focus], max((width - ROW_W) // TILE_W, 1))

    def tall(ty: int) -> int:  # the lines row ty takes
        if not compact or any((tx, ty) in m.tiles for tx in range(x0, x1 + 1)):
            return TILE_H
        return max((len(offers.get((tx, ty), ())) for tx in range(x0, x1 + 1)), default=1) or 1

    if compact:
        y0, y1 = _rows(min(ys), max(ys), [f[1] for f in focus], tall, max(height - 3, TILE_H))
    else:
        y0, y1 = _window(min(ys), max(ys), [f[1] for f in focus], max(height // TILE_H, 1))
    index = S.vars["@tiles"]["at"]
    ents = S.ents
    out = Text()
    used: set[str] = set()  # the map's characters drawn, for a compact legend
    cropped = (x0, x1, y0, y1) != (min(xs), max(xs), min(ys), max(ys))
    if cropped and not compact:
        out.append(f"(map cropped to tiles {x0}..{x1} × {y0}..{y1})\n", style="italic")
    out.append(" " * ROW_W + "".join(f"t{tx}".ljust(TILE_W) for tx in range(x0, x1 + 1))
               .rstrip() + "\n", style="dim")
    out.append(_ruler(x0, x1), style="dim")
    names: dict[str, str] = {}  # a tile's short label -> its full name, for the legend
    for ty in range(y0, y1 + 1):
        label = Text()
        for tx in range(x0, x1 + 1):
            uid = m.uid_at.get((tx, ty))
            if uid is None and (tx, ty) in offers:
                label.append(_offer(offers[(tx, ty)], 0), style=OFFER)
                continue
            td = board.tiles.get(ents[uid]["id"]) if uid in ents else None
            name = td.name if td is not None and td.count == 1 else ""
            short = name[:TILE_W - 1]
            if short != name:
                names[short] = name
            label.append(short.ljust(TILE_W), style="bold")
        label.rstrip()
        out.append(f"t{ty}".rjust(ROW_W - 1) + " ", style="dim")
        out.append(label)
        out.append("\n")
        for r in range(tall(ty) - 1):
            out.append(f"{ty * 3 + r:>{ROW_W - 1}} ", style="dim")
            for tx in range(x0, x1 + 1):
                shape = m.tiles.get((tx, ty))
                if shape is None and (tx, ty) in offers:
                    out.append(_offer(offers[(tx, ty)], r + 1), style=OFFER)
                    continue
                for c in range(3):
                    if shape is None:
                        out.append(" " * SQ_W)
                        continue
                    sq = (tx * 3 + c, ty * 3 + r)
                    _square(out, m.kind[sq], pawns.get(sq, ()),
                            [ents[u]["id"] for u in index.get(sq_key(sq), ())], glyph, board,
                            used)
                out.append(" ")
            out.append("\n")
    if compact:
        out.append(_key(glyph, names, used, width,
                        f"map tiles {x0}..{x1} × {y0}..{y1}" if cropped else ""), style="dim")
        return out
    out.append(_legend(glyph, names), style="dim")
    if placing is not None:
        out.append("\n")
        out.append(_preview(placing, sorted({r for pairs in offers.values() for _, r in pairs}),
                            glyph, board))
    return out


OFFER = "bold magenta"


def _offer(pairs: list[tuple[int, int]], line: int) -> str:
    """Line `line` (0: the label line, 1-3: the square lines) of a free position's choices,
    one `number:rotation` a line: a tile has four rotations and four lines."""
    return (f"{pairs[line][0]}:{pairs[line][1]}" if line < len(pairs) else "").ljust(TILE_W)


def _preview(td, rots: list[int], glyph: dict, board) -> Text:
    """The tile being placed, in each rotation offered, side by side."""
    out = Text(textwrap.fill(f"placing {td.name} (n:r on the map: choice n, the tile turned "
                             "r° clockwise, as drawn here)", 78) + "\n", style="bold")
    out.append("    " + "".join(f":{rot}".ljust(TILE_W + 1) for rot in rots).rstrip() + "\n",
               style=OFFER)
    for r in range(3):
        out.append("\n    " if r else "    ")
        for k, rot in enumerate(rots):
            shape = td.shapes[td.canon[rot]]
            out.append("  " if k else "")
            for c in range(3):
                _square(out, shape.kinds[r * 3 + c], (), [], glyph, board)
    return out


def choice_picture(board, S, viewer, d, shown: list[str], number: int) -> Text | None:
    """The tile that choice `number` (from 1) of `shown` places, named with its turn and
    drawn as it would lie; None when that choice places no tile."""
    found = placement_offers(board, S, viewer, d, shown)
    if found is None:
        return None
    td, offers = found
    for pairs in offers.values():
        for k, rot in pairs:
            if k == number:
                out = Text(td.name, style="bold")
                out.append(f" :{rot}\n", style=OFFER)
                shape = td.shapes[td.canon[rot]]
                for r in range(3):
                    for c in range(3):
                        _square(out, shape.kinds[r * 3 + c], (), [], _glyphs(S.game), board)
                    out.append("\n" if r < 2 else "")
                return out
    return None


def _key(glyph: dict, names: dict[str, str], used: set[str], width: int, crop: str) -> str:
    """One line (wrapped to `width`) naming only the map's characters drawn, the tiles cut
    short and the crop; the whole legend is the help's."""
    parts = [f"{ch} {what}" for ch, what in ((".", "street"), ("#", "building"),
                                            ("*", "pawns")) if ch in used]
    seats = sorted(ch for ch in used if ch.isdigit())
    if seats:
        parts.append(f"{''.join(seats)} pawn")
    parts += [f"{g} {kind}" for kind, g in glyph.items() if g in used]
    parts += [f"{short}={full}" for short, full in names.items()]
    if crop:
        parts.append(crop)
    return textwrap.fill(" · ".join(parts), max(width, 20), break_long_words=False,
                         break_on_hyphens=False)


def _ruler(x0: int, x1: int) -> str:
    """The column numbers over the squares (a square is `x,y`: column x, row y), one per
    square when they fit in its two characters, else the first of each tile's three."""
    xs = range(x0 * 3, x1 * 3 + 3)
    if all(len(str(x)) <= SQ_W for x in xs):
        cells = [f"{x:>{SQ_W}}" + (" " if x % 3 == 2 else "") for x in xs]
    else:
        cells = [f"{tx * 3}…".ljust(TILE_W) for tx in range(x0, x1 + 1)]
    return " " * ROW_W + "".join(cells).rstrip() + "\n"


def legend(game) -> str:
    """The whole legend of a pack's maps (for the table's help)."""
    return _legend(_glyphs(game), {})


def _legend(glyph: dict, names: dict[str, str]) -> str:
    """What the characters of the map mean, and the full names of the tiles cut short."""
    parts = [". street", "# building", "0-9 a pawn (its seat)", "* several pawns"]
    parts += [f"{g} {kind}" for kind, g in glyph.items()]
    lines = ["legend: " + " · ".join(parts),
             "squares: column,row (numbers on top and left) · tiles: t numbers "
             "(at=-1,0: column t-1, row t0)"]
    if names:
        lines.append("tiles: " + " · ".join(f"{short} = {full}" for short, full in names.items()))
    return "\n".join(textwrap.fill(line, 78, break_long_words=False, break_on_hyphens=False)
                     for line in lines)


def _square(out: Text, kind: str, seats, kinds: list[str], glyph: dict, board,
            used: set[str] | None = None) -> None:
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
    if used is not None:
        used.update(ch for ch, _ in marks[:SQ_W])
        if len(marks) < SQ_W:
            used.add(bg)
