"""PettingZoo's seeding convention: `reset(seed=s)` plays the game `horde sim --seed s`
plays; a reset without a seed goes on with the env's random stream, so a loop of unseeded
resets plays different games (it used to replay seed 0 every time)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is the optional [agents] extra")

from engine.adapters.pettingzoo import env  # noqa: E402
from tests.agents.cases import game  # noqa: E402


def _played(e) -> list:
    """The log of the game `e` plays from its last reset, every seat taking its first legal id."""
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(e.observe(agent)["action_mask"].nonzero()[0][0]))
    return list(e.S.log)


def _env():
    return env(game("roll-them-bones", None), players=2, turns=4)


def test_resets_without_a_seed_play_different_games():
    e = _env()
    games = []
    for _ in range(3):
        e.reset()
        games.append(_played(e))
    assert games[0] != games[1] and games[1] != games[2] and games[0] != games[2]


def test_a_seeded_reset_replays_and_seeds_the_resets_after_it():
    runs = []
    for _ in range(2):
        e = _env()
        e.reset(seed=7)
        first = _played(e)
        e.reset()
        second = _played(e)
        runs.append((first, second))
    assert runs[0] == runs[1]
    assert runs[0][0] != runs[0][1]


def test_a_seeded_reset_plays_horde_s_game_of_that_seed():
    e = _env()
    e.reset(seed=11)
    S = game("roll-them-bones", None).new_state(players=2, seed=11)
    assert e.S.to_dict() == S.to_dict()
