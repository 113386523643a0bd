"""Grid boards: a rectangle of cells declared in YAML, with regions and points.

    board:
      type: grid
      rows: 10                 # rows 1..10, as players count them
      cols: 5
      moves: king              # king: 8 neighbours, Chebyshev distance; orthogonal: 4, Manhattan
      pieces: table            # the (global) zone that holds the pieces on the board
      capacity: 1              # pieces a cell holds (not counting markers); default: no limit
      markers: [trap]          # kinds that lie on a cell without counting or blocking
      enter_event: entered     # announced for every cell a piece steps into
      prefer: [orthogonal, column]   # tie-break of closer_steps / farther_steps
      regions:                 # named sets of cells
        start: {rows: 1}                    # rows and cols: a number or [first, last]
        corner: {cells: ["1,1", "1,2"]}
      points:                  # named places, possibly between cells or off the board
        exit: {row: 10.5, col: 3}
      view: {point: exit, rings: "...", glyph: "..."}   # see engine/board/render.py

Regions and points become names of the effect language (`cells_in(start)`,
`distance(c, exit)`). Distances to a fractional point are rounded up: with the exit at
(10.5, 3), the three cells of row 10 nearest it are at distance 1 and row 1 at distance 10.

`prefer` orders the candidate cells of one step, most preferred first: `orthogonal` (a
straight step before a diagonal one), `column` / `row` (nearer the target's column / row),
`euclid` (nearer the target in a straight line); remaining ties go in board order.
"""

from __future__ import annotations

import math
import re

from engine import codec
from engine.board import grid_builtins  # noqa: F401 - the words that call a board's methods
from engine.board.cell import Cell, Point
from engine.board.pieces import PieceBoard
from engine.board.registry import register_type
from engine.dsl.runtime import MISSING
from engine.dsl.values import E
from engine.errors import RuleRuntimeError, did_you_mean

MOVES = ("king", "orthogonal")
PREFER = ("orthogonal", "column", "row", "euclid")
KEYS = ("type", "rows", "cols", "moves", "pieces", "capacity", "markers", "enter_event",
        "prefer", "regions", "points", "view")
MAX_SIDE = 100
_AREAS_KEPT = 4096  # blocks of cells `area` remembers per board
_IDENT = re.compile(r"[a-z_][a-z0-9_]*")
_CELL_TEXT = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*", re.ASCII)  # else \d matches '৪' too
_RESERVED = ("players", "current", "turn", "game", "params", "event", "me", "none", "true",
             "false")


class Region:
    """A named set of cells, in board order."""

    __slots__ = ("name", "cells", "members")

    def __init__(self, name: str, cells: list[Cell]):
        self.name = name
        self.cells = tuple(sorted(set(cells)))
        self.members = frozenset(self.cells)

    def __repr__(self) -> str:
        return self.name


def _region_named(name, game) -> Region:
    return game.ext("board").regions[str(name)]


codec.register_codec(Region, "$region", lambda r: r.name, _region_named)


class _Toward:
    """Everything a board knows about moving toward one goal (a cell or a point): each
    cell's distance to it and, made on first use, each cell's steps closer to it and
    farther from it, already in the board's preference order. Geometry never changes
    during a game, so this is worked out once per board and goal, and a step is a look-up
    plus a check for room."""

    __slots__ = ("goal", "dist", "steps")

    def __init__(self, goal, dist: dict):
        self.goal = goal
        self.dist = dist
        self.steps: dict = {}  # origin cell -> (closer cells, farther cells)


