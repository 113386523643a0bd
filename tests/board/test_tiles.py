"""Tile boards: shapes and rotations, fitting, the cell graph, pieces, saving, drawing."""

from __future__ import annotations

import json
import random
import textwrap

import pytest

import engine
from engine.board.tilemap import MapCache, Rules, TileDef, extend_key, roads_from, rotate
from engine.dsl.values import E, Z
from engine.errors import PackError, RuleRuntimeError

RULES = Rules(blocked=frozenset({"blocked"}), across=frozenset({"street"}))
LEGEND = {".": "street", "#": "building", "x": "blocked"}


def tile(tid, rows, count=1):
    kinds = tuple(LEGEND[ch] for r in rows for ch in r)
    return TileDef(tid, tid, kinds, roads_from(kinds, "street"), count)


TILES = {t.id: t for t in [
    tile("plaza", ["...", "...", "..."]),
    tile("straight", ["x.x", "x.x", "x.x"]),
    tile("corner", ["x.x", "x..", "xxx"]),
    tile("shop", ["###", "#..", "#.#"]),
    tile("end", ["x.x", "#.#", "###"]),
]}

PACK = textwrap.dedent("""
    pack: tiny-tiles
    title: Tiny tiles
    players: {min: 1, max: 2, default: 1}
    zones:
      stack: {shuffle: true, visible: none}
      map: {}
    kinds:
      - {id: walker, glyph: W}
      - {id: coin, glyph: c}
    player:
      sq: {type: any}
    turn:
      tile: null
    board:
      type: tiles
      stack: stack
      placed: map
      start: plaza
      player_square: sq
      tiles:
        - {id: plaza, name: Plaza, squares: ["...", "...", "..."]}
        - {id: straight, name: Road, count: 3, squares: ["x.x", "x.x", "x.x"], fields: {kind: road}}
        - {id: corner, name: Road, count: 2, squares: ["x.x", "x..", "xxx"]}
        - {id: shop, name: Shop, squares: ["###", "#..", "#.#"], roads: es,
           fields: {kind: shop, z: 2}}
    setup: |
      for p in players:
          p.sq = middle(find(map, 'plaza'))
    flow:
      - repeat: {until: "count(stack) == 0", max: 50}
        do:
          - do: |
              turn.tile = top(stack)
              if count(placements(turn.tile)) == 0:
                  move(turn.tile, map, 'bottom')
          - ask: place
    actions:
      - id: place
        at: place
        params: {at: "spots(turn.tile)", rot: "rotations(turn.tile, at)"}
        do: place_tile(turn.tile, at, rot)
    invariants:
      - edges_match()
""")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "pack.yaml").write_text(PACK)
    return engine.load(str(folder / "pack.yaml"))


def board(S):
    return S.game.extensions["board"]


# ---------- shapes ----------
def test_rotate_turns_clockwise():
    grid = tuple("abcdefghi")  # a b c / d e f / g h i
    assert "".join(rotate(grid, 1)) == "gdahebifc"
    assert rotate(grid, 4) == grid
    assert rotate(rotate(grid, 1), 3) == grid


def test_roads_leave_through_edge_middles():
    assert TILES["straight"].roads == {0, 2}
    assert TILES["corner"].roads == {0, 1}
    assert TILES["shop"].roads == {1, 2}
    assert TILES["plaza"].roads == {0, 1, 2, 3}


def test_only_distinct_rotations_are_offered():
    assert list(TILES["plaza"].shapes) == [0]
    assert list(TILES["straight"].shapes) == [0, 90]
    assert list(TILES["corner"].shapes) == [0, 90, 180, 270]
    assert TILES["straight"].canon[180] == 0 and TILES["straight"].canon[270] == 90


# ---------- fitting and the graph ----------
def grown(*placed):
    cache = MapCache(TILES, RULES)
    key = ""
    for uid, (tid, at, rot) in enumerate(placed, 1):
        key = extend_key(key, uid, tid, at, rot)
    return cache.get(key)


