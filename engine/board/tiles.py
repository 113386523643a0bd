"""The tile board: `board: {type: tiles}` — a map of square tiles that grows during play.

The pack declares its tiles (3×3 squares drawn as three strings, a legend naming each
character's square kind, optional `roads`, free `fields`), the zone holding the face-down
stack and the zone of placed tiles, and the tile that starts on the table:

    board:
      type: tiles
      legend: {".": street, "#": building, "x": blocked}
      blocked: [blocked]        # kinds no piece enters
      across: [street]          # kinds that connect to the neighbouring tile
      road: street              # an edge has a road when its middle square is of this kind
      connect: true             # a new tile must meet a road of the map (default: only touch)
      links: roads              # tiles join only where roads meet (default any: facing squares)
      stack: map_stack          # a zone: tiles not yet drawn (hidden)
      placed: map               # a zone: tiles on the table
      start: town-square        # placed at 0,0 when the game starts
      player_square: sq         # the player field holding a player's square (drawing)
      tiles:
        - {id: crossing, count: 2, squares: ["x.x", "...", "x.x"], fields: {group: street}}

Tiles are entities (so the stack is an ordinary hidden zone: draw, shuffle, reorder), the
static tile shapes live here on the Game, and the state keeps only what changes: each placed
tile's `at` and `rot` fields, the layout key of the map, and an index of pieces by square
(both in `S.vars['@tiles']`, plain data that clones and saves).
"""

from __future__ import annotations

from engine.board.registry import bound_words
from engine.board.tilemap import MIDDLE, Map, MapCache, Rules, TileDef, extend_key
from engine.board.tilepieces import KEY, PiecesOnSquares, Steps, is_cell, sq_key
from engine.dsl.runtime import MISSING
from engine.dsl.values import E_OF, E, P, Z
from engine.errors import RuleRuntimeError
from engine.extensions import Extension


