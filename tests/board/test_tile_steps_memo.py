"""`movable` asked about all the pieces of one kind keeps its answers beside the board's
list of them (`tilepieces.Steps`), in step as pieces come, go and move: check it against
the definition at every decision of whole random games, with pieces left out that change
from one question to the next, and in clones that go their own way."""

from __future__ import annotations

import random

import pytest

import engine
from engine.board.tilepieces import KEY, sq_key


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z", "competitive")


def by_definition(b, S, xs, kind: str, skip) -> list:
    m = b.map(S)
    index = S.vars[KEY]["at"]
    gone = {y.i for y in skip}
    out = []
    for x in xs:
        sq = S.ents[x.i].get("cell")
        if x.i in gone or sq is None:
            continue
        if any(not any(S.ents[u]["id"] == kind for u in index.get(sq_key(nb), ())) for nb in m.adj.get(sq, ())):
            out.append(x)
    return out


def ask(b, S, rng) -> None:
    everything = b.pieces(S)  # asked the long way, of other kinds too: remembered alike
    assert b.movable(S, everything, "zombie") == by_definition(b, S, everything, "zombie", [])
    zombies = b.pieces(S, "zombie")
    skips = [[], S.turn.get("moved") or [], rng.sample(zombies, min(len(zombies), rng.randrange(8)))]
    for skip in skips:
        got = b.movable(S, b.pieces(S, "zombie"), "zombie", None, list(skip))
        assert got == by_definition(b, S, zombies, "zombie", skip), (S.turns, skip)


@pytest.mark.parametrize("seed", [2, 7])
def test_kept_answers_agree_with_their_definition_through_whole_games(dz, seed):
    b = dz.extensions["board"]
    rng = random.Random(seed)
    S = dz.new_state(players=3, seed=seed)
    asked = 0
    while not S.over:
        d = S.decision()
        ask(b, S, rng)
        asked += 1
        S.apply(rng.choice(d.actions))
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
