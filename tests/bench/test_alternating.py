"""`bench.reference.alternating`: the engine and the hand-written program take turns, each
playing its own games 0, 1, 2... in order across its turns. No time is asserted."""

from __future__ import annotations

import sys
import types

from bench import reference


def test_both_sides_play_their_games_in_order_in_alternating_turns(monkeypatch):
    played: list[tuple[str, int]] = []
    fake = types.ModuleType("fake_reference")
    fake.play_game = lambda players, k: played.append(("by hand", k)) or (0, 1, 1)
    monkeypatch.setitem(sys.modules, "fake_reference", fake)
    monkeypatch.setitem(reference.REFERENCES, "fake", "fake_reference")

    got = reference.alternating("fake", 2, 0.0, lambda k: played.append(("engine", k)), slices=3)

    # a budget of nothing still plays one game a turn, the engine first
    assert played == [("engine", 0), ("by hand", 0), ("engine", 1), ("by hand", 1),
                      ("engine", 2), ("by hand", 2)]
    assert got["games"] == 3


def test_turns_share_the_budget_and_pick_up_where_they_stopped(monkeypatch):
    seen = {"engine": [], "by hand": []}
    fake = types.ModuleType("fake_reference")
    fake.play_game = lambda players, k: seen["by hand"].append(k) or (0, 1, 1)
    monkeypatch.setitem(sys.modules, "fake_reference", fake)
    monkeypatch.setitem(reference.REFERENCES, "fake", "fake_reference")

    got = reference.alternating("fake", 2, 0.05, lambda k: seen["engine"].append(k), slices=4)

    for side, ks in seen.items():
        assert ks == list(range(len(ks))) and len(ks) >= 4, side
    assert got["games"] == len(seen["by hand"])
    assert got["games_per_s"] > 0 and got["ratio"] > 0
