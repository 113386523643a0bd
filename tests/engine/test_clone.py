"""Clones and the journal behind the log and history: shared past, independent futures."""

from __future__ import annotations

import ast
import copy
import json
import pickle
from pathlib import Path

import pytest

import engine
from engine.journal import Journal

MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def _journal(parts: list[list]) -> Journal:
    """A journal whose entries went in as `parts`, with a fork after each part."""
    j = Journal()
    for part in parts:
        for x in part:
            j.append(x)
        j.fork()
    return j


@pytest.mark.parametrize("parts", [[], [[1]], [[1, 2, 3]], [[1], [2, 3], [], [4]],
                                   [list(range(k * 10, k * 10 + k)) for k in range(12)]])
def test_journal_reads_as_the_list_it_holds(parts):
    j = _journal(parts)
    j.append("last")
    expected = [x for p in parts for x in p] + ["last"]
    assert list(j) == expected and len(j) == len(expected) and j == expected
    assert expected == j and j == tuple(expected) and j != expected[:-1]
    for i in range(-len(expected), len(expected)):
        assert j[i] == expected[i]
    for i in (len(expected), -len(expected) - 1):
        with pytest.raises(IndexError):
            j[i]
    for start in (None, 0, 1, 3, -2, 10, 100):
        for stop in (None, 2, -1, 50):
            for step in (None, 1, 2, -1):
                assert j[start:stop:step] == expected[start:stop:step]
    assert list(reversed(j)) == expected[::-1]
    assert ("last" in j) and ("nope" not in j) and j.count("last") == 1
    assert repr(j) == repr(expected)


def test_journal_parts_stay_few_and_forks_share_the_past():
    j = Journal()
    for k in range(2000):
        j.append(k)
        j.fork()
    assert list(j) == list(range(2000))
    assert len(j._parts) <= 12
    f = j.fork()
    assert f._parts is j._parts


def test_forks_grow_apart():
    j = Journal(["a"])
    f = j.fork()
    j.append("j")
    f.append("f")
    g = f.fork()
    g.extend(["g1", "g2"])
    assert j == ["a", "j"] and f == ["a", "f"] and g == ["a", "f", "g1", "g2"]


def test_an_append_taken_before_a_fork_still_writes_to_the_journal():
    j = Journal()
    add = j.append
    add(1)
    j.fork()
    add(2)
    assert j == [1, 2]


def test_journal_survives_pickle_copy_and_json():
    j = _journal([[{"t": "x"}], [{"t": "y"}]])
    for twin in (pickle.loads(pickle.dumps(j)), copy.deepcopy(j), copy.copy(j)):
        assert twin == j
        twin.append({"t": "z"})
        assert len(j) == 2
    assert json.loads(json.dumps(list(j))) == list(j)


def test_clone_and_original_keep_their_own_logs_and_histories(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    log, history = list(S.log), list(S.history)
    C = S.clone()
    assert C.log == log and C.history == history
    C.apply("score(n=1)")
    S.apply("draw")
    assert S.log[:len(log)] == log and C.log[:len(log)] == log
    assert S.history == history + ["draw"] and C.history == history + ["score(n=1)"]
    assert S.log[len(log):] != C.log[len(log):]
    assert S.clone(record=False).log == [] and S.clone(record=False).history == []


def test_a_failed_action_rolls_the_log_back(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    S.pl[0]["tag"] = "crash"
    S._decision = None
    before = list(S.log), list(S.history)
    with pytest.raises(engine.errors.RuleRuntimeError):
        S.apply("crash")
    assert (list(S.log), list(S.history)) == before
    S.log.append({"t": "msg", "text": "still writable"})
    assert len(S.log) == len(before[0]) + 1


def test_a_saved_state_loads_with_a_journal(game):
    S = game.new_state(players=2, seed=1)
    S.apply("pass")
    R = game.state_from_dict(json.loads(json.dumps(S.to_dict())))
    assert type(R.log) is Journal and type(R.history) is Journal
    assert R.log == S.log and R.history == S.history and R == S


def test_records_are_shared_until_written(game):
    S = game.new_state(players=2, seed=1)
    uid = next(iter(S.ents))
    C = S.clone()
    assert C.ents[uid] is S.ents[uid]
    C.ent_w(uid)["@z"] = "elsewhere"
    assert S.ents[uid]["@z"] != "elsewhere" and C.ents[uid] is not S.ents[uid]
    assert C.ent_w(uid) is C.ent_w(uid)  # copied once: later writes go to the copy
    S.ent_w(uid)["n"] = 1  # the original copies too: the clone's records are not its own
    assert "n" not in C.ents[uid]


def test_records_holding_lists_are_copied_with_the_state(game):
    S = game.new_state(players=2, seed=1)
    uid = S.new_entity("x", {"xs": [1, [2]], "d": {"k": [3]}})
    C = S.clone()
    C.ents[uid]["xs"][1].append(9)  # as `e.xs[1] = ...` in an effect: in place
    C.ents[uid]["d"]["k"].append(9)
    assert S.ents[uid] == {"id": "x", "@z": None, "xs": [1, [2]], "d": {"k": [3]}}
    T = S.clone()
    T.ents[uid]["xs"].append(0)
    assert S.ents[uid]["xs"] == [1, [2]]




def test_a_loaded_state_copies_its_records_holding_lists_with_clones(game):
    S = game.new_state(players=2, seed=1)
    uid = S.new_entity("x", {"xs": [1]})
    R = game.state_from_dict(json.loads(json.dumps(S.to_dict())))
    plain = next(u for u in R.ents if u != uid)
    assert R.ent_w(plain) is R.ents[plain]  # loaded for R alone: written in place
    C = R.clone()
    C.ents[uid]["xs"].append(2)
    assert R.ents[uid]["xs"] == [1]


def test_only_the_state_touches_its_copy_on_write_sets():
    """Which records a state may write in place (`own`) and which its clones copy (`deep`)
    is State's to say: a slip elsewhere would let one game's write show in another's."""
    engine_dir = Path(engine.__file__).parent
    hits = [f"{path.relative_to(engine_dir)}:{node.lineno}"
            for path in sorted(engine_dir.rglob("*.py")) if path.name != "state.py"
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Attribute) and node.attr in ("own", "deep")]
    assert not hits, f"use State's methods (own_all, share, mark_deep...): {hits}"
