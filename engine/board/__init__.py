"""Boards as generic building blocks: cells in a graph, pieces on cells.

Importing this package registers every board kind with `engine.extensions`.
"""

from engine.board import (
    grid,  # noqa: F401 - grid boards (type: grid)
    registry,  # noqa: F401 - the `board:` section and its type registry
    tilebuild,  # noqa: F401 - tile boards (type: tiles)
    tilebuiltins,  # noqa: F401 - the tile board's words
)
