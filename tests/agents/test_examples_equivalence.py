"""The example packs play OpenSpiel's own games: examples/liars-dice is `liars_dice` (one
die each, two players) node for node, over the whole tree, and examples/pig is `pig` over
many paired random walks. Both games are walked in lockstep: the same chance outcomes with
the same probabilities, the same player to move, the same legal actions (matched by what
they mean), the same winner at the end. Skipped where OpenSpiel (the `[agents]` extra) is
not installed."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.agents import gametype
from engine.agents.observe import observation
from engine.api import load

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
_BID = re.compile(r"bid\(quantity=(\d+), face=(\d+)\)")


def _meaning(label: str) -> str:
    """A Liar's Dice label of the pack as OpenSpiel writes the action: `2-5`, `Liar`."""
    m = _BID.fullmatch(label)
    if m:
        return f"{m[1]}-{m[2]}"
    assert label == "liar", label
    return "Liar"


def _winners(returns) -> list[int]:
    return [p for p, r in enumerate(returns) if r > 0]


def _same_chance(s, S) -> list[tuple[int, float]]:
    """The chance node's outcomes, the same in both: outcome k is face k + 1 in both."""
    ours = S.chance_outcomes()
    theirs = s.chance_outcomes()
    assert [k for k, _ in ours] == [k for k, _ in theirs]
    assert [p for _, p in ours] == pytest.approx([p for _, p in theirs])
    return theirs


def _same_ending(s, S) -> None:
    assert S.is_terminal() and s.is_terminal()
    theirs = s.returns()
    assert _winners(S.returns()) == _winners(theirs)
    # the returns OpenSpiel is told, as the pack declares them (`returns: zero-sum`)
    assert gametype.returns(S, gametype.meta(S.game.raw).returns) == pytest.approx(theirs)


def _walk_liars_dice(deals=None) -> tuple[dict, dict]:
    """Both games' trees in lockstep, with one die each (only the `deals`, pairs of faces
    of P0 and P1, when given): each node's kind, its player, its legal actions by meaning,
    its chance outcomes and their probabilities, and each ending's winner. Also that each
    OpenSpiel information state is one observation of the pack for its player: the pack
    shows a player their own die, never the other's. (node counts, information states)"""
    game = load(EXAMPLES / "liars-dice")
    seen: dict[tuple[int, str], str] = {}  # (player, OpenSpiel info state) -> our observation
    counts = {"chance": 0, "decision": 0, "terminal": 0}

    def walk(s, S, faces: tuple) -> None:
        if s.is_terminal():
            counts["terminal"] += 1
            _same_ending(s, S)
            return
        assert not S.is_terminal()
        if s.is_chance_node():
            counts["chance"] += 1
            assert S.is_chance_node()
            for k, _ in _same_chance(s, S):
                if deals is None or any(d[:len(faces) + 1] == (*faces, k + 1) for d in deals):
                    t, T = s.clone(), S.clone()
                    t.apply_action(k)
                    T.apply_chance(k)
                    walk(t, T, (*faces, k + 1))
            return
        counts["decision"] += 1
        assert not S.is_chance_node()
        p = s.current_player()
        assert S.current_player() == p
        mine = observation(S, p)
        assert seen.setdefault((p, s.information_state_string(p)), mine) == mine
        labels = {_meaning(label): label for label in S.legal_actions()}
        actions = {s.action_to_string(p, a): a for a in s.legal_actions()}
        assert sorted(labels) == sorted(actions)
        for meaning, a in actions.items():
            t, T = s.clone(), S.clone()
            t.apply_action(a)
            T.apply(labels[meaning])
            walk(t, T, faces)

    theirs = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1})
    walk(theirs.new_initial_state(), game.new_state(players=2, seed=0, explicit_chance=True), ())
    return counts, seen


def test_liars_dice_deals_node_for_node():
    """Three deals' whole bidding: a die and a wild one, two wild ones, a pair."""
    counts, _ = _walk_liars_dice({(1, 6), (6, 6), (3, 3)})
    # a deal's bids: any increasing sequence of the 12 bids (4,096, the empty one with
    # them), each a decision; every one but the empty one may be called (4,095 endings)
    assert counts == {"chance": 1 + 3, "decision": 3 * 4096, "terminal": 3 * 4095}


@pytest.mark.slow
def test_liars_dice_is_openspiels_node_for_node():
    """The whole tree: every deal, every bid, every call."""
    counts, seen = _walk_liars_dice()
    assert counts == {"chance": 1 + 6, "decision": 36 * 4096, "terminal": 36 * 4095}
    assert len(seen) == 24_576  # 2 players x 6 faces of their own die x 2,048 bid sequences


def _pig_walk(s, S, rng: random.Random) -> int:
    """One random walk of both Pig games in lockstep; the decisions it paired."""
    decisions = 0
    while not s.is_terminal():
        assert not S.is_terminal()
        if s.is_chance_node():
            assert S.is_chance_node()
            outcomes = _same_chance(s, S)
            k = rng.choices([k for k, _ in outcomes], [p for _, p in outcomes])[0]
            s.apply_action(k)
            S.apply_chance(k)
            continue
        assert not S.is_chance_node()
        p = s.current_player()
        assert S.current_player() == p
        ours = sorted(S.legal_actions())
        theirs = sorted("hold" if a == "stop" else a
                        for a in map(lambda a: s.action_to_string(p, a), s.legal_actions()))
        assert ours == theirs
        choice = rng.choice(ours)
        S.apply(choice)
        s.apply_action(s.string_to_action("stop" if choice == "hold" else choice))
        decisions += 1
    _same_ending(s, S)
    return decisions


@pytest.mark.parametrize(("players", "target", "sides"), [(2, 10, 6), (2, 25, 6), (3, 15, 6), (2, 12, 4)])
def test_pig_is_openspiels_over_paired_random_walks(players, target, sides):
    theirs = pyspiel.load_game("pig", {"players": players, "winscore": target,
                                       "diceoutcomes": sides, "horizon": 100_000})
    game = load(EXAMPLES / "pig", params={"target": target, "sides": sides})
    rng = random.Random(target)
    decisions = 0
    for seed in range(300):
        decisions += _pig_walk(theirs.new_initial_state(),
                               game.new_state(players=players, seed=seed, explicit_chance=True), rng)
    assert decisions > 300 * 3
