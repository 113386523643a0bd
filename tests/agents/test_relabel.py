"""No seat's observation or information state tells which copy of a card another player
drew: tiles come from one shared face-down bag (tests/agents/packs/shared-bag), and the
engine's entity numbers, which no player sees, used to show in every observation — so
player 1's information state changed with which red tile player 0 drew. `horde check`'s
view law now renames every entity and shuffles the zones hidden from each seat, and
compares what each seat observes."""

from __future__ import annotations

import collections
import random
from pathlib import Path

import pytest

import engine
from engine.agents import observe
from engine.laws import Watch

BAG = Path(__file__).parent / "packs" / "shared-bag"
TAKE = "take"


def _games(n: int):
    """`n` games of the bag where each seat takes four tiles, drawn by explicit chance
    (every shuffle step an outcome): per game, each seat's observations after each move,
    and the kinds each seat drew, in order."""
    g = engine.load(str(BAG))
    for seed in range(n):
        r = random.Random(seed)
        S = g.new_state(players=2, seed=seed, explicit_chance=True)
        seen: list[list[str]] = [[], []]
        drew: list[list[str]] = [[], []]
        while not S.is_terminal() and len(drew[0]) + len(drew[1]) < 8:
            if S.is_chance_node():
                S.apply_chance(r.randrange(len(S.chance_outcomes())))
                continue
            p = S.current_player()
            S.apply(_id_of(S, TAKE))
            while S.is_chance_node():
                S.apply_chance(r.randrange(len(S.chance_outcomes())))
            drew[p].append(S.ents[S.zones[f"hand#{p}"][-1]]["id"])
            for q in range(2):
                seen[q].append(observe.observation(S, q))
        yield seen, drew


def _id_of(S, label: str) -> int:
    return next(i for i, lab in S.game.action_space(2).legal(S).items() if lab == label)


def test_observations_do_not_tell_which_copy_anyone_drew():
    """Games in which a seat drew the same kinds in the same order look the same to it,
    whichever copies were drawn (on the old observer up to 9 different strings)."""
    for seat in range(2):
        views = collections.defaultdict(set)
        for seen, drew in _games(60):
            views[tuple(drew[seat])].add(tuple(seen[seat]))
        assert max(len(v) for v in views.values()) == 1
        assert len(views) > 3  # the games did differ in what the seat drew


def test_openspiel_information_states_do_not_tell_which_copy_anyone_drew():
    pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")
    from engine.adapters.openspiel import load_game

    g = load_game(str(BAG))
    for seat in range(2):
        infos = collections.defaultdict(set)
        for seed in range(40):
            r = random.Random(seed)
            s = g.new_initial_state()
            drew: list[list[str]] = [[], []]
            for _ in range(4):
                while s.is_chance_node():
                    s.apply_action(r.choice(s.legal_actions()))
                p = s.current_player()
                s.apply_action(_id_of(s.S, TAKE))
                while s.is_chance_node():
                    s.apply_action(r.choice(s.legal_actions()))
                drew[p].append(s.S.ents[s.S.zones[f"hand#{p}"][-1]]["id"])
            infos[tuple(drew[seat])].add(s.information_state_string(seat))
        assert max(len(v) for v in infos.values()) == 1 and len(infos) > 2


def test_horde_check_passes_the_shared_bag_pack(horde):
    r = horde("check", BAG, "-n", 20, "--seed", 0)
    assert r.exit_code == 0, r.output
    assert "no law broken" in r.output and "view" in r.output


def _by_uid(real):
    """An observer that names the entities of the zones it shows by their uids, as the old one did."""
    def leaky(S, player):
        seen = real(S, player)
        seen["uids"] = {k: list(u) for k, u in S.zones.items() if isinstance(seen["zones"][k], list)}
        return seen
    return leaky


def _bag_order(real):
    """An observer that shows the kinds in the face-down bag, in order."""
    def leaky(S, player):
        seen = real(S, player)
        seen["bag"] = [S.ents[u]["id"] for u in S.zones["bag"]]
        return seen
    return leaky


@pytest.mark.parametrize("leak", [_by_uid, _bag_order], ids=["uids", "hidden-order"])
def test_the_view_law_catches_a_leaky_observer(monkeypatch, horde, tmp_path, leak):
    monkeypatch.setattr(observe, "seen_by", leak(observe.seen_by))
    r = horde("check", BAG, "-n", 20, "--seed", 0, "--out", tmp_path / "repro.yaml")
    assert r.exit_code == 1, r.output
    assert "observation" in r.output and "renamed" in r.output


def test_the_view_law_catches_a_leaky_tensor(monkeypatch):
    """A tensor that counts the bag's first tile's kind (hidden from every seat)."""
    real = observe.tensor

    def leaky(S, player):
        bag = S.zones["bag"]
        return [*real(S, player), float(bool(bag) and S.ents[bag[0]]["id"] == "red")]

    monkeypatch.setattr(observe, "tensor", leaky)
    g = engine.load(str(BAG))
    w = Watch(g, laws=["view"])
    found = []
    for seed in range(10):
        S = g.new_state(players=2, seed=seed)
        found += [v.detail for v in w.check(S)]
    assert any("tensor" in d for d in found)
