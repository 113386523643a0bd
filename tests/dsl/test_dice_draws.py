"""Dice and shuffles draw several RNG words at once (`engine.dice.draws`, one lane of a
big integer per draw), and a state keeps the words drawn ahead that it has not used yet
(`State.words`). Seeds and saves must keep their games: check that every count of draws,
from every kind of state word (the highest ones wrap around 2**64), gives the very words
that splitmix64's own step (`rng.next_u64`) gives one at a time, that rolls and shuffles
use them as one draw at a time did, and that words kept ahead are the next ones whatever
asks for them, across clones and a state set from outside."""

from __future__ import annotations

import random

import engine
from engine import rng
from engine.dice import LANES_MAX, draws
from engine.state import State


def _one_at_a_time(r: int, n: int) -> tuple[int, tuple[int, ...]]:
    words = []
    for _ in range(n):
        r, w = rng.next_u64(r)
        words.append(w)
    return r, tuple(words)


def _states(rnd: random.Random) -> list[int]:
    return [0, 1, rng.MASK, rng.MASK - 0x9E3779B97F4A7C15, rnd.getrandbits(64), rnd.getrandbits(64),
            rnd.randrange(1 << 20), rng.MASK - rnd.randrange(1 << 20)]


def test_draws_give_the_words_of_one_step_at_a_time():
    rnd = random.Random(11)
    for n in range(1, LANES_MAX + 1):
        for r in _states(rnd):
            assert draws(r, n) == _one_at_a_time(r, n)[1], (r, n)


def _state(game, r: int) -> State:
    S = State(game, players=2, seed=0)
    S.rng = r
    return S


def test_rolls_and_shuffles_use_the_words_in_order():
    g = engine.load("roll-them-bones")
    rnd = random.Random(4)
    faces = g.dice["zombie_item"]
    for n in (1, 2, 3, 6, LANES_MAX, LANES_MAX + 5, 200):
        for r in _states(rnd):
            S = _state(g, r)
            rolled = S.roll_dice("zombie_item", n)
            end, words = _one_at_a_time(r, n)
            assert rolled == [faces[w % len(faces)] for w in words]
            assert [e["v"] for e in S.log if e["t"] == "roll"] == [f.text for f in rolled]
            assert S.rng == end
    for size in (0, 1, 2, 3, 12, LANES_MAX, LANES_MAX + 1, LANES_MAX + 2, 150):
        for r in _states(rnd):
            S = _state(g, r)
            lst = list(range(size))
            S.shuffle_list(lst)
            expected, s = list(range(size)), r
            for i in range(size - 1, 0, -1):
                s, w = rng.next_u64(s)
                j = w % (i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert lst == expected and S.rng == s, (size, r)


def test_words_kept_ahead_are_the_next_ones_whoever_asks():
    """Rolls, shuffles and single draws in any mix, with clones and a state set from outside
    along the way, take the words one step at a time would give."""
    g = engine.load("roll-them-bones")
    rnd = random.Random(8)
    for r in _states(rnd):
        S = _state(g, r)
        expected = r
        for _ in range(60):
            what = rnd.randrange(5)
            if what == 0:  # a state set some other way: kept words are not its
                S.rng = expected = rnd.getrandbits(64)
                continue
            if what == 1:
                S = S.clone()
            n = rnd.choice([1, 1, 2, 3, 6, 7, 20, LANES_MAX])
            got = S.words(n) if what != 4 else (S.rand_below(1000),)
            expected, want = _one_at_a_time(expected, n if what != 4 else 1)
            assert got == (want if what != 4 else (want[0] % 1000,)), (r, n)
            assert S.rng == expected
