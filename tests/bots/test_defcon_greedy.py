"""DEFCON Z's `greedy` policy makes the choices its rules promise, situation by situation.

Every situation starts on Town Square (tile 0,0: squares 0..2 × 0..2) with the map stack
set aside, so no tile comes unless a test wants one, and the hands emptied.
"""

from __future__ import annotations

import pytest

import engine
from engine.bots import make_bot
from tests.bots.conftest import situation

BARE = """
for p in players:
    for c in cards(p.hand):
        move(c, deck)
for t in cards(map_stack):
    move(t, players[1].spotted)
"""
# three cards P0 cannot play on their own turn: a full hand draws nothing
FULL_HAND = """
for c in [x for x in cards(deck) if x.id == 'slow-going']:
    move(c, players[0].hand)
"""


@pytest.fixture(scope="module")
def dz():
    return engine.load("defcon-z")


@pytest.fixture(scope="module")
def coop():
    return engine.load("defcon-z", mode="cooperative")


def greedy(game, S, seed: int = 0) -> str:
    d = S.decision()
    assert d.player == 0
    return make_bot("greedy", seed, game).choose(S, d)


def at(S, point: str):
    assert S.decision().point == point, S.decision()
    return S


def test_a_failed_roll_is_bought_with_bullets(dz):
    S = situation(dz, BARE + "players[0].kit = 'broken'\nput_zombie(cell(1, 1))", [2], players=2)
    assert greedy(dz, at(S, "after_fail")) == "spend(bullets=2)"


def test_lucky_break_spares_the_bullets_of_a_costly_roll(dz):
    setup = BARE + """
players[0].kit = 'broken'
put_zombie(cell(1, 1))
move(find(deck, 'lucky-break'), players[0].hand)
"""
    assert greedy(dz, at(situation(dz, setup, [1], players=2), "after_fail")) == \
        "play(card=lucky-break)"
    assert greedy(dz, at(situation(dz, setup, [3], players=2), "after_fail")) == \
        "spend(bullets=1)"


@pytest.mark.parametrize("infection, expected", [(2, "kit"), (0, "pass")])
def test_the_kit_is_tried_once_bites_start_to_matter(dz, infection, expected):
    setup = BARE + f"put_zombie(cell(1, 1))\nplayers[0].infection = {infection}"
    assert greedy(dz, at(situation(dz, setup, players=2), "kit")) == expected


def test_the_best_weapon_goes_in_play_first(dz):
    setup = BARE + """
for k in ['running-shoes', 'pistol', 'slow-going']:
    move(find(deck, k), players[0].hand)
"""
    assert greedy(dz, at(situation(dz, setup, players=2), "turn_start")) == "equip(card=pistol)"


def test_a_hunter_walks_to_the_nearest_zombie(dz):
    setup = BARE + FULL_HAND + "put_zombie(cell(0, 0))"
    S = at(situation(dz, setup, [3], players=2), "step")
    assert greedy(dz, S) in ("move(to=0,1)", "move(to=1,0)")


def test_with_the_kills_in_the_helipad_comes_first(dz):
    setup = BARE + FULL_HAND + """
place_tile(find(players[1].spotted, 'helipad'), cell(0, 1), 0)
players[0].sq = cell(1, 2)
put_zombie(cell(1, 0))
players[0].kills = {kills}
players[0].infection = {infection}
"""
    def choice(kills, infection):
        S = situation(dz, setup.format(kills=kills, infection=infection), [6, 1], players=2)
        return greedy(dz, at(S, "step"))
    assert choice(15, 3) == "move(to=1,3)"   # onto the Helipad: the win
    assert choice(14, 3) == "move(to=1,1)"   # one kill short: the zombie
    assert choice(15, 4) == "move(to=1,1)"   # too sick to fly: keep hunting


def _zombie_to(game, where_rival: str):
    """P0 stands at 0,2; one zombie at 1,0 must move (to 0,0, 1,1 or 2,0)."""
    setup = BARE + FULL_HAND + f"""
players[0].sq = cell(0, 2)
players[1].sq = {where_rival}
put_zombie(cell(1, 0))
"""
    S = situation(game, setup, [1, 1], players=2)
    S.apply("stop")
    S.apply("shamble(z=zombie@1,0)")
    return at(S, "zombie_to")


def test_a_hunter_calls_the_zombies_to_himself(dz):
    S = _zombie_to(dz, "cell(2, 0)")
    assert greedy(dz, S) in ("shamble-to(to=0,0)", "shamble-to(to=1,1)")


def test_zombies_go_in_the_way_of_a_rival_about_to_win(dz):
    S = _zombie_to(dz, "cell(2, 0)\nplayers[1].kills = 15")
    assert greedy(dz, S) == "shamble-to(to=2,0)"


def test_a_new_tile_goes_next_to_the_player(dz):
    setup = BARE + FULL_HAND + """
players[0].sq = cell(2, 1)
move(find(players[1].spotted, 'straight'), map_stack)
"""
    assert greedy(dz, at(situation(dz, setup, players=2), "place")) == "place(at=1,0, rot=90)"


def _end_of_turn(game, cards: list[str]):
    setup = BARE + "".join(f"move(find(deck, '{k}'), players[0].hand)\n" for k in cards)
    S = situation(game, setup, [2, 1], players=2)
    S.apply("stop")
    return at(S, "end_discard")


def test_junk_is_thrown_away_and_the_rest_kept(dz, coop):
    assert greedy(dz, _end_of_turn(dz, ["slow-going", "zombie-lure", "lucky-break"])) == \
        "discard(card=zombie-lure)"
    assert greedy(dz, _end_of_turn(dz, ["slow-going", "run-away", "lucky-break"])) == "pass"
    # cooperative: a card that only hurts a partner is junk
    assert greedy(coop, _end_of_turn(coop, ["slow-going", "run-away", "lucky-break"])) == \
        "discard(card=slow-going)"


def test_the_greedy_policy_plays_whole_games_legally(dz):
    for seed in range(2):
        S = dz.new_state(players=3, seed=seed)
        S.transactional = False
        bots = [make_bot("greedy", seed * 10 + s, dz) for s in range(3)]
        while not S.over:
            d = S.decision()
            label = bots[d.player].choose(S, d)
            assert label in d.actions
            S.apply(label)
        assert S.winners and not S.limit_hit


def test_greedy_beats_random_from_either_seat(dz):
    from engine.sim import simulate
    a = simulate(dz, 2, ["greedy", "random"], 4, seed=3)
    b = simulate(dz, 2, ["random", "greedy"], 4, seed=3)
    assert a.wins.get(0, 0) >= 3 and b.wins.get(1, 0) >= 3
