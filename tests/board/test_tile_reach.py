"""Tile boards that stay connected (`connect: true`) and the words bots read them with:
`joins`, `nearest_distance`, `movable`."""

from __future__ import annotations

import pytest

import engine
from engine.board.tilemap import MapCache, Rules, TileDef, extend_key, roads_from
from engine.flow.machine import evaluate, run_effect

LEGEND = {".": "street", "#": "building", "x": "blocked"}


def tile(tid, rows):
    kinds = tuple(LEGEND[ch] for r in rows for ch in r)
    return TileDef(tid, tid, kinds, roads_from(kinds, "street"))


TILES = {t.id: t for t in [
    tile("plaza", ["...", "...", "..."]),
    tile("straight", ["x.x", "x.x", "x.x"]),
    tile("end", ["x.x", "#.#", "###"]),  # one road, north
]}


def layout(connect: bool):
    """A plaza at 0,0 and a dead end east of it, its road turned away (north)."""
    cache = MapCache(TILES, Rules(frozenset({"blocked"}), frozenset({"street"}), connect))
    key = extend_key("", 1, "plaza", (0, 0), 0)
    cache.get(key)
    return cache, key


@pytest.mark.parametrize("connect", [False, True])
def test_a_connected_map_takes_only_tiles_that_meet_its_roads(connect):
    cache, key = layout(connect)
    m = cache.get(key)
    end = TILES["end"].shapes[0]
    # north of the plaza the dead end's road points away: blank meets road, never allowed
    assert not m.fits(end, (0, -1))
    assert m.fits(end, (0, 1))  # its road meets the plaza's
    m2 = cache.get(key + ";" + "2:straight:1:0:90")  # a street east of the plaza
    # touching the street's blank north edge with a blank edge: cut off
    assert m2.fits(end, (1, -1)) is (not connect)
    assert m2.joins(end, (1, -1)) == 0
    assert m2.joins(TILES["straight"].shapes[90], (2, 0)) == 1


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z")


def value(game, S, text):
    return evaluate(S, game.compile_expr(text), {})


def state(game, setup):
    fx = game.compile_expr(setup, effect=True)
    return game.new_state(players=2, seed=1, prepare=lambda S: run_effect(S, fx, {}))


def test_nearest_distance_counts_moves_to_the_closest_thing(dz):
    S = state(dz, "put_zombie(cell(0, 0))\nput_zombie(cell(2, 2))")
    assert value(dz, S, "nearest_distance(cell(0, 1), pieces('zombie'))") == 1
    assert value(dz, S, "nearest_distance(cell(1, 1), [cell(0, 0), cell(2, 2)])") == 2
    assert value(dz, S, "nearest_distance(cell(1, 1), [])") is None
    many = ", ".join(f"cell({x}, {y})" for x in range(3) for y in range(3) if (x, y) != (1, 1))
    assert value(dz, S, f"nearest_distance(cell(1, 1), [{many}])") == 1


def test_movable_keeps_the_pieces_with_somewhere_to_go(dz):
    S = state(dz, """
for s in [cell(0, 0), cell(1, 0), cell(0, 1), cell(2, 2)]:
    put_zombie(s)
put_zombie(cell(1, 1))
""")
    # a ring of zombies around 0,0 leaves it nowhere to go; the others may step
    assert value(dz, S, "[str(z) for z in movable(pieces('zombie'), 'zombie')]") == \
        ["zombie", "zombie", "zombie", "zombie"]
    assert value(dz, S, "count(open_steps(cell(0, 0), 'zombie'))") == 0
    stuck = value(dz, S, "[z for z in pieces('zombie') if z.cell == cell(0, 0)]")
    assert stuck[0] not in value(dz, S, "movable(pieces('zombie'), 'zombie')")
