"""`links: roads`: tiles join only where two roads meet, not wherever two squares of the
`across` kinds face each other over a tile edge (a street square in an edge's corner)."""

from __future__ import annotations

import textwrap

import pytest

import engine
from engine.board.tilemap import MapCache, Rules, TileDef, extend_key, roads_from
from engine.errors import PackError

LEGEND = {".": "street", "#": "building", "x": "blocked"}


def tile(tid, rows):
    kinds = tuple(LEGEND[ch] for r in rows for ch in r)
    return TileDef(tid, tid, kinds, roads_from(kinds, "street"))


# a plaza (all street) and, east of it, a shop whose road leaves west, with a street square
# in the north corner of that edge too: it faces the plaza's square (2,0) off the road
TILES = {t.id: t for t in [tile("plaza", ["...", "...", "..."]),
                           tile("shop", [".##", "..#", "###"])]}


def grown(roads_only: bool):
    rules = Rules(frozenset({"blocked"}), frozenset({"street"}), roads_only=roads_only)
    key = extend_key(extend_key("", 1, "plaza", (0, 0), 0), 2, "shop", (1, 0), 0)
    return MapCache(TILES, rules).get(key)


def test_by_default_any_facing_street_squares_link():
    m = grown(False)
    assert (3, 0) in m.adj[(2, 0)] and (2, 0) in m.adj[(3, 0)]  # the corner: off the road
    assert (3, 1) in m.adj[(2, 1)]                               # the road


def test_with_roads_only_tiles_join_where_the_roads_meet():
    m = grown(True)
    assert (3, 0) not in m.adj[(2, 0)] and (2, 0) not in m.adj[(3, 0)]
    assert (3, 1) in m.adj[(2, 1)] and (2, 1) in m.adj[(3, 1)]
    assert (3, 1) in m.adj[(3, 0)]  # inside the tile the corner square is still reached
    assert m.distance((2, 0), (3, 0)) == 3


PACK = textwrap.dedent("""
    pack: road-links
    title: Road links
    players: {min: 1, max: 1, default: 1}
    zones:
      stack: {visible: none}
      map: {}
    board:
      type: tiles
      stack: stack
      placed: map
      start: plaza
      links: LINKS
      tiles:
        - {id: plaza, squares: ["...", "...", "..."]}
        - {id: shop, squares: [".##", "..#", "###"]}
    flow:
      - do: place_tile(top(stack), cell(1, 0), 0)
""")


def load(tmp_path, links: str):
    (tmp_path / "pack.yaml").write_text(PACK.replace("LINKS", links))
    return engine.load(str(tmp_path / "pack.yaml"))


def test_the_pack_option_reaches_the_map(tmp_path):
    S = load(tmp_path, "roads").new_state(players=1, seed=1)
    S.decision()
    board = S.game.extensions["board"]
    assert board.neighbors(S, (2, 0)) == [(1, 0), (2, 1)]
    assert board.neighbors(S, (2, 1))[-1] == (3, 1)


def test_a_bad_links_value_says_what_it_may_be(tmp_path):
    with pytest.raises(PackError, match="board.links: expected one of 'any', 'roads', got 'road'"):
        load(tmp_path, "road")
