"""Hypothesis drives the games: a seed, a player count, then an index for every decision.

Drawing one index per decision (`data.draw(integers(0, n - 1))`) makes a game a plain
sequence of small choices, which Hypothesis shrinks well: fewer decisions, earlier
actions, a smaller seed. Hypothesis keeps failing sequences in an example database, so a
re-run tries the known failures first; the database lives in the user's cache folder, one
folder per pack configuration (not per pack version: after a fix, the old failure is the
first thing worth retrying), and is read as untrusted data (`engine.check.database`).

We keep the shortest failure we saw ourselves, too. Shrinking a game that fails only after
thousands of decisions could take very long, so after `shrink_seconds` the remaining
attempts are skipped and the shortest failure so far is the answer.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.check.play import DENSE, Broken, Failure, play
from engine.errors import HordeError
from engine.laws import LAWS
from engine.resources import cache_dir
from engine.state import MAX_PLAYERS, check_players

# Past this many decisions in one game, the rest are chosen by a seeded generator whose
# seed Hypothesis draws: the choice sequence stays well inside Hypothesis's buffer.
DRAWN_DECISIONS = 2000
# Games in the first round of a check with a time limit (see `_round_size`).
FIRST_ROUND = 2


@dataclass
class CheckResult:
    games: int
    steps: int
    seconds: float
    examples: int
    laws: list[str]
    failure: Failure | None = None
    failing_games: int = 0  # games that broke a law (the first one, then shrinking)
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C (or SIGTERM): the games played so far
    # action ids offered and chosen in the games played (engine.coverage.report)
    offered: set[str] = field(default_factory=set)
    chosen: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.failure is None


def database_path(*config) -> Path | None:
    """The example database folder for one configuration (pack, mode, house, params...),
    in horde's cache folder; None when caching is off (HORDE_NO_CACHE=1)."""
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()
    return folder / "hypothesis" / key[:16]


def _chooser(data, st) -> Callable[[int], int]:
    count = 0
    rnd: random.Random | None = None

    def choose(n: int) -> int:
        nonlocal count, rnd
        if n <= 1:
            return 0
        if count < DRAWN_DECISIONS:
            count += 1
            return data.draw(st.integers(0, n - 1))
        if rnd is None:
            rnd = random.Random(data.draw(st.integers(0, 2**32 - 1)))
        return rnd.randrange(n)

    return choose


def _round_size(left: int, played: int, elapsed: float, limit: float) -> int:
    """How many games the next round of a check with a time limit plays: a couple to see how
    long a game takes, then what that says fits in most of the time left, but never more
    than were played so far: Hypothesis tries its simplest games first, which are often
    shorter than the rest, so the first estimates are too hopeful.

    A time limit cannot be kept from inside a Hypothesis run: a game that stops early
    because the time is up differs from an earlier game that began with the same choices,
    and Hypothesis then stops with "inconsistent data generation". So a limited check runs
    in rounds, each a whole Hypothesis run of a fixed number of games."""
    if elapsed >= limit:
        return 0
    if played == 0:
        return min(left, FIRST_ROUND)
    return min(left, played, int(0.8 * (limit - elapsed) * played / elapsed))


def _round_seed(seed: int, k: int) -> int:
    """Round k's seed: the check's own for the first round (so a check that fits in one
    round plays what it always played), then one derived from it."""
    if k == 0:
        return seed
    return int.from_bytes(hashlib.sha256(f"{seed}/{k}".encode()).digest()[:8], "big")


def _shorter(a: Failure, b: Failure | None) -> bool:
    return b is None or (len(a.steps), a.players, a.seed) < (len(b.steps), b.players, b.seed)


def run_check(game, *, players: int | None = None, examples: int = 100, seed: int | None = None,
              max_steps: int | None = 5000, database: Path | None = None,
              laws: Iterable[str] = LAWS, time_limit: float | None = None,
              shrink_seconds: float = 60.0, horizon: int | None = None, dense: int | None = DENSE,
              tries: int | None = 8,
              progress: Callable[[CheckResult], None] | None = None) -> CheckResult:
    """Play up to `examples` games chosen by Hypothesis; the result holds the shortest failure
    found (after shrinking), or none. With `time_limit`, games are played in rounds sized to
    end within it (see `_round_size`), and no round starts after it (a failure found by
    then is still shrunk). `max_steps`, `tries`, `dense` and `horizon` are
    passed to `play`. Ctrl-C stops it: the result holds what was found so far
    (`interrupted`)."""
    try:
        from hypothesis import HealthCheck, Phase, Verbosity, given, reporting, settings
        from hypothesis import seed as fixed_seed
        from hypothesis import strategies as st
        from hypothesis.errors import HypothesisException
    except ImportError:
        raise HordeError("horde check needs Hypothesis, which is not installed",
                         hint="pip install hypothesis") from None
    from engine.check.database import database_at

    check_players(game, game.players_min if players is None else players)
    laws = list(laws)
    result = CheckResult(0, 0, 0.0, examples, laws)
    first_failure: list[float] = []
    start = time.perf_counter()
    db = database_at(database) if database is not None else None
    count = st.just(players) if players is not None else st.integers(
        game.players_min, min(game.players_max, MAX_PLAYERS))

    def one_round(size: int, round_seed: int | None) -> None:
        @settings(max_examples=size, deadline=None, database=db, print_blob=False,
                  phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
                  report_multiple_bugs=False, verbosity=Verbosity.quiet,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.large_base_example,
                                         HealthCheck.filter_too_much])
        @given(seed=st.integers(0, 2**31 - 1), n=count, data=st.data())
        def one_game(seed, n, data):
            if first_failure and time.perf_counter() - first_failure[0] > shrink_seconds:
                return  # enough shrinking: the shortest failure so far will do
            try:
                result.steps += play(game, n, seed, _chooser(data, st), laws=laws,
                                     max_steps=max_steps, tries=tries, dense=dense,
                                     horizon=horizon, seen=(result.offered, result.chosen))
                result.games += 1
            except Broken as exc:
                result.games += 1
                result.failing_games += 1
                result.steps += len(exc.failure.steps)
                if not first_failure:
                    first_failure.append(time.perf_counter())
                if _shorter(exc.failure, result.failure):
                    result.failure = exc.failure
                raise
            finally:  # Hypothesis may also stop a game midway (too many choices): not counted
                result.seconds = time.perf_counter() - start
                if progress is not None:
                    progress(result)

        if round_seed is not None:
            one_game = fixed_seed(round_seed)(one_game)
        try:
            with reporting.with_reporter(lambda _msg: None):
                one_game()
        except Broken:
            pass
        except HypothesisException:
            # Hypothesis found the failure unreliable (we stopped shrinking) or gave up: the
            # failure we kept is still a real, replayable one. Without one, this is ours.
            # (Anything else, a bug in the progress callback say, is not a finding.)
            if result.failure is None:
                raise

    left, k = examples, 0
    while left > 0 and result.failure is None:
        size = left if time_limit is None else _round_size(left, result.games,
                                                           time.perf_counter() - start, time_limit)
        if size < 1:
            break  # out of time: the games played so far are the answer
        try:
            one_round(size, None if seed is None else _round_seed(seed, k))
        except KeyboardInterrupt:  # what was played (and the failure so far) is the answer
            result.interrupted = True
            break
        left -= size
        k += 1
    result.seconds = time.perf_counter() - start
    return result
