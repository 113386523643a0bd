"""`movable` asked about all the pieces of one kind keeps its answers beside the board's
list of them (`tilepieces.Steps`), in step as pieces come, go and move: check it against
the definition at every decision of whole random games, with pieces left out that change
from one question to the next, and in clones that go their own way."""

from __future__ import annotations

import random

import pytest

import engine
from tests.board.tile_defs import movable_by_definition as by_definition
from tests.random_states import random_decisions


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z", "competitive")


def ask(b, S, rng) -> None:
    everything = b.pieces(S)  # asked the long way, of other kinds too: remembered alike
    assert b.movable(S, everything, "zombie") == by_definition(b, S, everything, {"zombie"}, [])
    zombies = b.pieces(S, "zombie")
    skips = [[], S.turn.get("moved") or [], rng.sample(zombies, min(len(zombies), rng.randrange(8)))]
    for skip in skips:
        got = b.movable(S, b.pieces(S, "zombie"), "zombie", None, list(skip))
        assert got == by_definition(b, S, zombies, {"zombie"}, skip), (S.turns, skip)


@pytest.mark.parametrize("seed", [2, 7])
def test_kept_answers_agree_with_their_definition_through_whole_games(dz, seed):
    b = dz.extensions["board"]
    rng = random.Random(seed)
    asked = 0
    for S in random_decisions(dz, seed, players=3, rng=rng):
        ask(b, S, rng)
        asked += 1
    assert asked > 1000


def test_clones_keep_their_own_answers(dz):
    b = dz.extensions["board"]
    rng = random.Random(9)
    S = dz.new_state(players=2, seed=9)
    for _ in range(600):
        if S.over:
            break
        d = S.decision()
        ask(b, S, rng)
        if rng.random() < 0.1:  # a clone plays on a little, then the original goes on
            C = S.clone()
            for _ in range(rng.randrange(1, 20)):
                if C.over:
                    break
                cd = C.decision()
                ask(b, C, rng)
                C.apply(rng.choice(cd.actions))
            ask(b, S, rng)
        S.apply(rng.choice(d.actions))
