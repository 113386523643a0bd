"""Playing on a Ray cluster: the same pieces of work as the worker processes, as Ray tasks.

Sweeps outgrow one machine; Ray is the distributed engine the users of horde's agent API
already run, so horde uses it rather than a scheduler of its own (it is an optional extra:
`pip install 'horde[cluster]'`). What goes to the workers is each batch's `GameSpec`: the
pack's and house rules' files by content with a hash over them, so a worker needs horde
installed but not the pack, and refuses a spec changed on the way. A task's games come
back as their totals (records only when the run keeps them), as from worker processes, so
a cluster gives exactly what `--jobs 1` gives, and the driver's memory stays flat.

At most a few tasks per CPU are in flight: the rest are made as those finish, so Ctrl-C
loses only what was in flight (the finished pieces are reported; the first are single
games), and a million-game run never lists its work up front. Joining a cluster is bounded
in time (`connect`), a refused token is named as such, and what Ray's nodes report to the
driver goes to stderr: stdout is the command's output. `horde check` sends whole Hypothesis runs instead
(`check`): each is independent, with its own seed, and the shortest failure wins.
"""

from __future__ import annotations

import logging
import math
import os
import re
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator

from engine.errors import HordeError

INSTALL = "pip install 'horde[cluster]' (or: pip install 'ray[client]>=2.40')"
# Games in one task at most: big enough that Ray's few milliseconds per task do not
# count next to the games, small enough that Ctrl-C loses little and the CPUs stay busy
# to the end (a slow game with greedy bots is ~0.3 s: 200 of them a minute on one core).
MOST_GAMES_PER_TASK = 200
# Tasks in flight per CPU of the cluster: one running, one waiting to start.
IN_FLIGHT_PER_CPU = 2
# Seconds to reach a cluster's address before saying it cannot be reached (a TCP
# connection: a head on the same network answers in milliseconds).
CONNECT_TIMEOUT = 10.0
CLIENT_PORT = 10001  # Ray's client server (ray://)
GCS_PORT = 6379  # the head's GCS (HOST:PORT, as `ray start --address` takes)
# What Ray says when a token is missing or wrong (its AuthenticationError, or a gRPC status).
AUTH_WORDS = re.compile(r"authenticat|unauthori[sz]ed|auth[_ ]token|RAY_AUTH", re.IGNORECASE)


