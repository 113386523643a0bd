"""horde's own bots play through the OpenSpiel and PettingZoo APIs, deciding on a copy
that rolls inside, never on the agent's explicit-chance state (skipped without `[agents]`)."""

from __future__ import annotations

import random

import pytest

from tests.agents.cases import game


def _play(g, bots, rng, decisions=10_000):
    s = g.new_initial_state()
    n = 0
    while not s.is_terminal() and n < decisions:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
            continue
        before = (s.history(), str(s), s.S.is_chance_node())
        a = bots[s.current_player()].step(s)
        assert a in s.legal_actions()
        assert (s.history(), str(s), s.S.is_chance_node()) == before  # decided on a copy
        s.apply_action(a)
        n += 1
    return s, n


def test_openspiel_horde_bots_play_a_whole_game_and_a_few_turns():
    pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import HordeBot, load_game

    g = load_game("roll-them-bones", players=2)
    s, n = _play(g, [HordeBot(g, 0, "greedy", 1), HordeBot(g, 1, "mcts:10", 2)], random.Random(3))
    assert s.S.is_terminal() and n > 0 and s.returns() == s.S.returns()

    g = load_game("defcon-z", players=2, turns=2)
    s, n = _play(g, [HordeBot(g, 0, "mcts:10", 1), HordeBot(g, 1, "greedy", 2)], random.Random(4))
    assert s.is_terminal() and n > 2


def test_a_seat_decides_with_dice_of_its_own():
    """Copies to decide on roll apart from the game and from each other: the bot cannot
    see the game's future dice."""
    from engine.agents.seats import Seat

    hg = game("roll-them-bones", None)
    S = hg.new_state(players=2, explicit_chance=True)
    rng = random.Random(1)
    while S.is_chance_node():
        S.apply_chance(rng.choice(S.chance_outcomes())[0])
    seat = Seat(hg, "random", 5)
    a, b = seat.copy_to_decide(S), seat.copy_to_decide(S)
    assert a.chance is None and S.chance is not None and a.rng != b.rng != S.rng
    assert seat.decide(S) in S.legal_action_ids()


def test_pettingzoo_episode_with_horde_policy():
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional [agents] extra")
    from engine.adapters.pettingzoo import env, policy

    e = env(game("roll-them-bones", None), players=2)
    e.reset(seed=1)
    act = policy(e, "greedy", seed=2)
    steps, final = 0, {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        action = act(agent, obs)
        assert (action is None) == (terminated or truncated)
        if action is not None:
            assert obs["action_mask"][action] == 1
            steps += 1
        else:
            final[agent] = reward
        e.step(action)
    assert steps > 0 and e.S.over and [final[a] for a in e.possible_agents] == e.S.returns()
