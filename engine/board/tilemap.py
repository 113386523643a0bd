"""Square tiles laid during play, and the map they grow into: shapes, fitting, one cell graph.

A tile is a 3×3 block of squares, each of a kind named by the pack (`street`, `building`,
...). A road leaves a tile through the middle square of an edge. Tiles are placed next to
the map in one of four rotations so that every shared edge agrees: road meets road and
no road meets a non-road edge.

Squares are cells `(x, y)` in one global grid: the tile at position `(tx, ty)` covers
x = 3·tx .. 3·tx+2 and y = 3·ty .. 3·ty+2 (y grows southwards, as the map is drawn). Moves
are orthogonal: within a tile between any two passable squares, across a tile edge only
between squares of the kinds the pack lists under `across` (and, when the pack says so,
only where two roads meet: the middle squares of the shared edge).

A `Map` is immutable and built once per distinct layout: states only store the layout's
key (a string), so cloning a game does not copy the map, and the map of a layout with one
more tile is derived from its parent's in time proportional to that tile. Distances are
breadth-first fields cached per target square, so "closest", "shortest path" and "step
toward" answer from a table instead of searching again.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

N, E, S, W = 0, 1, 2, 3
EDGE_NAMES = "nesw"
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
MIDDLE = {N: (1, 0), E: (2, 1), S: (1, 2), W: (0, 1)}  # (c, r) of each edge's middle square
ROTATIONS = (0, 90, 180, 270)

Cell = tuple[int, int]


def rotate(kinds: tuple[str, ...], quarter: int) -> tuple[str, ...]:
    """A 3×3 row-major grid turned `quarter` quarter-turns clockwise."""
    g = kinds
    for _ in range(quarter % 4):
        g = tuple(g[(2 - c) * 3 + r] for r in range(3) for c in range(3))
    return g


@dataclass(frozen=True)
class Shape:
    """A tile in one rotation: square kinds (row-major) and the edges a road leaves by
    (also as a bit mask, bit `e` for edge `e`)."""

    kinds: tuple[str, ...]
    roads: frozenset[int]
    mask: int = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "mask", sum(1 << e for e in self.roads))


@dataclass
class TileDef:
    """A tile as the pack declares it; `shapes[rot]` for each rotation that looks different."""

    id: str
    name: str
    kinds: tuple[str, ...]
    roads: frozenset[int]
    count: int = 1
    fields: dict = field(default_factory=dict)
    shapes: dict[int, Shape] = field(default_factory=dict)
    canon: dict[int, int] = field(default_factory=dict)  # rotation -> first one that looks alike

    def __post_init__(self):
        seen: dict = {}
        for k, rot in enumerate(ROTATIONS):
            shape = Shape(rotate(self.kinds, k), frozenset((e + k) % 4 for e in self.roads))
            first = seen.setdefault((shape.kinds, shape.roads), rot)
            self.canon[rot] = first
            if first == rot:
                self.shapes[rot] = shape


def roads_from(kinds: tuple[str, ...], road_kind: str) -> frozenset[int]:
    """The edges whose middle square is of the road kind."""
    return frozenset(e for e, (c, r) in MIDDLE.items() if kinds[r * 3 + c] == road_kind)


class Map:
    """One layout of placed tiles as a cell graph. Never changed once built."""

    __slots__ = ("key", "tiles", "uid_at", "kind", "tile_pos", "adj", "frontier", "_dist", "_fits",
                 "connect", "memo")

    def __init__(self, connect: bool = False):
        self.connect = connect  # a new tile must meet some road of the map with one of its own
        self.key = ""
        self.tiles: dict[Cell, Shape] = {}
        self.uid_at: dict[Cell, int] = {}
        self.kind: dict[Cell, str] = {}
        self.tile_pos: dict[Cell, Cell] = {}
        self.adj: dict[Cell, tuple[Cell, ...]] = {}
        self.frontier: frozenset[Cell] = frozenset()
        self._dist: OrderedDict = OrderedDict()
        self._fits: dict[str, list] = {}
        self.memo: dict[str, Any] = {}  # tables other modules derive from this layout, made once

    # ---------- growing ----------
    def with_tile(self, key: str, uid: int, at: Cell, shape: Shape, rules: Rules) -> Map:
        """A new map: this one plus `shape` at tile position `at`."""
        m = Map(rules.connect)
        m.key = key
        m.tiles = {**self.tiles, at: shape}
        m.uid_at = {**self.uid_at, at: uid}
        m.kind = dict(self.kind)
        m.tile_pos = dict(self.tile_pos)
        m.adj = dict(self.adj)
        tx, ty = at
        new = []
        for r in range(3):
            for c in range(3):
                sq = (tx * 3 + c, ty * 3 + r)
                m.kind[sq] = shape.kinds[r * 3 + c]
                m.tile_pos[sq] = at
                new.append(sq)
        touched = set()
        for sq in new:
            if m.kind[sq] in rules.blocked:
                continue
            links = []
            for dx, dy in STEP.values():
                nb = (sq[0] + dx, sq[1] + dy)
                nk = m.kind.get(nb)
                if nk is None or nk in rules.blocked:
                    continue
                if m.tile_pos[nb] != at and not (m.kind[sq] in rules.across and nk in rules.across
                                                 and (not rules.roads_only or m.road_link(sq, nb))):
                    continue
                links.append(nb)
                if m.tile_pos[nb] != at:
                    touched.add(nb)
            m.adj[sq] = tuple(sorted(links))
        for nb in touched:
            back = (s for s in new if nb in m.adj.get(s, ()))
            m.adj[nb] = tuple(sorted({*m.adj.get(nb, ()), *back}))
        front = set(self.frontier)
        front.discard(at)
        for dx, dy in STEP.values():
            p = (tx + dx, ty + dy)
            if p not in m.tiles:
                front.add(p)
        m.frontier = frozenset(front)
        return m

    def road_link(self, a: Cell, b: Cell) -> bool:
        """True when neighbouring squares `a` and `b` of two placed tiles are the middle
        squares of the edge they share and both tiles have a road there: where roads meet."""
        ta, tb = self.tile_pos[a], self.tile_pos[b]
        e = next(k for k, step in STEP.items() if step == (tb[0] - ta[0], tb[1] - ta[1]))
        c, r = MIDDLE[e]
        return (a == (ta[0] * 3 + c, ta[1] * 3 + r) and e in self.tiles[ta].roads
                and (e + 2) % 4 in self.tiles[tb].roads)

    # ---------- fitting ----------
    def fits(self, shape: Shape, at: Cell) -> bool:
        """True when `shape` may go at the empty position `at` next to the map (and, when
        the map must stay connected, meets one of its roads)."""
        if at in self.tiles:
            return False
        touching = joined = False
        for e, (dx, dy) in STEP.items():
            nb = self.tiles.get((at[0] + dx, at[1] + dy))
            if nb is None:
                continue
            touching = True
            road = e in shape.roads
            if road != ((e + 2) % 4 in nb.roads):
                return False
            joined = joined or road
        return joined if self.connect else touching

    def joins(self, shape: Shape, at: Cell) -> int:
        """How many of `shape`'s roads would meet a placed tile's road at position `at`."""
        n = 0
        for e in shape.roads:
            dx, dy = STEP[e]
            nb = self.tiles.get((at[0] + dx, at[1] + dy))
            if nb is not None and (e + 2) % 4 in nb.roads:
                n += 1
        return n

    def placements(self, tile: TileDef) -> list[tuple[Cell, int]]:
        """Every (position, rotation) where the tile fits, sorted; cached per tile id.

        `fits` for every position and rotation, with each position's neighbours read once
        per map (see `_edges`): a shape fits where its roads agree with the neighbours' on
        every edge that has one, and meets a road (`connect`) or at least a tile."""
        got = self._fits.get(tile.id)
        if got is None:
            edges: dict[Cell, tuple[int, int]] | None = self.memo.get("edges")
            if edges is None:
                edges = self.memo["edges"] = self._edges()
            shapes = tile.shapes.items()
            connect = self.connect
            got = [(at, rot) for at, (known, need) in edges.items() for rot, shape in shapes
                   if (shape.mask & known) == need and (need if connect else known)]
            got.sort()
            self._fits[tile.id] = got
        return got

    def _edges(self) -> dict[Cell, tuple[int, int]]:
        """Each free position next to the map -> (the edges that meet a placed tile, those of
        them where that tile has a road), as bit masks."""
        out = {}
        for at in self.frontier:
            known = need = 0
            for e, (dx, dy) in STEP.items():
                nb = self.tiles.get((at[0] + dx, at[1] + dy))
                if nb is not None:
                    known |= 1 << e
                    if (e + 2) % 4 in nb.roads:
                        need |= 1 << e
            out[at] = (known, need)
        return out

    def edges_match(self) -> bool:
        """Every pair of neighbouring tiles agrees on roads (a map invariant)."""
        for (tx, ty), shape in self.tiles.items():
            for e in (E, S):
                dx, dy = STEP[e]
                nb = self.tiles.get((tx + dx, ty + dy))
                if nb is not None and (e in shape.roads) != ((e + 2) % 4 in nb.roads):
                    return False
        return True

    # ---------- distances ----------
    def dist_to(self, target: Cell) -> dict[Cell, int]:
        """Steps from every reachable square to `target` (one breadth-first search, cached)."""
        d = self._dist.get(target)
        if d is not None:
            self._dist.move_to_end(target)
            return d
        d = {}
        if target in self.adj:
            d[target] = 0
            todo = deque([target])
            adj = self.adj
            while todo:
                sq = todo.popleft()
                nd = d[sq] + 1
                for nb in adj[sq]:
                    if nb not in d:
                        d[nb] = nd
                        todo.append(nb)
        self._dist[target] = d
        if len(self._dist) > 128:
            self._dist.popitem(last=False)
        return d

    def dist_to_any(self, targets) -> dict[Cell, int]:
        """Steps from every reachable square to the nearest of `targets` (not cached)."""
        adj = self.adj
        d = {t: 0 for t in targets if t in adj}
        level, n = list(d), 0
        while level:
            n += 1
            nxt = []
            for sq in level:
                for nb in adj[sq]:
                    if nb not in d:
                        d[nb] = n
                        nxt.append(nb)
            level = nxt
        return d

    def distance(self, a: Cell, b: Cell) -> int | None:
        return self.dist_to(b).get(a)

    def step_toward(self, a: Cell, b: Cell) -> list[Cell]:
        """The neighbours of `a` one step closer to `b` along some shortest path."""
        d = self.dist_to(b)
        here = d.get(a)
        if not here:
            return []
        return [nb for nb in self.adj.get(a, ()) if d.get(nb) == here - 1]

    def shortest_path(self, a: Cell, b: Cell) -> list[Cell] | None:
        """Squares from `a` (excluded) to `b` (included); [] when a == b, None if unreachable."""
        d = self.dist_to(b)
        if a not in d:
            return None
        path, sq = [], a
        while sq != b:
            sq = next(nb for nb in self.adj[sq] if d.get(nb) == d[sq] - 1)
            path.append(sq)
        return path


@dataclass(frozen=True)
class Rules:
    """How squares connect: kinds nobody enters, kinds that connect across tile edges (with
    `roads_only`, only at the middle squares of an edge where two roads meet), and whether a
    new tile must join the roads of the map (so every tile can be reached)."""

    blocked: frozenset[str]
    across: frozenset[str]
    connect: bool = False
    roads_only: bool = False


class MapCache:
    """Maps by layout key, rebuilt from the key alone on a miss (after a load, say)."""

    def __init__(self, tiles: dict[str, TileDef], rules: Rules, size: int = 512):
        self.tiles = tiles
        self.rules = rules
        self.size = size
        self.maps: OrderedDict[str, Map] = OrderedDict()
        self.maps[""] = Map(rules.connect)

    def get(self, key: str) -> Map:
        m = self.maps.get(key)
        if m is not None:
            return m
        parent_key, _, last = key.rpartition(";")
        parent = self.get(parent_key)
        uid, tid, tx, ty, rot = parse_entry(last)
        m = parent.with_tile(key, uid, (tx, ty), self.tiles[tid].shapes[rot], self.rules)
        self.maps[key] = m
        if len(self.maps) > self.size:
            self.maps.popitem(last=False)
            if "" not in self.maps:
                self.maps[""] = Map(self.rules.connect)
        return m


def entry(uid: int, tid: str, at: Cell, rot: int) -> str:
    return f"{uid}:{tid}:{at[0]}:{at[1]}:{rot}"


def parse_entry(text: str) -> tuple[int, str, int, int, int]:
    uid, tid, tx, ty, rot = text.split(":")
    return int(uid), tid, int(tx), int(ty), int(rot)


def extend_key(key: str, uid: int, tid: str, at: Cell, rot: int) -> str:
    e = entry(uid, tid, at, rot)
    return f"{key};{e}" if key else e
