"""What a pack tells OpenSpiel of its game: how returns are shared (`returns:`), whether
anything is hidden (derived from its zones, or `agents: {information: ...}`), and bounds on
its length and chance outcomes (skipped where the `[agents]` extra is not installed)."""

from __future__ import annotations

import random

import pytest

from engine.errors import PackError
from tests.packfiles import write

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")

# A dice race with nothing hidden: each turn the current player rolls a d3; 4 points win
RACE = """
pack: race
title: Race
players: {min: 2, max: 3, default: 3}
dice:
  d3: {faces: [1, 2, 3]}
player:
  pts: {type: int, init: 0}
flow:
  - repeat: {until: "false"}
    do:
      - for_each: {var: p, in: "players", turn: true}
        do:
          - ask: main
actions:
  - id: roll
    at: main
    do: current.pts += roll(d3)
end:
  - when: "any([q.pts >= 4 for q in players])"
    winners: "[q for q in players if q.pts >= 4]"
"""


def race(tmp_path, extra: str = "", name: str = "race"):
    from engine.adapters.openspiel import load_game

    folder = write(tmp_path / name, {"pack.yaml": RACE + extra})
    return load_game(str(folder), players=3)


def finish(game, seed: int = 0):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(rng.choice(outcomes)[0] if outcomes else state.legal_actions()[0])
    return state


def test_a_pack_with_nothing_hidden_is_perfect_information_and_win_loss_by_default(tmp_path):
    game = race(tmp_path)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert sorted(finish(game).returns()) == [-1.0, -1.0, 1.0]
    # a d3 and no entities: a chance node has at most 3 outcomes
    assert game.max_chance_outcomes() == 3


def test_zero_sum_returns_share_the_loss_as_openspiel_pig_does(tmp_path):
    game = race(tmp_path, "returns: zero-sum\n", "zero")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    for seed in range(5):
        assert sorted(finish(game, seed).returns()) == [-0.5, -0.5, 1.0]
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_constant_sum_returns_share_one_among_the_winners(tmp_path):
    game = race(tmp_path, "returns: constant-sum\n", "constant")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert sorted(finish(game).returns()) == [0.0, 0.0, 1.0]


def test_a_hidden_zone_makes_the_game_imperfect_information_unless_the_pack_says(tmp_path):
    hidden = "zones: {bag: {visible: none}}\n"
    game = race(tmp_path, hidden, "bagged")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    declared = race(tmp_path, hidden + "agents: {information: perfect}\n", "declared")
    assert declared.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_declared_bounds_are_what_openspiel_is_told(tmp_path):
    game = race(tmp_path, "agents: {max_game_length: 40, max_chance_outcomes: 4}\n", "bounded")
    assert (game.max_game_length(), game.max_chance_outcomes()) == (40, 4)


def test_the_bundled_packs_information_follows_their_zones():
    """They're Coming hides nothing (its zombies are drawn by chance from an open pool);
    Roll Them Bones' item and event cards and DEFCON Z's hands and map stack are hidden."""
    from engine.adapters.openspiel import load_game
    from tests.agents.cases import CASES

    info = pyspiel.GameType.Information
    for pack, mode in CASES:
        kind = load_game(pack, mode, players=2).get_type()
        perfect = pack == "theyre-coming"
        assert kind.information == (info.PERFECT_INFORMATION if perfect
                                    else info.IMPERFECT_INFORMATION), (pack, mode)
        assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM, pack


def test_another_pack_of_a_registered_name_is_a_clear_error(tmp_path):
    from engine.errors import HordeError

    race(tmp_path / "one", name="twin")
    with pytest.raises(HordeError, match="horde_twin"):
        race(tmp_path / "two", "returns: zero-sum\n", name="twin")


@pytest.mark.parametrize(("extra", "where"), [
    ("returns: zero-some\n", "returns"), ("agents: {information: partial}\n", "agents.information"),
    ("agents: {max_game_length: 0}\n", "agents.max_game_length"),
    ("agents: {max_moves: 9}\n", "agents")])
def test_a_wrong_declaration_is_a_clear_error_at_its_line(tmp_path, extra, where):
    import engine

    folder = write(tmp_path / "race", {"pack.yaml": RACE + extra})
    with pytest.raises(PackError) as err:
        engine.load(folder)
    text = str(err.value)
    assert f"pack.yaml:{RACE.count(chr(10)) + 1}:" in text and where in text, text


def test_returns_and_agents_leave_the_pack_hash_alone(tmp_path):
    import engine

    plain = engine.load(write(tmp_path / "a", {"pack.yaml": RACE}))
    told = engine.load(write(tmp_path / "b", {"pack.yaml": RACE + "returns: zero-sum\n"
                                              "agents: {information: perfect}\n"}))
    assert plain.hash == told.hash


