"""Random legal play, driven by Hypothesis, for every pack, mode and house-rule example.

After every step: every invariant and field bound holds; legal actions are sorted and
unique; a clone and a save/load round trip equal the state. Every game ends. The same
seed and the same decisions give the same log. (OpenSpiel's random-simulation test.)
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.laws import violations
from tests.properties.variants import all_variants, game, variant_id

VARIANTS = all_variants()
MAX_DECISIONS = 3000


def _players(g, k: int) -> int:
    return g.players_min + k % (g.players_max - g.players_min + 1)


def play(g, players: int, seed: int, pick, check_every: int = 1):
    """Play to the end; `pick(n)` chooses an index among n legal actions."""
    S = g.new_state(players=players, seed=seed)
    labels = []
    step = 0
    while not S.is_terminal():
        d = S.decision()
        assert d.actions == sorted(set(d.actions)), "legal actions sorted and unique"
        label = d.actions[pick(len(d.actions))]
        S.apply(label)
        labels.append(label)
        step += 1
        assert step < MAX_DECISIONS, "the game did not end"
        if step % check_every == 0:
            bad = violations(S)
            assert not bad, f"after {labels[-5:]}: " + "; ".join(map(str, bad))
            assert S.clone() == S
            assert g.state_from_dict(json.loads(json.dumps(S.to_dict()))) == S
    assert not violations(S)
    return S, labels


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), k=st.integers(0, 5), data=st.data())
def test_random_games_keep_every_law(variant, seed, k, data):
    g = game(*variant)
    players = _players(g, k)
    S, labels = play(g, players, seed,
                     lambda n: data.draw(st.integers(0, n - 1), label="choice"), check_every=1)
    # the same seed and the same decisions give the same game
    again = g.new_state(players=players, seed=seed)
    for label in labels:
        again.apply(label)
    assert again.log == S.log
    assert again.returns() == S.returns()


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_many_seeds_end(variant):
    """Cheap breadth: 40 seeded games per variant, checking laws at the end only."""
    import random
    g = game(*variant)
    for seed in range(40):
        rnd = random.Random(seed)
        S, _ = play(g, _players(g, seed), seed, lambda n: rnd.randrange(n), check_every=10**9)
        assert S.is_terminal()
