"""Every list an overlay touches merges by id: patch, add, insert before/after, remove,
replace whole; a slip (an item without an id, a misspelt id) is an error at its line."""

import pytest

from engine.errors import PackError, Span
from engine.model import pack_hash
from engine.pack.overlay import merge
from engine.pack.yamlspan import compose_text, plain

BASE = """\
pack: demo
actions:
  - {id: grenade, at: roll, do: "x = 1"}
triggers:
  - {id: crush, on: entered, do: "x = 1"}
flow:
  - {id: start, do: "a = 1"}
  - id: rounds
    repeat: {until: "false"}
    do:
      - {id: roll, ask: roll}
      - {id: end, window: end}
policies:
  greedy:
    rules:
      - {id: keys, play: keys}
      - {id: pass, play: pass}
invariants:
  - {id: deck, check: "count(deck) == 50"}
  - "true"
"""


def merged(text: str):
    return plain(merge(compose_text(BASE, "base.yaml"), compose_text(text, "house.yaml")))


def problems(text: str):
    with pytest.raises(PackError) as info:
        merged(text)
    return info.value.problems


def test_a_flow_node_is_inserted_after_another_inside_a_nested_flow():
    flow = merged("flow:\n  - id: rounds\n    do:\n"
                  "      - {id: flare, after: roll, do: \"f = 1\"}\n"
                  "      - {id: first, before: roll, do: \"g = 1\"}\n")["flow"]
    assert [n["id"] for n in flow[1]["do"]] == ["first", "roll", "flare", "end"]
    assert flow[1]["repeat"] == {"until": "false"}


def test_a_policy_rule_is_inserted_before_another_and_keeps_the_rest():
    rules = merged("policies:\n  greedy:\n    rules:\n"
                   "      - {id: crowbar, play: crowbar, before: pass}\n")["policies"]["greedy"]
    assert [r["id"] for r in rules["rules"]] == ["keys", "crowbar", "pass"]
    assert "before" not in rules["rules"][1]


def test_items_are_patched_and_removed_by_id():
    out = merged("flow:\n  - {id: start, remove: true}\n  - {id: rounds, repeat: {times: 3}}\n"
                 "invariants:\n  - {id: deck, check: \"count(deck) == 52\"}\n")
    assert [n["id"] for n in out["flow"]] == ["rounds"]
    assert out["flow"][0]["repeat"] == {"until": "false", "times": 3}
    assert out["invariants"] == [{"id": "deck", "check": "count(deck) == 52"}, "true"]


def test_a_trigger_without_an_id_is_an_error_not_a_replacement():
    (problem,) = problems("triggers:\n  - {on: entered, do: \"y = 2\"}\n")
    assert problem.span == Span("house.yaml", 2, 5)
    assert "no id" in problem.message and "crush" in problem.message
    assert "replace: true" in problem.hint


def test_replace_true_replaces_the_whole_list():
    out = merged("triggers:\n  replace: true\n  items:\n    - {on: entered, do: \"y = 2\"}\n")
    assert out["triggers"] == [{"on": "entered", "do": "y = 2"}]


def test_a_misspelt_id_is_an_error_with_did_you_mean_not_a_new_action():
    (problem,) = problems("actions: [{id: granade, if: \"false\"}]\n")
    assert problem.message == "actions: no item with id 'granade' to change"
    assert problem.span == Span("house.yaml", 1, 16)
    assert problem.hint.startswith("did you mean 'grenade'?")
    assert "at and do" in problem.hint


def test_a_complete_new_item_is_added():
    out = merged("actions: [{id: granade, at: roll, do: \"x = 2\"}]\n")
    assert [a["id"] for a in out["actions"]] == ["grenade", "granade"]


def test_placing_next_to_an_unknown_id_or_removing_one_is_an_error():
    found = problems("flow:\n  - {id: x, after: strat, do: \"a\"}\n  - {id: rouns, remove: true}\n")
    assert [p.hint for p in found] == ["did you mean 'start'?", "did you mean 'rounds'?"]
    assert found[0].span == Span("house.yaml", 2, 20)


def test_the_ids_of_flow_nodes_and_policy_rules_do_not_change_the_pack_hash():
    with_ids = plain(compose_text(BASE, "base.yaml"))
    bare = plain(compose_text(BASE.replace("{id: keys, ", "{").replace("{id: start, ", "{")
                              .replace("- {id: roll, ", "- {"), "base.yaml"))
    for version in (1, 2):
        assert pack_hash(with_ids, {}, None, version) == pack_hash(bare, {}, None, version)
    other = plain(compose_text(BASE.replace("{id: grenade", "{id: grenado"), "b.yaml"))
    assert pack_hash(other, {}, None) != pack_hash(with_ids, {}, None)


def _house(tmp_path, text):
    path = tmp_path / "house.yaml"
    path.write_text(text)
    return path


def test_a_bundled_pack_takes_inserts_patches_and_removals_through_the_schema(tmp_path):
    from engine.api import load
    house = _house(tmp_path, "extends: roll-them-bones\n"
                   "procedures:\n  turn:\n    flow:\n"
                   "      - id: skip\n        else:\n"
                   "          - {id: shout, after: roll-black, do: \"log('boo')\"}\n"
                   "          - {id: unlock, remove: true}\n"
                   "policies:\n  greedy:\n    rules:\n      - {id: pass, if: \"true\"}\n")
    game = load("roll-them-bones", house=[house])
    steps = [n.get("id") for n in game.raw["procedures"]["turn"]["flow"][0]["else"]]
    assert steps[:4] == ["turn-start", "roll-black", "shout", "after-black"]
    assert "unlock" not in steps
    assert game.raw["policies"]["greedy"]["rules"][-1] == {"id": "pass", "play": "pass",
                                                          "if": "true"}


def test_a_house_trigger_without_an_id_points_at_its_line(tmp_path):
    from engine.pack.loader import load_tree
    house = _house(tmp_path, "extends: theyre-coming\ntriggers:\n"
                   "  - {on: entered, do: \"log('x')\"}\n")
    with pytest.raises(PackError) as info:
        load_tree("theyre-coming", house=[house])
    (problem,) = info.value.problems
    assert (problem.span.line, problem.span.col) == (3, 5)
    assert "crush" in problem.message
