"""Running batches of games in one process or several, with the same results either way.

A compiled `Game` holds generated functions and cannot be pickled, so a worker process
rebuilds it from its recipe (`GameSpec`: the pack's and house rules' files by content, mode
and params), refuses a recipe that does not match its hash, and checks that the rebuilt
rules hash the same. The same recipe serves workers on other machines (`engine.sim.cluster`).
Work is cut into pieces of game indices, dealt round-robin over the batches (so an
interrupted comparison has played every variant about equally). The first pieces are a
single game each and they double from there (`chunks`), so a Ctrl-C in the first seconds
still has games to report. A worker sends back its piece's totals (`engine.sim.tally`),
which the parent adds to the batch's: its memory does not grow with the games. Records are
sent only when the run keeps them, and go back to their place by game index. Since a game
depends only on (master seed, index), and the totals' sums are exact, K workers give
exactly what one does.

Workers are started with the `spawn` method (safe with threads, the same on every OS) and
leave Ctrl-C to the parent, which stops the pool and keeps what has finished; so do SIGTERM
and SIGHUP, which the CLI turns into Ctrl-C (`engine.cli.signals`): see `_init_worker`.

A run plays at most MAX_GAMES games (MAX_GAMES_KEPT when each game's record is kept),
checked before anything is built; the pieces of work are made as they are dealt, not
listed beforehand.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.api import load
from engine.errors import HordeError, PackError
from engine.game import Game
from engine.pack.sources import Sources
from engine.pack.yamlspan import span_name
from engine.sim.batch import check_bots, compile_metrics, new_result, play_one, seat_specs
from engine.sim.result import SimResult
from engine.sim.tally import Tally
from engine.state import check_players

# Games one run may play, over all its batches. Its totals do not grow with the games, so
# the cap is time: 10^8 random games of a pack are days of a 100-core cluster. When a
# record is kept per game (the per-game CSV, comparisons) each is 1-4 KB: a million is a
# few GB in the driver. More is a mistake, or work to split into runs.
MAX_GAMES = 100_000_000
MAX_GAMES_KEPT = 1_000_000
# Worker processes a run may start even when asked to use more than the cores it may use
# (each is a Python process with the pack loaded, tens of MB).
MAX_JOBS = 256


def check_games(total: int, records: bool = False) -> None:
    """A run of `total` games is within its cap (MAX_GAMES_KEPT when every game's record is
    kept), or a HordeError says how to split it."""
    if records and total > MAX_GAMES_KEPT:
        raise HordeError(f"{total:,} games in one run is more than {MAX_GAMES_KEPT:,} when "
                         "each game's record is kept (the per-game CSV, a comparison)",
                         hint="play fewer, or split the work into runs with different "
                              "--seed values")
    if total > MAX_GAMES:
        raise HordeError(f"{total:,} games in one run is more than {MAX_GAMES:,}",
                         hint="play fewer, or split the work into runs with different "
                              "--seed values")


@dataclass(frozen=True)
class GameSpec:
    """How to build a game again in another process or on another machine: the files it
    was loaded from by content (`engine.pack.sources`), its mode and params, the hash of
    its rules, and `digest`, a hash of all of that. Its receiver reads nothing from disk."""

    sources: Sources
    mode: str | None
    params: tuple
    hash: str  # the rules' (`Game.hash`): the rebuilt game must have the same
    digest: str  # of everything above: a spec changed on the way is refused

    @classmethod
    def of(cls, game) -> GameSpec:
        if game.sources is None:
            raise HordeError("this game was not loaded from files, so workers cannot "
                             "rebuild it", hint="use --jobs 1")
        params = tuple(sorted(game.params.items()))
        return cls(game.sources, game.mode, params, game.hash,
                   _digest(game.sources, game.mode, params, game.hash))

    def load(self):
        """The game, built from the spec's own files; a HordeError if it is not the one
        the spec was made from."""
        if _digest(self.sources, self.mode, self.params, self.hash) != self.digest:
            raise HordeError(f"the game sent for {span_name(Path(self.sources.ref))} does not "
                             "match its hash: it was changed on the way, so it is not played",
                             hint="start the run again; if it happens again, something between "
                                  "this machine and the workers alters what is sent")
        game = load(self.sources.ref, mode=self.mode, params=dict(self.params),
                    house=list(self.sources.house), sources=self.sources)
        if game.hash != self.hash:
            raise HordeError(f"{span_name(Path(self.sources.ref))}: the rules built from the "
                             "files sent differ from the ones being played",
                             hint="a bug in horde: please report it with the pack")
        return game


def _digest(sources: Sources, mode: str | None, params: tuple, rules: str) -> str:
    body = json.dumps([sources.digest(), mode, params, rules], default=str)
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass
class Batch:
    """n games of one game (a variant) with one seating of bots, from one master seed."""

    game: Game
    players: int
    specs: list[str]
    n: int
    seed: int
    label: str = ""
    metrics: list = field(default_factory=list)
    records: bool = False  # keep each game's record, not only the totals

    @classmethod
    def of(cls, game, players: int | None, bots: Sequence[str], n: int, seed: int,
           label: str = "", records: bool = False) -> Batch:
        players = game.players_default if players is None else players
        check_players(game, players)
        if n < 0:
            raise HordeError(f"cannot play {n} games")
        check_games(n, records)
        specs = seat_specs(bots, players)
        check_bots(game, specs)
        return cls(game, players, specs, n, seed, label, compile_metrics(game), records)

    def worker_args(self) -> tuple:
        return GameSpec.of(self.game), self.players, self.specs, self.seed, self.records


def sizes(n: int, workers: int, most: int) -> Iterator[int]:
    """The games in each piece of a batch of n: one game in each of the first `workers`
    pieces, then two, four, ... up to a size that makes about 20 pieces a worker, never
    more than `most` (a piece is what a Ctrl-C loses, at most). Small first pieces give an
    early Ctrl-C games to report; big later ones keep the cost of sending them small."""
    cap = max(1, min(most, n // (workers * 20))) if workers > 1 else 1
    size, dealt, k = 1, 0, 0
    while dealt < n:
        yield min(size, n - dealt)
        dealt += size
        k += 1
        if k % max(workers, 1) == 0:  # a wave dealt: the next is twice as big
            size = min(cap, 2 * size)


def chunks(batches: Sequence[Batch], jobs: int, most: int = 20) -> Iterator[tuple[int, int, int]]:
    """(batch, start, stop) pieces of work, round-robin over the batches, made as dealt."""
    pieces = {b: sizes(batch.n, jobs, most) for b, batch in enumerate(batches)}
    starts = [0] * len(batches)
    while pieces:
        for b, it in list(pieces.items()):
            size = next(it, None)
            if size is None:
                del pieces[b]
                continue
            yield b, starts[b], starts[b] + size
            starts[b] += size


def run_batches(batches: Sequence[Batch], jobs: int = 1,
                progress: Callable[[int, int], None] | None = None,
                cluster=None) -> list[SimResult]:
    """Play every batch; results in batch order (records, where kept, in index order). With
    `cluster` (an `engine.sim.cluster.Cluster`), the games are played on it instead of here.

    Ctrl-C stops early: each result then holds the games that finished."""
    results = [new_result(b.game, b.players, b.specs, b.seed, b.n, b.records) for b in batches]
    for r, b in zip(results, batches, strict=True):
        r.label = b.label
    total = sum(b.n for b in batches)
    check_games(total, any(b.records for b in batches))
    start = time.perf_counter()
    try:
        if cluster is not None:
            work = chunks(batches, max(cluster.cpus, 2), cluster.chunk)
            cluster.play(batches, work, _collect(results, total, progress))
        elif jobs <= 1 or total <= 1:
            _serial(batches, chunks(batches, 1), results, total, progress)
        else:
            _parallel(batches, chunks(batches, jobs), results, total, progress,
                      min(jobs, total))
    except KeyboardInterrupt:
        pass
    seconds = time.perf_counter() - start
    for r in results:
        r.records.sort(key=lambda rec: rec.index)
        r.seconds = seconds
    return results


def simulate(game, players: int | None, bots: Sequence[str], n: int, seed: int = 0,
             progress: Callable[[int, int], None] | None = None, jobs: int = 1,
             cluster=None, records: bool = False) -> SimResult:
    """Play `n` games of `game` with `players` seats; `progress(done, n)` as games finish.

    `jobs` > 1 plays them in that many worker processes, `cluster` on a Ray cluster, with
    the same results; `records` keeps each game's record too. Ctrl-C stops the batch: the
    result holds the games finished so far (`result.interrupted`)."""
    batch = Batch.of(game, players, bots, n, seed, records=records)
    return run_batches([batch], jobs=jobs, progress=progress, cluster=cluster)[0]


def _serial(batches, work, results, total, progress) -> None:
    done = 0
    for b, lo, hi in work:
        batch = batches[b]
        for i in range(lo, hi):
            results[b].add(play_one(batch.game, batch.players, batch.specs, batch.seed, i,
                                    batch.metrics))
            done += 1
            if progress is not None:
                progress(done, total)


def _parallel(batches, work, results, total, progress, jobs: int) -> None:
    import multiprocessing

    args = [b.worker_args() for b in batches]
    ctx = multiprocessing.get_context("spawn")
    stopping = ctx.RawValue("b", 0)  # set before the pool ends its workers
    collect = _collect(results, total, progress)
    pool = None
    try:
        with _signals_held():
            pool = ctx.Pool(jobs, initializer=_init_worker,
                            initargs=(args, stopping, os.getpid()))
        for answer in pool.imap_unordered(_play_chunk, work):
            collect(answer)
        pool.close()
    except BaseException:
        if pool is not None:
            stopping.value = 1
            pool.terminate()
        raise
    finally:
        if pool is not None:
            pool.join()


_HELD = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and the stop signals wait while the workers are started (a few milliseconds
    each), then take effect: a worker cut off from its parent while being sent its start-up
    data would fail with a traceback of its own. A worker may start with them held too (and
    so may one the pool starts later, from a thread made meanwhile): `_init_worker` lets
    them through once it has said what they do."""
    if not hasattr(signal, "pthread_sigmask"):  # not on Windows
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _collect(results, total, progress) -> Callable[[tuple], None]:
    """What takes a worker's answer (`play_chunk`): its totals (or records) to their batch,
    or its error raised here, whole."""
    done = 0

    def collect(answer: tuple) -> None:
        nonlocal done
        b, games, error = answer
        if error is not None:
            raise rebuild(error)
        before = results[b].games
        if isinstance(games, Tally):
            results[b].merge(games)
        else:
            for record in games:
                results[b].add(record)
        done += results[b].games - before
        if progress is not None:
            progress(done, total)

    return collect


