"""The library's front door: `engine.load(...)` turns a pack reference into a `Game`.

load (YAML with spans, includes, overlays) → validate (JSON Schema) → compile (names,
types, snippets). Every problem of every stage is reported together as one `PackError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.game import Game


def load(ref: str | Path, mode: str | None = None, params: dict | None = None,
         house: Sequence[str | Path] = (), sources=None) -> Game:
    """Load, validate and compile a pack (by id or path), with a mode and house rules.

    With `sources` (a `game.sources` kept by an earlier load, perhaps on another machine),
    the files are read from there, not from the disk."""
    import engine.board  # noqa: F401 - registers the board building blocks
    from engine.pack.build import Builder
    from engine.pack.loader import load_tree

    # schema-validated, all problems at once
    tree = load_tree(ref, mode=mode, house=house, sources=sources)
    return Builder(tree.node, params=params, mode=tree.mode,
                   files=[str(f) for f in tree.files],
                   house=[str(h) for h in house], sources=tree.sources).build()
