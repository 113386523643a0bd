"""`horde serve` started as a user starts it: a process of its own, on a free port, with a
data folder of its own, stopped with Ctrl-C (SIGINT) at the end of the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

HORDE = [sys.executable, "-c", "from engine.cli.app import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    data: Path
    output: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> str:
        """Ctrl-C, as a user stops it; what it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            out, _ = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
        self.output += out
        return self.output


@pytest.fixture
def serve(tmp_path):
    """serve(*args) starts `horde serve *args --port P` and waits until it listens on `wait_on`."""
    pytest.importorskip("textual_serve", reason="the [web] extra is not installed")
    started: list[Served] = []
    env = dict(os.environ, HORDE_DATA_DIR=str(tmp_path / "data"))

    def start(*args: str, wait_on: str = "127.0.0.1") -> Served:
        port = free_port()
        process = subprocess.Popen([*HORDE, "serve", *args, "--port", str(port)], env=env,
                                   cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        served = Served(process, port, tmp_path / "data")
        started.append(served)
        deadline = time.monotonic() + 60
        while not listening(wait_on, port):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"horde serve did not start listening:\n{served.stop()}")
            time.sleep(0.2)
        return served

    yield start
    for served in started:
        served.stop()
