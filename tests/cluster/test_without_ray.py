"""`--cluster` without Ray installed, or with --jobs: a clear error, exit 1, nothing played."""

from __future__ import annotations

import sys

import pytest


@pytest.mark.parametrize("command", [("sim", "roll-them-bones"), ("check", "roll-them-bones")])
def test_without_ray_the_cluster_option_says_how_to_install_it(horde, monkeypatch, command):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    r = horde(*command, "--cluster", "local")
    assert r.exit_code == 1
    assert "--cluster needs Ray" in r.output and "pip install 'horde[cluster]'" in r.output


def test_the_cluster_and_jobs_are_not_given_together(horde):
    r = horde("sim", "roll-them-bones", "--cluster", "local", "--jobs", 2)
    assert r.exit_code == 1 and "--cluster and --jobs" in r.output
