"""Overlays that used to crash the loader or keep `horde validate` busy for hours."""

from pathlib import Path

import pytest

from engine.cli import validate
from engine.errors import PackError
from engine.pack.loader import load_tree


def test_a_remove_of_something_that_is_no_id_is_a_problem_not_a_crash(tmp_path):
    house = tmp_path / "h.yaml"
    house.write_text("extends: roll-them-bones\nremove: {zones: [[1]], cards: [{a: 1}, true]}\n")
    with pytest.raises(PackError) as info:
        load_tree("roll-them-bones", house=[str(house)])
    assert [(p.message, p.span.col) for p in info.value.problems] == [
        ("remove.zones: an id is a name or a number", 18),
        ("remove.cards: an id is a name or a number", 32),
        ("remove.cards: an id is a name or a number", 40),
    ]


def test_validate_checks_a_bounded_number_of_modes_and_house_rules(tmp_path, monkeypatch):
    monkeypatch.setattr(validate, "MAX_OVERLAYS", 2)
    loads: list = []
    monkeypatch.setattr(validate, "_load", lambda ref, problems, **kw: loads.append(kw))
    (tmp_path / "modes").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "modes" / f"{name}.yaml").write_text("extends: p\n")
    outcome = validate.check_pack(Path(tmp_path / "pack.yaml"))
    assert loads == [{}, {"mode": "a"}, {"mode": "b"}]
    assert [p.message for p in outcome.problems] == [
        f"{tmp_path}: 3 modes and 0 house rules, more than the 2 validate checks "
        "(the first ones)"]
