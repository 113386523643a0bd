"""bench/search.py measures the search bot where it is used: at real choices of greedy games."""

from __future__ import annotations

import engine
from bench import search


def test_states_come_from_the_middle_of_greedy_games_and_iterations_are_capped():
    game = engine.load("theyre-coming", mode="zombie-race")
    states = search.mid_game_states(game, 2, games=1)
    assert 1 <= len(states) <= len(search.POINTS)
    assert all(not s.over and len(s.decision().actions) > 1 for s in states)
    got = search.measure(game, 2, iterations=6, horizon=2, games=1)
    assert got["decisions"] == len(states)
    assert 0 < got["iterations"] <= 6 * len(states) and got["search_iterations_per_s"] > 0
