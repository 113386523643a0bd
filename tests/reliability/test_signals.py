"""SIGTERM and SIGHUP stop a command as Ctrl-C does: `play --save` and `resume` keep the
decisions made, `sim --jobs 2` and `check` report the games that finished, and no worker
prints a traceback or leaves a semaphore behind.

Each test starts the real command, waits for what shows it is under way (a prompt, a
progress bar, the worker processes), then signals it. The timeouts only stop a broken
command from hanging the suite.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import record

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"P\d> "
WAIT = 60
HORDE = [sys.executable, "-c", "from engine.cli.app import main; main()"]
STOPS = [pytest.param(signal.SIGTERM, 143, id="SIGTERM"),
         pytest.param(signal.SIGHUP, 129, id="SIGHUP")]
NOISE = ("Traceback", "BrokenPipeError", "leaked semaphore", "resource_tracker", "Error")


def _env(tmp_path: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HORDE_DATA_DIR": str(tmp_path / "data"),
            "COLUMNS": "120", "LINES": "45", "TERM": "xterm"}


def spawn(*args: str, tmp_path: Path):
    child = pexpect.spawn(HORDE[0], [*HORDE[1:], *args], env=_env(tmp_path), encoding="utf-8",
                          dimensions=(45, 120), timeout=WAIT)
    child.delaybeforesend = None
    return child


def stopped(child, signum: int) -> str:
    """Send `signum`, wait for the command to end; everything it printed meanwhile."""
    child.kill(signum)
    child.expect(pexpect.EOF)
    shown = child.before
    child.close()
    return shown


def decisions(path: Path) -> int:
    return len(record.load(path)["decisions"])


@pytest.mark.parametrize("signum, code", STOPS)
def test_a_signal_during_play_saves_the_decisions_made(tmp_path, signum, code):
    save = tmp_path / "game.json"
    child = spawn("play", "roll-them-bones", "--players", "human,random", "--seed", "3",
                  "--save", str(save), "--plain", tmp_path=tmp_path)  # the table: tests/tui/test_pty.py
    child.expect(PROMPT)
    child.sendline("pass")  # P0 keeps its card: more prompts come
    child.expect(PROMPT)
    shown = stopped(child, signum)
    assert child.exitstatus == code, shown
    assert "Traceback" not in shown
    assert decisions(save) >= 1
    record.last_state(record.load(save), str(save))  # a record resume accepts


@pytest.mark.parametrize("signum, code", STOPS)
def test_a_signal_during_resume_saves_the_decisions_made_since(tmp_path, horde, signum, code):
    save = tmp_path / "game.json"
    first = horde("play", "roll-them-bones", "--players", "human,random", "--seed", "3",
                  "--save", save, input="q\n")
    assert first.exit_code == 0, first.output
    before = decisions(save)
    child = spawn("resume", str(save), "--plain", tmp_path=tmp_path)
    child.expect(PROMPT)
    child.sendline("pass")
    child.expect(PROMPT)
    shown = stopped(child, signum)
    assert child.exitstatus == code, shown
    assert decisions(save) > before


def _workers(pid: int, count: int) -> None:
    """Wait until process `pid` has `count` worker processes that have started: each has
    left Ctrl-C to its parent (Linux shows an ignored signal in /proc/PID/status)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.exists():
        pytest.skip("needs Linux's /proc to see the worker processes")
    deadline = time.monotonic() + WAIT
    while sum(_ignores(int(c), signal.SIGINT) for c in children.read_text().split()) < count:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)


def _ignores(pid: int, signum: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # gone already
        return False
    ignored = re.search(r"^SigIgn:\s*([0-9a-f]+)", status, re.M)
    return ignored is not None and bool(int(ignored[1], 16) >> (signum - 1) & 1)


@pytest.mark.parametrize("whole_group", [False, True], ids=["parent", "process-group"])
def test_sigterm_during_a_parallel_sim_reports_the_games_played_quietly(tmp_path, whole_group):
    """The signal to the parent alone (`kill PID`), or to its whole process group, as a
    service manager or `kill -- -PGID` sends it: the workers receive it too."""
    run = subprocess.Popen([*HORDE, "sim", "roll-them-bones", "-n", "100000", "--jobs", "2",
                            "--force-jobs"], env=_env(tmp_path), cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        _workers(run.pid, 2)
        if whole_group:
            os.killpg(run.pid, signal.SIGTERM)
        else:
            run.send_signal(signal.SIGTERM)
        stdout, stderr = run.communicate(timeout=WAIT)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 143, stderr
    assert re.search(r"\(interrupted: \d+ of 100000 played\)", stdout), stdout
    assert "Win rate" in stdout
    assert re.fullmatch(r"Interrupted: reporting the \d+ of 100000 games that finished\.\n",
                        stderr), stderr
    assert not any(word in stderr for word in NOISE), stderr


def test_sigterm_during_check_reports_the_games_played(tmp_path):
    child = spawn("check", "roll-them-bones", "-n", "100000", tmp_path=tmp_path)
    child.expect(r"\b[1-9]\d*/100000")  # the progress bar: games have been played
    shown = stopped(child, signal.SIGTERM)
    assert child.exitstatus == 143, shown
    assert re.search(r"Interrupted: reporting the \d+ of 100000 games that were played", shown)
    assert "no law broken in" in shown
    assert "Traceback" not in shown
