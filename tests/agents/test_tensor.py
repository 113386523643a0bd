"""The observation tensor holds every value the seat can see: two different views never
share a tensor (Roll Them Bones' tensor used to drop the zombie dice and the last roll);
the information state has no tensor, as the game type says; docs/agents.md shows each
bundled pack's layout as the code makes it."""

from __future__ import annotations

import collections
import random
import re
from pathlib import Path

import pytest

from engine.agents import encode, observe
from tests.agents.cases import game

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
PACKS = ["roll-them-bones", "theyre-coming", "defcon-z"]


def test_different_views_of_roll_them_bones_never_share_a_tensor():
    g = game("roll-them-bones", None)
    views = collections.defaultdict(set)
    for seed in range(60):
        S = g.new_state(players=2, seed=seed)
        r = random.Random(seed)
        while (d := S.decision()) is not None:
            for seat in range(2):
                views[tuple(observe.tensor(S, seat))].add(observe.observation(S, seat))
            S.apply(r.choice(d.actions))
    assert len(views) > 1000
    shared = [v for v in views.values() if len(v) > 1]
    assert not shared, f"{len(shared)} tensors stand for 2+ views, e.g. {sorted(shared[0])[:2]}"


def test_the_dice_and_the_last_roll_are_in_the_tensor():
    g = game("roll-them-bones", None)
    S = g.new_state(players=2, seed=3)
    lay = observe.layout(g, 2)
    before = observe.tensor(S, 0)
    faces = g.dice["zombie_item"]
    for value in ([faces[0], faces[3]], [faces[3], faces[0]], [faces[3]]):
        S.turn["dice"] = value
        assert observe.tensor(S, 0) != before
    S.turn["dice"], S.turn["last"] = [], "zombies"
    assert observe.tensor(S, 0) != before
    assert {s.name for s in lay.values} >= {"turn.dice", "turn.last"} and not lay.left_out


@pytest.mark.parametrize("pack", PACKS)
def test_docs_show_each_bundled_pack_s_layout(pack):
    g = game(pack, None)
    text = DOC.read_text()
    table = encode.describe(observe.layout(g, 2))
    assert table in text, f"docs/agents.md lacks {pack}'s layout:\n{table}"
    size = observe.layout(g, 2).size
    assert re.search(rf"{re.escape(g.title)}.*{size:,}", text)


def test_the_information_state_has_no_tensor_as_the_game_type_says():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import load_game

    g = load_game("roll-them-bones", players=2)
    assert not g.get_type().provides_information_state_tensor
    s = g.new_initial_state()
    r = random.Random(0)
    while s.is_chance_node():
        s.apply_action(r.choice(s.legal_actions()))
    with pytest.raises(pyspiel.SpielError, match="no information state tensor"):
        s.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError):
        g.information_state_tensor_size()
    assert len(s.observation_tensor(0)) == g.observation_tensor_size() == observe.layout(
        game("roll-them-bones", None), 2).size
    assert s.information_state_string(0) != s.information_state_string(1)
