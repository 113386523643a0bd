"""Cheap holes `horde validate` closes: `metrics:` compiled as `horde sim` will, and a
procedure named like a builtin (which would answer that builtin's calls in every rule)."""

from __future__ import annotations

from tests.pack.checks import said


def test_a_metric_that_reads_an_undefined_name_is_an_error_at_its_line(horde, tmp_path):
    assert said(horde, tmp_path, "metrics:\n  spread: game.rounds + round_count\n") == [
        ("house.yaml", 3, "unknown name 'round_count'")]
    assert said(horde, tmp_path, "metrics:\n  spread: game.rounds + 1\n") == []


def test_a_procedure_named_like_a_builtin_is_an_error(horde, tmp_path):
    assert said(horde, tmp_path, "procedures:\n  count:\n    params: [xs]\n    value: '1'\n") == [
        ("house.yaml", 3, "procedure 'count' has the name of a builtin: it would replace "
                          "count() for every rule of the pack")]
    assert said(horde, tmp_path, "procedures:\n  tally:\n    params: [xs]\n    value: '1'\n"
                "actions:\n  - {id: t, at: main, do: 'me.score = tally(me.hand)'}\n") == []


def test_a_procedure_parameter_named_like_a_builtin_is_an_error(horde, tmp_path):
    assert said(horde, tmp_path, "procedures:\n  half:\n    params: [max]\n    value: max / 2\n"
                "actions:\n  - {id: t, at: main, do: 'me.score = half(2)'}\n") == [
        ("house.yaml", 4, "procedure 'half': parameter 'max' has the name of a builtin")]
