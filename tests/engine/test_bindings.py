"""Legal actions as bindings: what the engine plays is (action, arguments); the label names it."""

from __future__ import annotations

import pytest

import engine
from engine.errors import StateError
from engine.flow.decision import Binding


@pytest.mark.parametrize("pack", ["roll-them-bones", "theyre-coming", "defcon-z"])
def test_playing_bindings_is_playing_their_labels(pack):
    game = engine.load(pack)
    by_binding = game.new_state(players=2, seed=3)
    by_label = game.new_state(players=2, seed=3)
    seen_args = False
    for k in range(60):
        if by_binding.is_terminal():
            break
        d = by_binding.decision()
        moves = d.moves
        assert [m.label for m in moves] == d.actions
        move = moves[k * 7 % len(moves)]
        action, args = d.bindings[move.label]
        assert move.action == ("pass" if action is None else action.id)
        assert dict(move.args) == args
        seen_args = seen_args or bool(move.args)
        by_binding.apply(move)
        by_label.apply(move.label)
        assert by_binding.to_dict() == by_label.to_dict()
    assert list(by_binding.history) == list(by_label.history)
    assert seen_args, "no action with arguments was played: the test says nothing of args"


def test_a_binding_that_is_not_legal_now_is_refused_and_changes_nothing():
    game = engine.load("roll-them-bones")
    state = game.new_state(players=2, seed=1)
    d = state.decision()
    legal = d.moves[0]
    before = state.to_dict()
    made_up = Binding(legal.action, (("nobody", 99),), legal.label)  # the label, other args
    with pytest.raises(StateError, match="not a legal action now"):
        state.apply(made_up)
    with pytest.raises(StateError, match="a Binding of the decision or its label"):
        state.apply(("pass", ()))  # type: ignore[arg-type]
    assert state.to_dict() == before
    state.apply(legal)