# ---------- the worker side ----------

_BATCHES: list = []
_GAMES: dict = {}


def _init_worker(args: list, stopping, parent: int) -> None:
    """Ctrl-C, a hang-up and a SIGTERM sent to the whole process group reach the parent,
    which stops the pool: a worker that died of one of them first would be replaced by the
    pool, and the replacement fail noisily, starting as the parent lets go of the pool. So
    a worker ends on SIGTERM only once the parent is stopping the pool (or is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def on_sigterm(signum, _frame):
        if stopping.value or os.getppid() != parent:
            os._exit(128 + signum)  # quietly: nothing of a worker's needs cleaning up
    signal.signal(signal.SIGTERM, on_sigterm)
    if hasattr(signal, "pthread_sigmask"):  # held as it was started (`_signals_held`)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    _BATCHES[:] = args


def _play_chunk(task: tuple[int, int, int]):
    return play_chunk(_BATCHES, task)


def play_chunk(args: list, task: tuple[int, int, int]):
    """Games lo..hi-1 of batch b (`args`: each batch's `worker_args`), as (b, their
    `Tally`, None), or (b, their records, None) when the batch keeps records, or (b, None,
    error) for `rebuild`. Each game is built once per worker process."""
    b, lo, hi = task
    spec, players, specs, seed, keep = args[b]
    try:
        game, metrics = built(spec)
        records = (play_one(game, players, specs, seed, i, metrics) for i in range(lo, hi))
        if keep:
            return b, list(records), None
        tally = Tally(players)
        for record in records:
            tally.add(record)
    except HordeError as exc:  # its pickled form would lose the problems and their spans
        return b, None, error_of(exc)
    return b, tally, None


def built(spec: GameSpec) -> tuple:
    """The game `spec` builds, and its compiled metrics, built once per process."""
    if spec.digest not in _GAMES:
        game = spec.load()
        _GAMES[spec.digest] = (game, compile_metrics(game))
    return _GAMES[spec.digest]


def error_of(exc: HordeError) -> tuple:
    return type(exc), exc.problems


def rebuild(error) -> HordeError:
    cls, problems = error
    if issubclass(cls, PackError):
        return cls(problems)
    p = problems[0]
    return cls(p.message, p.span, p.hint)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the OS tells), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity on this OS (macOS, Windows)
        return max(1, os.cpu_count() or 1)
