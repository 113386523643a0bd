"""Schema checks: every error in words a designer understands, at the right line:col."""

from pathlib import Path

import pytest

from engine.errors import Span
from engine.pack.schema import validate, validate_scenario
from engine.pack.yamlspan import compose_file, compose_text

MINI = Path(__file__).parent / "fixtures" / "mini"


def check(text, overlay=False):
    return [(p.span.line, p.span.col, p.message)
            for p in validate(compose_text(text, "p.yaml"), overlay=overlay)]


def test_the_fixture_pack_files_are_valid():
    assert validate(compose_file(MINI / "pack.yaml")) == []
    for overlay in [*MINI.glob("modes/*.yaml"), *MINI.glob("house/*.yaml")]:
        assert validate(compose_file(overlay), overlay=True) == [], overlay


def test_misspelt_top_level_key_gets_did_you_mean():
    assert check("pack: x\nacitons: []\n") == [
        (2, 1, "unknown key 'acitons' in the pack (did you mean 'actions'?)")]


def test_type_error_names_the_path_and_the_value():
    assert check("pack: x\nplayers:\n  min: sixteen\n") == [
        (3, 8, "players.min: expected an integer, got 'sixteen'")]


def test_integers_are_strict():
    assert check("pack: x\ncards:\n  - {id: a, count: 2.0}\n  - {id: b, count: true}\n") == [
        (3, 20, "cards[0].count: expected an integer or a string, got 2.0"),
        (4, 20, "cards[1].count: expected an integer or a string, got true"),
    ]


def test_missing_required_key():
    assert check("title: t\n") == [(1, 1, "the pack: missing required key 'pack'")]
    assert check("pack: x\ncards:\n  - {name: e}\n") == [
        (3, 5, "cards[0]: missing required key 'id'")]


def test_flow_node_needs_a_node_key():
    text = "pack: x\nflow:\n  - do: a\n  - do: b\n  - then: []\n"
    assert check(text) == [
        (5, 5, "flow[2]: a flow node needs one of do, if, repeat, for_each, ask, window, call")]


def test_flow_node_with_two_node_keys():
    ((line, col, message),) = check("pack: x\nflow:\n  - ask: main\n    window: w\n")
    assert (line, col) == (4, 5)
    assert message.startswith("flow[0]: 'window' cannot share a flow node with 'ask'")


def test_flow_node_companions_are_checked():
    text = ("pack: x\nflow:\n  - repeat: {}\n    do: []\n"
            "  - for_each: {var: p}\n    do: [{do: x}]\n  - if: c\n  - 3\n")
    assert [m for _, _, m in check(text)] == [
        "flow[0].repeat: repeat needs times or until",
        "flow[1].for_each: missing required key 'in'",
        "flow[2]: missing required key 'then'",
        "flow[3]: expected a mapping, got 3",
    ]


def test_enum_error_suggests_the_closest_choice():
    assert check("pack: x\nactions:\n  - {id: a, who: currnet}\n") == [
        (3, 18, "actions[0].who: expected one of 'current', 'others', 'any', got 'currnet' "
                "(did you mean 'current'?)")]


def test_bad_name_points_at_the_key():
    ((line, col, message),) = check("pack: x\nparams:\n  ok: 1\n  Blocks: 3\n")
    assert (line, col) == (4, 3)
    assert message.startswith("params: key 'Blocks' is not an identifier")


def test_value_of_the_wrong_kind_lists_what_would_do():
    assert check("pack: x\nparams:\n  a: [1]\n") == [
        (3, 6, "params.a: expected an integer, true or false, a string or a mapping, got a list")]


def test_problems_are_sorted_by_position():
    found = check("zzz: 1\npack: Bad\nplayers: {min: x}\naaa: 2\n")
    assert [(line, col) for line, col, _ in found] == sorted((line, col) for line, col, _ in found)
    assert len(found) == 4


def test_an_overlay_may_be_partial():
    text = ("extends: demo\nparams:\n  health: {max: 5}\nactions:\n  - {id: boost, do: x}\n"
            "procedures:\n  bonus: {params: [a]}\nremove: {cards: [a]}\n")
    assert check(text, overlay=True) == []
    full = check(text)
    assert (3, 11, "params.health: missing required key 'default'") in full


def test_an_overlay_still_needs_ids_but_patches_flow_nodes_by_id():
    text = "extends: demo\nactions:\n  - {do: x}\nflow:\n  - {id: roll, then: []}\nacitons: 1\n"
    assert [m for _, _, m in check(text, overlay=True)] == [
        "actions[0]: missing required key 'id'",
        "unknown key 'acitons' in the pack (did you mean 'actions'?)",
    ]
    text = ("extends: demo\nflow:\n  replace: true\n  items: [{do: x, after: roll}]\n"
            "policies: {greedy: {rules: [{id: x, before: pass, remove: true}]}}\n")
    assert check(text, overlay=True) == []


def test_a_pack_must_be_a_mapping():
    assert check("- 1\n") == [(1, 1, "the pack: expected a mapping, got a list")]


def test_scenario_schema():
    good = ("scenario: a thing happens\nrules: [XX-01]\npack: demo\nseed: 1\nrolls: [1, 6, x]\n"
            "decisions: [pass]\nexpect:\n  - players[0].health == 0\n")
    assert validate_scenario(compose_text(good, "s.yaml")) == []
    bad = "scenario: s\nrules: [x1]\npack: demo\nseeds: 1\n"
    messages = [p.message for p in validate_scenario(compose_text(bad, "s.yaml"))]
    assert messages == [  # a scenario that checks nothing is found by engine.scenario_spec
        "rules[0]: 'x1' is not a rule id such as ABC-04",
        "unknown key 'seeds' in the scenario (did you mean 'seed'?)",
    ]


@pytest.mark.parametrize("overlay", [False, True])
def test_problem_spans_name_the_file(overlay):
    (problem,) = validate(compose_text("pack: x\nbad: 1\n", "some/file.yaml"), overlay=overlay)
    assert problem.span == Span("some/file.yaml", 2, 1)


def test_view_keys_are_checked_with_did_you_mean():
    assert check("pack: x\nview:\n  players: []\n  turns: []\n") == [
        (4, 3, "unknown key 'turns' in view (did you mean 'turn'?)")]
    assert check("pack: x\nview:\n  players:\n    - {lable: Score, value: p.score}\n") == [
        (4, 8, "unknown key 'lable' in view.players[0] (did you mean 'label'?)")]
    assert check("pack: x\nview:\n  goal: {text: t, progres: p}\n") == [
        (3, 19, "unknown key 'progres' in view.goal (did you mean 'progress'?)")]
    assert check("pack: x\nview:\n  hand: {zones: [hand], tag: {a: b}}\n") == [
        (3, 25, "unknown key 'tag' in view.hand (did you mean 'tags'?)")]


def test_a_view_item_needs_a_value():
    assert check("pack: x\nview:\n  turn:\n    - {label: Dice}\n") == [
        (4, 7, "view.turn[0]: missing required key 'value'")]
