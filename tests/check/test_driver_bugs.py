"""A bug while checking is an error, not swallowed because a failure was found already.

The driver lets Hypothesis's own complaints through when it holds a failure (it stopped
shrinking on purpose, so Hypothesis calls the failure flaky); it caught every exception
there, so any bug after the first failure (here, in the progress callback) vanished.
"""

from __future__ import annotations

import pytest

import engine
from engine.check import run_check
from tests.check.conftest import fixture


class ProgressBug(Exception):
    pass


def test_a_bug_after_the_first_failure_is_not_swallowed():
    game = engine.load("roll-them-bones", house=[fixture("heal-past-max")])

    def progress(result):
        if result.failure is not None:
            raise ProgressBug("the callback broke")

    with pytest.raises(ProgressBug):
        run_check(game, examples=200, seed=2, progress=progress)
