"""What a compiled snippet may read and write: enough to skip work that cannot matter.

The game's end conditions are checked after every effect, because any effect might make
one true. Most effects cannot: rolling dice or moving a token does not change who is
out. A *footprint* is a conservative answer to "which state can this touch": the keys
(engine.dsl.facts) that a snippet and the procedures it calls read or write, from the
facts the compiler recorded on each (`Compiled.facts`). A procedure that calls itself,
directly or through others, is not followed: its callers touch everything (`ANY`).

Two footprints meet when they share a key, or one holds `ANY`, or both hold `OTHER`.
An effect whose writes do not meet what the end conditions read leaves them as false as
they were after the last check, so that check need not run again.
"""

from __future__ import annotations

from engine.dsl.facts import ANY, EVERYTHING, OTHER, reached

__all__ = ["ANY", "OTHER", "meet", "reads", "writes"]


def meet(a: frozenset, b: frozenset) -> bool:
    """Whether state read through footprint `a` may be changed through footprint `b`."""
    return ANY in a or ANY in b or not a.isdisjoint(b)


def reads(game, c) -> frozenset:
    found = reached(game.effect_procs, c.facts)
    if found is None:
        return EVERYTHING
    keys = set().union(*(f.reads for f in found))
    for f in found:  # `count(p(...))` reads a zone only when p's value may be one
        for proc, zone in f.sized:
            if not game.effect_procs[proc][1].facts.makes_list:
                keys |= zone
    return frozenset(keys)


def writes(game, c) -> frozenset:
    found = reached(game.effect_procs, c.facts)
    return EVERYTHING if found is None else frozenset().union(*(f.writes for f in found))
