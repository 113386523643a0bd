"""`horde check --time`: a check whose time runs out ends with the games it played.

Stopping a game early inside a Hypothesis run made that game differ from an earlier one
with the same first choices, and Hypothesis stopped the whole check with "inconsistent data
generation" (an internal error at the command line). A limited check now plays in rounds,
each a whole Hypothesis run (engine.check.driver `_round_size`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.check import run_check
from engine.check.driver import FIRST_ROUND, _round_seed, _round_size

MINI = Path(__file__).resolve().parent.parent / "engine" / "fixtures" / "mini"


@pytest.fixture(scope="module")
def mini():
    return engine.load(MINI)


@pytest.mark.parametrize("seed", range(6))
def test_a_check_out_of_time_ends_with_the_games_it_played(mini, seed):
    # 300 quick games do not fit in 0.3 s: every one of these runs stopped with
    # "inconsistent data generation" before rounds
    result = run_check(mini, examples=300, seed=seed, time_limit=0.3, laws=["ends"])
    assert result.failure is None
    assert 1 <= result.games < 300
    assert result.seconds < 3


def test_a_broken_rule_is_still_found_and_shrunk_with_a_time_limit():
    from tests.check.conftest import fixture

    game = engine.load("roll-them-bones", house=[fixture("heal-past-max")])
    result = run_check(game, examples=200, seed=2, time_limit=60)
    assert result.failure is not None and result.failure.violation.key == "invariants"


def test_rounds_fill_most_of_the_time_left():
    assert _round_size(100, 0, 0.0, 10.0) == FIRST_ROUND  # a couple of games to time one
    assert _round_size(100, 10, 1.0, 10.0) == 10  # no more than played so far
    assert _round_size(100, 10, 8.0, 10.0) == 2  # 0.8 s a game, 2 s left: 80% of 2.5
    assert _round_size(5, 10, 1.0, 10.0) == 5  # never more than asked for
    assert _round_size(100, 2, 10.0, 10.0) == 0  # out of time
    assert _round_size(100, 20, 9.9, 10.0) == 0  # not even one more game fits


def test_round_seeds_keep_a_one_round_check_as_it_was():
    assert _round_seed(7, 0) == 7
    assert len({_round_seed(7, k) for k in range(1, 50)} | {7}) == 50
    assert _round_seed(7, 1) != _round_seed(8, 1)
