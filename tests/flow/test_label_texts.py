"""Labels are written a list of values at a time (C-level passes over values of one type);
check them against the one-value-at-a-time definition, for every kind of value a domain may
list: players, pieces on squares, cards, places seen or not seen before, unhashable values
and mixtures, and for actions with several parameters."""

from __future__ import annotations

import pytest

import engine
from engine.dsl.values import E, P
from engine.flow import labels
from tests.random_states import states_met


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z", "competitive")


def one_by_one(S, values):
    return [labels._value_label(S, v) for v in values]


class ACTION:
    id = "x"


def bound_one_by_one(S, values) -> list:
    """What labelling a value at a time binds: `x(v=<text>)`, or `x(v=<text>#uid)` for
    entities when two values share a text."""
    texts = one_by_one(S, values)
    if len(set(texts)) < len(texts):
        texts = [t + (f"#{v.i}" if type(v) is E else "") for v, t in zip(values, texts, strict=True)]
    out = {}
    for v, t in zip(values, texts, strict=True):
        out[f"x(v={t})"] = (ACTION, {"v": v})
    return list(out.items())


def test_texts_of_lists_are_the_texts_of_their_values(dz):
    b = dz.extensions["board"]
    checked = 0
    for S in states_met(dz, 15, 4, players=3, share=0.1):
        pieces = b.pieces(S)
        cards = [E(u) for z in S.zones.values() for u in z][:12]
        squares = [S.ents[p.i]["cell"] for p in pieces]
        fresh = [(1000 + k, -k) for k in range(3)]  # never described before
        for values in (pieces, cards, squares, fresh, [P(0), P(2)], [3, 1, 2], ["a", "b"],
                       [True, 1], [[1, 2], [3]], pieces + cards, cards + squares, [P(1), 1], [],
                       cards + cards[:2], [3, 1, 3], pieces[:2] + pieces[:1]):
            assert labels._value_texts(S, list(values)) == one_by_one(S, values)
            out = {"x": (None, {})}
            labels._put_labelled(S, ACTION, "v", list(values), out)
            assert list(out.items()) == [("x", (None, {}))] + bound_one_by_one(S, values)
            checked += 1
    assert checked > 100


def test_a_missing_entity_fails_as_it_always_did(dz):
    S = dz.new_state(players=2, seed=1)
    gone = E(S.next_uid + 7)
    with pytest.raises(KeyError):
        labels._value_texts(S, [gone])


def test_labels_of_several_parameters(dz):
    b = dz.extensions["board"]
    lure = next(a for a in dz.actions if len(a.params) == 2 and a.id == "lure-move")
    for S in states_met(dz, 10, 9, players=3, share=0.1):
        zombies = b.pieces(S, "zombie")
        found = [{"z": z, "to": sq} for z in zombies for sq in b.open_steps(S, z, "zombie")]
        found += [{"z": P(1), "to": [1, 2]}, {"z": "x", "to": None}]
        assert labels._bound_labels(S, lure, found) == [labels._label(S, lure, args, False) for args in found]
    bad = [{"z": E(S.next_uid + 3), "to": (0, 0)}]
    with pytest.raises(KeyError):
        labels._bound_labels(S, lure, bad)
