"""The chase questions of tile boards (`movable`, `open_steps`, `approach`) answer from
tables shared between questions and states: check them against the plain definitions, in
the states that real games reach, and check that the remembered piece lists follow every
change of the board."""

from __future__ import annotations

import pytest

import engine
from engine.board.tilepieces import KEY, sq_key
from engine.dsl.values import E
from engine.flow.machine import evaluate, run_effect
from tests.random_states import states_met


@pytest.fixture(scope="module", params=["competitive", "cooperative"])
def dz(request):
    return engine.load("defcon-z", request.param)


def value(game, S, text, **local):
    return evaluate(S, game.compile_expr(text, {k: "any" for k in local}), local)


def run(game, S, text, **local):
    run_effect(S, game.compile_expr(text, {k: "any" for k in local}, effect=True), local)


def reference_steps(b, S, sq, kinds, toward=None) -> list:
    """`open_steps` by its definition: each target's own distances, the nearest targets'
    steps, then the neighbours holding no piece of the kinds."""
    m = b.map(S)
    steps = list(m.adj.get(sq, ()))
    if toward is not None:
        near = [(m.distance(sq, w), w) for w in (b.square_of(S, t) for t in toward) if w is not None]
        near = [(d, w) for d, w in near if d is not None]
        best = min((d for d, _ in near), default=None)
        closer = {nb for d, w in near if d == best for nb in m.step_toward(sq, w)}
        steps = [nb for nb in steps if nb in closer]
    index = S.vars[KEY]["at"]
    return [nb for nb in steps
            if not any(S.ents[u]["id"] in kinds for u in index.get(sq_key(nb), ()))]


def test_chase_questions_agree_with_their_definitions(dz):
    b = dz.extensions["board"]
    checked = 0
    for S in states_met(dz, 30, 7):
        zombies = b.pieces(S, "zombie")
        pawns = [p["sq"] for p in S.pl if p["sq"] is not None]
        for toward in (None, pawns, pawns[:1], [zombies[-1]] if zombies else []):
            expect = [z for z in zombies
                      if reference_steps(b, S, S.ents[z.i]["cell"], {"zombie"}, toward)]
            assert b.movable(S, zombies, "zombie", toward) == expect
            for z in zombies:
                sq = S.ents[z.i]["cell"]
                assert b.open_steps(S, z, "zombie", toward) == \
                    reference_steps(b, S, sq, {"zombie"}, toward)
                if toward is not None:
                    assert b.approach(S, z, toward) == sorted(reference_steps(b, S, sq, set(), toward))
                checked += 1
    assert checked > 100


def test_a_map_links_squares_both_ways(dz):
    """`Closer` reads the steps toward the nearest targets off one search from all of them,
    which is right because every move can be made back."""
    b = dz.extensions["board"]
    for S in states_met(dz, 10, 3):
        adj = b.map(S).adj
        assert all(sq in adj[nb] for sq, nbs in adj.items() for nb in nbs)


def test_movable_leaves_out_the_pieces_in_its_fourth_list(dz):
    b = dz.extensions["board"]
    S = next(S for S in states_met(dz, 200, 5) if len(b.pieces(S, "zombie")) > 4)
    zombies = b.pieces(S, "zombie")
    skip = [zombies[1], E(zombies[3].i), (0, 0), "zombie"]
    every = value(dz, S, "movable(pieces('zombie'), 'zombie')")
    assert value(dz, S, "movable(pieces('zombie'), 'zombie', none, skip)", skip=skip) == \
        [z for z in every if z not in skip]
    squares = [S.ents[z.i]["cell"] for z in zombies]
    assert b.movable(S, squares, "zombie", None, [squares[0]]) == \
        [sq for sq in b.movable(S, squares, "zombie") if sq != squares[0]]
    assert b.movable(S, zombies, "zombie", None, []) == b.movable(S, zombies, "zombie")
    with pytest.raises(engine.errors.RuleRuntimeError, match="leave out"):
        b.movable(S, zombies, "zombie", None, "zombie")
    # a piece that has left the game, or one without a square, is never movable
    gone = E(S.next_uid + 5)
    C = S.clone()
    del C.ent_w(zombies[2].i)["cell"]  # the clone's record alone: records are shared until written
    assert b.movable(C, [gone, *zombies], "zombie") == \
        [z for z in b.movable(S, zombies, "zombie") if z != zombies[2]]
    assert b.movable(S, [*zombies, zombies[0].i], "zombie") == b.movable(S, zombies, "zombie")


def test_piece_lists_follow_spawns_removals_moves_clones_and_loads(dz):
    b = dz.extensions["board"]
    S = dz.new_state(players=2, seed=1)
    x, y = value(dz, S, "town()")

    def listed(S, kinds="zombie"):
        return [(u.i, S.ents[u.i]["cell"]) for u in b.pieces(S, kinds)]

    def truth(S, kinds="zombie"):
        assert b.taken(S, frozenset({"zombie"})) == {
            k for k, uids in S.vars[KEY]["at"].items() if any(S.ents[u]["id"] == "zombie" for u in uids)}
        return sorted((u, S.ents[u]["cell"]) for lst in S.vars[KEY]["at"].values() for u in lst
                      if kinds is None or S.ents[u]["id"] == kinds)

    assert listed(S) == truth(S) == []
    run(dz, S, "spawn('zombie', sq)", sq=(x, y))
    assert listed(S) == truth(S) and len(listed(S)) == 1
    C = S.clone()
    run(dz, C, "spawn('heart', sq)", sq=(x, y + 1))
    run(dz, C, "spawn('zombie', sq)", sq=(x + 1, y))
    assert listed(S) == truth(S) and len(listed(S)) == 1
    assert listed(C) == truth(C) and len(listed(C)) == 2
    assert listed(C, None) == truth(C, None) and len(listed(C, None)) == 3
    z = b.pieces(C, "zombie")[0]
    run(dz, C, "move_to(z, sq)", z=z, sq=(x - 1, y))
    assert listed(C) == truth(C) and (z.i, (x - 1, y)) in listed(C)
    for sq in [(x, y + 1), (x + 1, y), (x - 1, y)]:  # by the heart, onto the other zombie, away
        run(dz, C, "move_to(z, sq)", z=z, sq=sq)
        assert listed(C) == truth(C)
    run(dz, C, "remove(z)", z=z)
    assert listed(C) == truth(C) and len(listed(C)) == 1
    L = dz.state_from_dict(C.to_dict())
    assert listed(L) == truth(L) == truth(C)
    assert listed(S) == truth(S) and len(listed(S)) == 1
    b.pieces(C, "zombie").append(E(999))  # a list handed out is the caller's own
    assert listed(C) == truth(C)


def test_placements_are_the_positions_and_rotations_that_fit(dz):
    """Placements read each position's neighbours once per map; `fits` asks them again."""
    from engine.board.tilemap import MapCache, Rules

    b = dz.extensions["board"]
    for S in states_met(dz, 15, 11):
        for connect in (True, False):
            m = MapCache(b.tiles, Rules(b.rules.blocked, b.rules.across, connect)).get(b.map(S).key)
            for td in b.tiles.values():
                assert m.placements(td) == sorted(
                    (at, rot) for at in m.frontier for rot, shape in td.shapes.items()
                    if m.fits(shape, at))
