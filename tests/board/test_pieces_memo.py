"""`pieces(kinds)` keeps its last answer and gives it again while the state, the kinds and
the zone's pieces are the same: check every answer against the definition, at every call
in whole random games of every mode of a pack with a grid board (steps, spawns, kills,
clones and transactional rollbacks all happen between questions)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.board.pieces import PieceBoard
from engine.dsl.values import E
from engine.pack.loader import list_packs


def by_definition(board, S, kinds) -> list:
    wanted = {kinds} if isinstance(kinds, str) else set(kinds)
    return [E(u) for u in S.zones[board.zone] if kinds is None or S.ents[u]["id"] in wanted]


def _grid_variants():
    out = []
    for info in list_packs():
        if info.id == "theyre-coming":
            out += [(info.id, mode) for mode in [None, *info.modes]]
    return out


@pytest.mark.parametrize(("pack", "mode"), _grid_variants(), ids=str)
def test_every_answer_is_the_definitions(monkeypatch, pack, mode):
    remembered = PieceBoard.pieces
    asked = [0]

    def checked(self, S, kinds=None):
        got = remembered(self, S, kinds)
        assert got == by_definition(self, S, kinds)
        asked[0] += 1
        return got

    monkeypatch.setattr(PieceBoard, "pieces", checked)
    g = engine.load(pack, mode=mode)
    rng = random.Random(1)
    for seed in range(6):
        S = g.new_state(players=g.players_default, seed=seed)
        S.transactional = seed == 1  # snapshots and their rollbacks
        while not S.over:
            d = S.decision()
            if rng.random() < 0.05:
                C = S.clone()  # a clone asked as well, between the original's questions
                C.apply(rng.choice(d.actions))
                assert by_definition(g.ext("board"), C, "shambler") == g.ext("board").pieces(C, ["shambler"])
            S.apply(rng.choice(d.actions))
    assert asked[0] > 100


def test_a_changed_list_of_kinds_is_not_the_one_remembered():
    g = engine.load("theyre-coming", "romerio")
    S = g.new_state(players=1, seed=2)
    board = g.ext("board")
    kinds = ["shambler", "mine"]
    first = board.pieces(S, kinds)
    kinds.pop()
    first.append("changed")
    assert board.pieces(S, kinds) == by_definition(board, S, ["shambler"])
    assert board.pieces(S, ["mine"]) == by_definition(board, S, ["mine"])
