"""Overlay merge semantics: by key, by id, replace, remove; spans follow the values."""

import pytest

from engine.errors import PackError, Span
from engine.pack.changes import diff
from engine.pack.overlay import merge
from engine.pack.yamlspan import compose_text, plain

BASE = """\
pack: demo
params: {blocks: 16, health: 3}
cards:
  - {id: axe, count: 2, tags: [weapon]}
  - {id: rope, count: 1}
flow:
  - do: a
  - do: b
zones:
  deck: {shuffle: true}
  hand: {per: player}
"""


def base():
    return compose_text(BASE, "base.yaml")


def over(text):
    return compose_text(text, "over.yaml")


def test_mappings_merge_by_key():
    merged = plain(merge(base(), over("params: {blocks: 24, speed: 2}\n")))
    assert merged["params"] == {"blocks": 24, "health": 3, "speed": 2}
    assert merged["pack"] == "demo"


def test_lists_with_ids_merge_by_id_and_new_ids_are_appended_in_order():
    merged = plain(merge(base(), over(
        "cards:\n  - {id: zed, count: 1, zone: deck}\n  - {id: axe, count: 5}\n"
        "  - {id: bat, zone: deck}\n")))
    assert [c["id"] for c in merged["cards"]] == ["axe", "rope", "zed", "bat"]
    assert merged["cards"][0] == {"id": "axe", "count": 5, "tags": ["weapon"]}


def test_other_lists_are_replaced():
    merged = plain(merge(base(), over("flow:\n  - do: c\n")))
    assert merged["flow"] == [{"do": "c"}]


def test_an_empty_list_replaces():
    assert plain(merge(base(), over("cards: []\n")))["cards"] == []


def test_a_scalar_replaces_a_mapping_and_back():
    assert plain(merge(base(), over("params: 3\n")))["params"] == 3
    assert plain(merge(over("params: 3\n"), base()))["params"] == {"blocks": 16, "health": 3}


def test_remove_deletes_by_id_before_the_rest_is_merged():
    merged = plain(merge(base(), over(
        "remove:\n  cards: [rope, axe]\ncards:\n  - {id: axe, count: 9, zone: deck}\n")))
    assert merged["cards"] == [{"id": "axe", "count": 9, "zone": "deck"}]
    assert "remove" not in merged


def test_remove_deletes_keys_of_a_mapping_section():
    merged = plain(merge(base(), over("remove:\n  zones: [hand]\n")))
    assert merged["zones"] == {"deck": {"shuffle": True}}


def test_remove_of_an_unknown_id_is_a_problem_with_a_hint():
    with pytest.raises(PackError) as info:
        merge(base(), over("remove:\n  cards: [ropes]\n"))
    (problem,) = info.value.problems
    assert problem.message == "remove: cards has no item with id 'ropes'"
    assert problem.hint == "did you mean 'rope'?"
    assert problem.span == Span("over.yaml", 2, 11)


def test_remove_problems_can_be_collected_instead_of_raised():
    problems = []
    merged = merge(base(), over("remove:\n  crads: [axe]\n  flow: [x]\n"), problems)
    assert [p.message for p in problems] == [
        "remove: there is no section 'crads' to remove from",
        "remove: 'flow' is neither a list of items with ids nor a mapping",
    ]
    assert problems[0].hint == "did you mean 'cards'?"
    assert plain(merged)["cards"][1]["id"] == "rope"


def test_merged_values_keep_the_span_of_their_file():
    merged = merge(base(), over("params:\n  blocks: 24\ncards:\n  - {id: axe, count: 5}\n"))
    params = merged.value["params"]
    assert params.value["blocks"].span.file == "over.yaml"
    assert params.key_span("blocks") == Span("over.yaml", 2, 3)
    assert params.value["health"].span.file == "base.yaml"
    axe = merged.value["cards"].value[0].value
    assert axe["count"].span == Span("over.yaml", 4, 22)
    assert axe["tags"].span.file == "base.yaml"


def test_merge_leaves_its_inputs_alone():
    original = base()
    before = plain(original)
    merge(original, over("params: {blocks: 1}\nremove: {cards: [rope]}\n"))
    assert plain(original) == before


def test_diff_describes_effective_changes_item_by_item_with_their_lines():
    old = compose_text(BASE + "actions:\n  - {id: hit, do: \"a\\nb\"}\n", "base.yaml")
    new = merge(old, over(
        "params: {blocks: 24, speed: 2}\n"
        "remove: {cards: [rope]}\n"
        "cards:\n  - {id: bat, count: 1, zone: deck}\n  - {id: axe, count: 3}\n"
        "actions:\n  - {id: hit, do: \"a\\nc\"}\n"))
    assert diff(old, new) == [
        "~ params.blocks: 16 -> 24  (over.yaml:1)",
        "+ params.speed: 2  (over.yaml:1)",
        "~ cards[id=axe].count: 2 -> 3  (over.yaml:5)",
        "- cards[id=rope]  (base.yaml:5)",
        "+ cards[id=bat]  (over.yaml:4)",
        "~ actions[id=hit].do: changed  (over.yaml:7)",
    ]
    assert diff(old, old) == []
