"""A pack's words for turns (`turn_names`) are read by scenarios only: adding them to a pack
must not change its hash, or every game saved or recorded with it would stop loading."""

from __future__ import annotations

from engine.api import load
from engine.model import pack_hash


def test_turn_names_leave_the_pack_hash_alone():
    game = load("theyre-coming")
    assert "turn_names" in game.raw
    without = {k: v for k, v in game.raw.items() if k != "turn_names"}
    for version in (1, 2):
        assert pack_hash(game.raw, game.params, None, version) == \
            pack_hash(without, game.params, None, version)
    assert game.hash == pack_hash(without, game.params, None)
