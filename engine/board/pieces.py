"""Pieces on cells: the part of a board that does not depend on its shape.

A piece is an entity (made by `spawn`, or any card) that sits in the board's piece zone
with a `cell` field. Only the board's builtins put pieces on cells and take them off, so
a piece's zone and its `cell` always agree: a piece on the board is in the zone and has a
cell; a piece anywhere else has none. Occupancy is computed from the zone when asked —
a board holds a few dozen pieces, and no second index can drift out of step with the
entities that way.

Each cell holds at most `capacity` pieces, not counting *markers* (kinds that neither count
nor block, such as a trap lying on a square). A piece that moves `through` others ignores
the limit for that move. Every step announces the pack's enter event (when the board
declares one) with the piece, the cell, where it came from and the pieces already there:
the hook for rules such as "a trap goes off when something steps on it" or "a mover
crushes what it runs over".

Subclasses give the geometry: `has_cell`, `all_cells`, `adjacent`, `dist`, `describe_place`.
"""

from __future__ import annotations

from engine.board.cell import Cell, Point
from engine.dsl.runtime import MISSING
from engine.dsl.values import E, Z
from engine.errors import RuleRuntimeError
from engine.extensions import Extension


def kind_set(S, kinds) -> set:
    if isinstance(kinds, str):
        return {kinds}
    if isinstance(kinds, list):
        return set(kinds)
    raise RuleRuntimeError(f"expected a kind or a list of kinds, got {S.describe(kinds)}")


class PieceBoard(Extension):
    name = "board"

    def __init__(self, zone: str, capacity: int | None, markers: frozenset[str],
                 enter_event: str | None):
        self.zone = zone
        self.zone_ref = Z(zone)
        self.capacity = capacity
        self.markers = markers
        self.enter_event = enter_event

    # ---------- geometry: subclasses ----------
    def has_cell(self, c) -> bool:
        raise NotImplementedError

    def all_cells(self) -> list:
        raise NotImplementedError

    def adjacent(self, c) -> tuple:
        raise NotImplementedError

    def dist(self, a, b) -> int:
        raise NotImplementedError

    # ---------- reading places ----------
    def where(self, S, x, what: str = "a cell"):
        """The cell (or point) `x` stands for: a cell, a point, or a piece on the board."""
        t = type(x)
        if t is Cell or t is Point:
            return x
        if t is E:
            c = S.ents[x.i].get("cell")
            if c is None or S.ents[x.i]["@z"] != self.zone:
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

    # ---------- occupancy ----------
    def occupancy(self, S, skip: int = -1) -> dict:
        """cell -> number of counted pieces on it (markers and `skip` left out)."""
        occ: dict = {}
        ents = S.ents
        markers = self.markers
        for u in S.zones[self.zone]:
            if u == skip:
                continue
            e = ents[u]
            if e["id"] in markers:
                continue
            c = e.get("cell")
            occ[c] = occ.get(c, 0) + 1
        return occ

    def has_room(self, occ: dict, c) -> bool:
        return self.capacity is None or occ.get(c, 0) < self.capacity

    def room_among(self, S, uids: list[int]) -> bool:
        """Whether a cell holding `uids` has room for one more counted piece."""
        if self.capacity is None:
            return True
        ents = S.ents
        return sum(1 for u in uids if ents[u]["id"] not in self.markers) < self.capacity

    def others_at(self, S, c, skip: int) -> list[int]:
        ents = S.ents
        return [u for u in S.zones[self.zone] if u != skip and ents[u].get("cell") == c]

    def uids_at(self, S, c, kinds=None) -> list[int]:
        ents = S.ents
        uids = [u for u in S.zones[self.zone] if ents[u].get("cell") == c]
        if kinds is not None:
            wanted = kind_set(S, kinds)
            uids = [u for u in uids if ents[u]["id"] in wanted]
        return uids

    # ---------- builtins: looking ----------
    def on_board(self, S, x) -> bool:
        return type(x) is E and S.ents[x.i]["@z"] == self.zone

    def pieces(self, S, kinds=None) -> list:
        uids = S.zones[self.zone]
        if kinds is None:
            return [E(u) for u in uids]
        wanted = kind_set(S, kinds)
        ents = S.ents
        return [E(u) for u in uids if ents[u]["id"] in wanted]

    def pieces_at(self, S, c, kinds=None) -> list:
        return [E(u) for u in self.uids_at(S, self.cell_of(S, c), kinds)]

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
        occ = self.occupancy(S)
        return [c for c in self.cell_list(S, cells) if self.has_room(occ, c)]

    def empty_cells(self, S, cells=None) -> list:
        """The cells (of a list or region, default the whole board) with no piece at all."""
        taken = {S.ents[u].get("cell") for u in S.zones[self.zone]}
        return [c for c in self.cell_list(S, cells) if c not in taken]

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
        keyed = []
        for x in xs:
            c = self.where(S, x)
            keyed.append((self.dist(c, goal), c, x))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [k[2] for k in keyed]

    # ---------- builtins: changing ----------
    def spawn(self, S, kind: str, where):
        """A new piece of `kind` (with its kind's fields) in a zone or on a cell."""
        d = S.game.kinds.get(kind) or S.game.cards.get(kind)
        if d is None:
            raise RuleRuntimeError(f"spawn: no kind '{kind}'")
        uid = S.new_entity(kind, d.fields)
        S.ents[uid]["cell"] = None
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
        if ent["id"] not in self.markers and not self.room_among(S, self.others_at(S, c, piece.i)):
            raise RuleRuntimeError(f"place: cell {c!r} is full")
        if ent["@z"] != self.zone:
            S.move_ent(piece.i, self.zone_ref)
        ent["cell"] = c

    def step(self, S, piece, c, through: bool = False) -> list:
        """Move a piece on the board to an adjacent cell; returns the pieces already there.

        With `through`, the cell's limit does not stop it. Announces the enter event."""
        origin = self.cell_of(S, piece)
        c = self.check_cell(S, c)
        if c not in self.adjacent(origin):
            raise RuleRuntimeError(f"step: {c!r} is not next to {origin!r}")
        ent = S.ents[piece.i]
        there = self.others_at(S, c, piece.i)
        if not through and ent["id"] not in self.markers and not self.room_among(S, there):
            raise RuleRuntimeError(f"step: cell {c!r} is full")
        others = [E(u) for u in there]
        ent["cell"] = c
        if self.enter_event:
            S.emit(self.enter_event, {"piece": piece, "cell": c, "origin": origin,
                                      "others": others})
        return others

    def lift(self, S, piece, zone) -> None:
        """Take a piece off the board (or out of any zone) into `zone`."""
        if type(piece) is not E:
            raise RuleRuntimeError(f"lift: expected a piece, got {S.describe(piece)}")
        S.move_ent(piece.i, zone)
        S.ents[piece.i]["cell"] = None

    # ---------- the extension interface ----------
    def ent_attr(self, S, e, name: str):
        if name == "cell":
            return None  # a piece never placed has no cell yet
        return MISSING