def test_road_meets_road_and_blank_meets_blank():
    m = grown(("plaza", (0, 0), 0))
    fits = m.placements(TILES["straight"])
    assert ((0, -1), 0) in fits and ((1, 0), 90) in fits
    assert ((1, 0), 0) not in fits  # a blank edge against the plaza's road
    m2 = grown(("plaza", (0, 0), 0), ("end", (0, -1), 180))
    # next to the dead end's blank sides only blank sides may touch
    assert ((1, -1), 0) in m2.placements(TILES["straight"])
    assert ((1, -1), 90) not in m2.placements(TILES["straight"])
    assert all(abs(x) + abs(y) >= 1 for (x, y), _ in m2.placements(TILES["corner"]))
    assert m2.edges_match()


def test_a_tile_must_touch_the_map():
    m = grown(("plaza", (0, 0), 0))
    assert not m.fits(TILES["straight"].shapes[0], (0, -2))
    assert not m.fits(TILES["straight"].shapes[0], (0, 0))


def test_moves_cross_tiles_only_street_to_street_and_buildings_open_on_all_sides():
    m = grown(("plaza", (0, 0), 0), ("shop", (1, 0), 180))
    # shop turned 180: rows "#.#", "..#", "###" on squares 3..5 x 0..2
    assert m.kind[(3, 0)] == "building" and m.kind[(3, 1)] == "street"
    assert (3, 0) not in m.adj[(2, 0)]  # plaza street -> shop building: no
    assert (3, 1) in m.adj[(2, 1)] and (2, 1) in m.adj[(3, 1)]
    assert (3, 0) in m.adj[(3, 1)]  # street -> building inside a tile
    assert (4, 0) in m.adj[(3, 0)] or m.kind[(4, 0)] == "street"
    assert (4, 2) in m.adj[(3, 2)] and (5, 2) in m.adj[(4, 2)]  # building -> building
    assert m.distance((0, 0), (5, 2)) == 7


def test_blocked_squares_are_never_entered():
    m = grown(("plaza", (0, 0), 0), ("straight", (0, -1), 0))
    assert (0, -1) not in m.adj
    assert (0, -1) not in m.adj[(0, 0)] and (1, -1) in m.adj[(1, 0)]


def test_paths_distances_and_steps_toward():
    m = grown(("plaza", (0, 0), 0), ("straight", (0, -1), 0), ("straight", (0, -2), 0))
    assert m.distance((1, 1), (1, -6)) == 7
    path = m.shortest_path((1, 1), (1, -6))
    assert path[-1] == (1, -6) and len(path) == 7
    assert m.shortest_path((1, 1), (1, 1)) == []
    assert m.shortest_path((1, 1), (9, 9)) is None
    assert m.step_toward((1, -3), (1, 1)) == [(1, -2)]
    assert sorted(m.step_toward((0, 0), (2, 2))) == [(0, 1), (1, 0)]


def test_a_map_is_rebuilt_from_its_key_alone():
    a = grown(("plaza", (0, 0), 0), ("shop", (1, 0), 180))
    b = MapCache(TILES, RULES).get(a.key)
    assert a.adj == b.adj and a.kind == b.kind and a.frontier == b.frontier


# ---------- in a game ----------
def test_labels_read_as_positions_and_rotations(game):
    S = game.new_state(seed=1)
    d = S.decision()
    assert d.point == "place"
    assert all(a.startswith("place(at=") and ", rot=" in a for a in d.actions)
    assert any(a == "place(at=0,-1, rot=0)" or a.startswith("place(at=0,-1,") for a in d.actions)


def test_random_play_keeps_every_edge_matched(game):
    for seed in range(5):
        S = game.new_state(seed=seed)
        r = random.Random(seed)
        while not S.is_terminal():
            S.apply(r.choice(S.decision().actions))
        b = board(S)
        m = b.map(S)
        assert m.edges_match()
        assert len(m.tiles) == sum(1 for u in S.zones["map"] if "at" in S.ents[u])
        assert b.render(S).plain.count("\n") >= 3


def test_clone_save_and_load_keep_the_map(game):
    S = game.new_state(seed=2)
    S.apply(S.decision().actions[0])
    S.apply(S.decision().actions[-1])
    data = json.loads(json.dumps(S.to_dict()))
    T = game.state_from_dict(data)
    assert board(T).map(T).adj == board(S).map(S).adj
    assert T.decision().actions == S.decision().actions
    C = S.clone()
    C.apply(C.decision().actions[0])
    assert board(S).map(S).key != board(C).map(C).key


