"""Every pack and mode plays its golden game exactly as the file beside this test says.

A failure prints the first lines that differ, as a diff: read it to see what a change did
to the game. If the change was meant to change games, write the files anew
(`python -m tests.goldens.playthrough`) and let the review see their diff.
"""

from __future__ import annotations

import difflib

import pytest

from tests.goldens.playthrough import GAMES, HERE, name, play


@pytest.mark.parametrize(("pack", "mode", "players", "bots"), GAMES,
                         ids=[name(p, m)[:-4] for p, m, _, _ in GAMES])
def test_golden_playthrough(pack, mode, players, bots):
    want = (HERE / name(pack, mode)).read_text(encoding="utf-8").splitlines()
    got = play(pack, mode, players, bots)
    if got != want:
        diff = list(difflib.unified_diff(want, got, "golden", "now", n=2, lineterm=""))
        pytest.fail(f"{name(pack, mode)} plays differently:\n" + "\n".join(diff[:40]))
