"""bench.ab: the same games on two trees (here the tree and itself)."""

from __future__ import annotations

import json

import pytest

from bench import ab


def test_same_games_on_two_trees(capsys):
    ab.main([str(ab.ROOT), "--packs", "theyre-coming/zombie-race", "--rounds", "1", "--seconds", "0.02"])
    out = capsys.readouterr().out
    result = json.loads(out[out.index("{"):])["theyre-coming/zombie-race"]
    assert result["games"] >= 2 and result["old"] > 0 and result["new"] > 0
    assert result["ratio"] == pytest.approx(result["new"] / result["old"])


def test_an_old_tree_must_be_a_horde_tree(tmp_path):
    with pytest.raises(SystemExit, match="not a horde tree"):
        ab.main([str(tmp_path)])


def test_greedy_games_on_two_trees(capsys):
    ab.main([str(ab.ROOT), "--packs", "theyre-coming/zombie-race", "--bots", "greedy",
             "--rounds", "1", "--seconds", "0.02"])
    out = capsys.readouterr().out
    results = json.loads(out[out.index("{"):])
    assert list(results) == ["theyre-coming/zombie-race greedy"]
    result = results["theyre-coming/zombie-race greedy"]
    assert result["games"] >= 2 and result["old"] > 0 and result["new"] > 0


def test_checked_games_on_two_trees(capsys):
    ab.main([str(ab.ROOT), "--packs", "theyre-coming/zombie-race", "--bots", "check",
             "--rounds", "1", "--seconds", "0.02"])
    out = capsys.readouterr().out
    assert "decisions/s" in out
    result = json.loads(out[out.index("{"):])["theyre-coming/zombie-race check"]
    assert result["games"] >= 1 and result["old"] > 0 and result["new"] > 0