class TileBoard(PiecesOnSquares, Extension):
    """The building block behind `board: {type: tiles}`; see the module docstring."""

    name = "board"
    type = "tiles"

    def words(self) -> dict:
        return bound_words(self)

    def __init__(self, tiles: dict[str, TileDef], rules: Rules, stack: str, placed: str,
                 start: str, player_square: str | None):
        self.tiles = tiles
        self.rules = rules
        self.stack = stack
        self.placed = placed
        self.start = start
        self.player_square = player_square
        self.cache = MapCache(tiles, rules)
        self.last: tuple = (None, None)  # (layout key, its map) of the last question

    def zones(self) -> set[str]:
        return {self.stack, self.placed}

    # ---------- state ----------
    def setup(self, S) -> None:
        S.vars[KEY] = {"map": "", "at": {}}
        for t in self.tiles.values():
            copies = t.count
            if t.id == self.start:
                uid = S.new_entity(t.id, {})
                S.move_ent(uid, Z(self.placed))
                self.place(S, E(uid), (0, 0), 0)
                copies -= 1
            for _ in range(copies):
                S.move_ent(S.new_entity(t.id, {}), Z(self.stack))

    def home_zone(self, entity_id: str) -> str | None:
        """Tiles start in the face-down stack (they are one family for hidden information)."""
        return self.stack if entity_id in self.tiles else None

    def map(self, S) -> Map:
        try:
            key = S.vars[KEY]["map"]
        except KeyError:
            raise RuleRuntimeError("this state holds no tile map (was it made by this pack?)") \
                from None
        last = self.last  # most questions in a row are about the same map
        if last[0] is key:
            return last[1]
        m = self.cache.get(key)
        self.last = (key, m)
        return m

    def tile_def(self, S, t) -> TileDef:
        if type(t) is not E or t.i not in S.ents or S.ents[t.i]["id"] not in self.tiles:
            raise RuleRuntimeError(f"expected a tile, got {S.describe(t)}")
        return self.tiles[S.ents[t.i]["id"]]

    def place(self, S, t, at, rot) -> None:
        """Put tile `t` on the table at tile position `at`, turned `rot` degrees clockwise."""
        td = self.tile_def(S, t)
        if not is_cell(at) or rot not in td.canon:
            raise RuleRuntimeError(f"place_tile: bad position {S.describe(at)} or rotation {rot}")
        rot = td.canon[rot]
        m = self.map(S)
        if m.tiles and not m.fits(td.shapes[rot], at):
            raise RuleRuntimeError(f"tile {td.id} does not fit at {sq_key(at)} turned {rot}")
        ent = S.ent_w(t.i)
        ent["at"] = at
        ent["rot"] = rot
        if ent.get("@z") != self.placed:
            S.move_ent(t.i, Z(self.placed))
        board = S.vars[KEY]
        board["map"] = extend_key(board["map"], t.i, td.id, at, rot)
        self.cache.get(board["map"])

    # ---------- the language's view of tiles and squares ----------
    def ent_attr(self, S, e, name: str):
        td = self.tiles.get(S.ents[e.i]["id"])
        if td is None:
            return MISSING
        if name in td.fields:
            return td.fields[name]
        if name == "name":
            return td.name
        if name in ("at", "rot"):
            return None  # not placed yet
        return MISSING

    def value_attr(self, S, v, name: str):
        if not is_cell(v):
            return MISSING
        if name == "x":
            return v[0]
        if name == "y":
            return v[1]
        if name == "kind":
            return self.map(S).kind.get(v)
        if name == "tile":
            return self.tile_at(S, v)
        return MISSING

    def describe(self, v) -> str | None:
        return sq_key(v) if is_cell(v) else None

    def names(self) -> dict[str, str]:  # tile id -> its name, as players read it
        return {td.id: td.name for td in self.tiles.values() if td.name}

    def glossary(self) -> list[tuple[str, str, str]]:  # tiles whose `text` field says what they are
        return [("tiles", td.name, t) for td in self.tiles.values()
                if isinstance(t := td.fields.get("text"), str) and t]

    def render(self, S, viewer=None, **size):
        """The map drawn for a terminal (`width`, `height` in characters; default 80 × 44;
        `compact` for a full-screen table: one legend line, no tile preview)."""
        from engine.board.tilerender import render
        return render(self, S, viewer, **size)

    def render_choices(self, S, viewer, d, shown: list[str], **size):
        """The map with the person's numbered choices on it, when they place a tile (the
        free positions numbered, the tile drawn in each rotation); else None."""
        from engine.board.tilerender import placement_offers, render
        offers = placement_offers(self, S, viewer, d, shown)
        return None if offers is None else render(self, S, viewer, offers=offers, **size)

    def choice_picture(self, S, viewer, d, shown: list[str], number: int):
        """The tile choice `number` (from 1) places, turned as it would lie; else None."""
        from engine.board.tilerender import choice_picture
        return choice_picture(self, S, viewer, d, shown, number)

    def legend(self, S) -> str:
        """What every character of the map means (the compact map names only those shown)."""
        from engine.board.tilerender import legend
        return legend(S.game)

    def choice_words(self, S, viewer, d, shown: list[str]) -> dict[str, dict[str, str]]:
        """What the parameters of the choices that place a tile are, for `?`."""
        from engine.board.tilerender import placement_words
        return placement_words(self, S, viewer, d, shown)

    # ---------- squares and tiles ----------
    def cell(self, S, x, y):
        return (int(x), int(y))

    def tile_at(self, S, sq):
        if not is_cell(sq):
            return None
        m = self.map(S)
        pos = m.tile_pos.get(sq)
        uid = m.uid_at.get(pos) if pos is not None else None
        return E_OF(uid) if uid is not None else None

    def tile_pos(self, S, sq):
        return self.map(S).tile_pos.get(sq)

    def squares(self, S, t, kind=None) -> list:
        """The squares of placed tile `t` (optionally only those of one kind), row by row."""
        at = S.ents[t.i].get("at") if type(t) is E and t.i in S.ents else None
        if at is None:
            raise RuleRuntimeError(f"squares: {S.describe(t)} is not a placed tile")
        m = self.map(S)
        tx, ty = at
        out = [(tx * 3 + c, ty * 3 + r) for r in range(3) for c in range(3)]
        if kind is None:
            return [sq for sq in out if m.kind[sq] not in self.rules.blocked]
        return [sq for sq in out if m.kind[sq] == kind]

    def exits(self, S, t) -> list:
        """The outer square of each road leaving placed tile `t` (the middle of that edge)."""
        at = S.ents[t.i].get("at")
        if at is None:
            raise RuleRuntimeError(f"exits: {S.describe(t)} is not a placed tile")
        shape = self.map(S).tiles[at]
        return [(at[0] * 3 + MIDDLE[e][0], at[1] * 3 + MIDDLE[e][1]) for e in sorted(shape.roads)]

    def middle(self, S, t):
        at = S.ents[t.i].get("at")
        if at is None:
            raise RuleRuntimeError(f"middle: {S.describe(t)} is not a placed tile")
        return (at[0] * 3 + 1, at[1] * 3 + 1)


    # ---------- the cell graph ----------
    def neighbors(self, S, sq) -> list:
        """The squares one orthogonal move from `sq` (tile edges only street to street)."""
        return list(self.map(S).adj.get(need_cell(S, sq, "neighbors"), ()))

    def distance(self, S, a, b):
        """Moves from `a` to `b` along the map, or none when there is no way."""
        return self.map(S).distance(need_cell(S, a, "distance"), need_cell(S, b, "distance"))

    def shortest_path(self, S, a, b):
        """The squares of one shortest way from `a` (excluded) to `b` (included), or none."""
        return self.map(S).shortest_path(need_cell(S, a, "shortest_path"),
                                         need_cell(S, b, "shortest_path"))

    def step_toward(self, S, a, b) -> list:
        """The neighbours of `a` that are one move closer to `b`."""
        return self.map(S).step_toward(need_cell(S, a, "step_toward"),
                                       need_cell(S, b, "step_toward"))

    def closest(self, S, sq, xs) -> list:
        """The values of `xs` (squares, pieces or players) nearest to `sq`; ties all kept."""
        m = self.map(S)
        sq = need_cell(S, sq, "closest")
        return [x for x, _ in self._nearest(S, m, sq, xs)]

    def _nearest(self, S, m, sq, xs) -> list[tuple]:
        """(value, its square) for the values of `xs` nearest to `sq`; ties all kept."""
        best, out = None, []
        for x in xs:
            where = self.square_of(S, x)
            d = m.distance(sq, where) if where is not None else None
            if d is None:
                continue
            if best is None or d < best:
                best, out = d, [(x, where)]
            elif d == best:
                out.append((x, where))
        return out

    def open_steps(self, S, x, kinds, toward=None) -> list:
        """The neighbours of a square (or a piece's square) holding no piece of the kind(s);
        with `toward` (a list of squares, pieces or players), only those one move closer to
        the nearest of them. The commonest question of a chase, answered in one call."""
        sq = self._where(S, x)
        if sq is None:
            return []
        m = self.map(S)
        want = _kind_set(kinds)
        steps = m.adj.get(sq, ()) if toward is None else self._toward(S, m, toward).of(sq)
        index, ents = S.vars[KEY]["at"], S.ents
        out = []
        for nb in steps:
            uids = index.get(sq_key(nb))
            if uids:
                for u in uids:
                    if ents[u]["id"] in want:
                        break
                else:
                    out.append(nb)
            else:
                out.append(nb)
        return out

    def movable(self, S, xs, kinds, toward=None, skip=None) -> list:
        """The pieces (or squares) of `xs` that have an open step (see `open_steps`), less
        those in `skip`: which chasers may move at all, asked once for all of them. A chase
        asks this of every piece on the board at every step, so it is written out: each
        square's neighbours are named once per map, the squares taken by the kinds are
        kept in step as pieces move (see `taken`), the steps toward the targets are shared
        (see `Closer`), a piece is looked for in `skip` by its uid, and the answers about
        all the pieces of one kind are kept from one step to the next (see `Steps`)."""
        m = self.map(S)
        want = _kind_set(kinds)
        if skip is not None and type(skip) is not list:
            raise RuleRuntimeError(f"movable: expected a list of values to leave out, got "
                                   f"{S.describe(skip)}")
        gone = {y.i for y in skip if type(y) is E} if skip else ()
        ents, taken = S.ents, self.taken(S, want)
        near = _near(m)
        if toward is None:
            steps = self._listing.free_of(want, near)
            if len(want) == 1 and type(xs) is list:
                refs = self._listing.lists.get(next(iter(want)))
                if refs is not None and xs == refs:  # all the pieces of the kind, in C
                    if steps.refs is not refs:
                        if len({x.i for x in refs}) < len(refs):
                            return self._free(S, xs, skip, gone, taken, near, steps)
                        steps.follow(refs)
                    if steps.unsure:
                        steps.settle(ents, self._index(S), taken, gone)
                    return steps.answer(gone)
            return self._free(S, xs, skip, gone, taken, near, steps)
        closer: Closer | None = None
        known: dict = {}
        out = []
        for x in xs:
            if type(x) is E:
                if x.i in gone:
                    continue
                ent = ents.get(x.i)
                sq = ent.get("cell") if ent is not None else None
            elif skip and x in skip:
                continue
            else:
                sq = self.square_of(S, x)
            if sq is None:
                continue
            if closer is None:
                closer = self._toward(S, m, toward)
                known = closer.keys
            down = known.get(sq)
            if down is None:
                down = closer.keys_of(sq)
            for k in down:
                if k not in taken:
                    out.append(x)
                    break
        return out

    def _free(self, S, xs, skip, gone, taken: set, near: _Near, steps: Steps) -> list:
        """`movable` without targets. Between two steps of a chase one piece moved, so
        whether a piece has a step is remembered per piece (`known`, see
        `_Listing.free_of`) and worked out again only for the pieces next to the squares
        whose pieces changed, and for pieces the board's index does not hold where they
        stand (which it is not told about)."""
        ents, index, known = S.ents, self._index(S), steps.known
        out = []
        for x in xs:
            if type(x) is E:
                u = x.i
                if u in gone:
                    continue
                free = known.get(u)
                if free is None:
                    free = steps.has_step(ents, index, u, taken)
                if free:
                    out.append(x)
            elif skip and x in skip:
                continue
            else:
                sq = self.square_of(S, x)
                if sq is not None:
                    for k in near[sq]:
                        if k not in taken:
                            out.append(x)
                            break
        return out

    def _where(self, S, x):
        if type(x) is E:
            ent = S.ents.get(x.i)
            return ent.get("cell") if ent is not None else None
        return self.square_of(S, x)

    def _toward(self, S, m: Map, targets) -> Closer:
        """The steps toward `targets` on map `m`, shared by every question about the same
        target squares on the same map: the chasers of a turn all head for the same targets."""
        found = []
        for t in targets:
            w = self.square_of(S, t)
            if w is not None:
                found.append(w)
        wheres = tuple(found)
        memo: dict[tuple, Closer] | None = m.memo.get("toward")
        if memo is None:
            memo = m.memo["toward"] = {}
        got = memo.get(wheres)
        if got is None:
            if len(memo) >= 64:
                memo.clear()
            got = memo[wheres] = Closer(m, wheres)
        return got

    def nearest_distance(self, S, sq, xs):
        """Moves from square `sq` to the nearest of `xs` (squares, pieces or players), or
        none when none of them can be reached: how far the closest thing of a kind is."""
        m = self.map(S)
        sq = need_cell(S, sq, "nearest_distance")
        wheres = [w for w in (self.square_of(S, x) for x in xs) if w is not None]
        best = None
        if len(wheres) <= 4:  # few targets: their own distance tables, shared by every asker
            for w in wheres:
                d = m.distance(sq, w)
                if d is not None and (best is None or d < best):
                    best = d
            return best
        table = m.dist_to(sq)  # many targets: one table from the asking square
        for w in wheres:
            d = table.get(w)
            if d is not None and (best is None or d < best):
                best = d
        return best

    def approach(self, S, x, targets) -> list:
        """The neighbours of `x` one move closer to the nearest of `targets` (all of them
        when several targets are equally near): the ways a chaser may step."""
        m = self.map(S)
        sq = self.square_of(S, x)
        if sq is None:
            return []
        return sorted(self._toward(S, m, targets).of(sq))

    def square_of(self, S, x):
        """Where a value stands: a square is itself, a piece its cell, a player their square."""
        if is_cell(x):
            return x
        if type(x) is E:
            return S.ents[x.i].get("cell") if x.i in S.ents else None
        if type(x) is P and self.player_square:
            return S.pl[x.i].get(self.player_square)
        return None


