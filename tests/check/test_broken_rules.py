"""Deliberately broken house rules are caught, shrunk, and reproduced by a scenario file.

Each fixture under fixtures/ breaks one kind of law: a bound (healing past the maximum), a
conservation law (a card that copies itself), the ending law (a flow that loops forever,
with and without coming back to the same situation), and the rules themselves (an action
that cannot be taken). The written scenario must fail the same way under `horde scenario`.
"""

from __future__ import annotations

import pytest

import engine
from engine.check import run_check
from engine.check.report import write_scenario
from engine.scenario import run_file
from tests.check.conftest import fixture

PACK = "roll-them-bones"
FEW_DOZEN = 36

# fixture, run_check options, law key, words in the failure, words in the replayed scenario
CASES = [
    ("heal-past-max", dict(seed=2), "invariants", ".health = 4",
     "expectation failed: all([p.health >= 0 and p.health <= params.health"),
    ("copying-keys", dict(seed=0), "conservation", "'keys': 3 at the start, 4 now",
     "law broken after decision"),
    ("endless", dict(seed=0), "ends", "it can go on forever", "it can go on forever"),
    ("endless-counting", dict(seed=0, max_steps=30), "ends", "did not end within 30 decisions",
     "expectation failed: game_over()"),
    ("misfiled-discard", dict(seed=0), "rules", "index out of range", "index out of range"),
]


@pytest.mark.parametrize("name, options, key, words, replayed", CASES, ids=[c[0] for c in CASES])
def test_broken_house_rule_is_caught_shrunk_and_reproduced(tmp_path, name, options, key, words,
                                                           replayed):
    game = engine.load(PACK, house=[fixture(name)])
    result = run_check(game, examples=200, **options)
    f = result.failure
    assert f is not None, f"{name}: no law broken in {result.games} games"
    assert f.violation.key == key
    assert words in str(f.violation)
    assert 1 <= len(f.steps) <= max(FEW_DOZEN, options.get("max_steps", 0))
    out = write_scenario(f, tmp_path / "repro" / f"{name}.yaml", pack=PACK, mode=None,
                         house=[fixture(name)], params={})
    [replay] = run_file(out)
    assert not replay.ok
    assert replayed in replay.message


def test_the_law_points_into_the_pack_and_the_action_into_the_house_rule():
    game = engine.load(PACK, house=[fixture("heal-past-max")])
    f = run_check(game, examples=200, seed=2).failure
    assert f.violation.span.file.endswith("rulesets/roll-them-bones/pack.yaml")
    label, span = f.last_action
    assert label == "first-aid" and span.file.endswith("heal-past-max.yaml")


def test_a_card_may_say_it_is_not_conserved(tmp_path):
    allowed = tmp_path / "allowed.yaml"
    allowed.write_text(f"extends: {PACK}\ncards:\n  - {{id: keys, conserved: false}}\n")
    game = engine.load(PACK, house=[fixture("copying-keys"), str(allowed)])
    result = run_check(game, examples=40, seed=0, laws=["conservation"])
    assert result.failure is None and result.games >= 1
