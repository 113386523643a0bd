"""What the tile board's chase words answer by their definitions, for the tests that check
its remembered answers (tests/board/test_tile_*_memo.py)."""

from __future__ import annotations

from engine.board.tilepieces import KEY, sq_key


def movable_by_definition(b, S, xs, kinds: set, skip) -> list:
    """The pieces of `xs` not in `skip` with a neighbouring square that holds no piece of
    `kinds`: `movable` without targets, worked out from the map and the board's index."""
    m = b.map(S)
    index = S.vars[KEY]["at"]
    gone = {y.i for y in skip}
    out = []
    for x in xs:
        sq = S.ents[x.i].get("cell")
        if x.i in gone or sq is None:
            continue
        if any(not any(S.ents[u]["id"] in kinds for u in index.get(sq_key(nb), ())) for nb in m.adj.get(sq, ())):
            out.append(x)
    return out
