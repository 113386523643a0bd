"""Bots decide from what their seat may see: swapping what is hidden from them (another
player's token, the order of the face-down stacks, the future dice) never changes their
choice for the same bot seed."""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from engine.hidden import determinize, hidden_zone_keys
from tests.bots.conftest import situation

MINE = """
move(find(item_stack, 'shotgun'), players[0].item)
move(find(event_stack, 'fear'), players[0].event)
players[1].distance = 6
players[2].distance = 8
"""


def twins(game):
    """Two states P0 cannot tell apart: P1 holds a grenade or a chainsaw, P2 holds one or
    the other event, the stacks lie in other orders and the dice to come differ."""
    a = situation(game, MINE + "move(find(item_stack, 'grenade'), players[1].item)\n"
                  "move(find(event_stack, 'brain-cramp'), players[2].event)", [4])
    b = situation(game, MINE + "move(find(item_stack, 'chainsaw'), players[1].item)\n"
                  "move(find(event_stack, 'were-screwed'), players[2].event)", [4])
    b.zones["item_stack"].reverse()
    b.zones["event_stack"].reverse()
    b.rng = a.rng ^ 0x5DEECE66D
    return a, b


def test_the_twins_differ_only_in_what_p0_cannot_see(rtb):
    a, b = twins(rtb)
    assert a.to_dict() != b.to_dict()
    assert a.view(0) == b.view(0)
    assert a.view(1) != b.view(1)
    assert "item#1" in hidden_zone_keys(a, 0) and "item#0" not in hidden_zone_keys(a, 0)
    d = a.decision()
    assert d.player == 0 and d.actions == b.decision().actions
    assert len(d.actions) >= 3  # a real choice: fear at either opponent, or pass


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:24", "search:24"])
def test_the_same_bot_makes_the_same_choice(rtb, spec):
    a, b = twins(rtb)
    choices = set()
    for seed in range(3):
        ca = make_bot(spec, seed, rtb).choose(a, a.decision())
        cb = make_bot(spec, seed, rtb).choose(b, b.decision())
        assert ca == cb, f"{spec} with seed {seed}: {ca} vs {cb}"
        choices.add(ca)
    assert choices <= set(a.decision().actions)


def test_a_determinization_is_the_same_for_states_the_seat_cannot_tell_apart(rtb):
    import random
    a, b = twins(rtb)
    da, db = determinize(a, 0, random.Random(5)), determinize(b, 0, random.Random(5))
    assert da.rng == db.rng
    def ids(s, key):
        return [s.ents[u]["id"] for u in s.zones[key]]

    for key in hidden_zone_keys(a, 0):
        assert ids(da, key) == ids(db, key)
    # what P0 sees is left as it was
    assert [da.ents[u]["id"] for u in da.zones["item#0"]] == ["shotgun"]
