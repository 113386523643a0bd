"""The training example of docs/agents.md (examples/train_rtb.py) runs: a few hundred
decisions of REINFORCE against horde's greedy bot on Roll Them Bones, through the
PettingZoo environment (skipped without the `[agents]` extra)."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "train_rtb.py"
DOC = ROOT / "docs" / "agents.md"


def _module():
    pytest.importorskip("pettingzoo", reason="PettingZoo is the optional [agents] extra")
    spec = importlib.util.spec_from_file_location("train_rtb", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_few_hundred_decisions_of_training_run_and_learn(capsys):
    mod = _module()
    mod.main(["--episodes", "30", "--every", "10", "--evaluate", "10"])
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in lines[:3]] == ["episode 10", "episode 20", "episode 30"]
    m = re.match(r"after 30 games \((\d+) decisions\): the trained policy wins (\d+)% of 10 "
                 r"games against greedy, a random one (\d+)%", lines[3])
    assert m and int(m.group(1)) >= 200, lines


def test_the_policy_gradient_moves_the_policy():
    mod = _module()
    import numpy as np

    pi = mod.Softmax(4, 3)
    x, mask = np.array([1.0, 0.0, 0.5, 0.0]), np.array([True, False, True])
    before = pi.probs(x, mask)
    assert before[1] == 0 and abs(before.sum() - 1) < 1e-9
    g = -before
    g[2] += 1.0
    pi.W += 0.5 * np.outer(g, x)  # a won game that took action 2: more likely now
    assert pi.probs(x, mask)[2] > before[2]


def test_the_docs_show_a_command_the_script_takes():
    mod = _module()
    cmd = re.search(r"\$ python examples/train_rtb\.py(.*)\n", DOC.read_text())
    assert cmd, "docs/agents.md lost the training example's command"
    args = mod.parser().parse_args(shlex.split(cmd.group(1)))  # exits on a flag it lacks
    assert args.episodes > 0


@pytest.mark.slow
def test_the_docs_show_what_the_command_prints(capsys):
    """The whole documented run (300 games and 200 evaluation games: seconds of CPU)."""
    mod = _module()
    text = DOC.read_text()
    m = re.search(r"\$ python examples/train_rtb\.py([^\n]*)\n(.*?)```", text, re.S)
    assert m
    mod.main(shlex.split(m.group(1)))
    assert capsys.readouterr().out == m.group(2)
