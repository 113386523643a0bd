"""Caps on the work one command may ask for: games per run, sweep cells, worker processes,
players at a table, entities in a game. Each is checked before the work is built, and
says what to do instead; none of these tests plays more than a handful of games."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

import engine
import engine.sim.parallel as parallel
import engine.sim.sweep as sweep
from engine.cli.sim import jobs_count
from engine.errors import HordeError, RuleRuntimeError, StateError
from engine.sim.parallel import MAX_GAMES, MAX_GAMES_KEPT, MAX_JOBS, Batch, chunks
from engine.sim.sweep import MAX_CELLS, combinations, parse_param
from engine.state import MAX_ENTITIES, MAX_PLAYERS
from tests.cli.conftest import edit

PACK = "roll-them-bones"
MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini" / "pack.yaml"


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: the caps must answer before the first one."""
    def play_one(*_a, **_k):
        raise AssertionError("a game was played before the cap was checked")
    monkeypatch.setattr(parallel, "play_one", play_one)


@pytest.mark.parametrize(("args", "cap"), [
    (("sim", PACK, "-n", MAX_GAMES + 1), MAX_GAMES),
    (("sweep", PACK, "--param", "blocks=10:13", "-n", MAX_GAMES // 4 + 1), MAX_GAMES),
    # each game's record is kept: for the per-game CSV, and to pair a comparison's games
    (("sim", PACK, "-n", MAX_GAMES_KEPT + 1, "--csv", "games.csv"), MAX_GAMES_KEPT),
    (("compare", PACK, "base", "quick", "-n", MAX_GAMES_KEPT // 2 + 1), MAX_GAMES_KEPT),
    (("sweep", PACK, "--param", "blocks=10:13", "-n", MAX_GAMES_KEPT // 4 + 1, "--csv", "g.csv"),
     MAX_GAMES_KEPT),
])
def test_a_run_of_more_games_than_the_cap_is_refused_before_it_starts(horde, no_games, args,
                                                                      cap, tmp_path,
                                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = horde(*args)
    assert r.exit_code == 1, r.output
    assert f"is more than {cap:,}" in r.output and "--seed" in r.output
    assert not list(tmp_path.iterdir())  # no CSV written


def test_a_sweep_range_is_counted_before_its_values_are_made(horde, no_games):
    with pytest.raises(HordeError, match="values is more than"):
        parse_param(f"blocks=0:{10**15}")  # listing these would take petabytes
    r = horde("sweep", PACK, "--param", f"blocks=0:{10**15}")
    assert r.exit_code == 1 and "is more than the 400 combinations" in r.output


def test_a_sweep_grid_is_counted_before_it_is_made(monkeypatch):
    def product(*_a):
        raise AssertionError("the grid was made before it was counted")
    monkeypatch.setattr(sweep.itertools, "product", product)
    ranges = [parse_param(f"p{k}=1:{MAX_CELLS}") for k in range(6)]  # 400**6 cells
    with pytest.raises(HordeError, match=f"is more than {MAX_CELLS}"):
        combinations(ranges)


def test_work_is_dealt_as_it_is_played():
    """A million games are not a million pieces of work listed up front."""
    work = chunks([Batch.of(engine.load(PACK), 2, ["random"], MAX_GAMES, 0)], 1)
    assert not isinstance(work, list)
    assert list(itertools.islice(work, 3)) == [(0, 0, 1), (0, 1, 2), (0, 2, 3)]


def test_jobs_are_capped_at_the_cores_unless_forced(monkeypatch, capsys):
    monkeypatch.setattr(parallel, "usable_cores", lambda: 2)
    assert jobs_count(0) == 2
    assert jobs_count(2) == 2 and capsys.readouterr().err == ""
    assert jobs_count(64) == 2
    notice = capsys.readouterr().err
    assert "--jobs 64" in notice and "2 worker processes" in notice and "--force-jobs" in notice
    assert jobs_count(64, force=True) == 64
    with pytest.raises(HordeError, match=f"more than {MAX_JOBS} worker processes"):
        jobs_count(MAX_JOBS + 1, force=True)


def test_sim_with_too_many_jobs_runs_on_the_cores_it_has(horde, monkeypatch):
    monkeypatch.setattr(parallel, "usable_cores", lambda: 1)
    r = horde("sim", PACK, "-n", 3, "--jobs", 8)
    assert r.exit_code == 0, r.output
    assert "starts 1 worker process " in r.output and "3 games" in r.output


@pytest.fixture
def crowd(tmp_path):
    """A pack that says it takes up to a billion players."""
    pack = tmp_path / "crowd.yaml"
    pack.write_text(MINI.read_text())
    edit(pack, "players: {min: 1, max: 4,", "players: {min: 1, max: 1000000000,")
    return pack


@pytest.fixture
def crowd_game():
    """The same, made in code: the schema's maximum is not there to stop it."""
    return dataclasses.replace(engine.load(MINI), players_max=10**9)


def test_players_past_the_cap_are_refused_whatever_the_pack_allows(horde, crowd, crowd_game, no_games):
    for command in ("sim", "check"):
        r = horde(command, crowd, "--players", MAX_PLAYERS + 1, "-n", 1)
        assert r.exit_code == 1, r.output
        assert f"players.max: 1000000000 is more than the maximum, {MAX_PLAYERS}" in r.output
    with pytest.raises(StateError, match=f"more than the {MAX_PLAYERS} a game may have"):
        crowd_game.new_state(players=MAX_PLAYERS + 1)


def test_players_outside_the_packs_range_name_the_range(horde, no_games):
    r = horde("sim", PACK, "--players", 1000000, "-n", 1)
    assert r.exit_code == 1 and "is for 1 to 6 players, not 1,000,000" in r.output


def test_copies_past_the_entity_cap_stop_the_game(tmp_path):
    """The schema bounds what a pack deals at setup; effects that copy cards in a loop are
    bounded by the entities a game may make."""
    pack = tmp_path / "pile.yaml"
    pack.write_text(MINI.read_text() + "setup: |\n  repeat 25:\n    for c in cards(deck):\n"
                    "      copy(c, deck)\n")
    # the loop's work is charged to the step budget (engine.dsl.work), which may end it first
    with pytest.raises(RuleRuntimeError, match=f"at most {MAX_ENTITIES:,} entities|more than 200000 steps"):
        engine.load(pack).new_state(players=2)
