"""Order of end rules (engine.pack.endorder): a new end rule whose condition implies an
earlier rule's never decides a game, and is reported at its line."""

from __future__ import annotations

from pathlib import Path

import engine
from engine.dsl.parser import parse_expr
from engine.pack.endorder import implies
from tests.pack.checks import said

RTB = Path(engine.__file__).parent.parent / "rulesets" / "roll-them-bones" / "pack.yaml"
RULE = ("end:\n  - id: healthy\n{}    when: \"any([q.escaped and q.health >= 3 for q in players])\"\n"
        "    winners: \"[q for q in players if q.escaped]\"\n")


def test_an_end_rule_an_earlier_one_pre_empts(horde, tmp_path):
    found = said(horde, tmp_path, RULE.format(""), base=RTB)
    assert [(f, line) for f, line, _ in found] == [("house.yaml", 3)]
    assert found[0][2].startswith("end rule 'healthy' never decides a game: whenever it holds, "
                                  "the earlier rule 'escaped' (")
    assert found[0][2].endswith("pack.yaml:379) holds too and ends the game first")
    assert said(horde, tmp_path, RULE.format("    before: escaped\n"), base=RTB) == []


def test_implication_is_only_what_the_trees_show():
    def imp(b: str, a: str) -> bool:
        return implies(parse_expr(b), parse_expr(a))
    assert imp("game.round >= 10", "game.round >= 5")
    assert imp("game.round == 7 and game.score > 0", "game.round > 6")
    assert not imp("game.round >= 5", "game.round >= 10")
    assert imp("all([p.out and p.health == 0 for p in players])", "all([p.out for p in players])")
    assert not imp("any([p.out for p in players])", "all([p.out for p in players])")
    assert not imp("game.round >= 10", "turn.round >= 5")
