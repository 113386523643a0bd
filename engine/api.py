"""The library's front door: `engine.load(...)` turns a pack reference into a `Game`.

load (YAML with spans, includes, overlays) → validate (JSON Schema) → compile (names,
types, snippets). Every problem of every stage is reported together as one `PackError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.game import Game


def load(ref: str | Path, mode: str | None = None, params: dict | None = None,
         house: Sequence[str | Path] = ()) -> Game:
    """Load, validate and compile a pack (by id or path), with a mode and house rules."""
    import engine.board  # noqa: F401 - registers the board building blocks
    from engine.pack.build import Builder
    from engine.pack.loader import load_tree

    tree = load_tree(ref, mode=mode, house=house)  # schema-validated, all problems at once
    return Builder(tree.node, params=params, mode=tree.mode,
                   files=[str(f) for f in tree.files],
                   house=[str(h) for h in house]).build()
