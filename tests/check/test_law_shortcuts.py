"""The laws' shortcuts (engine/snapshot.py, `Watch._ends`, `_conserved`) see every breakage
the long way saw: each test breaks a law on purpose, the way a shortcut could miss it."""

from __future__ import annotations

import pytest

import engine
import engine.laws as laws
from engine.codec import encode
from engine.dsl.values import E
from engine.laws import Watch, conservation, entity_counts, fingerprint
from engine.snapshot import RecordMemo


@pytest.fixture(scope="module")
def game():
    return engine.load("roll-them-bones")


@pytest.fixture
def state(game):
    return game.new_state(players=3, seed=5)


def _ends(game, state) -> Watch:
    w = Watch(game, ["ends"])
    w.start(state)
    return w


# ---------- the record memo ----------
def test_a_record_changed_in_place_is_encoded_again(state):
    memo = RecordMemo()
    uid = next(iter(state.ents))
    rec = state.ents[uid]
    assert memo(rec) == encode(rec)
    rec["@z"] = "elsewhere"  # behind the engine's copy-on-write: the memo still sees it
    assert memo(rec)["@z"] == "elsewhere"
    rec["flag"] = 1
    text = memo.text(rec)
    rec["flag"] = True  # equal to 1, but saved (and fingerprinted) differently
    assert memo(rec)["flag"] is True and memo.text(rec) != text
    del rec["flag"]
    assert memo(rec) == encode(rec)


def test_a_record_holding_a_list_is_never_taken_from_the_memo(state):
    memo = RecordMemo()
    rec = state.ents[next(iter(state.ents))]
    rec["marks"] = [E(1)]
    first = memo(rec)
    rec["marks"].append(E(2))  # in place, as an effect may change a list
    assert memo(rec) == encode(rec) != first


def test_the_memo_forgets_past_its_size(state, monkeypatch):
    monkeypatch.setattr("engine.snapshot.MEMO_MAX", 3)
    memo = RecordMemo()
    memo.to_dict(state)
    assert len(memo.memo) <= 3
    assert memo.to_dict(state) == state.to_dict()


def test_a_clone_whose_record_differs_breaks_the_round_trip(game, state, monkeypatch):
    from engine.state import State
    real = State.clone
    uid = next(iter(state.ents))

    def careless(self, record=True):
        c = real(self, record)
        c.ents[uid] = {**c.ents[uid], "@z": "nowhere"}  # the clone's own, wrong record
        return c

    monkeypatch.setattr(State, "clone", careless)
    problems = Watch(game, ["round-trip"]).apply(state, state.decision().actions[0])
    assert any("a clone differs from the state in ents" in v.detail for v in problems)


def test_a_record_that_json_changes_breaks_the_round_trip(game, state):
    uid = next(iter(state.ents))
    state.ents[uid] = {**state.ents[uid], "odd": {1: 2}}  # int keys come back as strings
    problems = Watch(game, ["round-trip"]).apply(state, state.decision().actions[0])
    assert any("a saved and loaded copy differs from the state in ents" in v.detail
               for v in problems)


# ---------- the ending law ----------
def test_a_state_that_comes_back_after_others_of_its_turn_is_seen(game, state):
    w = _ends(game, state)
    first = state.clone()
    assert w.check(state) == []
    for k in range(3):  # other states of the same turn and dice: each waits unfingerprinted
        state.pl[0]["distance"] = 5 + k
        assert w.check(state) == []
        w.steps += 1
    state.pl[0]["distance"] = first.pl[0]["distance"]
    [v] = w.check(state)
    assert "back where it was after decision 0" in v.detail


def test_states_that_differ_only_where_the_situation_does_not_look_are_told_apart(game, state):
    w = _ends(game, state)
    assert w.check(state) == []
    state.pl[1]["distance"] += 1  # same turn, dice, player, flow: fingerprints decide
    assert w.check(state) == []
    state.ents[next(iter(state.ents))]["@z"] = "elsewhere"
    assert w.check(state) == []


def test_past_the_waiting_limit_the_oldest_state_is_still_compared(game, state, monkeypatch):
    monkeypatch.setattr(laws, "WAITING_MAX", 2)
    w = _ends(game, state)
    start = state.turn.get("mod")
    for k in range(4):  # four situations (a turn value each): the first is fingerprinted
        state.turn["mod"] = 100 + k
        assert w.check(state) == []
        w.steps += 1
    assert len(w.waiting) <= 2
    state.turn["mod"] = 100
    [v] = w.check(state)
    assert "after decision 0" in v.detail
    state.turn["mod"] = start


def test_a_new_turn_or_a_draw_forgets_what_can_never_come_back(game, state):
    w = _ends(game, state)
    assert w.check(state) == []
    state.rand_below(6)
    assert w.check(state) == []
    assert len(w.waiting) == 1 and not w.seen  # the earlier dice's states are gone


def test_should_the_rng_go_back_everything_is_compared(game, state):
    w = _ends(game, state)
    word = state.rng
    state.rand_below(6)
    assert w.check(state) == []
    state.rng = word  # no rule can do this; a building block that did is still covered
    assert w.check(state) == [] and w.epoch is None
    state.pl[0]["distance"] += 1
    assert w.check(state) == []
    state.pl[0]["distance"] -= 1
    [v] = w.check(state)
    assert "can go on forever" in v.detail


def test_the_fingerprint_sees_every_record(state):
    fp = fingerprint(state)
    uid = max(state.ents)
    state.ents[uid] = {**state.ents[uid], "@z": "item_discard"}
    assert fingerprint(state) != fp


# ---------- conservation ----------
@pytest.mark.parametrize("breakage, words", [
    ("twice in one zone", "is in zone item_stack and in zone item_stack"),
    ("listed nowhere", "which does not list it"),
    ("a ghost", "which does not exist"),
    ("nowhere at all", "is nowhere"),
    ("a copy", "appeared"),
])
def test_conservation_still_names_each_breakage(state, breakage, words):
    base = entity_counts(state)
    assert conservation(state, base) == []
    stack = state.zones["item_stack"]
    if breakage == "twice in one zone":
        stack.append(stack[0])
    elif breakage == "listed nowhere":
        stack.remove(stack[0])
    elif breakage == "a ghost":
        stack.append(10**6)
    elif breakage == "nowhere at all":
        state.ents[stack[0]] = {**state.ents[stack[0]], "@z": None}
        stack.remove(stack[0])
    else:
        uid = state.new_entity(state.ents[stack[0]]["id"], {})
        state.move_ent(uid, state.zone_ref("item_discard"))
    assert any(words in v.detail for v in conservation(state, base))


def test_the_memo_encodes_every_kind_of_value_as_the_codec_does(game, state):
    from engine.dsl.values import P, Z
    face = game.dice["zombie_item"][2]
    rec = {"id": "keys", "@z": None, "n": 3, "x": 1.5, "ok": True, "p": P(1), "e": E(2),
           "z": Z("item", 1), "f": face, "cell": (3, -1), "mixed": (P(0), 2),
           "deep": ((1, 2),)}
    memo = RecordMemo()
    assert memo(rec) == encode(rec)
    del rec["deep"]  # a tuple of tuples is not memoized; the rest is
    assert memo(rec) == encode(rec) and memo(rec) is memo(rec)