class GridBoard(PieceBoard):
    def __init__(self, rows: int, cols: int, moves: str, prefer: tuple[str, ...],
                 regions: dict[str, Region], points: dict[str, Point], view: dict, **pieces):
        super().__init__(**pieces)
        self.rows, self.cols, self.moves, self.prefer = rows, cols, moves, prefer
        self.regions, self.points, self.view = regions, points, view
        self.order = [Cell(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
        self.cellset = frozenset(self.order)
        deltas = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
                  and (moves == "king" or dr == 0 or dc == 0)]
        self.adj = {c: tuple(Cell(c[0] + dr, c[1] + dc) for dr, dc in deltas
                             if Cell(c[0] + dr, c[1] + dc) in self.cellset) for c in self.order}
        self._drawing = None
        self._toward: dict = {}  # goal -> _Toward
        self._last_goal = _Toward(object(), {})  # the goal asked last: most rules aim at one point
        self._areas: dict = {}  # (cell, radius) -> the cells of area(cell, radius)

    # ---------- geometry ----------
    def has_cell(self, c) -> bool:
        return c in self.cellset

    def all_cells(self) -> list:
        return list(self.order)

    def adjacent(self, c) -> tuple:
        return self.adj.get(c, ())

    def toward(self, goal) -> _Toward:
        t = self._last_goal
        if t.goal is goal:
            return t
        got = self._toward.get(goal)
        if got is None:
            got = self._toward[goal] = _Toward(goal, {c: self.raw_dist(c, goal) for c in self.order})
        self._last_goal = got
        return got

    def dist(self, a, b) -> int:
        d = self.toward(b).dist.get(a)
        return self.raw_dist(a, b) if d is None else d

    def distances(self, goal) -> dict:
        return self.toward(goal).dist

    def raw_dist(self, a, b) -> int:
        ar, ac = (a[0], a[1]) if type(a) is Cell else (a.row, a.col)
        br, bc = (b[0], b[1]) if type(b) is Cell else (b.row, b.col)
        dr, dc = abs(ar - br), abs(ac - bc)
        d = max(dr, dc) if self.moves == "king" else dr + dc
        return d if type(d) is int else math.ceil(d)

    def region_cells(self, S, r) -> list:
        if type(r) is Region:
            return list(r.cells)
        raise RuleRuntimeError(f"expected a region or a list of cells, got {S.describe(r)}")

    def order_key(self, origin: Cell, c: Cell, goal) -> tuple:
        gr, gc = (goal[0], goal[1]) if type(goal) is Cell else (goal.row, goal.col)
        key: list = []
        for p in self.prefer:
            if p == "orthogonal":
                key.append(0 if c[0] == origin[0] or c[1] == origin[1] else 1)
            elif p == "column":
                key.append(abs(c[1] - gc))
            elif p == "row":
                key.append(abs(c[0] - gr))
            else:
                key.append((c[0] - gr) ** 2 + (c[1] - gc) ** 2)
        key.append(c)
        return tuple(key)

    def steps_from(self, t: _Toward, origin: Cell) -> tuple:
        """(closer, farther): the cells next to `origin` nearer to and farther from the goal
        of `t`, each most preferred first. An origin off the board is a KeyError."""
        now = t.dist[origin]
        ranked = sorted(self.adj[origin], key=lambda c: self.order_key(origin, c, t.goal))
        out = t.steps[origin] = (tuple(c for c in ranked if t.dist[c] < now),
                                 tuple(c for c in ranked if t.dist[c] > now))
        return out

    def steps(self, S, x, target, closer: bool, through: bool) -> list:
        ent = S.ents[x.i] if type(x) is E else None
        origin = ent.get("cell") if ent is not None else None
        if type(origin) is not Cell or ent is None or ent["@z"] != self.zone:  # cell_of(S, x), written out
            origin = self.cell_of(S, x)
        t = self._last_goal
        if t.goal is not target:
            t = self.toward(self.where(S, target, "a cell or point"))
        pair = t.steps.get(origin)
        if pair is None:
            pair = self.steps_from(t, origin)
        cands = pair[0] if closer else pair[1]
        if through or not cands or self.capacity is None:
            return list(cands)
        return self.with_room(S, cands, x.i if type(x) is not Cell else -1)

    # ---------- builtins (called by name from engine.board.builtins) ----------
    def cell(self, S, row: int, col: int) -> Cell:
        return Cell(row, col)

    def cells(self, S) -> list:
        return list(self.order)

    def cells_in(self, S, region) -> list:
        return self.region_cells(S, region)

    def within(self, S, x, region) -> bool:
        if type(region) is not Region:
            raise RuleRuntimeError(f"within: expected a region, got {S.describe(region)}")
        return self.where(S, x) in region.members

    def neighbors(self, S, x) -> list:
        return list(self.adj.get(self.cell_of(S, x), ()))

    def distance(self, S, a, b) -> int:
        ent = S.ents[a.i] if type(a) is E else None
        c = ent.get("cell") if ent is not None else None
        a = c if c is not None and ent is not None and ent["@z"] == self.zone else self.where(S, a, "a cell or point")
        t = self._last_goal  # self.dist(a, where(b)), written out: most rules ask this one
        if t.goal is not b:
            b = self.where(S, b, "a cell or point")
            t = self.toward(b)
        d = t.dist.get(a)
        return self.raw_dist(a, t.goal) if d is None else d

    def area(self, S, x, radius: int = 1) -> list:
        """The cells within `radius` of a place. Rules ask it inside comprehensions, once for
        every piece tested (`[y for y in pieces() if y.cell in area(c)]`), and geometry never
        changes: each block is made once per board (for whole-number radii)."""
        c = self.cell_of(S, x)
        if type(radius) is not int:
            return self._area(c, radius)
        got = self._areas.get((c, radius))
        if got is None:
            if len(self._areas) >= _AREAS_KEPT:
                self._areas.clear()
            got = self._areas[(c, radius)] = self._area(c, radius)
        return list(got)

    def _area(self, c: Cell, radius) -> list:
        return [Cell(r, k) for r in range(c[0] - radius, c[0] + radius + 1)
                for k in range(c[1] - radius, c[1] + radius + 1) if Cell(r, k) in self.cellset]

    def closer_steps(self, S, x, target, through: bool = False) -> list:
        return self.steps(S, x, target, True, through)

    def farther_steps(self, S, x, target, through: bool = False) -> list:
        return self.steps(S, x, target, False, through)

    # ---------- the extension interface ----------
    def env_names(self) -> dict:
        names: dict = {n: (r, "region") for n, r in self.regions.items()}
        names.update({n: (p, "point") for n, p in self.points.items()})
        return names

    def value_attr(self, S, v, name: str):
        t = type(v)
        if t is Cell:
            if name == "row":
                return v[0]
            if name == "col":
                return v[1]
        elif t is Point and name in ("row", "col", "name"):
            return getattr(v, name)
        elif t is Region and name == "name":
            return v.name
        return MISSING

    def describe(self, v) -> str | None:
        if type(v) in (Cell, Point, Region):
            return repr(v)
        return None

    def render(self, S, viewer, compact: bool = False, width: int = 78):
        """The grid for a terminal; `compact` (a full-screen table): a legend of what is drawn."""
        from engine.board.render import draw_grid
        return draw_grid(self, S, viewer, compact, width)

    def legend(self, S) -> str:
        """What every character of the grid means (the compact grid names only those drawn)."""
        from engine.board.render import _rings, drawing, legend
        dr = drawing(self, S.game)
        return legend(dr, self, dr.point, _rings(S, dr))


# ---------- building a grid from its YAML section ----------
class _Reader:
    """Checks a `board:` section of type grid, reporting every problem with its place."""

    def __init__(self, section: dict, ctx):
        self.s, self.ctx, self.ok = section, ctx, True

    def fail(self, msg: str, *path, hint: str | None = None) -> None:
        self.ok = False
        self.ctx.fail(f"board: {msg}", "board", *path, hint=hint)

    def int_in(self, key: str, lo: int, hi: int, default=None):
        v = self.s.get(key, default)
        if v is None:
            return None
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.fail(f"'{key}' must be a whole number from {lo} to {hi}", key)
            return lo
        return v

    def span(self, spec, key: str, side: int, *path) -> range | None:
        v = spec.get(key, [1, side])
        if isinstance(v, int) and not isinstance(v, bool):
            v = [v, v]
        if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)
                and 1 <= v[0] <= v[1] <= side):
            self.fail(f"'{key}' must be a number or [first, last] within 1..{side}", *path, key)
            return None
        return range(v[0], v[1] + 1)

    def cell_text(self, x, rows: int, cols: int, *path) -> Cell | None:
        m = _CELL_TEXT.fullmatch(x) if isinstance(x, str) else None
        pair = [int(m[1]), int(m[2])] if m else x
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) for v in pair) \
                and 1 <= pair[0] <= rows and 1 <= pair[1] <= cols:
            return Cell(pair[0], pair[1])
        self.fail(f"{x!r} is not a cell of the board (write \"row,col\")", *path)
        return None

    def region(self, name: str, spec, rows: int, cols: int) -> Region | None:
        if isinstance(spec, list):
            spec = {"cells": spec}
        if not isinstance(spec, dict) or not spec or set(spec) - {"rows", "cols", "cells"} \
                or ("cells" in spec and set(spec) != {"cells"}):
            self.fail(f"region '{name}' is {{rows: .., cols: ..}} or {{cells: [\"r,c\", ..]}}",
                      "regions", name)
            return None
        if "cells" in spec:
            items = spec["cells"] if isinstance(spec["cells"], list) else [None]
            cells = [self.cell_text(x, rows, cols, "regions", name, "cells", k)
                     for k, x in enumerate(items)]
            found = [c for c in cells if c is not None]
            if len(found) < len(cells) or not cells:
                return None
            return Region(name, found)
        rr = self.span(spec, "rows", rows, "regions", name)
        cc = self.span(spec, "cols", cols, "regions", name)
        if rr is None or cc is None:
            return None
        return Region(name, [Cell(r, c) for r in rr for c in cc])

    def point(self, name: str, spec) -> Point | None:
        if not (isinstance(spec, dict) and set(spec) == {"row", "col"} and
                all(isinstance(spec[k], int | float) and not isinstance(spec[k], bool)
                    and abs(spec[k]) <= 10 * MAX_SIDE for k in ("row", "col"))):
            self.fail(f"point '{name}' is {{row: number, col: number}}", "points", name)
            return None
        return Point(name, spec["row"], spec["col"])

    def names(self, key: str) -> dict:
        v = self.s.get(key) or {}
        if not isinstance(v, dict):
            self.fail(f"'{key}' must be a mapping of name: spec", key)
            return {}
        env = self.ctx.env
        for name in v:
            if not _IDENT.fullmatch(str(name)):
                self.fail(f"'{name}' is not a name (lowercase letters, digits, _)", key, name)
            elif name in _RESERVED or name in env.zones or name in env.dice:
                self.fail(f"'{name}' is already a name in this pack; choose another", key, name)
        return v


