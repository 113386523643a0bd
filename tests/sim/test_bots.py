"""The bot registry and the random bot."""

from __future__ import annotations

import pytest

import engine
from engine.bots import BOTS, RandomBot, is_human, make_bot
from engine.errors import HordeError


def test_random_bot_is_reproducible_and_legal():
    game = engine.load("roll-them-bones")

    def labels(seed):
        S = game.new_state(players=2, seed=1)
        bot = RandomBot(seed)
        out = []
        while not S.over and len(out) < 30:
            d = S.decision()
            label = bot.choose(S, d)
            assert label in d.actions
            S.apply(label)
            out.append(label)
        return out

    assert labels(4) == labels(4)


def test_registry_parses_specs_and_is_open(monkeypatch):
    seen = {}

    def factory(arg, seed, game):
        seen.update(arg=arg, seed=seed, game=game)
        return RandomBot(seed)

    monkeypatch.setitem(BOTS, "fancy", factory)
    make_bot("fancy:200", 7, game="g")
    assert seen == {"arg": "200", "seed": 7, "game": "g"}
    assert is_human(make_bot("human", 0))
    assert not is_human(make_bot("random", 0))


def test_unknown_bot_suggests_the_closest():
    with pytest.raises(HordeError) as exc:
        make_bot("randm", 0)
    assert "did you mean 'random'" in str(exc.value)


def test_a_human_seat_cannot_be_asked_by_a_bot_loop():
    from engine.flow.decision import Decision
    with pytest.raises(HordeError, match="human seat"):
        make_bot("human", 0).choose(None, Decision(1, "x", "ask", ["pass"]))
