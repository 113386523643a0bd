"""A seat's memory on the agent APIs: DEFCON Z's Gallow Mountain Tower shows a player the
next map tiles, which go back face down; afterwards that player knows them, and only that
player (engine.agents.memory)."""

from __future__ import annotations

import pickle
import random

import pytest

from engine.hidden import determinize
from tests.engine.test_hidden_info import TOWER

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")

CLIMB = ["place(at=0,-1, rot=0)", "stop", "shamble(z=zombie@1,-3)"]  # seat 0 draws a tile, then peeks 3
RESTACK = ["restack(tile=corner)", "restack(tile=diner)", "restack(tile=pawn-shop)"]


def _tower(order=("diner", "pawn-shop", "corner", "straight")):
    """An OpenSpiel state at the tower's turn: the map stack holds `order` (bottom first)."""
    from engine.adapters.openspiel import config, load_game
    from engine.agents.chance import Feed
    from engine.agents.memory import Memory
    from engine.flow.machine import run_effect

    g = load_game("defcon-z", players=2)
    hg = config(g).hg
    text = TOWER.replace("['diner', 'pawn-shop', 'corner', 'straight']", repr(list(order)))
    setup = hg.compile_expr(text, effect=True)

    def prepare(S):
        run_effect(S, setup, {})
        S.forced = [1, 1]

    S = hg.new_state(players=2, seed=1, prepare=prepare)
    S.chance = Feed()  # from here on, as an agent's state: every draw a chance node
    st = g.new_initial_state()
    st.S, st.memory = S, Memory(S)
    return g, st


def _play(st, labels):
    for label in labels:
        by_label = {st._action_to_string(st.current_player(), a): a for a in st.legal_actions()}
        st.apply_action(by_label[label])


def _top(S):
    return [S.ents[u]["id"] for u in S.zones["map_stack"]]


def test_after_the_restack_only_the_climber_knows_the_stack():
    from engine.adapters.openspiel import resampler

    g, st = _tower()
    _play(st, CLIMB + RESTACK)
    assert not st.is_chance_node()
    truth = _top(st.S)
    assert truth == ["corner", "diner", "pawn-shop"]
    assert st.memory.known(0) == frozenset(st.S.zones["map_stack"])
    assert not st.memory.known(1)
    resample = resampler(seed=1)
    theirs = set()
    for seed in range(8):
        mine = determinize(st.S, 0, random.Random(seed), known=st.memory.known(0))
        assert _top(mine) == truth and mine.zones["map_stack"] == st.S.zones["map_stack"]
        assert _top(resample(st, 0).S) == truth
        theirs.add(tuple(_top(determinize(st.S, 1, random.Random(seed), known=st.memory.known(1)))))
        # without the memory, seat 0's stack is re-dealt with the tiles it cannot see
        assert len(determinize(st.S, 0, random.Random(seed)).zones["map_stack"]) == 3
    assert len(theirs) > 1
    assert {tuple(_top(determinize(st.S, 0, random.Random(s)))) for s in range(8)} != {tuple(truth)}


def test_a_shuffle_or_a_move_between_hidden_zones_forgets():
    from engine.agents.memory import Memory

    _, st = _tower()
    _play(st, CLIMB + RESTACK)
    S, memory = st.S.clone(), st.memory.copy()
    S.zones["map_stack"].reverse()  # a shuffle, as the chance feed reports one
    memory.update(S, drew=True, shuffled={"map_stack"})
    assert not memory.known(0)
    S, memory = st.S.clone(), st.memory.copy()
    uid = S.zones["map_stack"][-1]
    S.move_ent(uid, S.zone_ref("spotted#1"))  # to a zone hidden from seat 0 too
    memory.update(S, drew=False)
    assert memory.known(0) == frozenset(S.zones["map_stack"])  # the other two stay known
    assert uid not in memory.known(0)
    fresh = Memory(S)
    assert not fresh.known(0)  # what it saw before the memory began is not known


def _strings(st):
    obs = st.get_game().make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    return [obs.string_from(st, p) for p in range(2)], [st.information_state_string(p) for p in range(2)]


def test_the_information_state_covers_what_the_seat_saw():
    # the same tiles in another order: seat 0 sees them in another order, then puts them
    # back the same way, so the two games end in the same state after the same actions
    _, a = _tower(("diner", "pawn-shop", "corner", "straight"))
    _, b = _tower(("pawn-shop", "corner", "diner", "straight"))
    _play(a, CLIMB + RESTACK)
    _play(b, CLIMB + RESTACK)
    assert a.history() == b.history() and a.S.zones == b.S.zones
    (sa, ia), (sb, ib) = _strings(a), _strings(b)
    assert sa[0] != sb[0] and ia[0] != ib[0]  # seat 0 saw the tiles in another order
    assert sa[1] == sb[1] and ia[1] == ib[1]  # seat 1 saw the same
    _, again = _tower()
    _play(again, CLIMB + RESTACK)
    assert _strings(again) == _strings(a)


def test_pickling_and_cloning_keep_the_memory():
    _, st = _tower()
    _play(st, CLIMB + RESTACK)
    for other in (pickle.loads(pickle.dumps(st)), st.clone()):
        assert other.memory.known(0) == st.memory.known(0) and other.memory is not st.memory
        assert _strings(other) == _strings(st)
        assert _top(other.S) == _top(st.S)


def test_a_determinization_keeps_the_past_as_the_seat_may_read_it():
    from engine.codec import state_view

    _, st = _tower()
    _play(st, CLIMB + RESTACK)
    S = st.S
    assert not len(determinize(S, 1, random.Random(1)).log)  # as horde's bots want it
    for seat in (0, 1):
        D = determinize(S, seat, random.Random(1), past=True)
        view = state_view(S, seat)
        assert list(D.history) == view["history"] and list(D.log) == view["log"]
    assert "restack(hidden)" in determinize(S, 1, random.Random(1), past=True).history
    assert RESTACK[0] in determinize(S, 0, random.Random(1), past=True).history


@pytest.mark.parametrize(("pack", "turns", "seed"), [("theyre-coming", 6, 7), ("defcon-z", 6, 7),
                                                   ("roll-them-bones", 0, 0)])
def test_over_random_games_what_a_seat_knows_stays_put_in_its_resampled_worlds(pack, turns, seed):
    from engine.adapters.openspiel import load_game, resampler
    from engine.hidden import hidden_zone_keys

    g = load_game(pack, players=2, turns=turns)
    resample = resampler(seed=2)
    rng = random.Random(seed)
    st = g.new_initial_state()
    remembered = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
            continue
        S = st.S
        for seat in range(2):
            known = st.memory.known(seat)
            where = {u: (k, i) for k in hidden_zone_keys(S, seat) for i, u in enumerate(S.zones[k])}
            assert known <= where.keys()
            remembered += len(known)
            W = resample(st, seat)
            assert W.information_state_string(seat) == st.information_state_string(seat)
            for u in known:
                k, i = where[u]
                assert W.S.zones[k][i] == u and W.S.ents[u] == S.ents[u]
        st.apply_action(rng.choice(st.legal_actions()))
    if pack == "roll-them-bones":
        assert remembered  # something a seat saw go into a hidden zone, and still knows there
