"""Finding packs and assembling one from pack, includes, mode and house rules."""

from pathlib import Path

import pytest

from engine.errors import PackError, Span
from engine.pack import loader
from engine.pack.loader import list_packs, load_tree, resolve_ref
from engine.pack.yamlspan import plain
from tests.packfiles import write

FIXTURES = Path(__file__).parent / "fixtures"
MINI = FIXTURES / "mini"


@pytest.fixture(autouse=True)
def bundled_packs(monkeypatch):
    """The fixture folder stands in for the bundled rulesets."""
    monkeypatch.setattr(loader, "rulesets_dir", lambda: FIXTURES)


def problems(*args, **kwargs):
    with pytest.raises(PackError) as info:
        load_tree(*args, **kwargs)
    return info.value.problems


def test_list_packs_reports_broken_packs_without_failing():
    packs = {p.id: p for p in list_packs()}
    assert sorted(packs) == ["broken", "mini", "other"]
    mini = packs["mini"]
    assert (mini.title, mini.modes, mini.house) == ("Mini", ["fast", "slow"],
                                                    ["fast-no-boost", "short"])
    assert (mini.players_min, mini.players_max, mini.problems) == (1, 4, [])
    assert "YAML syntax error" in packs["broken"].problems[0].message


def test_resolve_ref_accepts_ids_folders_and_files():
    pack_file = (MINI / "pack.yaml").resolve()
    assert resolve_ref("mini") == pack_file
    assert resolve_ref(str(MINI)) == pack_file
    assert resolve_ref(MINI / "modes" / "fast.yaml") == (MINI / "modes" / "fast.yaml").resolve()


def test_resolve_ref_unknown_suggests_a_pack():
    with pytest.raises(PackError) as info:
        resolve_ref("minni")
    assert info.value.problems[0].hint == "did you mean 'mini'?"


def test_a_base_pack_merges_its_includes():
    tree = load_tree("mini")
    data = plain(tree.node)
    assert (tree.pack_id, tree.mode, tree.root) == ("mini", None, MINI.resolve())
    assert tree.files == [(MINI / "pack.yaml").resolve(), (MINI / "parts/cards.yaml").resolve()]
    assert "include" not in data
    assert [c["id"] for c in data["cards"]] == ["boost", "shield"]
    assert tree.node.value["cards"].span.file.endswith("parts/cards.yaml")


def test_spans_are_relative_to_the_working_directory(monkeypatch):
    monkeypatch.chdir(FIXTURES.parent)
    tree = load_tree("mini")
    assert tree.node.value["cards"].span == Span("fixtures/mini/parts/cards.yaml", 2, 3)


def test_a_mode_is_applied_as_an_overlay():
    tree = load_tree("mini", mode="fast")
    data = plain(tree.node)
    assert tree.mode == "fast" and "extends" not in data and "remove" not in data
    assert data["params"]["goal"] == 5
    assert [(c["id"], c["count"]) for c in data["cards"]] == [("boost", 4), ("rocket", 1)]
    assert tree.node.value["params"].value["goal"].span.file.endswith("modes/fast.yaml")


def test_an_unknown_mode_gets_did_you_mean():
    (problem,) = problems("mini", mode="fats")
    assert problem.message == "unknown mode 'fats'" and problem.hint == "did you mean 'fast'?"
    (problem,) = problems("mini", mode="../other")
    assert problem.message == "unknown mode '../other'"


def test_house_rules_by_name_or_path_apply_in_order(tmp_path):
    extra = write(tmp_path, {"mine.yaml": f"extends: {MINI / 'pack.yaml'}\nlimits: {{turns: 7}}\n"})
    tree = load_tree("mini", mode="slow", house=["short", extra / "mine.yaml"])
    data = plain(tree.node)
    assert data["limits"] == {"turns": 7} and data["params"]["goal"] == 20
    assert tree.files[-1] == (extra / "mine.yaml").resolve()


def test_a_house_rule_extending_a_mode_brings_the_mode():
    tree = load_tree("mini", house=["fast-no-boost"])
    data = plain(tree.node)
    assert tree.mode == "fast"
    assert [a["id"] for a in data["actions"]] == ["draw-card"]
    assert data["params"]["goal"] == 5


def test_two_modes_cannot_apply():
    (problem,) = problems("mini", mode="slow", house=["fast-no-boost"])
    assert "more than one mode" in problem.message


def test_an_overlay_file_can_be_loaded_directly():
    tree = load_tree(str(MINI / "house" / "fast-no-boost.yaml"))
    assert (tree.pack_id, tree.mode) == ("mini", "fast")
    assert [a["id"] for a in plain(tree.node)["actions"]] == ["draw-card"]


def test_a_house_rule_must_not_be_a_base_pack():
    (problem,) = problems("mini", house=[str(FIXTURES / "other" / "pack.yaml")])
    assert "is a base pack, not an overlay" in problem.message


