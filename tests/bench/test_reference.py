"""The hand-written yardstick and the engine play the same Roll Them Bones.

Both are played with uniform random bots over a few thousand games; the distributions of
the winning seat (with "nobody" as a category), of game length in turns and of decisions
per game must be statistically indistinguishable. A mismatch means the yardstick or the
pack has a rule wrong, so this also cross-checks the pack. The threshold p < 0.001 per
test keeps false alarms rare; the games are seeded, so a run is reproducible. No timing is
asserted here: speed is the harness's business, not the test suite's.
"""

from __future__ import annotations

import pytest

import engine
from bench.reference.roll_them_bones import play_game
from bench.stats import binned, chi2_sf, chi2_two_sample, counts
from engine.sim import simulate

GAMES = 2000
ALPHA = 0.001
LENGTH_EDGES = list(range(0, 100, 2))


@pytest.fixture(scope="module", params=[3, 1], ids=["3 players", "1 player"])
def outcomes(request):
    players = request.param
    games = GAMES if players > 1 else GAMES // 2
    result = simulate(engine.load("roll-them-bones"), players, ["random"], games, seed=2024,
                      records=True)
    eng = [(r.winners[0] if r.winners else None, r.turns, r.decisions) for r in result.records]
    ref = [play_game(players, seed) for seed in range(games)]
    assert not any(r.limit for r in result.records)
    return players, eng, ref


def _p(a: list[int], b: list[int]) -> float:
    return chi2_two_sample(a, b)[2]


def test_same_winners(outcomes):
    players, eng, ref = outcomes
    seats = [*range(players), None]
    p = _p(counts([g[0] for g in eng], seats), counts([g[0] for g in ref], seats))
    assert p > ALPHA, f"winner distributions differ (p = {p:.2g})"


def test_same_game_lengths(outcomes):
    _, eng, ref = outcomes
    p = _p(binned([g[1] for g in eng], LENGTH_EDGES), binned([g[1] for g in ref], LENGTH_EDGES))
    assert p > ALPHA, f"game lengths in turns differ (p = {p:.2g})"


def test_same_number_of_decisions(outcomes):
    _, eng, ref = outcomes
    p = _p(binned([g[2] for g in eng], LENGTH_EDGES), binned([g[2] for g in ref], LENGTH_EDGES))
    assert p > ALPHA, f"decisions per game differ (p = {p:.2g})"


def test_the_test_can_tell_different_games_apart():
    """A yardstick with one rule changed (an easier black die) must be caught."""
    from bench.reference import roll_them_bones as rtb

    class Easier(rtb.Game):
        def roll_zombies(self):
            super().roll_zombies()
            self.zombies += 1

    ref = [play_game(3, seed)[1] for seed in range(GAMES)]
    easy = [Easier(3, seed).play()[1] for seed in range(GAMES)]
    p = _p(binned(ref, LENGTH_EDGES), binned(easy, LENGTH_EDGES))
    assert p < ALPHA


@pytest.mark.parametrize(("x", "df", "expected"), [
    (3.841, 1, 0.05), (18.307, 10, 0.05), (10.828, 1, 0.001), (29.588, 10, 0.001),
    (5.0, 2, 0.0820850), (100.0, 50, 3.45493e-5), (0.0, 4, 1.0),
])
def test_chi2_survival_function(x, df, expected):
    assert chi2_sf(x, df) == pytest.approx(expected, rel=1e-3)


def test_sparse_categories_are_merged():
    stat, df, p = chi2_two_sample([50, 50, 1, 0, 1], [48, 52, 0, 2, 0])
    assert df == 1 and p > 0.5
