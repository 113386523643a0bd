"""Names are typed at load (engine.dsl.names): a literal text where a builtin or a
procedure takes a card, a tag, a die icon or an action that names none of the pack's is an
error at its own file:line:col with did-you-mean; so is a value of a known type written
into a field of another type. Each of these used to validate and then do nothing."""

from __future__ import annotations

import pytest

import engine
from engine.errors import PackError
from tests.packfiles import write


def _problems(tmp_path, pack: str, text: str):
    write(tmp_path, {"house.yaml": f"extends: {pack}\n{text}"})
    with pytest.raises(PackError) as info:
        engine.load(pack, house=[tmp_path / "house.yaml"])
    return [(p.span.line, p.span.col, p.message, p.hint) for p in info.value.problems]


def _action(cond: str) -> str:
    return f"actions:\n  - id: extra\n    at: after_black\n    if: \"{cond}\"\n    do: \"log('x')\"\n"


@pytest.mark.parametrize(("cond", "name", "message", "hint"), [
    # a pack procedure: its parameter `id` goes straight into has(), a card
    ("can_use_item(me, 'grenad')", "grenad", "'can_use_item': no card or piece kind 'grenad'",
     "did you mean 'grenade'?"),
    ("can_use_item(p=me, id='shotgn')", "shotgn", "'can_use_item': no card or piece kind 'shotgn'",
     "did you mean 'shotgun'?"),
    ("icons(turn.dice, 'runn') > 0", "runn", "'icons': no die icon 'runn'", "did you mean 'run'?"),
    ("tagged(top(me.item), 'itme')", "itme", "'tagged': no tag 'itme'", "did you mean 'item'?"),
    ("can('granade')", "granade", "'can': no action 'granade'", "did you mean 'grenade'?"),
])
def test_a_misspelt_name_in_any_argument_is_an_error_at_its_place(tmp_path, cond, name, message, hint):
    col = len('    if: "') + 1 + cond.index(f"'{name}'")  # at the literal's quote
    assert _problems(tmp_path, "roll-them-bones", _action(cond)) == [(5, col, message, hint)]


def test_names_that_exist_compile(tmp_path):
    write(tmp_path, {"house.yaml": "extends: roll-them-bones\n" + _action(
        "can_use_item(me, 'grenade') and icons(turn.dice, 'run') > 0 and "
        "tagged(top(me.item), 'item') and can('grenade(x=1)') and can('pass')")})
    engine.load("roll-them-bones", house=[tmp_path / "house.yaml"])


def test_a_misspelt_piece_kind_and_a_text_into_a_number_field(tmp_path):
    probs = _problems(tmp_path, "theyre-coming", "triggers:\n  - on: entered\n    do: |\n"
                      "      for z in pieces('shamblr'):\n"
                      "          z.speed = 'two'\n"
                      "      for z in pieces(['runner', 'dozr']):\n"
                      "          z.weapon = 3\n"
                      "          z.speed = z.speed + 1\n"
                      "    id: typed\n")
    assert probs == [
        (5, 23, "'pieces': no card or piece kind 'shamblr'", "did you mean 'shambler'?"),
        (6, 11, "'speed' holds a number: it cannot be set to a text", None),
        (7, 34, "'pieces': no card or piece kind 'dozr'", "did you mean 'dozer'?"),
        (8, 11, "'weapon' holds a text: it cannot be set to a number", "str(x) is x as a text"),
    ]


def test_player_and_game_fields_are_typed_too(tmp_path):
    probs = _problems(tmp_path, "roll-them-bones", "vars: {n: 0}\ntriggers:\n  - on: turn_start\n"
                      "    do: |\n      game.n = 'many'\n      current.distance = [1]\n"
                      "      game.n = none\n      game.n = 2 > 1\n")
    assert [p[:3] for p in probs] == [(6, 7, "'n' holds a number: it cannot be set to a text"),
                                      (7, 7, "'distance' holds a number: it cannot be set to a list")]


def test_a_parameter_used_as_two_kinds_stays_untyped(tmp_path):
    write(tmp_path, {"house.yaml": "extends: roll-them-bones\nprocedures:\n"
                     "  both: {params: [x], value: \"has(current.item, x) or tagged(top(current.item), x)\"}\n"
                     + _action("both('whatever') and can_use_item(me, 'grenade')")})
    engine.load("roll-them-bones", house=[tmp_path / "house.yaml"])