class Closer:
    """For each square, its neighbours one move closer to the nearest of some target squares
    (ties all kept; none when no target can be reached or one is there already), worked out
    once per square from one breadth-first search out of all the targets. Moves go both
    ways, so a neighbour one move closer to some target is one move closer to a nearest one:
    the steps toward the nearest targets are exactly the steps down the table of all of them."""

    __slots__ = ("adj", "dist", "steps", "keys")

    def __init__(self, m: Map, targets: tuple):
        self.adj = m.adj
        self.dist = m.dist_to_any(targets)
        self.steps: dict = {}
        self.keys: dict = {}

    def of(self, sq) -> list:
        """The steps from `sq`; none from a value that is not a square."""
        if not is_cell(sq):
            hash(sq)  # what is not a value at all fails as a map lookup would
            return []
        got = self.steps.get(sq)
        if got is None:
            got = self.steps[sq] = self._down(sq)
        return got

    def keys_of(self, sq) -> tuple:
        """`of(sq)` as names in the piece index."""
        if not is_cell(sq):
            hash(sq)
            return ()
        got = self.keys.get(sq)
        if got is None:
            got = self.keys[sq] = tuple([sq_key(nb) for nb in self._down(sq)])
        return got

    def _down(self, sq) -> list:
        dist = self.dist
        here = dist.get(sq)
        if not here:
            return []
        step = here - 1
        return [nb for nb in self.adj.get(sq, ()) if dist.get(nb) == step]


class _Near(dict):
    """Square -> the names of its neighbours in the piece index, worked out on first use:
    the open-step question without naming a square again."""

    __slots__ = ("adj",)

    def __init__(self, adj: dict):
        super().__init__()
        self.adj = adj

    def __missing__(self, sq):
        nbs = self.adj.get(sq)
        if nbs is None:
            return ()
        got = self[sq] = tuple(map(sq_key, nbs))
        return got


def _near(m: Map) -> _Near:
    near: _Near | None = m.memo.get("near")
    if near is None:
        near = m.memo["near"] = _Near(m.adj)
    return near


def _kind_set(kinds) -> frozenset:
    got = _KIND_SETS.get(kinds) if isinstance(kinds, str) else None
    if got is None:
        got = frozenset([kinds] if isinstance(kinds, str) else kinds)
        if isinstance(kinds, str):
            _KIND_SETS[kinds] = got
    return got


_KIND_SETS: dict[str, frozenset] = {}


def need_cell(S, sq, fn: str):
    if not is_cell(sq):
        raise RuleRuntimeError(f"{fn}: expected a square, got {S.describe(sq)}")
    return sq
