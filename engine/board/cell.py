"""Cells and points: the places of a board, as values of the effect language.

A `Cell` is a square of a grid, `row` and `col` counted from 1 as players count them. It is
an immutable tuple subclass, so it hashes and compares as fast as a tuple and can sit in
flow frames, turn variables and entity fields like any other value. It reads `3,2` in logs
and action labels (`place(cell=3,2)`) and saves as `{"$cell": [3, 2]}`.

A `Point` is a named place that need not be a cell: a door half a square past the last
row is the point (10.5, 3). Distances to a point are rounded up to whole squares.
"""

from __future__ import annotations

from engine import codec


class Cell(tuple):
    __slots__ = ()

    def __new__(cls, row: int, col: int):
        return tuple.__new__(cls, (row, col))

    @property
    def row(self) -> int:
        return self[0]

    @property
    def col(self) -> int:
        return self[1]

    def __repr__(self) -> str:
        return f"{self[0]},{self[1]}"

    __str__ = __repr__

    def __reduce__(self):  # pickling and copying keep the type
        return (Cell, (self[0], self[1]))


class Point:
    """A named fixed place on or beside a board; coordinates may be fractional."""

    __slots__ = ("name", "row", "col", "_hash")

    def __init__(self, name: str, row: float, col: float):
        self.name, self.row, self.col = name, row, col
        self._hash = hash(("Point", row, col))  # distance tables are looked up by point

    def __eq__(self, other):
        return type(other) is Point and (other.row, other.col) == (self.row, self.col)

    def __hash__(self):
        return self._hash

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self):  # pickling and copying compute the hash afresh (str hashes vary by process)
        return (Point, (self.name, self.row, self.col))


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


codec.register_codec(Cell, "$cell", lambda c: [c[0], c[1]],
                       lambda x, game: Cell(int(x[0]), int(x[1])))
codec.register_codec(Point, "$point", lambda p: [p.name, p.row, p.col],
                       lambda x, game: Point(str(x[0]), _number(x[1]), _number(x[2])))
