"""Loading a game from its files' contents (what a cluster worker gets): nothing is read
from the disk, the pack's confinement still holds, and a changed spec is refused."""

from __future__ import annotations

import builtins
import dataclasses
import os
import shutil

import pytest

import engine
from engine.errors import HordeError, PackError
from engine.pack.loader import load_tree
from engine.pack.sources import Sources
from engine.sim.parallel import GameSpec
from tests.packfiles import write

HOUSE = "extends: roll-them-bones\nparams:\n  blocks: {default: 7}\n"


@pytest.fixture
def no_disk(monkeypatch):
    """Any look at the disk fails the test (the schemas are read before: they are horde's)."""
    engine.load("roll-them-bones")

    def touched(*args, **kwargs):
        raise AssertionError(f"the disk was read: {args}")

    for module, name in ((os, "stat"), (os, "listdir"), (os, "open"), (builtins, "open")):
        monkeypatch.setattr(module, name, touched)


def test_a_house_rule_loads_by_content_after_its_folder_is_gone(tmp_path):
    house = write(tmp_path / "rules", {"seven.yaml": HOUSE}) / "seven.yaml"
    game = engine.load("roll-them-bones", house=[str(house)])
    spec = GameSpec.of(game)
    shutil.rmtree(tmp_path / "rules")
    again = spec.load()
    assert again.hash == game.hash and again.params["blocks"] == 7


def test_loading_by_content_reads_nothing_from_disk(tmp_path, no_disk):
    sources = Sources(str(tmp_path / "p" / "pack.yaml"), (), (
        (str(tmp_path / "p" / "pack.yaml"), b"pack: p\ninclude: [more.yaml]\nzones: {deck: {}}\n"),
        (str(tmp_path / "p" / "more.yaml"), b"title: More\n")), (), str(tmp_path / "bundled"))
    tree = load_tree(sources.ref, validate=False, sources=sources)
    assert tree.node.value["title"].value == "More"
    assert tree.sources.digest() == sources.digest()


def test_a_file_not_in_the_map_does_not_exist_even_on_disk(tmp_path):
    folder = write(tmp_path / "p", {"pack.yaml": "pack: p\ninclude: [more.yaml]\n",
                                    "more.yaml": "title: More\n"})
    ref = str(folder / "pack.yaml")
    sources = Sources(ref, (), ((ref, (folder / "pack.yaml").read_bytes()),), (),
                      str(tmp_path))
    with pytest.raises(PackError, match="include 'more.yaml': no such .yaml file"):
        load_tree(ref, validate=False, sources=sources)


def test_confinement_applies_to_a_map(tmp_path, no_disk):
    ref = str(tmp_path / "p" / "pack.yaml")
    outside = str(tmp_path / "secret.yaml")
    sources = Sources(ref, (), ((ref, b"pack: p\ninclude: [../secret.yaml]\n"),
                                (outside, b"title: secret\n")), (), str(tmp_path / "bundled"))
    with pytest.raises(PackError, match="leaves the pack folder"):
        load_tree(ref, validate=False, sources=sources)


def test_errors_in_a_map_point_at_the_file_and_line(tmp_path, no_disk):
    ref = str(tmp_path / "p" / "pack.yaml")
    sources = Sources(ref, (), ((ref, b"pack: p\nzones: [\n"),), (), str(tmp_path))
    with pytest.raises(PackError) as info:
        load_tree(ref, validate=False, sources=sources)
    span = info.value.problems[0].span
    assert span.file.endswith("p/pack.yaml") and span.line >= 2


def test_a_spec_with_changed_files_is_refused():
    spec = GameSpec.of(engine.load("roll-them-bones"))
    (name, text), = spec.sources.files
    changed = dataclasses.replace(spec.sources, files=((name, text + b"\n# changed\n"),))
    with pytest.raises(HordeError, match="does not match its hash"):
        dataclasses.replace(spec, sources=changed).load()