def ray_module():
    """Ray, or a HordeError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise HordeError("--cluster needs Ray, which is not installed", hint=INSTALL) from None
    return ray


class Cluster:
    """A connection to a Ray cluster, and what horde plays on it."""

    chunk = MOST_GAMES_PER_TASK

    def __init__(self, ray, cpus: int, started: bool):
        self.ray = ray
        self.cpus = cpus
        self.started = started  # a local Ray started by this process (stopped at its exit)
        self._play = ray.remote(_play_task)
        self._check = ray.remote(_check_task)

    def play(self, batches, work: Iterator[tuple[int, int, int]],
             collect: Callable[[tuple], None]) -> None:
        """Play every piece of `work` (batch, start, stop); each answer to `collect`."""
        args = self.ray.put([b.worker_args() for b in batches])
        tasks = (self._play.remote(args, piece) for piece in work)
        for answer in self._gather(tasks):
            collect(answer)

    def _gather(self, tasks: Iterable) -> Iterator:
        """The tasks' answers as they finish, with at most IN_FLIGHT_PER_CPU × CPUs
        submitted at a time; on any exit, those still running are cancelled."""
        ray = self.ray
        todo = iter(tasks)
        pending: list = []
        try:
            while True:
                while len(pending) < IN_FLIGHT_PER_CPU * self.cpus:
                    task = next(todo, None)
                    if task is None:
                        break
                    pending.append(task)
                if not pending:
                    return
                ready, pending = ray.wait(pending, num_returns=1)
                yield ray.get(ready[0])
        finally:
            for task in pending:
                ray.cancel(task, force=True)

    def check(self, game, *, examples: int, seed: int | None, progress=None, **options):
        """`engine.check.run_check` as independent runs on the cluster (a few per CPU), each
        with its own seed derived from `seed`: their games add up, and the shortest failure
        is the answer. The first failure cancels the runs still going."""
        from engine.check.driver import CheckResult, _round_seed, _shorter
        from engine.sim.parallel import GameSpec, rebuild

        runs = max(1, min(examples, IN_FLIGHT_PER_CPU * self.cpus))
        sizes = [examples // runs + (k < examples % runs) for k in range(runs)]
        if options.get("time_limit") is not None:  # the runs go in waves of one per CPU
            options["time_limit"] /= math.ceil(runs / self.cpus)
        spec = self.ray.put(GameSpec.of(game))
        tasks = (self._check.remote(spec, size, None if seed is None else _round_seed(seed, k),
                                    options) for k, size in enumerate(sizes))
        total = CheckResult(0, 0, 0.0, examples, [])
        start = time.perf_counter()
        for error, part in self._gather(tasks):
            if error is not None:
                raise rebuild(error)
            total.laws = part.laws
            total.games += part.games
            total.steps += part.steps
            total.failing_games += part.failing_games
            total.notes += part.notes
            if part.failure is not None and _shorter(part.failure, total.failure):
                total.failure = part.failure
            total.seconds = time.perf_counter() - start
            if progress is not None:
                progress(total)
            if total.failure is not None:
                break
        return total


def connect(address: str, timeout: float | None = None) -> Cluster:
    """Join the Ray cluster at `address` (`ray://host:10001`, `host:6379`, `auto`), or start
    one on this machine (`local`). Joined once per process: later calls reuse the connection.

    An address is first reached with a plain TCP connection, then joined by Ray, each
    within `timeout` seconds (CONNECT_TIMEOUT, or HORDE_CLUSTER_TIMEOUT): an address where
    nothing listens, or nothing answers as Ray would, fails then, not after Ray's own
    minute of retries. Ray's messages (a worker that died, say) go to stderr: stdout is
    the command's output (`--json > f`)."""
    ray = ray_module()
    from engine.sim.parallel import usable_cores

    started = False
    limit = connect_timeout() if timeout is None else timeout  # a bad setting: an error always
    if not ray.is_initialized():
        if address not in ("local", "auto"):
            probe(address, limit)
        options = {"logging_level": logging.ERROR, "log_to_driver": False}
        try:
            with warnings.catch_warnings():  # Ray's own words on a failure: ours say more
                warnings.simplefilter("ignore")
                if address == "local":
                    ray.init(num_cpus=usable_cores(), include_dashboard=False, **options)
                    started = True
                else:
                    _init_within(ray, limit, address=address, **options)
        except Exception as exc:  # Ray's start-up fails in its own many ways: not a horde bug
            _shutdown(ray)  # what a failed start left running
            refused = None if address in ("local", "auto") else token_refused(address, limit)
            why = exc if refused is None else RuntimeError(f"Authentication failed: {refused}")
            raise _failed(ray, address, why) from None  # Ray retries a refused token as if
            # nobody answered: asked again, the cluster says which it was
        messages_to_stderr()
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
    except Exception as exc:  # the connection lost at once
        raise _failed(ray, address, exc) from None
    if cpus < 1:
        raise HordeError(f"--cluster {address}: the cluster has no CPUs to play on",
                         hint="start workers with `ray start --address HEAD:6379`")
    return Cluster(ray, cpus, started)


def connect_timeout() -> float:
    """CONNECT_TIMEOUT, or the seconds HORDE_CLUSTER_TIMEOUT gives."""
    text = os.environ.get("HORDE_CLUSTER_TIMEOUT", "").strip()
    if not text:
        return CONNECT_TIMEOUT
    try:
        seconds = float(text) if text.isascii() else math.nan
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= 3600:
        raise HordeError(f"HORDE_CLUSTER_TIMEOUT={text[:40]!r}: expected seconds, more than "
                         "0 and at most 3600", hint="for example HORDE_CLUSTER_TIMEOUT=30")
    return seconds


def host_port(address: str) -> tuple[str, int]:
    """`ray://HOST[:PORT]` (Ray's client server, 10001 by default) or `HOST[:PORT]` (the
    head's GCS, 6379 by default) as (host, port)."""
    client = address.startswith("ray://")
    rest = address[len("ray://"):] if client else address
    rest = rest.split("/", 1)[0]
    default = CLIENT_PORT if client else GCS_PORT
    if rest.startswith("["):  # [IPv6]:port
        host, _, tail = rest[1:].partition("]")
        port = tail[1:] if tail.startswith(":") else ""
    elif rest.count(":") == 1:
        host, port = rest.split(":")
    else:
        host, port = rest, ""
    if not host or (port and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536)):
        raise HordeError(f"--cluster {address}: not an address",
                         hint="write ray://HOST:10001, HOST:6379, auto or local")
    return host, int(port) if port else default


