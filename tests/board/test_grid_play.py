"""Whole games on the grid board: every mode of They're Coming, random and greedy seats,
the pack's invariants checked after every decision, saves checked along the way."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bots import make_bot
from engine.flow.machine import evaluate

CASES = [
    (None, 1, {}), (None, 2, {"dozer": True}), ("romerio", 1, {}),
    ("red-runners", 2, {"survivors": 2, "shared_health": False}),
    ("kamikaze", 4, {}), ("death-comes-knocking", 3, {}), ("zombie-race", 3, {}),
    ("red-runners", 1, {"dozer": True, "runners": 6, "start_health": 5}),
]


def broken(game, S) -> list[str]:
    return [inv.name for inv in game.invariants if not evaluate(S, inv.check, {})]


@pytest.mark.parametrize("mode, players, params", CASES)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_games_end_and_keep_the_invariants(mode, players, params, bot):
    game = engine.load("theyre-coming", mode=mode, params=params)
    for seed in range(3):
        S = game.new_state(players=players, seed=seed)
        S.transactional = False
        seats = [make_bot(bot, seed * 7 + k, game) for k in range(players)]
        steps = 0
        while not S.over:
            d = S.decision()
            S.apply(seats[d.player].choose(S, d))
            steps += 1
            assert broken(game, S) == [], f"seed {seed} after {S.history[-1]}"
            if steps % 40 == 0:
                back = game.state_from_dict(json.loads(json.dumps(S.to_dict())))
                assert back.to_dict() == S.to_dict()
        assert not S.limit_hit


def test_a_small_pool_with_dozer_can_be_won():
    game = engine.load("theyre-coming", mode="red-runners",
                       params={"dozer": True, "runners": 4, "start_health": 5})
    won = 0
    for seed in range(12):
        S = game.new_state(players=1, seed=seed)
        S.transactional = False
        bot = make_bot("greedy", seed, game)
        while not S.over:
            S.apply(bot.choose(S, S.decision()))
        if S.winners == [0]:
            won += 1
            assert evaluate(S, game.compile_expr("game.dozer_dead and game.dozer_in"), {})
    assert won > 0


def test_random_labels_are_always_legal_and_sorted():
    game = engine.load("theyre-coming")
    S = game.new_state(players=2, seed=5)
    rng = random.Random(5)
    while not S.over:
        actions = S.decision().actions
        assert actions == sorted(actions) and len(set(actions)) == len(actions)
        S.apply(rng.choice(actions))
