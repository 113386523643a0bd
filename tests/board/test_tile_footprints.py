"""What the tile words tell footprints (engine.dsl.footprint): the tile under a square reads
the map alone, moving a piece writes its cell alone, and counting a list reads no zone. So
the end checks of DEFCON Z (champions on the Helipad) are skipped after a zombie moves:
check that whole games, won ones included, play exactly as when every effect checks."""

from __future__ import annotations

import random

import pytest

import engine
from engine.dsl import footprint
from engine.dsl.footprint import ANY, OTHER


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z", "competitive")


def reads(game, text, **local):
    return footprint.reads(game, game.compile_expr(text, {k: "any" for k in local}))


def writes(game, text, **local):
    return footprint.writes(game, game.compile_expr(text, {k: "any" for k in local}, effect=True))


def test_the_tile_under_a_square_reads_the_map_alone(dz):
    assert reads(dz, "tile_at(sq)", sq=None) == {"@tile map"}
    assert reads(dz, "tile_at(me.sq).id == 'helipad'", me=None) == {"@tile map", "sq", "id"}
    assert ANY in reads(dz, "piece_at(sq, 'zombie')", sq=None)  # undeclared words read everything


def test_moving_a_piece_writes_its_cell_alone(dz):
    assert writes(dz, "move_to(z, sq)", z=None, sq=None) == {"cell"}
    assert not footprint.meet(reads(dz, "tile_at(sq)", sq=None), writes(dz, "move_to(z, sq)", z=None, sq=None))
    assert ANY in writes(dz, "spawn('zombie', sq)", sq=None)
    assert ANY in writes(dz, "place_tile(t, at, 0)", t=None, at=None)


def test_counting_a_list_reads_no_zone(dz):
    assert reads(dz, "count([q for q in players if q.kills > 1])") == {"kills"}
    assert reads(dz, "count(champions())") == reads(dz, "champions()")
    assert OTHER not in reads(dz, "count(champions())")
    assert OTHER in reads(dz, "count(me.hand)", me=None)
    assert reads(dz, "empty(xs)", xs=None) == {OTHER}  # what `xs` is, nobody knows


def _play(game, players: int, seed: int) -> tuple:
    S = game.new_state(players=players, seed=seed)
    S.transactional = False
    rnd = random.Random(seed)
    trail = []
    while not S.over:
        d = S.decision()
        label = d.actions[rnd.randrange(len(d.actions))]
        trail.append(label)
        S.apply(label)
    return trail, list(S.log), S.winners, S.steps


def test_games_skipping_end_checks_are_won_as_when_every_effect_checks(dz):
    checking = engine.load("defcon-z", "competitive")
    checking.program.end_watch = frozenset({ANY})
    for seed in (4, 10):  # won by seat 0 after 157 turns, by seat 1 after 122
        played = _play(dz, 2, seed)
        assert played[2]
        assert played == _play(checking, 2, seed)
