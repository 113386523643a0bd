"""Pieces on cells: the part of a board that does not depend on its shape.

A piece is an entity (made by `spawn`, or any card) that sits in the board's piece zone
with a `cell` field. Only the board's builtins put pieces on cells and take them off, so
a piece's zone and its `cell` always agree: a piece on the board is in the zone and has a
cell; a piece anywhere else has none.

"What is on this cell" is asked several times for every step of every piece, so each state
has an index cell -> uids, kept by the board, outside the state: it is worked out from the
entities' `cell` fields the first time a state is asked, then the builtins that change a
piece's cell keep it in step. It is found by the identity of the state's entity table
(`S.ents`), which every copy of a state (a clone, a loaded save, a snapshot) has of its
own; nothing derived is stored in the state or saved. An index only lists where pieces may
be: each answer is checked against the entities (zone and cell), so a piece that left the
board by other means than `lift` (a plain `move`) is not counted. A rule cannot write a
piece's `cell` field itself (the compiler and `runtime.set_` refuse it): the index would
not see the piece at its new cell.

Each cell holds at most `capacity` pieces, not counting *markers* (kinds that neither count
nor block, such as a trap lying on a square). A piece that moves `through` others ignores
the limit for that move. Every step announces the pack's enter event (when the board
declares one) with the piece, the cell, where it came from and the pieces already there:
the hook for rules such as "a trap goes off when something steps on it" or "a mover
crushes what it runs over".

Subclasses give the geometry: `has_cell`, `all_cells`, `adjacent`, `dist`, `region_cells`.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter

from engine.board.cell import Cell, Point
from engine.board.registry import bound_words
from engine.dsl.runtime import MISSING
from engine.dsl.values import E_OF, E, Z
from engine.errors import RuleRuntimeError
from engine.extensions import Extension

_ID = itemgetter("id")
_DIST_CELL = itemgetter(0, 1)
_KEEP = 16  # indexes kept per board (a game, its snapshot, a search bot's copies)


def kind_set(S, kinds) -> set:
    if isinstance(kinds, str):
        return {kinds}
    if isinstance(kinds, list):
        return set(kinds)
    raise RuleRuntimeError(f"expected a kind or a list of kinds, got {S.describe(kinds)}")


def _shift(at: dict, uid: int, old, new) -> None:
    """Piece `uid` went from cell `old` to `new` (None: off the board), in index `at`."""
    if type(old) is Cell:
        listed = at.get(old)
        if listed and uid in listed:
            listed.remove(uid)
    if new is not None:
        listed = at.setdefault(new, [])
        if uid not in listed:
            listed.append(uid)


class PieceBoard(Extension):
    name = "board"

    def words(self) -> dict:
        return bound_words(self)

    def zones(self) -> set[str]:
        return {self.zone}

    def events(self) -> dict:
        if not self.enter_event:
            return {}
        return {self.enter_event: (self.enter_span, ("piece", "cell", "origin", "others"))}

    def __init__(self, zone: str, capacity: int | None, markers: frozenset[str],
                 enter_event: str | None):
        self.zone = zone
        self.zone_ref = Z(zone)
        self.capacity = capacity
        self.markers = markers
        self.enter_event = enter_event
        self.enter_span = None  # where the pack names it (engine.pack.events)
        self._indexes: dict = {}  # id(S.ents) -> (S.ents, index) of the states asked lately
        self._last_index: tuple = (object(), {})  # the state asked last: most questions are about one
        self._last_pieces: tuple = (object(), None, None, None)  # (S.ents, kinds, uids, answer) of pieces()

    # ---------- geometry: subclasses ----------
    def has_cell(self, c) -> bool:
        raise NotImplementedError

    def all_cells(self) -> list:
        raise NotImplementedError

    def adjacent(self, c) -> tuple:
        raise NotImplementedError

    def dist(self, a, b) -> int:
        raise NotImplementedError

    def distances(self, goal) -> dict:
        """cell -> `dist(cell, goal)`, for as many cells as the geometry knows in advance."""
        return {}

    # ---------- reading places ----------
    def where(self, S, x, what: str = "a cell"):
        """The cell (or point) `x` stands for: a cell, a point, or a piece on the board."""
        t = type(x)
        if t is Cell or t is Point:
            return x
        if t is E:
            ent = S.ents[x.i]
            c = ent.get("cell")
            if c is None or ent["@z"] != self.zone:
                raise RuleRuntimeError(f"{S.describe(x)} is not on the board")
            return c
        raise RuleRuntimeError(f"expected {what} or a piece on the board, got {S.describe(x)}")

    def cell_of(self, S, x) -> Cell:
        c = self.where(S, x)
        if type(c) is not Cell:
            raise RuleRuntimeError(f"expected a cell, got the point {c!r}")
        return c

    def check_cell(self, S, c) -> Cell:
        if type(c) is not Cell:
            raise RuleRuntimeError(f"expected a cell, got {S.describe(c)}")
        if not self.has_cell(c):
            raise RuleRuntimeError(f"cell {c!r} is not on the board")
        return c

    # ---------- what is where ----------
    def index(self, S) -> dict:
        """cell -> uids put there, for state S (see the module docstring)."""
        ents = S.ents
        last = self._last_index
        if last[0] is ents:
            return last[1]
        got = self._indexes.get(id(ents))
        if got is None or got[0] is not ents:
            at: dict = {}
            for u, e in ents.items():
                c = e.get("cell")
                if type(c) is Cell:
                    at.setdefault(c, []).append(u)
            if len(self._indexes) >= _KEEP:
                self._indexes.clear()
            got = self._indexes[id(ents)] = (ents, at)  # holding the table: its id stays its own
        self._last_index = got
        return got[1]

    def moved(self, S, uid: int, old, new) -> None:
        """Keep S's index in step: piece `uid` went from cell `old` to `new` (None: off)."""
        _shift(self.index(S), uid, old, new)

    def uids_on(self, S, c) -> list[int]:
        """The pieces on cell `c`, in zone order."""
        listed = self.index(S).get(c)
        if not listed:
            return []
        ents, zone = S.ents, self.zone
        found = [u for u in listed
                 if (e := ents.get(u)) is not None and e["@z"] == zone and e.get("cell") == c]
        if len(found) > 1:
            found.sort(key=S.zones[zone].index)
        return found

    def with_room(self, S, cells, skip: int = -1) -> list:
        """The cells of `cells` (in order) with room for one more counted piece, not
        counting markers or the piece `skip`."""
        capacity = self.capacity
        if capacity is None:
            return list(cells)
        ents = S.ents
        last = self._last_index
        at = last[1] if last[0] is ents else self.index(S)
        zone, markers = self.zone, self.markers
        out = []
        for c in cells:
            listed = at.get(c)
            if not listed:  # nobody there, and every cell has room for one
                out.append(c)
                continue
            n = 0
            for u in listed:
                e = ents.get(u)
                if e is not None and u != skip and e["@z"] == zone and e.get("cell") == c \
                        and e["id"] not in markers:
                    n += 1
            if n < capacity:
                out.append(c)
        return out

    def room_among(self, S, uids: list[int]) -> bool:
        """Whether a cell holding `uids` has room for one more counted piece."""
        if self.capacity is None:
            return True
        ents = S.ents
        return sum(1 for u in uids if ents[u]["id"] not in self.markers) < self.capacity

    def others_at(self, S, c, skip: int) -> list[int]:
        return [u for u in self.uids_on(S, c) if u != skip]

    def uids_at(self, S, c, kinds=None) -> list[int]:
        found = self.uids_on(S, c)
        if kinds is not None:
            wanted = kind_set(S, kinds)
            ents = S.ents
            found = [u for u in found if ents[u]["id"] in wanted]
        return found

    # ---------- builtins: looking ----------
    def on_board(self, S, x) -> bool:
        return type(x) is E and S.ents[x.i]["@z"] == self.zone

    def pieces(self, S, kinds=None) -> list:
        """The pieces on the board (of some kinds), in zone order. A rule may ask this after
        every step (an end condition counting the pieces left), while steps change no one's
        zone: the last answer is kept, and given again while the state, the kinds asked
        and the zone's pieces are the same (a piece's kind never changes)."""
        uids = S.zones[self.zone]
        if kinds is None:
            return list(map(E_OF, uids))
        last = self._last_pieces
        if last[0] is S.ents and last[1] == kinds and last[2] == uids:
            return last[3].copy()
        wanted = set(kinds) if type(kinds) is list else kind_set(S, kinds)
        found = list(map(E_OF, compress(uids, map(wanted.__contains__,
                                                   map(_ID, map(S.ents.__getitem__, uids))))))
        if type(kinds) is list:
            self._last_pieces = (S.ents, kinds.copy(), uids.copy(), found.copy())
        return found

    def pieces_at(self, S, c, kinds=None) -> list:
        return list(map(E_OF, self.uids_at(S, self.cell_of(S, c), kinds)))

    def piece_at(self, S, c, kinds=None):
        """The piece on a cell (one that counts before a marker), or none."""
        uids = self.uids_at(S, self.cell_of(S, c), kinds)
        if not uids:
            return None
        ents = S.ents
        for u in uids:
            if ents[u]["id"] not in self.markers:
                return E(u)
        return E(uids[0])

    def free(self, S, c) -> bool:
        c = self.cell_of(S, c)
        return self.has_cell(c) and self.room_among(S, self.others_at(S, c, -1))

    def free_cells(self, S, cells=None) -> list:
        """The cells (of a list or region, default the whole board) with room for a piece."""
        return self.with_room(S, self.cell_list(S, cells))

    def empty_cells(self, S, cells=None) -> list:
        """The cells (of a list or region, default the whole board) with no piece at all.
        Rules ask it of the whole board at every decision that offers a free square, so the
        index is read here in one loop rather than `uids_on` asked cell by cell."""
        at = self.index(S)
        ents, zone = S.ents, self.zone
        out = []
        for c in self.cell_list(S, cells):
            for u in at.get(c, ()):  # the index only says who may be there: each is checked
                e = ents.get(u)
                if e is not None and e["@z"] == zone and e.get("cell") == c:
                    break
            else:
                out.append(c)
        return out

    def cell_list(self, S, cells) -> list:
        if cells is None:
            return self.all_cells()
        if isinstance(cells, list):
            return [self.check_cell(S, c) for c in cells]
        return self.region_cells(S, cells)

    def region_cells(self, S, r) -> list:
        raise RuleRuntimeError(f"expected a list of cells, got {S.describe(r)}")

    def closest_first(self, S, xs, target) -> list:
        """The pieces or cells of `xs`, nearest `target` first (ties in board order)."""
        goal = self.where(S, target, "a cell or point")
        ents, zone, dist = S.ents, self.zone, self.dist
        known = self.distances(goal)
        keyed = []
        for x in xs:
            ent = ents[x.i] if type(x) is E else None
            c = ent.get("cell") if ent is not None else None
            if c is None or ent is None or ent["@z"] != zone:  # where(S, x), written out
                c = self.where(S, x)
            d = known.get(c)
            keyed.append((dist(c, goal) if d is None else d, c, x))
        keyed.sort(key=_DIST_CELL)
        return [k[2] for k in keyed]

    # ---------- builtins: changing ----------
    def spawn(self, S, kind: str, where):
        """A new piece of `kind` (with its kind's fields) in a zone or on a cell."""
        d = S.game.kinds.get(kind) or S.game.cards.get(kind)
        if d is None:
            raise RuleRuntimeError(f"spawn: no kind '{kind}'")
        uid = S.new_entity(kind, d.fields)
        S.ent_w(uid)["cell"] = None
        if type(where) is Z:
            S.move_ent(uid, where)
        else:
            self.place(S, E(uid), where)
        return E(uid)

    def place(self, S, piece, c) -> None:
        """Put a piece (from any zone, or elsewhere on the board) on a cell with room."""
        if type(piece) is not E:
            raise RuleRuntimeError(f"place: expected a piece, got {S.describe(piece)}")
        c = self.check_cell(S, c)
        ent = S.ents[piece.i]
        if ent["id"] not in self.markers and not self.with_room(S, (c,), piece.i):
            raise RuleRuntimeError(f"place: cell {c!r} is full")
        if ent["@z"] != self.zone:
            S.move_ent(piece.i, self.zone_ref)
        ent = S.ent_w(piece.i)
        old = ent.get("cell")
        ent["cell"] = c
        self.moved(S, piece.i, old, c)

    def step(self, S, piece, c, through: bool = False) -> list:
        """Move a piece on the board to an adjacent cell; returns the pieces already there.

        With `through`, the cell's limit does not stop it. Announces the enter event."""
        ent = S.ents[piece.i] if type(piece) is E else None
        origin = ent.get("cell") if ent is not None else None
        if type(origin) is not Cell or ent is None or ent["@z"] != self.zone:  # cell_of(S, piece), written out
            origin = self.cell_of(S, piece)
        if type(c) is not Cell or c not in self.adjacent(origin):
            c = self.check_cell(S, c)
            raise RuleRuntimeError(f"step: {c!r} is not next to {origin!r}")
        if ent is None:
            ent = S.ents[piece.i]  # (not a piece: fails here, as it always has)
        last = self._last_index
        at = last[1] if last[0] is S.ents else self.index(S)
        if at.get(c):
            there = self.others_at(S, c, piece.i)
            if not through and ent["id"] not in self.markers and not self.room_among(S, there):
                raise RuleRuntimeError(f"step: cell {c!r} is full")
            others = list(map(E_OF, there))
        else:  # nobody there, and every cell has room for one
            others = []
        uid = piece.i
        S.ent_w(uid)["cell"] = c
        listed = at.get(origin)  # _shift(at, uid, origin, c), written out: both are cells
        if listed and uid in listed:
            listed.remove(uid)
        listed = at.get(c)
        if listed is None:
            at[c] = [uid]
        elif uid not in listed:
            listed.append(uid)
        if self.enter_event:  # S.emit(...), written out
            S.events.append((self.enter_event, {"piece": piece, "cell": c, "origin": origin,
                                                "others": others}))
        return others

    def lift(self, S, piece, zone) -> None:
        """Take a piece off the board (or out of any zone) into `zone`."""
        if type(piece) is not E:
            raise RuleRuntimeError(f"lift: expected a piece, got {S.describe(piece)}")
        S.move_ent(piece.i, zone)
        ent = S.ent_w(piece.i)
        old = ent.get("cell")
        ent["cell"] = None
        self.moved(S, piece.i, old, None)

    # ---------- the extension interface ----------
    def ent_attr(self, S, e, name: str):
        if name == "cell":
            return None  # a piece never placed has no cell yet
        return MISSING
