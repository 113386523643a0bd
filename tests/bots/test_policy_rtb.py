"""The reference pack's `greedy` policy does what its rules say, situation by situation."""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from tests.bots.conftest import situation


def greedy_choice(game, S, seed: int = 0) -> tuple[int, str]:
    d = S.decision()
    return d.player, make_bot("greedy", seed, game).choose(S, d)


@pytest.mark.parametrize("black, expected", [(6, "chainsaw"), (4, "chainsaw"), (3, "pass"),
                                             (1, "pass")])
def test_chainsaw_when_the_black_die_is_high(rtb, black, expected):
    S = situation(rtb, "move(find(item_stack, 'chainsaw'), players[0].item)", [black])
    assert S.decision().point == "after_black"
    assert greedy_choice(rtb, S) == (0, expected)


@pytest.mark.parametrize("card", ["grenade", "shotgun"])
def test_knock_off_cards_are_kept_for_bad_odds(rtb, card):
    setup = f"move(find(item_stack, '{card}'), players[0].item)"
    assert greedy_choice(rtb, situation(rtb, setup, [5])) == (0, card)
    assert greedy_choice(rtb, situation(rtb, setup, [2])) == (0, "pass")


def test_fear_targets_the_leader_and_only_one_ahead(rtb):
    setup = """
move(find(event_stack, 'fear'), players[0].event)
players[0].distance = 5
players[1].distance = 4
players[2].distance = 9
"""
    S = situation(rtb, setup)
    assert S.decision().point == "turn_start"
    assert greedy_choice(rtb, S) == (0, "fear(target=2)")
    behind = setup.replace("players[2].distance = 9", "players[2].distance = 3")
    assert greedy_choice(rtb, situation(rtb, behind)) == (0, "pass")


def test_lots_o_ammo_takes_a_block_from_the_leader(rtb):
    setup = """
move(find(event_stack, 'lots-o-ammo'), players[0].event)
players[1].distance = 7
players[2].distance = 3
"""
    assert greedy_choice(rtb, situation(rtb, setup)) == (0, "lots-o-ammo(target=1)")


def test_first_aid_saves_a_health(rtb):
    S = situation(rtb, "move(find(item_stack, 'first-aid'), players[0].item)",
                  [6, "run", "run", "run", "run", "run", "run"])
    assert S.decision().point == "on_damage"
    assert greedy_choice(rtb, S) == (0, "first-aid")


def test_brain_cramp_spoils_an_opponents_good_roll(rtb):
    setup = "move(find(event_stack, 'brain-cramp'), players[1].event)"
    assert greedy_choice(rtb, situation(rtb, setup, [1])) == (1, "brain-cramp(roll=black)")  # too easy
    S = situation(rtb, setup, [5] + ["zombie2"] * 6)  # a hard black die: let it stand
    assert greedy_choice(rtb, S) == (1, "pass")
    S.apply("pass")
    assert S.decision().point == "after_zombies"  # ... but the zombies were beaten
    assert greedy_choice(rtb, S) == (1, "brain-cramp(roll=zombies)")


def test_adrenaline_rush_rerolls_a_failed_zombie_roll(rtb):
    S = situation(rtb, "move(find(event_stack, 'adrenaline-rush'), players[0].event)",
                  [4, "run", "run", "run", "run", "run", "zombie"])
    d = S.decision()
    assert d.point == "after_black"
    assert greedy_choice(rtb, S) == (0, "pass")  # 4 zombies: not worth a re-roll yet
    S.apply("pass")
    assert greedy_choice(rtb, S) == (0, "adrenaline-rush(roll=zombies)")


def test_the_greedy_policy_never_plays_an_illegal_move(rtb):
    for seed in range(3):
        S = rtb.new_state(players=3, seed=seed)
        bots = [make_bot("greedy", seed * 10 + s, rtb) for s in range(3)]
        while not S.over:
            d = S.decision()
            label = bots[d.player].choose(S, d)
            assert label in d.actions
            S.apply(label)


def test_greedy_beats_random_from_either_seat(rtb):
    from engine.sim import simulate
    a = simulate(rtb, 2, ["greedy", "random"], 200, seed=11)
    b = simulate(rtb, 2, ["random", "greedy"], 200, seed=11)
    assert a.wins[0] > a.wins[1] and b.wins[1] > b.wins[0]
