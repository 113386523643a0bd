"""`movable` without targets remembers, per piece, whether it has a step, and forgets it for
the pieces next to squares whose pieces changed (moves, spawns, removals) or when the map
grows: check it against the definition at every decision of whole random games, where all
of those happen between questions."""

from __future__ import annotations

import random

import pytest

import engine
from tests.board.tile_defs import movable_by_definition as by_definition
from tests.random_states import random_decisions


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z", "competitive")


@pytest.mark.parametrize("seed", [3, 11])
def test_remembered_steps_agree_with_their_definition_through_whole_games(dz, seed):
    b = dz.extensions["board"]
    rng = random.Random(seed)
    asked = 0
    for S in random_decisions(dz, seed, players=3, rng=rng):
        zombies = b.pieces(S, "zombie")
        for kinds, skip in ((("zombie",), S.turn.get("moved") or []), (("zombie", "heart"), zombies[::3])):
            got = b.movable(S, zombies, list(kinds), None, list(skip))
            assert got == by_definition(b, S, zombies, set(kinds), skip), (S.turns, kinds)
            asked += 1
    assert asked > 1000


def test_a_clone_and_its_original_remember_apart(dz):
    b = dz.extensions["board"]
    rng = random.Random(5)
    S = dz.new_state(players=2, seed=5)
    while len(b.pieces(S, "zombie")) < 6:
        S.apply(rng.choice(S.decision().actions))
    C = S.clone()
    zs = b.pieces(S, "zombie")
    before = b.movable(S, zs, "zombie")
    for z in zs:  # the clone's zombies all step somewhere; the original's stay
        steps = b.open_steps(C, z, "zombie")
        if steps:
            b.move_to(C, z, steps[0])
    assert b.movable(S, zs, "zombie") == before == by_definition(b, S, zs, {"zombie"}, [])
    assert b.movable(C, zs, "zombie") == by_definition(b, C, zs, {"zombie"}, [])
