"""The words an ask or window gives players (`text:`) are not part of a pack's identity:
records made before a pack gained them still replay (tests/reliability/fixtures hold such
records); anything else that changes still changes the hash."""

from __future__ import annotations

import copy

import engine
from engine.model import pack_hash


def _points(node):
    if isinstance(node, dict):
        if "ask" in node or "window" in node:
            yield node
        for v in node.values():
            yield from _points(v)
    elif isinstance(node, list):
        for v in node:
            yield from _points(v)


def test_point_texts_leave_the_hash_alone_and_other_changes_do_not():
    game = engine.load("roll-them-bones")
    raw = copy.deepcopy(game.raw)
    points = list(_points(raw))
    assert points and all("text" in p for p in points)
    before = pack_hash(raw, game.params, game.mode)
    assert before == game.hash
    for version in (1, 2):
        worded = pack_hash(raw, game.params, game.mode, version)
        for p in points:
            p["text"] = "other words"
        assert pack_hash(raw, game.params, game.mode, version) == worded
        for p in points:
            del p["text"]
        assert pack_hash(raw, game.params, game.mode, version) == worded
    points[0]["who"] = "any"  # what decides play still counts
    assert pack_hash(raw, game.params, game.mode) != before
