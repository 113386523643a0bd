"""A piece's label and binding are remembered per action by uid, with the record they were
made for (`labels._labelling`): check every decision of whole random games, clones that moved
apart included, against the labels made afresh, and that a remembered label is not reused
once the piece's record is written, in a clone or in the same state."""

from __future__ import annotations

import random

import pytest

import engine
from engine.flow import labels
from engine.flow.machine import flow_locals


def afresh(S, point, seat, L, monkeypatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(labels, "_labelling", lambda game, a, name: (f"{a.id}({name}=", {}, {}, {}))
        return list(labels.legal_bindings(S, point, seat, L).items())


@pytest.mark.parametrize(("mode", "seed"), [("competitive", 4), ("cooperative", 8)])
def test_remembered_labels_agree_with_fresh_ones_at_every_decision(mode, seed, monkeypatch):
    game = engine.load("defcon-z", mode)
    rng = random.Random(seed)
    checked = 0
    while checked < 2000:
        S = game.new_state(players=2, seed=rng.randrange(1000))
        clones: list = []
        while not S.over and checked < 2000:
            d = S.decision()
            for T in [S, *clones]:
                td = T.decision()
                if td is None:
                    continue
                L = flow_locals(T)
                assert list(labels.legal_bindings(T, td.point, td.player, L).items()) == \
                    afresh(T, td.point, td.player, L, monkeypatch)
                checked += 1
            if rng.random() < 0.01:
                clones = [*clones[-2:], S.clone()]
            for T in clones:  # the clones play on their own way
                if not T.over:
                    T.apply(rng.choice(T.decision().actions))
            S.apply(rng.choice(d.actions))


def _a_zombie():
    """(a state of a random game with a zombie on the board, the zombie, the action that
    moves one)."""
    game = engine.load("defcon-z", "competitive")
    b = game.extensions["board"]
    rng = random.Random(2)
    S = game.new_state(players=2, seed=2)
    while not b.pieces(S, "zombie"):
        S.apply(rng.choice(S.decision().actions))
    return S, b.pieces(S, "zombie")[0], next(a for a in game.actions if a.id == "shamble")


def test_another_kind_at_the_same_place_gets_its_own_label():
    S, z, shamble = _a_zombie()
    first: dict = {}
    labels._put_labelled(S, shamble, "z", [z], first)
    C = S.clone()
    C.ent_w(z.i)["id"] = "heart"  # same uid, same place object, another kind
    again: dict = {}
    labels._put_labelled(C, shamble, "z", [z], again)
    assert list(first) == [f"shamble(z=zombie@{labels._text(S, S.ents[z.i]['cell'])})"]
    assert list(again) == [f"shamble(z=heart@{labels._text(S, S.ents[z.i]['cell'])})"]


def test_a_write_in_the_labelling_state_after_labelling_is_seen():
    """The piece's record is the labelling state's own before it is labelled (it was just
    written): a write after labelling must still not change the remembered record."""
    S, z, shamble = _a_zombie()
    S.ent_w(z.i)["cell"] = (90, 90)  # the record is now S's own
    first: dict = {}
    labels._put_labelled(S, shamble, "z", [z], first)
    S.ent_w(z.i)["cell"] = (91, 90)
    again: dict = {}
    labels._put_labelled(S, shamble, "z", [z], again)
    assert list(first) == ["shamble(z=zombie@90,90)"]
    assert list(again) == ["shamble(z=zombie@91,90)"]
