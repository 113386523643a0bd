"""The policy bots' shortcuts (engine.bots.shortcuts) never change a decision.

Whole greedy games of every pack and mode are played twice, with the shortcuts and
without, and their action histories must be the same; a policy that peeks at an
opponent's hidden card must break the seal and decide as on a real determinization.
"""

from __future__ import annotations

import gc
import random

import pytest

import engine
import engine.bots.policy as policy_mod
import engine.hidden as hidden
from engine.bots.policy import PolicyBot
from engine.bots.shortcuts import _memoized
from engine.flow.nodes import PolicyDef, PolicyRule
from engine.hidden import Peeked, determinize, hidden_zone_keys, sealed
from engine.pack.loader import list_packs
from engine.sim.seeds import bot_seed, game_seed

SEEDS = (0, 1, 2)
WORKLOADS = [(info.id, mode) for info in list_packs() if not info.problems
             for mode in (None, *info.modes)]


def play(game, policy, index: int, shortcuts: bool, players: int | None = None) -> list[str]:
    """Game `index` of `horde sim --seed 0` with `policy` at every seat: its labels."""
    n = players or game.players_default
    bots = [PolicyBot(policy, bot_seed(0, index, s), shortcuts=shortcuts) for s in range(n)]
    S = game.new_state(players=n, seed=game_seed(0, index))
    S.transactional = False
    labels = []
    while not S.over:
        d = S.decision()
        labels.append(bots[d.player].choose(S, d))
        S.apply(labels[-1])
    return labels


@pytest.mark.parametrize(("pack", "mode"), WORKLOADS,
                         ids=[p + (f"/{m}" if m else "") for p, m in WORKLOADS])
def test_greedy_games_are_the_same_with_and_without_shortcuts(pack, mode):
    game = engine.load(pack, mode)
    greedy = game.policies["greedy"]
    for index in SEEDS:
        assert play(game, greedy, index, True) == play(game, greedy, index, False), index


def test_defcon_greedy_decides_without_a_redeal(monkeypatch):
    """Its rules read only what every player sees: no decision needs a re-deal."""
    game = engine.load("defcon-z", "competitive")
    redeals = []
    monkeypatch.setattr(policy_mod, "determinize",
                        lambda *a: redeals.append(1) or determinize(*a))
    labels = play(game, game.policies["greedy"], 0, True)
    assert len(labels) > 100 and redeals == []


def _peeking(game) -> PolicyDef:
    """Pass whenever the next player holds an item, else a random move: it can only tell
    from a card the seat cannot see."""
    cond = game.compile_expr("count([c for c in cards(players[(seat(me) + 1) % count(players)]"
                             ".item) if c.id != 'keys']) > 0", {"me": "player"})
    return PolicyDef("peek", [PolicyRule(("pass",), cond, None, None)], "random")


def test_a_rule_that_peeks_breaks_the_seal_and_decides_as_before(monkeypatch):
    game = engine.load("roll-them-bones")
    peek = _peeking(game)
    redeals = []
    monkeypatch.setattr(policy_mod, "determinize",
                        lambda *a: redeals.append(1) or determinize(*a))
    for index in range(8):
        assert play(game, peek, index, True) == play(game, peek, index, False), index
    assert redeals  # the seal broke, and the bot started again on a determinization


def test_a_sealed_state_hides_what_a_determinization_redeals_and_is_given_back():
    game = engine.load("defcon-z")
    S = game.new_state(seed=3)
    before, records = S.to_dict(), dict(S.ents)
    keys = hidden_zone_keys(S, 0)
    top = S.zones["deck"][-1]
    with sealed(S, 0) as draw:
        assert keys and all(S.zones[k] is hidden.SEAL for k in keys)
        assert all(S.zones[k] == S.zones[k] for k in S.zones if k not in keys)
        with pytest.raises(Peeked):
            S.ents[top].get("id")
        with pytest.raises(Peeked):
            len(S.zones["deck"])
        with pytest.raises(Peeked):
            S.words(1)  # the dice are the determinization's, not these
        S.steps += 5  # what evaluating charges
    assert S.to_dict() == before
    assert all(S.ents[u] is rec for u, rec in records.items())
    a, b = random.Random(7), random.Random(7)
    determinize(S, 0, a)
    draw(b)
    assert a.getstate() == b.getstate()


class _Counted:
    """What a memo needs of a state: its step counts and `charge`."""
    fx_steps = steps = 0

    def charge(self, n):
        self.fx_steps += n
        self.steps += n


@pytest.mark.parametrize("arity", [1, 2, 3])
def test_the_memo_knows_a_call_by_its_arguments_identities(arity):
    def fn(S, *args):
        S.fx_steps += 3
        S.steps += 3
        return len(memo) + 1
    S = _Counted()
    memo: dict = {}
    call = _memoized(fn, memo, arity)
    more = (None,) * (arity - 1)
    xs = [(1, 2)]
    assert call(S, xs, *more) == 1 and call(S, xs, *more) == 1
    assert S.steps == S.fx_steps == 6  # a hit charges what the first call took
    assert call(S, [(1, 2)], *more) == 2  # an equal list is another object: asked again
    assert call(S, 1, *more) == 3 and call(S, True, *more) == 4  # 1 == True, yet not the same
    held = gc.get_referents(*memo.values())  # an entry keeps its arguments (or their tuple)
    assert any(x is xs or (type(x) is tuple and x[0] is xs) for x in held)
    del xs  # so no id can be reused while an entry lives
    assert call(S, [(3, 4)], *more) == 5


def test_memo_charges_the_steps_and_lives_for_one_decision():
    game = engine.load("defcon-z", "competitive")
    greedy = game.policies["greedy"]
    S = game.new_state(seed=game_seed(0, 0))
    S.transactional = False
    fast, slow = PolicyBot(greedy, 5), PolicyBot(greedy, 5, shortcuts=False)
    checked = 0
    while not S.over and checked < 40:
        d = S.decision()
        if len(d.actions) > 5:  # a zombie or a move to choose: procedures called many times
            known = determinize(S, d.player, random.Random(1))
            k1, k2 = known.clone(record=False), known.clone(record=False)
            assert fast.choose_known(k1, d) == slow.choose_known(k2, d)
            assert k1.steps == k2.steps and k1.fx_steps == k2.fx_steps
            assert greedy.shortcuts.memos and not any(greedy.shortcuts.memos)
            checked += 1
        S.apply(fast.choose(S, d))
    assert checked >= 10
