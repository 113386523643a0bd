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


def test_a_patch_that_breaks_a_base_snippet_is_shown_at_the_patch(horde, tmp_path):
    # the base's `do: bump(me, n)` (mini pack.yaml:51) now passes one argument too many
    found = said(horde, tmp_path, "procedures:\n  bump:\n    params: [p]\n    do: |\n"
                 "      p.score += 1\n      emit('bumped', who=p, by=1)\n")
    assert found[0][:2] == ("house.yaml", 4)
    assert found[0][2].startswith("'bump' takes 1 argument(s), got 2 (at ")
    assert found[0][2].endswith("pack.yaml:51:9, after this change of procedures.bump.params)")
    assert all(f == "house.yaml" for f, _, _ in found)
    assert said(horde, tmp_path, "procedures:\n  bump:\n    params: [p, n]\n    do: |\n"
                "      p.score += n\n      emit('bumped', who=p, by=n)\n") == []