def test_pieces_on_squares(game):
    S = game.new_state(seed=3)
    b = board(S)
    w = b.spawn(S, "walker", (1, 1))
    c = b.spawn(S, "coin", (1, 1))
    assert b.pieces_at(S, (1, 1)) == [w, c]
    assert b.piece_at(S, (1, 1), "coin") == c and b.piece_at(S, (0, 0), "coin") is None
    assert b.open_steps(S, (0, 1), "walker") == [(0, 0), (0, 2)]
    b.move_to(S, w, (0, 1))
    assert b.pieces(S, "walker") == [w] and S.ents[w.i]["cell"] == (0, 1)
    assert b.pieces_at(S, (1, 1)) == [c]
    assert b.stacked(S, "walker") == []
    b.spawn(S, "walker", (0, 1))
    assert b.stacked(S, "walker") == [(0, 1)]
    b.remove(S, c)
    assert c.i not in S.ents and b.pieces(S, "coin") == []
    with pytest.raises(RuleRuntimeError, match="not a square"):
        b.spawn(S, "walker", (40, 40))


def test_closest_and_approach(game):
    S = game.new_state(seed=3)
    b = board(S)
    assert b.closest(S, (0, 0), [(2, 2), (0, 2), (2, 0)]) == [(0, 2), (2, 0)]
    assert b.approach(S, (0, 0), [(2, 2)]) == [(0, 1), (1, 0)]
    assert b.approach(S, (0, 0), [(0, 2), (2, 2)]) == [(0, 1)]
    assert b.approach(S, (0, 0), []) == []


def test_tile_fields_read_from_the_language(game):
    S = game.new_state(seed=4)
    c = game.compile_expr("[t.name for t in cards(map)] + [middle(find(map, 'plaza')).x]")
    from engine.flow.machine import evaluate
    assert evaluate(S, c, {}) == ["Plaza", 1]


def test_render_fits_80_columns_and_crops_large_maps(game):
    S = game.new_state(seed=5)
    b = board(S)
    for k in range(1, 14):  # a long road east of the plaza, longer than a terminal is wide
        uid = S.new_entity("straight", {})
        S.move_ent(uid, Z("stack"))
        b.place(S, E(uid), (k, 0), 90)
    b.spawn(S, "coin", (2, 1))
    S.pl[0]["sq"] = (40, 1)
    text = b.render(S, 0).plain
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "cropped" in text and "0." in text
    whole = b.render(S, None, width=400).plain
    assert "cropped" not in whole and "Plaza" in whole and "c" in whole


# ---------- bad packs ----------
def test_bad_tile_sections_list_every_problem(tmp_path):
    bad = PACK.replace('squares: ["x.x", "x.x", "x.x"]', 'squares: ["x.x", "x?x", "x.x"]') \
        .replace("roads: es", "roads: nw").replace("stack: stack\n", "stack: stak\n") \
        .replace("start: plaza", "start: plazza")
    (tmp_path / "pack.yaml").write_text(bad)
    with pytest.raises(PackError) as info:
        engine.load(str(tmp_path / "pack.yaml"))
    text = str(info.value)
    assert "'?'" in text and "roads 'nw'" in text
    assert "board.stack must name a zone" in text and "did you mean 'stack'" in text
    assert "board.start must name a tile" in text


def test_unknown_board_type_is_a_pack_error(tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK.replace("type: tiles", "type: tyles"))
    with pytest.raises(PackError, match="board type must be one of"):
        engine.load(str(tmp_path / "pack.yaml"))


def test_a_tile_count_has_a_maximum(tmp_path):
    """As a card's: `count: 10**9` would make a billion entities before the first turn."""
    (tmp_path / "pack.yaml").write_text(PACK.replace("count: 3,", "count: 1000000000,"))
    with pytest.raises(PackError, match="tile straight: count must be a whole number from 0 to 1000"):
        engine.load(str(tmp_path / "pack.yaml"))
