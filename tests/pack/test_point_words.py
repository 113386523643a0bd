"""Every decision point of a bundled pack has words for players: the prompt and `?` show
them where the point's name is internal (`after_success`, `zombie_roll`)."""

from __future__ import annotations

import pytest

import engine
from engine.render.panels import point_texts

PACKS = ["roll-them-bones", "theyre-coming", "defcon-z"]


@pytest.mark.parametrize("pack", PACKS)
def test_every_point_where_actions_are_offered_has_words(pack):
    game = engine.load(pack)
    missing = sorted(set(game.actions_at) - set(point_texts(game)))
    assert not missing, f"give these asks or windows a `text:`: {missing}"
