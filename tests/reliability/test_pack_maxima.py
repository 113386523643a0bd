"""A pack cannot size its own budgets or its setup beyond what a machine does in time.

`limits` of 10**20 made a runaway rule run forever and `count: 10**9` took 26 s and
2.8 GB before the first turn. The schema bounds each number (and the quick check agrees
with jsonschema); the compiler bounds the cards made at setup in all.
"""

import json

import pytest

import engine
from engine import resources
from engine.errors import PackError
from engine.pack import loader
from engine.pack.build import MAX_CARDS
from engine.pack.loader import load_tree
from engine.pack.quickschema import compile_schema

HUGE = 10**20


@pytest.fixture
def pack(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "rulesets_dir", lambda: tmp_path)

    def problems(text: str) -> list[str]:
        (tmp_path / "pack.yaml").write_text("pack: p\nzones: {deck: {}}\n" + text)
        with pytest.raises(PackError) as info:
            load_tree(str(tmp_path))
        return [p.message for p in info.value.problems]
    return problems


@pytest.mark.parametrize(("text", "message"), [
    (f"limits: {{turns: {HUGE}}}", f"limits.turns: {HUGE} is more than the maximum, 100000"),
    (f"limits: {{steps: {HUGE}}}",
     f"limits.steps: {HUGE} is more than the maximum, 100000000"),
    (f"limits: {{depth: {HUGE}}}", f"limits.depth: {HUGE} is more than the maximum, 200"),
    (f"players: {{max: {HUGE}}}", f"players.max: {HUGE} is more than the maximum, 64"),
    (f"players: {{default: {HUGE}}}", f"players.default: {HUGE} is more than the maximum, 64"),
    (f"cards: [{{id: c, count: {HUGE}, zone: deck}}]",
     f"cards[0].count: {HUGE} is more than the maximum, 1000"),
])
def test_the_schema_bounds_every_number_that_sizes_a_game(pack, text, message):
    assert pack(text + "\n") == [message]


def test_the_quick_check_honours_the_maxima():
    schema = json.loads((resources.data_dir("schemas") / "pack.schema.json").read_text())
    quick = compile_schema(schema)
    assert quick({"pack": "p", "limits": {"steps": 100_000_000}})
    assert not quick({"pack": "p", "limits": {"steps": 100_000_001}})
    assert not quick({"pack": "p", "cards": [{"id": "c", "count": 1001}]})


def test_the_cards_made_at_setup_are_bounded_in_all(tmp_path):
    """Each card within its maximum, but eleven of them (or two in a per-player zone of a
    six-seat pack) make more than MAX_CARDS copies."""
    cards = "".join(f"  - {{id: many-{i}, count: 1000, zone: item_stack}}\n" for i in range(11))
    (tmp_path / "wide.yaml").write_text(f"extends: roll-them-bones\ncards:\n{cards}")
    with pytest.raises(PackError) as info:
        engine.load("roll-them-bones", house=[str(tmp_path / "wide.yaml")])
    (problem,) = info.value.problems
    assert problem.message.startswith("the cards make 11,")
    assert problem.message.endswith(f"a pack makes at most {MAX_CARDS:,}")
    seats = "".join(f"  - {{id: mine-{i}, count: 1000, zone: item}}\n" for i in range(2))
    (tmp_path / "seats.yaml").write_text(f"extends: roll-them-bones\ncards:\n{seats}")
    with pytest.raises(PackError, match="for each of 6 seats"):
        engine.load("roll-them-bones", house=[str(tmp_path / "seats.yaml")])


def test_a_name_with_a_trailing_line_break_is_no_name(pack):
    """Python's `$` matches before a final line break, so `^[a-z_][a-z0-9_]*$` alone let a
    quoted "deck\\n" pass as an identifier; the schema's patterns match whole strings."""
    assert pack('player: {"score\\n": {type: int, init: 0}}\n') != []
    assert pack('cards: [{id: "c\\n", zone: deck}]\n') != []
