"""The board vocabulary of the effect language: cells, regions, distances, pieces.

Every word here is a call of the board method of the same name (`engine.board.registry`),
so any board type that has the method answers it. Where a word takes "a place", it accepts
a cell, a named point, or a piece on the board (standing for its cell).
"""

from __future__ import annotations

from engine.board.registry import board_builtin

_WORDS = [
    # name, argument kinds, result, changes the game, doc
    ("cell", "int int", "cell", False, "The cell at row, col: `cell(1, 3)` (reads `1,3`)."),
    ("cells", "", "list:cell", False, "Every cell of the board, in board order."),
    ("cells_in", "any", "list:cell", False, "The cells of a named region, in board order."),
    ("within", "any any", "bool", False, "True when a place lies in a region."),
    ("neighbors", "any", "list:cell", False, "The cells one step from a place."),
    ("distance", "any any", "int", False,
     "Steps between two places (cells, points, pieces), rounded up for points between cells."),
    ("area", "any int?", "list:cell", False,
     "The block of cells around a place: `area(c)` is the 3x3 block, `area(c, 2)` 5x5."),
    ("closer_steps", "any any bool?", "list:cell", False,
     "Cells one step from a piece or cell that are strictly closer to a target and have room "
     "(any, with `through`), best first by the board's `prefer` order."),
    ("farther_steps", "any any bool?", "list:cell", False,
     "Like closer_steps, but strictly farther from the target."),
    ("closest_first", "list any", "list", False,
     "Pieces or cells ordered by distance to a target, nearest first."),
    ("free", "any", "bool", False, "True when a cell has room for one more piece."),
    ("free_cells", "any?", "list:cell", False,
     "The cells of a region or list (default: all) with room for one more piece."),
    ("empty_cells", "any?", "list:cell", False,
     "The cells of a region or list (default: all) with no piece at all, markers included."),
    ("piece_at", "any card?", "ent", False,
     "The piece on a cell (one that counts before a marker; optionally of some kinds), or none."),
    ("pieces_at", "any card?", "list:ent", False, "The pieces on a cell, optionally of some kinds."),
    ("pieces", "card?", "list:ent", False,
     "The pieces on the board, optionally only of a kind or a list of kinds."),
    ("on_board", "any", "bool", False, "True when a piece is on the board."),
    ("spawn", "card any", "ent", True,
     "A new piece of a kind, with its kind's fields, in a zone (in any pack) or on a cell "
     "(of the pack's board)."),
    ("place", "ent any", "none", True, "Put a piece on a cell that has room for it."),
    ("step", "ent any bool?", "list:ent", True,
     "Move a piece one step to an adjacent cell (past the cell's limit with `through`); "
     "announces the board's enter event and returns the pieces that were already there."),
    ("lift", "ent zone", "none", True, "Take a piece off the board into a zone."),
]

# What the lists of words hold, for agents' action spaces (`Builtin.domain`)
_DOMAINS = {"cells": "cell", "cells_in": "cell", "neighbors": "step", "area": "cell",
            "closer_steps": "step", "farther_steps": "step", "closest_first": "arg0",
            "free_cells": "cell", "empty_cells": "cell", "pieces_at": "piece", "pieces": "piece"}

# Words given a list look through it: charged its items (engine.dsl.work)
_CHARGED = ("closest_first", "free_cells", "empty_cells")

for _name, _args, _returns, _effect, _doc in _WORDS:
    board_builtin(_name, _args, _returns, _effect, _doc,
                  **({"domain": _DOMAINS[_name]} if _name in _DOMAINS else {}),
                  **({"charges": "items"} if _name in _CHARGED else {}))
