"""The search bot: specs, budgets, legal and reproducible choices, with or without a policy."""

from __future__ import annotations

import dataclasses
import time

import pytest

from engine.bots import make_bot
from engine.bots.mcts import MCTSBot
from engine.errors import HordeError
from tests.bots.conftest import situation

SETUP = """
move(find(item_stack, 'shotgun'), players[0].item)
move(find(event_stack, 'fear'), players[0].event)
players[1].distance = 6
"""


def test_specs(rtb):
    assert make_bot("mcts", 1, rtb).iterations == 200
    assert make_bot("mcts:50", 1, rtb).iterations == 50
    assert make_bot("mcts:0.25s", 1, rtb).seconds == 0.25
    assert make_bot("mcts", 1, rtb).rollout is not None  # the pack's greedy policy
    with pytest.raises(HordeError, match="give iterations"):
        make_bot("mcts:lots", 1, rtb)


def test_choices_are_legal_and_reproducible(rtb):
    S = situation(rtb, SETUP, [5], players=2)
    d = S.decision()
    first = make_bot("mcts:30", 4, rtb).choose(S, d)
    assert first in d.actions
    assert make_bot("mcts:30", 4, rtb).choose(S, d) == first
    bot = make_bot("mcts:30", 4, rtb)
    bot.choose(S, d)
    assert bot.last_iterations == 30


def test_a_time_budget_is_kept(rtb):
    S = situation(rtb, SETUP, [5], players=2)
    bot = make_bot("mcts:0.2s", 1, rtb)
    start = time.perf_counter()
    label = bot.choose(S, S.decision())
    assert time.perf_counter() - start < 0.2 + 0.5  # one iteration may run over
    assert label in S.decision().actions and bot.last_iterations >= 1


def test_a_single_legal_action_needs_no_search(rtb):
    S = situation(rtb, "", [], players=2)
    d = S.decision()
    bot = MCTSBot(0, iterations=1000)
    forced = dataclasses.replace(d, actions=d.actions[:1])
    assert bot.choose(S, forced) == d.actions[0] and bot.last_iterations == 0


def test_without_a_policy_rollouts_are_random(rtb):
    bare = dataclasses.replace(rtb, policies={})
    bot = make_bot("mcts:20", 2, bare)
    assert bot.rollout is None
    S = bare.new_state(players=2, seed=3)
    S.transactional = False
    for _ in range(6):
        if S.over:
            break
        d = S.decision()
        label = bot.choose(S, d)
        assert label in d.actions
        S.apply(label)
