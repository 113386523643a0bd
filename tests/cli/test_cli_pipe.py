"""A reader that stops early (`horde ... | head`) ends horde quietly, not with a bug report."""

from __future__ import annotations

import os
import subprocess
import sys

import typer
from typer.testing import CliRunner

from engine.cli.app import SIGPIPE_EXIT, HordeGroup


def test_broken_pipe_inside_a_command_is_not_a_bug():
    app = typer.Typer(cls=HordeGroup)

    @app.command()
    def write() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    @app.command()
    def other() -> None:
        """Two commands, so the group dispatches as horde's does."""

    got = CliRunner().invoke(app, ["write"])
    assert got.exit_code == SIGPIPE_EXIT
    assert "internal error" not in got.output


def test_closed_pipe_ends_a_game_quietly():
    # a bots-only game writes far more than a pipe holds, so the writer meets the closed end
    cmd = [sys.executable, "-c", "from engine.cli.app import main; main()",
           "play", "defcon-z", "--players", "random,random", "--seed", "3"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(200)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) != 0
    assert "internal error" not in err and "Traceback" not in err, err
