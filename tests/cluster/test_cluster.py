"""Sweeps on a Ray cluster: the same numbers as one process, packs sent by content (a
house rule the workers could never see by path), and a changed spec refused."""

from __future__ import annotations

import dataclasses
import json
import shutil

import pytest

import engine
from engine.errors import HordeError
from engine.sim import cluster as cluster_module
from engine.sim import parallel
from engine.sim.parallel import simulate
from tests.check.conftest import fixture

# One worker runs them all (`--dist loadgroup`), so the suite starts Ray once, not once per worker.
pytestmark = pytest.mark.xdist_group("ray")

PACK = "roll-them-bones"
HOUSE = "extends: roll-them-bones\nparams:\n  blocks: {default: 9}\n"


def numbers(output: str) -> dict:
    data = json.loads(output)
    data.pop("seconds", None)
    return data


def test_a_sim_on_the_cluster_equals_one_process(cluster, horde):
    args = ("sim", PACK, "-n", 2000, "--seed", 1, "--json")
    local = horde(*args, "--jobs", 1)
    remote = horde(*args, "--cluster", "local")
    assert remote.exit_code == 0, remote.output
    assert numbers(remote.stdout) == numbers(local.stdout)


def test_a_house_rule_reaches_the_workers_by_content(cluster, horde, tmp_path, monkeypatch):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "nine.yaml").write_text(HOUSE)
    args = ("compare", PACK, "base", folder / "nine.yaml", "-n", 60, "--seed", 3, "--json")
    local = horde(*args)
    play = cluster_module.Cluster.play

    def gone_before_the_workers_load(self, batches, work, collect):
        shutil.rmtree(folder)  # the specs are made: from here on only their contents exist
        play(self, batches, work, collect)

    monkeypatch.setattr(cluster_module.Cluster, "play", gone_before_the_workers_load)
    remote = horde(*args, "--cluster", "local")
    assert not folder.exists()
    assert remote.exit_code == 0, remote.output
    assert numbers(remote.stdout) == numbers(local.stdout)


def test_a_worker_refuses_a_spec_that_does_not_match_its_hash(cluster, monkeypatch):
    made = parallel.GameSpec.of

    def tampered(game):
        spec = made(game)
        (name, text), = spec.sources.files
        return dataclasses.replace(spec, sources=dataclasses.replace(
            spec.sources, files=((name, text.replace(b"blocks", b"bl0cks", 1)),)))

    monkeypatch.setattr(parallel.GameSpec, "of", tampered)
    game = engine.load(PACK, params={"blocks": "13"})  # a game no worker has built yet
    with pytest.raises(HordeError, match="does not match its hash"):
        simulate(game, 2, ["random"], 4, cluster=cluster)


def test_a_check_on_the_cluster_shrinks_and_reports_a_failure(cluster, horde, tmp_path):
    out = tmp_path / "repro.yaml"
    r = horde("check", PACK, "--house", fixture("misfiled-discard"), "-n", 8, "--seed", 2,
              "--out", out, "--cluster", "local")
    assert r.exit_code == 1, r.output
    assert "law:    the rules run without error (index out of range)" in r.output
    assert "misfiled-discard.yaml:9:9" in r.output  # the worker's spans name the files sent
    assert "smallest game found: 1 player, seed 0, 1 decision" in r.output
    assert horde("scenario", out).exit_code == 1
