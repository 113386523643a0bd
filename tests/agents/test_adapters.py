"""The OpenSpiel game and PettingZoo environment of every pack and mode pass those
libraries' own test suites (skipped where the `[agents]` extra is not installed)."""

from __future__ import annotations

import random
import warnings

import pytest

from tests.agents.cases import CASES, IDS, game

# Turns a test game lasts, so every mode is tried without a whole game of each; one whole
# game of the longest pack is played below
TURNS = {"defcon-z": 4, "theyre-coming": 6, "roll-them-bones": 0}


@pytest.mark.parametrize(("pack", "mode"), CASES, ids=IDS)
def test_openspiel_random_simulation_with_serialization(pack, mode):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import load_game

    g = load_game(pack, mode, players=2, turns=TURNS[pack])
    assert g.num_distinct_actions() == game(pack, mode).num_distinct_actions(2)
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_simulation_of_a_whole_defcon_z_game():
    """The issue's yardstick: DEFCON Z, random play to the end (here, mostly to the pack's
    200-turn limit, ~2,400 decisions and their chance events), serialized and replayed."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import load_game

    pyspiel.random_sim_test(load_game("defcon-z", players=2), num_sims=1, serialize=True,
                            verbose=False)


def test_openspiel_states_clone_apart_and_pickle():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    import pickle

    from engine.adapters.openspiel import load_game

    g = pyspiel.load_game(str(load_game("roll-them-bones", players=3)))
    s = g.new_initial_state()
    assert s.is_chance_node()
    rng = random.Random(1)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.history() != s.history() and s.legal_actions() == s.clone().legal_actions()
    back = pickle.loads(pickle.dumps(c))
    assert back.history() == c.history() and str(back) == str(c)
    assert len(s.observation_tensor(0)) == g.observation_tensor_size()
    assert s.information_state_string(0) != s.information_state_string(1)


@pytest.mark.parametrize(("pack", "mode"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(pack, mode):
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional [agents] extra")
    from pettingzoo.test import api_test, seed_test

    from engine.adapters.pettingzoo import env

    g = game(pack, mode)
    turns = TURNS[pack] or 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the suite warns that a dict observation is no array
        api_test(env(g, players=2, turns=turns), num_cycles=40)
        seed_test(lambda: env(g, players=2, turns=turns), num_cycles=10)
