"""The whole benchmark: every pack and mode, every measurement, best of a few repeats.

Packs are discovered at run time (`engine.pack.loader.list_packs()`), so a pack added to
rulesets/ is measured without touching this file. Everything runs on one core in this
process, one measurement after the other, except cold starts, which need a fresh
interpreter each. A measurement that fails is reported as an error in its row; the
others go on.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import engine
from bench import check, cold, machine, mcts, play, policy, reference
from bench.report import METRICS, better
from engine.errors import HordeError
from engine.pack.loader import list_packs


@dataclass(frozen=True)
class Workload:
    pack: str
    mode: str | None

    @property
    def name(self) -> str:
        return self.pack + (f"/{self.mode}" if self.mode else "")


def discover(selected: list[str] | None = None) -> list[Workload]:
    """Every bundled pack and each of its modes; `selected` keeps packs or `pack/mode`s."""
    out = []
    for info in list_packs():
        if info.problems:
            continue
        for mode in [None, *info.modes]:
            w = Workload(info.id, mode)
            if not selected or w.pack in selected or w.name in selected:
                out.append(w)
    return out


def _merge(runs: list[dict]) -> dict:
    """One row from repeated runs: the best value of every metric, plus its median."""
    out: dict = {}
    for run in runs:
        for key, value in run.items():
            if key not in METRICS or value is None:
                out.setdefault(key, value)
                continue
            if key not in out or out[key] is None or better(key, value, out[key]):
                out[key] = value
    if len(runs) > 1:
        out["median"] = {k: statistics.median([r[k] for r in runs if r.get(k) is not None])
                         for k in METRICS if any(r.get(k) is not None for r in runs)}
    return out


def measure_workload(w: Workload, seconds: float, with_cold: bool = True) -> dict:
    """One repeat of every measurement of one workload."""
    row: dict = {}
    try:
        game = engine.load(w.pack, mode=w.mode)
        players = game.players_default
        numbers, states = play.measure(game, players, seconds)
        row.update(numbers)
        if reference.has_reference(w.pack, w.mode):
            ref = reference.alternating(w.pack, players, seconds,
                                        lambda k: play.play_game(game, players, k))
            row["ref_games_per_s"] = ref["games_per_s"]
            row["ref_ratio"] = ref["ratio"]
            if w.pack in reference.CONTRACTS:
                ref = reference.alternating(w.pack, players, seconds,
                                            lambda k: play.play_game(game, players, k),
                                            programs=reference.CONTRACTS)
                row["contract_games_per_s"] = ref["games_per_s"]
                row["contract_ratio"] = ref["ratio"]
        if policy.has_policy(game):
            row.update(policy.measure(game, players, seconds / 2))
        row.update(check.measure(game, players, seconds / 4))
        if mcts.available():
            got = mcts.measure(game, players, states, seconds / 4) or {}
            if "error" in got:
                row["mcts_error"] = got.pop("error")
            row.update(got)
    except HordeError as exc:
        row["error"] = str(exc).splitlines()[0]
    if with_cold:
        got = cold.measure(w.pack, w.mode)
        if "error" in got:
            row["cold_error"] = got.pop("error")
        row.update(got)
    return row


def auto_seconds(workloads: int, total: float = 75.0) -> float:
    """A per-workload budget that keeps a default run near `total` seconds: every workload
    costs about 2.5 budgets (play, transactional play, greedy play, clone, search) plus
    ~2.5 s of fixed work (states to clone, a traced game, a cold process)."""
    return max(0.5, min(2.0, (total / max(workloads, 1) - 2.5) / 2.5))


def run(selected: list[str] | None = None, seconds: float | None = None, repeat: int = 1,
        with_cold: bool = True, progress: Callable[[str], None] | None = None) -> dict:
    start = time.perf_counter()
    workloads = discover(selected)
    if seconds is None:
        seconds = round(auto_seconds(len(workloads)), 2)
    rows: dict[str, list[dict]] = {w.name: [] for w in workloads}
    for k in range(repeat):  # repeats interleave, so a busy moment hurts one run of each
        for w in workloads:
            if progress:
                progress(f"{w.name} (run {k + 1}/{repeat})")
            t0 = time.perf_counter()
            row = measure_workload(w, seconds, with_cold)
            row["wall_s"] = time.perf_counter() - t0
            rows[w.name].append(row)
    return {
        "machine": machine.describe(),
        "settings": {"seconds": seconds, "repeat": repeat, "cold": with_cold,
                     "mcts_iterations": mcts.ITERATIONS},
        "mcts_available": mcts.available(),
        "workloads": {name: _merge(runs) for name, runs in rows.items()},
        "elapsed_s": time.perf_counter() - start,
    }
