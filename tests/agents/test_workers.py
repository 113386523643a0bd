"""Games and states reach workers that never loaded them: a fresh interpreter, a process of
multiprocessing's spawn context, a Ray worker. Each imports engine.adapters.openspiel and
nothing else of the game (skipped where the `[agents]` extra is not installed)."""

from __future__ import annotations

import multiprocessing
import pickle
import random
import shutil
import subprocess
import sys
import textwrap

import pytest

from tests.agents.cases import RULESETS

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional [agents] extra")


def fresh(code: str, *args: str) -> str:
    """What `code` prints, run by a new interpreter (the test's PYTHONPATH, so this tree)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def walk(state, rng: random.Random, moves: int | None = None) -> list[int]:
    """Play `state` on by `rng` (chance outcomes too) for `moves` moves or to its end."""
    taken = []
    while not state.is_terminal() and (moves is None or len(taken) < moves):
        if state.is_chance_node():
            a = rng.choice(state.chance_outcomes())[0]
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        taken.append(a)
    return taken


def test_every_bundled_pack_and_mode_loads_by_name_in_a_fresh_process():
    """Every bundled name is registered on import; two of them (a base pack, a mode) are
    built there by name, as a worker would."""
    from engine.adapters.openspiel import short_name
    from tests.agents.cases import CASES

    names = [short_name(p, m) for p, m in CASES]
    out = fresh("""
        import sys
        import pyspiel
        import engine.adapters.openspiel
        print(sorted(set(sys.argv[1:]) - set(pyspiel.registered_names())))
        for name in ("horde_roll_them_bones", "horde_theyre_coming_zombie_race"):
            g = pyspiel.load_game(name, {"players": 2})
            print(name, g.num_players(), g.num_distinct_actions())
    """, *names)
    assert out.splitlines() == ["[]", "horde_roll_them_bones 2 32",
                                "horde_theyre_coming_zombie_race 2 1958"]


def play_on(blob: bytes, seed: int) -> tuple:
    """In a worker: the pickled state back, its history, and the rest of the game played."""
    state = pickle.loads(blob)
    before = state.history()
    walk(state, random.Random(seed))
    return before, state.history(), state.returns()


def a_state(game, seed: int = 1, moves: int = 25):
    state = game.new_initial_state()
    walk(state, random.Random(seed), moves)
    return state


def expected(state, seed: int) -> tuple:
    again = state.clone()
    walk(again, random.Random(seed))
    return state.history(), again.history(), again.returns()


def test_a_pickled_game_and_state_load_and_play_on_in_a_fresh_process(tmp_path):
    from engine.adapters.openspiel import load_game

    game = load_game("roll-them-bones", players=3, blocks=5)
    state = a_state(game)
    (tmp_path / "game.pkl").write_bytes(pickle.dumps(game))
    (tmp_path / "state.pkl").write_bytes(pickle.dumps(state))
    out = fresh("""
        import pickle, sys
        import engine.adapters.openspiel
        from tests.agents.test_workers import play_on
        game = pickle.loads(open(sys.argv[1] + "/game.pkl", "rb").read())
        print(game)
        print(play_on(open(sys.argv[1] + "/state.pkl", "rb").read(), 7))
    """, str(tmp_path))
    shown, played = out.splitlines()
    assert shown == str(game)
    assert played == str(expected(state, 7))


def test_a_pack_given_by_path_unpickles_in_a_fresh_process(tmp_path):
    """Not a bundled pack: the game pickles as its folder, which the worker loads."""
    from engine.adapters.openspiel import load_game

    folder = tmp_path / "my-bones"
    shutil.copytree(RULESETS / "roll-them-bones", folder)
    state = a_state(load_game(str(folder), players=2))
    (tmp_path / "state.pkl").write_bytes(pickle.dumps(state))
    out = fresh("""
        import pickle, sys
        from tests.agents.test_workers import play_on
        print(play_on(open(sys.argv[1], "rb").read(), 3))
    """, str(tmp_path / "state.pkl"))
    assert out.strip() == str(expected(state, 3))


def test_states_go_to_spawned_workers_and_play_on():
    from engine.adapters.openspiel import load_game

    game = load_game("theyre-coming", "zombie-race", players=2)
    states = [a_state(game, seed, 10) for seed in range(2)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        got = pool.starmap(play_on, [(pickle.dumps(s), k) for k, s in enumerate(states)])
    assert got == [expected(s, k) for k, s in enumerate(states)]


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one Ray at a time on this machine
def test_a_state_plays_on_on_a_ray_worker():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")
    from engine.adapters.openspiel import load_game

    state = a_state(load_game("roll-them-bones", players=2))
    started = not ray.is_initialized()  # another test of this process may have started it
    if started:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        got = ray.get(ray.remote(play_on).remote(pickle.dumps(state), 5), timeout=240)
    finally:
        if started:
            ray.shutdown()
    assert got == expected(state, 5)
