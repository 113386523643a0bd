"""bench/instructions.py counts what bench/search.py times: its workload script, run plainly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench import instructions


def _rollouts(iterations: int) -> int:
    got = subprocess.run([sys.executable, "-c", instructions._RUN, str(instructions.ROOT),
                          "theyre-coming", "zombie-race", str(iterations), "1"],
                         capture_output=True, text=True, check=True)
    return instructions._number(r"rollouts (\d+)", got.stdout)


def test_the_workload_plays_rollouts_and_the_setup_run_plays_none():
    assert _rollouts(2) > 0
    assert _rollouts(0) == 0


def test_a_run_without_the_count_says_what_it_printed():
    with pytest.raises(SystemExit, match="no 'Collected"):
        instructions._number(r"Collected : (\d+)", "valgrind: command not found")
