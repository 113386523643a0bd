"""Bot specs read from a record are checked input, capped as typed ones (docs/limits.md).

A record (a save `horde resume` goes on with) names the bot at each seat; it once could ask
for `mcts:1000000000` or `mcts:infs`, and `resume` then thought for hours at the first bot
decision. Every spec in a record is now checked as `make_bot` checks one, before anything
is played or shown: a known bot, and budgets within the caps. A bad one is one error naming
the file and the seat, exit 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bots.base import MAX_ITERATIONS, MAX_SPEC, check_spec, make_bot
from engine.errors import HordeError

STOPPED = Path(__file__).parent.parent / "reliability" / "fixtures" / \
    "old-record-theyre-coming-stopped.json"

BAD_SPECS = {
    "a billion iterations": ("mcts:1000000000", "give iterations (mcts:200) or seconds"),
    "endless time": ("mcts:infs", "give iterations (mcts:200) or seconds"),
    "NaN seconds": ("mcts:nans", "give iterations (mcts:200) or seconds"),
    "an hour a decision": ("mcts:3600s", "give iterations (mcts:200) or seconds"),
    "no iterations": ("mcts:0", "give iterations (mcts:200) or seconds"),
    "negative iterations": ("mcts:-5", "give iterations (mcts:200) or seconds"),
    "search iterations": ("search:iters=1000000000", "'iters=1000000000' is not a number"),
    "search bare iterations": ("search:1000000000", "'1000000000' is not a number"),
    "search time": ("search:time=1e9s", "'time=1e9s' is not a number of seconds"),
    "search horizon": ("search:horizon=999999", "'horizon=999999' is not a number of decisions"),
    "search option": ("search:depth=3", "no option 'depth'"),
    "unknown bot": ("nobody", "unknown bot 'nobody'"),
    "policy unnamed": ("policy", "say which policy"),
    "huge spec": ("mcts:" + "1" * 10_000, "a bot spec of 10,005 characters"),
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))


def _record(tmp_path: Path, bots: list[str]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**json.loads(STOPPED.read_text()), "bots": bots}))
    return path


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("name", BAD_SPECS)
def test_a_bad_bot_in_a_record_is_one_clear_error(horde, tmp_path, command, name):
    spec, why = BAD_SPECS[name]
    path = _record(tmp_path, ["human", spec])
    r = horde(command, path, input="q\n")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"{path}: 'bots' item 2 (P1): "), r.stderr
    assert why in r.stderr
    assert len(r.stderr) < 2000  # a huge spec is not printed whole


@pytest.mark.parametrize("spec", ["random", "greedy", "policy:greedy", "mcts", "mcts:200",
                                  "mcts:0.5s", f"mcts:{MAX_ITERATIONS}", "mcts:60s", "search",
                                  "search:400", "search:iters=100:horizon=4", "search:1s"])
def test_a_record_with_bots_in_bounds_replays(horde, tmp_path, spec):
    """The control: budgets up to the caps are read as before."""
    r = horde("replay", _record(tmp_path, ["human", spec]))
    assert r.exit_code == 0, r.output


def test_a_policy_the_pack_lacks_is_located_in_the_record(horde, tmp_path):
    path = _record(tmp_path, ["random", "policy:nonesuch"])
    r = horde("resume", path, input="q\n")
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"{path}: 'bots' item 2 (P1): ") and "no policy 'nonesuch'" in r.stderr


@pytest.mark.parametrize("name", ["a billion iterations", "endless time", "search iterations",
                                  "search time"])
def test_the_command_line_has_the_same_caps(horde, name):
    spec, why = BAD_SPECS[name]
    r = horde("sim", "roll-them-bones", "-n", 1, "--bots", spec)
    assert r.exit_code == 1 and why in r.output, r.output


def test_every_spec_make_bot_refuses_check_spec_refuses(rtb):
    for spec, _why in BAD_SPECS.values():
        with pytest.raises(HordeError):
            check_spec(spec)
        with pytest.raises(HordeError):
            make_bot(spec, 1, rtb)
    assert len(BAD_SPECS["huge spec"][0]) > MAX_SPEC


@pytest.fixture(scope="module")
def rtb():
    import engine
    return engine.load("roll-them-bones")
