"""Skipping end checks changes nothing: for every pack, mode and house-rule example, seeded
games with the checks an effect's footprint lets it skip (engine.dsl.footprint) play
exactly as games that check after every effect — same decisions, log, result and steps."""

from __future__ import annotations

import random

import pytest

import engine
from tests.properties.variants import all_variants, game, variant_id

DECISIONS = 400  # long games are compared over their first decisions
SEEDS = 3


def _play(g, players: int, seed: int) -> tuple:
    S = g.new_state(players=players, seed=seed)
    S.transactional = False
    rnd = random.Random(seed)
    trail = []
    while not S.over and len(trail) < DECISIONS:
        d = S.decision()
        label = d.actions[rnd.randrange(len(d.actions))]
        trail.append((d.player, tuple(d.actions), label))
        S.apply(label)
    return trail, list(S.log), S.winners, S.over, S.steps


@pytest.mark.parametrize("variant", all_variants(), ids=variant_id)
def test_skipped_end_checks_change_no_game(variant):
    pack, mode, house = variant
    skipping = game(*variant)
    checking = engine.load(pack, mode=mode, house=[house] if house else [])
    checking.program.end_watch = frozenset({"*"})  # every effect may end the game
    for seed in range(SEEDS):
        players = skipping.players_min + seed % (skipping.players_max - skipping.players_min + 1)
        assert _play(skipping, players, seed) == _play(checking, players, seed), (variant, seed)
