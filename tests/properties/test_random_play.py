"""Random legal play, driven by Hypothesis, for every pack, mode and house-rule example.

The same machinery as `horde check` (engine.check, engine.laws), on a small budget: after
every decision every invariant and field bound holds, no card or piece appears or
vanishes, legal actions are sorted, unique and playable, a clone and a save/load round trip
equal the state and share its future, views hide what they should, the game does not loop;
the same seed and decisions give the same log. (OpenSpiel's random-simulation test.)

Budget: a few Hypothesis games per variant, each checked for its first HORIZON decisions
(every state on the way is reachable, so every law must hold there); then a cheap breadth
test plays whole games to their end with the inexpensive laws, within a time allowance.
"""

from __future__ import annotations

import random
import time

import pytest

from engine.check import Broken, play, run_check
from engine.check.report import failure_lines
from tests.properties.variants import all_variants, game, variant_id

VARIANTS = all_variants()
EXAMPLES = 3
HORIZON = 60
MAX_DECISIONS = 5000
BREADTH_SEEDS = 40
BREADTH_SECONDS = 1.5  # per variant: long games play fewer seeds


def _players(g, k: int) -> int:
    return g.players_min + k % (g.players_max - g.players_min + 1)


def _explain(failure) -> str:
    return "\n".join(failure_lines(failure))


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_random_games_keep_every_law(variant):
    result = run_check(game(*variant), examples=EXAMPLES, seed=0, horizon=HORIZON,
                       max_steps=MAX_DECISIONS, database=None)
    assert result.failure is None, _explain(result.failure)
    assert result.games >= 1


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_many_seeds_end(variant):
    """Cheap breadth: seeded games to their very end, with the inexpensive laws."""
    g = game(*variant)
    start = time.perf_counter()
    for seed in range(BREADTH_SEEDS):
        if seed and time.perf_counter() - start > BREADTH_SECONDS:
            break
        rnd = random.Random(seed)
        try:
            play(g, _players(g, seed), seed, rnd.randrange, max_steps=MAX_DECISIONS,
                 laws=("invariants", "conservation", "legal-actions"), tries=0)
        except Broken as exc:
            pytest.fail(_explain(exc.failure))
