"""A Game is frozen: changing one in code makes another (`dataclasses.replace`), and that one
plays by its own rules with a program of its own — the steppers and plans an earlier game
generated with its limits written into them are not shared."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import engine
from engine.errors import RuleRuntimeError

MINI = Path(__file__).parent / "fixtures" / "mini"


def _play(game, seed: int = 1):
    S = game.new_state(players=2, seed=seed)
    while not S.over:
        S.apply(S.decision().actions[0])
    return S


def test_a_game_cannot_be_changed_in_place():
    game = engine.load(MINI)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.limits = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.program = None  # type: ignore[misc]


def test_a_game_changed_after_playing_plays_by_its_own_limits():
    game = engine.load(MINI)
    log = _play(game).log  # its steppers and plans are made, its limits written into them
    shallow = dataclasses.replace(game, limits={**game.limits, "depth": 0})
    assert shallow.program is not game.program
    with pytest.raises(RuleRuntimeError, match="the flow nested deeper than 0 frames"):
        shallow.new_state(players=2, seed=1)
    assert _play(game).log == log  # the first game is as it was