@register_type("grid")
def build_grid(section, node, ctx):
    rd = _Reader(section, ctx)
    for key in section:
        if key not in KEYS:
            rd.fail(f"unknown key '{key}'", key, hint=did_you_mean(key, KEYS))
    rows = rd.int_in("rows", 1, MAX_SIDE)
    cols = rd.int_in("cols", 1, MAX_SIDE)
    if rows is None or cols is None:
        rd.fail("a grid needs rows and cols")
        return None
    moves = section.get("moves", "king")
    if moves not in MOVES:
        rd.fail(f"'moves' must be one of {', '.join(MOVES)}", "moves",
                hint=did_you_mean(str(moves), MOVES))
    prefer = section.get("prefer", [])
    if not isinstance(prefer, list) or any(p not in PREFER for p in prefer):
        rd.fail(f"'prefer' is a list of {', '.join(PREFER)}", "prefer")
        prefer = []
    zone = section.get("pieces")
    zones = ctx.env.zones
    if zone not in zones or zones[zone]:
        rd.fail("'pieces' must name a zone shared by all players (not `per: player`)", "pieces",
                hint=did_you_mean(str(zone), [z for z, per in zones.items() if not per]))
    capacity = rd.int_in("capacity", 1, 1000)
    kinds = {k.get("id") for k in (ctx.raw.get("kinds") or []) if isinstance(k, dict)}
    markers = section.get("markers", [])
    if not isinstance(markers, list):
        rd.fail("'markers' is a list of kind ids", "markers")
        markers = []
    for k, m in enumerate(markers):
        if m not in kinds:
            rd.fail(f"marker '{m}' is not a kind", "markers", k, hint=did_you_mean(str(m), kinds))
    event = section.get("enter_event")
    if event is not None and not (isinstance(event, str) and _IDENT.fullmatch(event)):
        rd.fail("'enter_event' must be an event name", "enter_event")
    view = section.get("view") or {}
    if not isinstance(view, dict) or set(view) - {"point", "rings", "glyph"}:
        rd.fail("'view' may hold point, rings and glyph", "view")
        view = {}
    regions = {n: rd.region(n, spec, rows, cols) for n, spec in rd.names("regions").items()}
    points = {n: rd.point(n, spec) for n, spec in rd.names("points").items()}
    clash = set(regions) & set(points)
    for n in clash:
        rd.fail(f"'{n}' is both a region and a point", "points", n)
    if view.get("point") is not None and view.get("point") not in points:
        rd.fail("view.point must name a point", "view", "point",
                hint=did_you_mean(str(view.get("point")), points))
    if not rd.ok:
        return None
    board = GridBoard(rows, cols, moves, tuple(prefer),
                      {n: r for n, r in regions.items() if r is not None},
                      {n: p for n, p in points.items() if p is not None}, view,
                      zone=zone, capacity=capacity, markers=frozenset(markers),
                      enter_event=event)
    board.enter_span = ctx.node("board", "enter_event").span if event else None
    return board
