"""A card's count and a zone's capacity may be an expression of params, worked out at load."""

import pytest

from engine.api import load
from engine.errors import PackError

PACK = """\
pack: counts
players: {min: 1, max: 2}
params:
  flares: {default: 2, min: 0, max: 9}
zones:
  deck: {}
  hand: {per: player, capacity: "params.flares + 1"}
cards:
  - {id: flare, count: "params.flares * 2", zone: deck}
  - {id: rock, count: 3, zone: deck}
flow:
  - ask: go
actions:
  - {id: go, at: go, do: "end_game()"}
"""


def _write(tmp_path, text):
    path = tmp_path / "pack.yaml"
    path.write_text(text)
    return path


def test_a_count_and_a_capacity_follow_a_param(tmp_path):
    path = _write(tmp_path, PACK)
    game = load(path)
    assert game.cards["flare"].count == 4 and game.cards["rock"].count == 3
    assert game.zones["hand"].capacity == 3
    assert load(path, params={"flares": 5}).cards["flare"].count == 10


def test_a_count_that_reads_the_game_is_an_error_at_its_line(tmp_path):
    path = _write(tmp_path, PACK.replace('"params.flares * 2"', '"count(deck)"'))
    with pytest.raises(PackError) as info:
        load(path)
    (problem,) = info.value.problems
    assert (problem.span.line, problem.span.col) == (9, 24)
    assert "an expression of params" in problem.message
