"""The end check: one generated function asks every end condition in turn, and the
careful way (condition by condition through `evaluate`) ends the game or reports the
error. Both must give the same games and the same errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.errors import RuleRuntimeError
from engine.flow import machine

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"


def _pack(tmp_path, when: str, extra: str = ""):
    text = (MINI / "pack.yaml").read_text()
    old = 'when: "any([p.score >= params.goal for p in players])"'
    assert old in text
    (tmp_path / "pack.yaml").write_text(text.replace(old, f'when: "{when}"{extra}'))
    return engine.load(tmp_path)


def _play(g, seed: int, careful: bool) -> tuple:
    if careful:
        g.program.end_check = machine._check_ends_carefully
    S = g.new_state(players=2, seed=seed)
    S.transactional = False
    while not S.over:
        d = S.decision()
        S.apply(d.actions[(S.steps + len(S.log)) % len(d.actions)])
    return list(S.log), S.winners, S.steps


@pytest.mark.parametrize("seed", range(5))
def test_the_generated_check_ends_games_as_the_careful_one(seed):
    quick = engine.load(MINI)
    careful = engine.load(MINI)
    assert _play(quick, seed, False) == _play(careful, seed, True)


def test_an_error_in_an_end_condition_points_at_it(tmp_path):
    g = _pack(tmp_path, "game.rounds / (game.rounds - 1) > 5")
    with pytest.raises(RuleRuntimeError) as exc:
        _play(g, 0, False)
    assert "division by zero" in str(exc.value)
    line = next(n for n, text in enumerate((tmp_path / "pack.yaml").read_text().splitlines(), 1)
                if "game.rounds / (game.rounds - 1)" in text)
    assert f"pack.yaml:{line}:" in str(exc.value)


def test_the_first_condition_that_holds_names_the_winners(tmp_path):
    extra = '\n    winners: "[players[1]]"\n  - when: "game.rounds >= 1"'
    g = _pack(tmp_path, "game.rounds >= 1", extra)
    S = g.new_state(players=2, seed=1)
    assert S.over and S.winners == [1]  # the second condition holds too, and names nobody


def test_a_condition_calling_a_procedure_is_written_into_the_check(tmp_path):
    g = _pack(tmp_path, "twice(game.rounds) >= 2")
    S = g.new_state(players=2, seed=1)
    source = machine.make_end_check(g).__code__.co_names
    assert "_pc_twice" in source and not any(name.startswith("_w") for name in source)
    while not S.over:
        S.apply(S.decision().actions[0])
    assert S.vars["rounds"] == 1  # (the flow would have gone on to round 2)