def probe(address: str, timeout: float) -> None:
    """The address's host and port take a TCP connection within `timeout` seconds, or a
    HordeError says that it cannot be reached: a refused port, an unknown host and an
    address that never answers are named before Ray is started on them."""
    host, port = host_port(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        raise _unreachable(address, f"no answer from {host}:{port} in {timeout:g} s") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise _unreachable(address, f"{host}:{port}: {why[:120]}") from None


def _init_within(ray, seconds: float, **options) -> None:
    """`ray.init(**options)`, or a TimeoutError when it has not returned in `seconds` (Ray
    retries an address that takes connections but answers nothing Ray knows for a minute
    or more); the attempt is left to a daemon thread, which the process's exit ends."""
    outcome: list = []

    def run() -> None:
        try:
            ray.init(**options)
            outcome.append(None)
        except BaseException as exc:  # handed to the caller as it is
            outcome.append(exc)

    thread = threading.Thread(target=run, name="ray-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if not outcome:
        raise TimeoutError(f"no answer from Ray in {seconds:g} s")
    if outcome[0] is not None:
        raise outcome[0]


def token_refused(address: str, seconds: float) -> str | None:
    """Why the cluster at `address` refuses this machine's token (Ray's gRPC status
    UNAUTHENTICATED, to one call with the token Ray would send), or None: not refused, or
    not known. Ray itself retries such a refusal until it gives up as if nobody answered."""
    try:
        import grpc  # type: ignore[import-untyped]  # comes with Ray
    except ImportError:
        return None
    host, port = host_port(address)
    token = _token()
    channel = grpc.insecure_channel(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    try:
        call = channel.unary_unary("/ray.rpc.NodeInfoGcsService/GetClusterId")
        call(b"", timeout=seconds,
             metadata=[("authorization", f"Bearer {token}")] if token else None)
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.UNAUTHENTICATED:
            return (exc.details() or "the token was refused")[:200]
    except Exception:  # no answer worth naming: the caller says the cluster was not reached
        return None
    finally:
        channel.close()
    return None


def _token() -> str | None:
    """The token Ray would send: RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH names, or
    ~/.ray/auth_token."""
    if os.environ.get("RAY_AUTH_TOKEN", "").strip():
        return os.environ["RAY_AUTH_TOKEN"].strip()
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.expanduser("~/.ray/auth_token")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(4096).strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def messages_to_stderr() -> None:
    """Ray prints what its nodes report (a worker that died: `(raylet) A worker died...`)
    on the driver's stdout whatever `log_to_driver` says: send it to stderr instead, where
    the progress bar and warnings go, so stdout holds only the command's output."""
    worker = sys.modules.get("ray._private.worker")
    shown = getattr(worker, "print_to_stdstream", None)
    if shown is None or getattr(shown, "to_stderr", False):
        return

    def to_stderr(data, *args, **kwargs):
        return shown({**data, "is_err": True}, *args, **kwargs)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    worker.print_to_stdstream = to_stderr  # type: ignore[union-attr]


def _shutdown(ray) -> None:
    try:
        ray.shutdown()
    except Exception:  # nothing was started, or it is already gone
        pass


def _failed(ray, address: str, exc: Exception) -> HordeError:
    """What a failed connection says: authentication refused, or the cluster not reached."""
    why = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
    auth = getattr(getattr(ray, "exceptions", None), "AuthenticationError", None)
    if (auth is not None and isinstance(exc, auth)) or AUTH_WORDS.search(str(exc)):
        return HordeError(f"--cluster {address}: authentication failed: {why}",
                          hint="the cluster uses Ray's token authentication: give this "
                               "machine the cluster's token (RAY_AUTH_MODE=token with "
                               "RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token; "
                               "`ray get-auth-token` on the head prints it), see "
                               "docs/cluster.md")
    return _unreachable(address, why)


def _unreachable(address: str, why: str) -> HordeError:
    if address == "local":
        return HordeError(f"--cluster local: cannot start Ray on this machine ({why})",
                          hint="see docs/cluster.md; `ray start --head` shows Ray's own "
                               "error, or use --jobs instead")
    return HordeError(f"--cluster {address}: cannot reach a Ray cluster ({why})",
                      hint="start one with `ray start --head` (see docs/cluster.md), check "
                           "the address and that its port is open, or use --cluster local")


# ---------- the worker side ----------

def _play_task(args: list, piece: tuple[int, int, int]):
    from engine.sim.parallel import play_chunk
    return play_chunk(args, piece)


def _check_task(spec, examples: int, seed: int | None, options: dict):
    from engine.check.driver import run_check
    from engine.sim.parallel import error_of
    try:
        game = spec.load()
        return None, run_check(game, examples=examples, seed=seed, database=None, **options)
    except HordeError as exc:
        return error_of(exc), None
