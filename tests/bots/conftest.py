"""Situations for bot tests, set up the way scenarios do: statements run after the normal
setup, then forced dice for the next rolls."""

from __future__ import annotations

import pytest

import engine
from engine.flow.machine import run_effect

PACK = "roll-them-bones"


@pytest.fixture(scope="session")
def rtb():
    return engine.load(PACK)


def situation(game, setup: str = "", rolls=(), players: int = 3, seed: int = 1):
    """A new game with `setup` applied and `rolls` forced, run to its first decision."""
    fx = game.compile_expr(setup, effect=True) if setup else None

    def prepare(S):
        if fx is not None:
            run_effect(S, fx, {})
        S.forced = list(rolls)

    return game.new_state(players=players, seed=seed, prepare=prepare)
