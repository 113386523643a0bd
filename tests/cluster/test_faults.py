"""A cluster run under faults: a worker killed mid-run leaves stdout parseable and the
numbers right; an address with nothing (or nothing Ray) behind it fails within the connect
timeout; a wrong token is named as an authentication failure.

Each runs `horde` (or a connection) in a process of its own: a half-made connection, or a
second Ray started, must not touch the Ray the other cluster tests share."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.xdist_group("ray"), pytest.mark.slow]
pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")

ROOT = Path(__file__).resolve().parents[2]
PACK = "roll-them-bones"


def run(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    environ = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.Popen([sys.executable, "-m", "engine.cli.app", *args], cwd=ROOT,
                            env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def descendants(root: int) -> list[int]:
    """The processes under `root` (Linux /proc): the local Ray's raylet and its workers."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(
                    int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    found, todo = [], [root]
    while todo:
        for kid in children.get(todo.pop(), []):
            found.append(kid)
            todo.append(kid)
    return found


def title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_worker_killed_mid_run_leaves_stdout_json_and_the_numbers_right(horde):
    args = ("sim", PACK, "-n", "1500", "--seed", "4", "--json")
    proc = run(*args, "--cluster", "local")
    killed = None
    deadline = time.monotonic() + 600
    while proc.poll() is None and killed is None and time.monotonic() < deadline:
        for pid in descendants(proc.pid):
            if "ray::_play_task" in title(pid):  # a worker playing a piece, now
                os.kill(pid, signal.SIGKILL)
                killed = pid
                break
        time.sleep(0.05)
    stdout, stderr = proc.communicate(timeout=600)
    if killed is None and "cannot start Ray on this machine" in stderr:
        pytest.skip(f"Ray did not start here: {stderr.strip()[:200]}")
    assert killed is not None, f"no worker was seen playing: {stderr[-500:]}"
    assert proc.returncode == 0, stderr
    remote = json.loads(stdout)  # nothing of Ray's before or after the JSON
    local = json.loads(horde(*args, "--jobs", "1").stdout)
    remote.pop("seconds")
    local.pop("seconds")
    assert remote == local  # Ray played the killed worker's piece again


def connect_seconds(address: str, env: dict | None = None) -> tuple[float, str]:
    """Seconds `connect(address)` took in a fresh process (Ray imported before the clock
    starts), and what it raised."""
    code = ("import sys, time; import ray; from engine.sim.cluster import connect\n"
            "from engine.errors import HordeError\n"
            "t = time.monotonic()\n"
            "try:\n    connect(sys.argv[1])\n"
            "except HordeError as e:\n    print(f'{time.monotonic() - t:.2f}', e.problems[0].format())\n")
    environ = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    out = subprocess.run([sys.executable, "-c", code, address], cwd=ROOT, env=environ,
                         capture_output=True, text=True, timeout=600, check=False)
    seconds, _, message = out.stdout.partition(" ")
    assert seconds, out.stderr
    return float(seconds), message


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_with_nothing_listening_fails_at_once():
    port = free_port()
    seconds, message = connect_seconds(f"127.0.0.1:{port}")
    assert seconds < 5
    assert f"--cluster 127.0.0.1:{port}: cannot reach a Ray cluster" in message
    assert "refused" in message and "ray start --head" in message


def test_an_address_that_never_answers_fails_within_the_timeout():
    # 10.255.255.1 is routed nowhere (or, behind a proxy, answers nothing Ray speaks)
    seconds, message = connect_seconds("ray://10.255.255.1:10001",
                                       {"HORDE_CLUSTER_TIMEOUT": "2"})
    assert seconds < 2 + 3  # Ray alone retries for a minute or more
    assert "--cluster ray://10.255.255.1:10001: cannot reach a Ray cluster" in message
    assert "in 2 s" in message


def test_a_bad_timeout_is_refused(horde, monkeypatch):
    monkeypatch.setenv("HORDE_CLUSTER_TIMEOUT", "soon")
    r = horde("sim", PACK, "--cluster", "ray://127.0.0.1:1")
    assert r.exit_code == 1 and "HORDE_CLUSTER_TIMEOUT='soon': expected seconds" in r.output


def test_a_wrong_token_is_named_as_an_authentication_failure(cluster):
    import ray
    if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
        pytest.skip("this Ray did not turn token authentication on for a local cluster")
    address = ray.get_runtime_context().gcs_address
    _, message = connect_seconds(address, {"RAY_AUTH_MODE": "token", "HORDE_CLUSTER_TIMEOUT": "5",
                                           "RAY_AUTH_TOKEN": "not-the-token"})
    assert f"--cluster {address}: authentication failed" in message
    assert "RAY_AUTH_TOKEN" in message and "cannot reach" not in message


class Refused(Exception):
    """What Ray raises for a missing or wrong token (`ray.exceptions.AuthenticationError`)."""


def fake_ray(error: Exception):
    """A Ray whose `init` fails with `error`, as the real one does against such a cluster."""
    import types
    exceptions = types.SimpleNamespace(AuthenticationError=Refused)

    def init(**_options):
        raise error

    return types.SimpleNamespace(is_initialized=lambda: False, init=init,
                                 shutdown=lambda: None, exceptions=exceptions)


@pytest.mark.parametrize("error", [
    Refused("Authentication failed: the token does not match the cluster's"),
    RuntimeError("UNAUTHENTICATED: Invalid or missing authentication token"),
])
def test_an_authentication_error_is_named_not_called_unreachable(monkeypatch, horde, error):
    monkeypatch.setitem(sys.modules, "ray", fake_ray(error))
    r = horde("sim", PACK, "--cluster", "auto")
    assert r.exit_code == 1
    assert "--cluster auto: authentication failed" in r.output, r.output
    assert "RAY_AUTH_TOKEN" in r.output and "cannot reach" not in r.output
