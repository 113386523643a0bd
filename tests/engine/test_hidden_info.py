"""Hidden information: what a seat's view shows, what labels reveal, determinizations.

Played on DEFCON Z, whose hands, event deck and face-down map stack are all hidden.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.dsl.values import E
from engine.hidden import determinize, family, hidden_zone_keys


@pytest.fixture(scope="module")
def game():
    return engine.load("defcon-z")


def played(game, seed: int, steps: int, players: int = 3):
    S = game.new_state(players=players, seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if S.is_terminal():
            break
        S.apply(r.choice(S.decision().actions))
    return S


def swap(S, a: int, b: int):
    """The same state with entities a and b trading places (zones and positions)."""
    T = S.clone()
    za, zb = T.ents[a]["@z"], T.ents[b]["@z"]
    ia, ib = T.zones[za].index(a), T.zones[zb].index(b)
    T.zones[za][ia], T.zones[zb][ib] = b, a
    T.ent_w(a)["@z"], T.ent_w(b)["@z"] = zb, za  # writes go through ent_w: records are shared
    return T


def test_another_hand_does_not_change_my_view(game):
    for seed in range(4):
        S = played(game, seed, 60)
        hand, deck = S.zones["hand#1"], S.zones["deck"]
        if not hand or not deck:
            continue
        T = swap(S, hand[0], deck[-1])
        assert S.view(0) == T.view(0)
        assert S.view(2) == T.view(2)
        assert S.view(None) == T.view(None)
        assert S.view(1) != T.view(1)  # the owner sees the difference


def test_views_hold_no_other_hand_and_no_face_down_stack(game):
    for seed in range(3):
        S = played(game, seed, 80)
        for p in range(3):
            v = S.view(p)
            for q in range(3):
                key = f"hand#{q}"
                if q == p:
                    assert v["zones"][key] == S.zones[key]
                    continue
                assert v["zones"][key] == {"hidden": len(S.zones[key])}
                assert not {str(u) for u in S.zones[key]} & set(map(str, v["ents"]))
            for key in ("deck", "map_stack"):
                assert v["zones"][key] == {"hidden": len(S.zones[key])}
                assert not {str(u) for u in S.zones[key]} & set(map(str, v["ents"]))
            assert "rng" not in v


def test_labels_never_name_another_players_hidden_cards(game):
    for seed in range(3):
        S = game.new_state(players=4, seed=seed)
        r = random.Random(seed)
        for _ in range(400):
            if S.is_terminal():
                break
            d = S.decision()
            mine = set(hidden_zone_keys(S, d.player))
            for _, args in d.bindings.values():
                for v in args.values():
                    if type(v) is E and v.i in S.ents:
                        assert S.ents[v.i].get("@z") not in mine, (d.point, d.actions)
            S.apply(r.choice(d.actions))


TOWER = """
for p in players:
    for c in cards(p.hand):
        move(c, deck)
for c in [x for x in cards(deck) if x.id == 'slow-going']:
    move(c, players[0].hand)
for t in cards(map_stack):
    if t.id != 'gallow-mountain-tower':
        move(t, players[1].spotted)
place_tile(find(map_stack, 'gallow-mountain-tower'), cell(1, 0), 0)
for k in ['diner', 'pawn-shop', 'corner', 'straight']:
    move(find(players[1].spotted, k), map_stack)
players[0].sq = cell(4, 1)
"""


def test_putting_tiles_back_face_down_is_masked_for_the_others(game):
    from engine.flow.machine import run_effect
    setup = game.compile_expr(TOWER, effect=True)

    def prepare(S):
        run_effect(S, setup, {})
        S.forced = [1, 1]

    S = game.new_state(players=2, seed=1, prepare=prepare)
    for label in ["place(at=0,-1, rot=0)", "stop", "shamble(z=zombie@1,-3)"]:
        S.apply(label)
    seen_by_me = S.view(0)
    assert seen_by_me["zones"]["spotted#0"] == S.zones["spotted#0"]
    assert S.view(1)["zones"]["spotted#0"] == {"hidden": 3}
    for label in ["restack(tile=corner)", "restack(tile=diner)", "restack(tile=pawn-shop)"]:
        S.apply(label)
    mine, theirs = S.view(0), S.view(1)
    assert "restack(tile=corner)" in mine["history"]
    assert "restack(hidden)" in theirs["history"]
    assert not any("tile=" in h for h in theirs["history"] if h.startswith("restack"))
    acts = [e for e in theirs["log"] if e.get("t") == "act" and e["a"].startswith("restack")]
    assert acts and all(e["a"] == "restack(hidden)" and "e" not in e for e in acts)
    # the tile placed in public stays readable for everyone
    assert "place(at=0,-1, rot=0)" in theirs["history"]


def test_determinize_redeals_only_within_a_family_and_keeps_sizes(game):
    S = played(game, 7, 90)
    rng = random.Random(3)
    D = determinize(S, 0, rng)
    for key, uids in S.zones.items():
        assert len(D.zones[key]) == len(uids)
    for key in ("hand#0", "gear#0", "discard", "map"):
        assert [D.ents[u]["id"] for u in D.zones[key]] == [S.ents[u]["id"] for u in S.zones[key]]
    for key in hidden_zone_keys(S, 0):
        before = sorted(family(game, S.ents[u]["id"]) for u in S.zones[key])
        after = sorted(family(game, D.ents[u]["id"]) for u in D.zones[key])
        assert before == after
    assert sorted(D.ents[u]["id"] for u in D.zones["map_stack"]) == \
        sorted(S.ents[u]["id"] for u in S.zones["map_stack"])
    assert D.decision() is not None
    r = random.Random(1)
    while not D.is_terminal() and D.turns < S.turns + 3:
        D.apply(r.choice(D.decision().actions))


def test_determinize_cannot_tell_where_the_hidden_cards_were(game):
    S = played(game, 11, 70)
    T = swap(S, S.zones["hand#1"][0], S.zones["deck"][0])
    a = determinize(S, 0, random.Random(5))
    b = determinize(T, 0, random.Random(5))
    assert a.to_dict() == b.to_dict()
    assert a.view(0)["zones"] == S.view(0)["zones"]


def test_tiles_and_cards_are_different_families(game):
    assert family(game, "helipad") == family(game, "straight") == "zone:map_stack"
    assert family(game, "shotgun") == family(game, "fog") == "zone:deck"
