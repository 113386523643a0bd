"""The second yardstick keeps the engine's contract and plays the first one's game."""

from __future__ import annotations

import pytest

from bench.reference import roll_them_bones as rtb
from bench.reference import roll_them_bones_contract as contract
from bench.stats import binned, chi2_two_sample, counts
from engine import rng

GAMES = 800
ALPHA = 0.001


def test_its_dice_are_the_engines_rng():
    dice = contract.EngineDice(7, [])
    state = rng.seed_state(7)
    for n in (6, 6, 2, 13, 1000):
        state, want = rng.below(state, n)
        assert dice.below(n) == want
    assert dice.state == state


def test_bots_get_sorted_labels_and_answer_with_one():
    seen = []

    class Recording(contract.RandomBot):
        def choose(self, game, d):
            seen.append(d)
            return super().choose(game, d)

    g = contract.ContractGame(3, 11)
    g.bot = Recording(11)
    winner, turns, decisions = g.play()
    assert len(seen) == decisions == len(g.history) > 0
    assert all(d.actions == sorted(set(d.actions)) and "pass" in d.actions for d in seen)
    assert sum(e["t"] == "act" for e in g.log) == decisions
    assert sum(e["t"] == "turn" for e in g.log) == turns and g.log[-1]["t"] == "end"

    class Cheating(contract.RandomBot):
        def choose(self, game, d):
            return "grenade(target=9)"

    g = contract.ContractGame(3, 11)
    g.bot = Cheating(0)
    with pytest.raises(ValueError, match="not a legal action"):
        g.play()


def test_the_same_game_as_the_first_yardstick():
    first = [rtb.play_game(3, seed) for seed in range(GAMES)]
    second = [contract.play_game(3, seed) for seed in range(GAMES)]
    seats = [0, 1, 2, None]
    edges = list(range(0, 100, 2))
    for a, b in ((counts([g[0] for g in first], seats), counts([g[0] for g in second], seats)),
                 (binned([g[1] for g in first], edges), binned([g[1] for g in second], edges))):
        assert chi2_two_sample(a, b)[2] > ALPHA