# A bid of 1 to twice the dice: its domain comes from a param
BIDS = """
pack: bids
title: Bids
players: {min: 2, max: 2}
params: {dice: {default: 2, min: 1, max: 5}}
flow:
  - ask: main
actions:
  - id: bid
    at: main
    params: {n: "range(1, 2 * params.dice + 1)"}
    do: end_game()
end: []
"""


def test_a_domain_made_of_params_is_worked_out_with_the_games_params(tmp_path):
    import engine
    from engine.adapters.openspiel import load_game

    folder = write(tmp_path / "bids", {"pack.yaml": BIDS})
    g = engine.load(folder)
    assert [g.action_label(i, 2) for i in range(g.num_distinct_actions(2))] == \
        [f"bid(n={n})" for n in range(1, 5)]
    assert engine.load(folder, params={"dice": 3}).num_distinct_actions(2) == 6
    assert load_game(str(folder), dice=5).num_distinct_actions() == 10


def test_validate_names_the_line_of_an_action_agents_cannot_bound(tmp_path, horde):
    bad = BIDS.replace("2 * params.dice + 1", "2 * game.dice + 1").replace(
        "params: {dice:", "vars: {dice: 2}\nagents: {information: perfect}\nparams: {dice:")
    folder = write(tmp_path / "bids", {"pack.yaml": bad})
    result = horde("validate", folder)
    line = bad.splitlines().index("  - id: bid") + 1
    assert result.exit_code == 1, result.output
    assert f"pack.yaml:{line}:" in result.output and "'n'" in result.output
    good = write(tmp_path / "good", {"pack.yaml": BIDS.replace(
        "params: {dice:", "agents: {information: perfect}\nparams: {dice:")})
    assert horde("validate", good).exit_code == 0


def test_horde_check_reports_a_game_longer_than_the_declared_length(tmp_path, horde):
    """Race games take at least 4 moves (a roll and its draw, twice, for one player to
    reach 4 points), so a declared length of 3 is outgrown and one of 200 holds."""
    short = write(tmp_path / "short", {"pack.yaml": RACE + "agents: {max_game_length: 3}\n"})
    result = horde("check", short, "-n", "5", "--seed", "1")
    assert result.exit_code == 1, result.output
    assert "max_game_length = 3 moves" in result.output
    roomy = write(tmp_path / "roomy", {"pack.yaml": RACE + "agents: {max_game_length: 200, "
                                       "max_chance_outcomes: 3}\n"})
    result = horde("check", roomy, "-n", "5", "--seed", "1")
    assert result.exit_code == 0, result.output
    few = write(tmp_path / "few", {"pack.yaml": RACE + "agents: {max_chance_outcomes: 2}\n"})
    result = horde("check", few, "-n", "5", "--seed", "1")
    assert result.exit_code == 1 and "3 outcomes, more than" in result.output, result.output


def test_a_chance_node_past_the_declared_outcomes_is_a_clear_error(tmp_path):
    from engine.errors import HordeError

    game = race(tmp_path, "agents: {max_chance_outcomes: 2}\n", "few")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(HordeError, match="3 outcomes, more than the game's max_chance_outcomes 2"):
        state.chance_outcomes()


def test_returns_may_be_an_expression_for_each_seat(tmp_path, horde):
    game = race(tmp_path, 'returns: {each: "me.pts", min: 0, max: 6}\n', "points")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (0.0, 6.0)
    state = finish(game, 2)
    assert state.returns() == [float(p["pts"]) for p in state.S.pl] and max(state.returns()) >= 4
    narrow = race(tmp_path, 'returns: {each: "me.pts", min: 0, max: 3}\n', "narrow")
    from engine.errors import HordeError
    with pytest.raises(HordeError, match="not a whole number from 0 to 3"):
        finish(narrow, 2).returns()
    typo = write(tmp_path / "typo", {"pack.yaml": RACE + 'returns: {each: "me.ptz", min: 0, max: 6}\n'})
    result = horde("validate", typo)
    assert result.exit_code == 1 and f"pack.yaml:{RACE.count(chr(10)) + 1}:" in result.output, \
        result.output


def test_the_pettingzoo_env_rewards_as_the_pack_declares_its_returns(tmp_path):
    import engine
    from engine.adapters.pettingzoo import HordeEnv

    env = HordeEnv(engine.load(write(tmp_path / "pz", {"pack.yaml": RACE + "returns: zero-sum\n"})),
                   players=3)
    env.reset(seed=1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=10_000):
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        mask = env.observe(agent)["action_mask"]
        env.step(None if term or trunc else int(mask.nonzero()[0][0]))
    assert sorted(totals.values()) == [-0.5, -0.5, 1.0]