def test_a_house_rule_must_extend_the_pack_being_played(tmp_path):
    write(tmp_path, {"h.yaml": "extends: other\nlimits: {turns: 3}\n"})
    (problem,) = problems("mini", house=[tmp_path / "h.yaml"])
    assert "not the pack being loaded" in problem.message
    assert problem.span.line == 1 and problem.span.col == 10


def test_an_unknown_house_rule():
    (problem,) = problems("mini", house=["shorter"])
    assert problem.hint == "did you mean 'short'?"


def test_an_include_cannot_leave_the_pack_folder(tmp_path):
    write(tmp_path, {
        "secret.yaml": "cards: []\n",
        "pack/pack.yaml": "pack: p\ninclude:\n  - ../secret.yaml\n  - parts/../../secret.yaml\n",
    })
    found = problems(str(tmp_path / "pack"), validate=False)
    assert [p.message for p in found] == [
        "include '../secret.yaml' leaves the pack folder",
        "include 'parts/../../secret.yaml' leaves the pack folder",
    ]
    assert found[0].span.line == 3 and found[0].span.col == 5


def test_an_include_cannot_be_absolute(tmp_path):
    write(tmp_path, {"pack.yaml": f"pack: p\ninclude: [{tmp_path / 'x.yaml'}]\n",
                     "x.yaml": "title: t\n"})
    (problem,) = problems(str(tmp_path), validate=False)
    assert "absolute paths are not allowed" in problem.message


def test_an_include_cannot_escape_through_a_symlink(tmp_path):
    write(tmp_path, {"outside.yaml": "title: t\n", "p/pack.yaml": "pack: p\ninclude: [x.yaml]\n"})
    (tmp_path / "p" / "x.yaml").symlink_to(tmp_path / "outside.yaml")
    (problem,) = problems(str(tmp_path / "p"), validate=False)
    assert "leaves the pack folder" in problem.message


def test_an_include_cycle_is_reported(tmp_path):
    write(tmp_path, {
        "pack.yaml": "pack: p\ninclude: [a.yaml]\n",
        "a.yaml": "include: [b.yaml]\ntitle: a\n",
        "b.yaml": "include: [a.yaml]\n",
    })
    (problem,) = problems(str(tmp_path), validate=False)
    assert problem.message.startswith("include cycle: ")
    assert problem.message == "include cycle: pack.yaml -> a.yaml -> b.yaml -> a.yaml"
    assert problem.span.file.endswith("b.yaml") and problem.span.line == 1


def test_a_missing_include_gets_did_you_mean(tmp_path):
    write(tmp_path, {"pack.yaml": "pack: p\ninclude: [crads.yaml]\n", "cards.yaml": "cards: []\n"})
    (problem,) = problems(str(tmp_path), validate=False)
    assert problem.hint == "did you mean 'cards'?"


def test_included_keys_merge_in_order_under_the_files_own(tmp_path):
    write(tmp_path, {
        "pack.yaml": "pack: p\ninclude: [a.yaml, b.yaml]\nparams: {c: 3}\n",
        "a.yaml": "params: {a: 1, b: 1, c: 1}\n",
        "b.yaml": "params: {b: 2, c: 2}\n",
    })
    assert plain(load_tree(str(tmp_path)).node)["params"] == {"a": 1, "b": 2, "c": 3}


def test_an_extends_cycle_is_reported(tmp_path, monkeypatch):
    write(tmp_path, {"pack.yaml": "pack: p\n", "modes/a.yaml": "extends: b.yaml\n",
                     "modes/b.yaml": "extends: a.yaml\n"})
    monkeypatch.chdir(tmp_path)
    (problem,) = problems(str(tmp_path / "modes" / "a.yaml"))
    assert problem.message == "extends cycle: modes/a.yaml -> modes/b.yaml -> modes/a.yaml"


def test_problems_from_every_file_are_raised_together(tmp_path):
    write(tmp_path, {
        "pack.yaml": "pack: p\ninclude: [a.yaml]\nacitons: []\n",
        "a.yaml": "cards:\n  - {id: x}\n  - {id: x, count: -1}\n",
        "modes/m.yaml": "extends: p\nparams: {a: 1}\nparams: {b: 2}\n",
        "house/h.yaml": "extends: p\nremove: {cards: [y]}\n",
    })
    found = problems(str(tmp_path), mode="m", house=["h"])
    where = {(Path(p.span.file).name, p.span.line) for p in found}
    assert {("pack.yaml", 3), ("a.yaml", 3), ("m.yaml", 3), ("h.yaml", 2)} <= where


def test_schema_errors_in_an_overlay_point_into_the_overlay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"h.yaml": f"extends: {MINI / 'pack.yaml'}\nplayers:\n  max: lots\n"})
    (problem,) = problems("mini", house=["h.yaml"])
    assert str(problem.span) == "h.yaml:3:8"
    assert problem.message == "players.max: expected an integer, got 'lots'"


def test_a_base_pack_cannot_remove(tmp_path):
    write(tmp_path, {"pack.yaml": "pack: p\nremove: {cards: [a]}\n"})
    (problem,) = problems(str(tmp_path))
    assert problem.message.startswith("remove is for overlays")
