"""A snippet that reads only a loop's variable is handed the loop's own frame dict, found
where the flow's static shape says it is (`steppers.frame_of`): at every such snippet run
in random games of every pack, mode and house example, what it gets must be exactly what
`flow_locals` gathers by walking the stack."""

from __future__ import annotations

import random

import pytest

import engine
from engine.flow import effects
from engine.flow.nodes import DO, IF, REPEAT, SEQ
from engine.flow.steppers import contained, frame_of
from tests.properties.variants import all_variants, variant_id

DECISIONS = 300
SEEDS = 2


def _checked(c, seen: list):
    fn = c.fn

    def check(S, L):
        expected = effects.flow_locals(S)
        assert {n: L[n] for n in c.uses} == {n: expected[n] for n in c.uses}
        seen[0] += 1
        return fn(S, L)
    return check


def _watch(g) -> list:
    """Check the snippets whose locals come from a known frame; how many ran."""
    seen = [0]
    for nid, node in enumerate(g.nodes):
        snippets = []
        if node.kind == SEQ:
            for cid in node.children:
                child = g.nodes[cid]
                if child.kind == DO:
                    effects.may_end(g, child.fx)
                    contained(g, child.fx)  # (read off the code before it is wrapped)
                    snippets.append(child.fx)
                elif child.kind == IF:
                    snippets.append(child.cond)
        elif node.kind == REPEAT and node.cond is not None:
            snippets.append(node.cond)
        for c in snippets:
            if c.uses and frame_of(g, nid, c.uses) is not None:
                c.fn = _checked(c, seen)
    return seen


@pytest.mark.parametrize("variant", all_variants(), ids=variant_id)
def test_a_loops_frame_holds_what_flow_locals_would_give(variant):
    pack, mode, house = variant
    g = engine.load(pack, mode=mode, house=[house] if house else [])
    seen = _watch(g)
    for seed in range(SEEDS):
        players = g.players_min + seed % (g.players_max - g.players_min + 1)
        S = g.new_state(players=players, seed=seed)
        S.transactional = False
        rnd = random.Random(seed)
        for _ in range(DECISIONS):
            if S.over:
                break
            d = S.decision()
            S.apply(d.actions[rnd.randrange(len(d.actions))])
    if pack == "theyre-coming" and mode is None and house is None:
        assert seen[0] > 0  # the zombies' march reads its loop's zombie
