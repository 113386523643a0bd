"""The horizon search bot: specs, budgets, the pack's `value:`, and when it overrules the policy.

The situation: P0 of Roll Them Bones holds Fear and may play it on P1 or pass; the pack's
greedy policy plays it. A house rule gives the pack a `value:` that rewards keeping the
card (or spending it); with a horizon of 0 the position right after the move is scored, so
the search's verdict is certain and must decide.
"""

from __future__ import annotations

import dataclasses

import pytest

import engine
from engine.bots import make_bot
from engine.bots.search import ITERATION_CAP, SECONDS, SearchBot
from engine.errors import HordeError, PackError
from tests.bots.conftest import situation
from tests.packfiles import write

SETUP = """
move(find(item_stack, 'shotgun'), players[0].item)
move(find(event_stack, 'fear'), players[0].event)
players[1].distance = 6
"""
KEEP = "200 * count(cards(me.event)) - 100"  # holding the event card is as good as won
SPEND = "100 - 200 * count(cards(me.event))"


def with_value(tmp_path, value: str):
    write(tmp_path, {"value.yaml": f"extends: roll-them-bones\nvalue: {value!r}\n"})
    return engine.load("roll-them-bones", house=[tmp_path / "value.yaml"])


def fear(game):
    S = situation(game, SETUP, [5], players=2)
    d = S.decision()
    assert d.actions == ["fear(target=1)", "pass"]
    assert make_bot("greedy", 1, game).choose(S, d) == "fear(target=1)"
    return S, d


def test_specs(rtb):
    bot = make_bot("search", 1, rtb)
    assert (bot.seconds, bot.iterations) == (SECONDS, ITERATION_CAP)  # 1 s, capped
    bot = make_bot("search:400", 1, rtb)
    assert (bot.seconds, bot.iterations) == (None, 400)  # a cap alone: reproducible
    assert make_bot("search:0.5s", 1, rtb).seconds == 0.5
    bot = make_bot("search:iters=50:horizon=3:time=2s", 1, rtb)
    assert (bot.iterations, bot.horizon, bot.seconds) == (50, 3, 2.0)
    for bad, says in [("lots", "'lots' is not a number of iterations .* or of seconds"),
                      ("speed=3", "no option 'speed'"), ("0", "'0' is not a number of"),
                      ("horizon=-1", "'horizon=-1' is not a number of decisions"),
                      ("iters=2.5", "not a number of iterations"), ("0s", "'0s' is not"),
                      ("time=inf", "not a number of seconds"), ("৪", "'৪' is not")]:
        with pytest.raises(HordeError, match=says):
            make_bot(f"search:{bad}", 1, rtb)


def test_value_decides_and_overrules_the_policy_when_certain(tmp_path):
    S, d = fear(with_value(tmp_path, KEEP))
    bot = make_bot("search:iters=20:horizon=0", 1, S.game)
    assert bot.choose(S, d) == "pass"
    assert bot.last_iterations == 20


def test_the_policy_move_stands_when_the_value_agrees(tmp_path):
    S, d = fear(with_value(tmp_path, SPEND))
    assert make_bot("search:iters=20:horizon=0", 1, S.game).choose(S, d) == "fear(target=1)"


def test_the_policy_move_stands_when_the_search_cannot_tell(tmp_path):
    S, d = fear(with_value(tmp_path, "0"))  # every move scores the same
    assert make_bot("search:iters=20:horizon=0", 1, S.game).choose(S, d) == "fear(target=1)"


def test_choices_are_reproducible_with_an_iteration_cap(tmp_path):
    game = with_value(tmp_path, "50 - 10 * me.distance")
    S = situation(game, SETUP, [5], players=2)
    d = S.decision()
    picks = set()
    for _ in range(2):
        bot = make_bot("search:iters=16:horizon=4", 7, game)
        picks.add(bot.choose(S, d))
        assert 1 <= bot.last_iterations <= 16
    assert len(picks) == 1 and picks <= set(d.actions)


def test_without_a_value_rollouts_play_to_the_end(rtb):
    S, d = fear(rtb)
    bot = make_bot("search:iters=8:horizon=0", 1, rtb)
    seen = []
    rollout = bot._rollout
    bot._rollout = lambda s, seat, seed: seen.append(r := rollout(s, seat, seed)) or r
    bot.choose(S, d)
    assert len(seen) == 8 and set(seen) <= {-100.0, 0.0, 100.0}  # outcomes, not guesses


def test_a_value_that_is_not_a_number_is_a_clear_error(tmp_path):
    S, d = fear(with_value(tmp_path, "[1, 2]"))
    with pytest.raises(HordeError, match=r"value\.yaml:2:.*value: gave \[1, 2\] \(list\), not a number"):
        make_bot("search:iters=4:horizon=0", 1, S.game).choose(S, d)


def test_a_bad_value_is_a_pack_error_at_its_place(tmp_path):
    with pytest.raises(PackError, match=r"value\.yaml:2:\d+: players have no field 'nosuch'"):
        with_value(tmp_path, "me.nosuch + 1")


def test_value_leaves_the_pack_hash_alone(tmp_path, rtb):
    assert with_value(tmp_path, KEEP).hash == rtb.hash  # records and saves stay valid
    for pack, mode in [("defcon-z", None), ("theyre-coming", None),
                       ("theyre-coming", "zombie-race")]:
        g = engine.load(pack, mode=mode)
        assert g.value is not None
        raw = {k: v for k, v in g.raw.items() if k != "value"}
        assert engine.model.pack_hash(raw, g.params, g.mode) == g.hash


def test_a_single_legal_action_needs_no_search(rtb):
    S, d = fear(rtb)
    bot = SearchBot(0, rtb, iterations=1000)
    forced = dataclasses.replace(d, actions=d.actions[:1])
    assert bot.choose(S, forced) == d.actions[0] and bot.last_iterations == 0


def test_a_time_budget_stops_the_search_on_the_clock(tmp_path, monkeypatch):
    """A fake clock that moves 10 ms a reading: a 0.1 s budget ends long before the cap."""
    import engine.bots.search as search
    S, d = fear(with_value(tmp_path, KEEP))
    ticks = iter(range(10**6))
    monkeypatch.setattr(search.time, "perf_counter", lambda: next(ticks) * 0.01)
    bot = make_bot("search:0.1s:horizon=0", 1, S.game)
    assert bot.iterations == ITERATION_CAP
    assert bot.choose(S, d) == "pass"  # still the search's verdict
    assert 2 <= bot.last_iterations < 20
