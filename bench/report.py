"""Showing results: a Rich table, a JSON file, and ratios against an earlier JSON file.

Every metric has a direction (a rate is better higher, a time or a size lower), so a
comparison can print one kind of number throughout: the speed-up factor, above 1 when the
new run is better.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

# metric -> (column title, better when higher?, format)
METRICS: dict[str, tuple[str, bool, str]] = {
    "games_per_s": ("games/s", True, "{:,.1f}"),
    "decisions_per_s": ("decisions/s", True, "{:,.0f}"),
    "apply_per_s": ("apply/s", True, "{:,.0f}"),
    "txn_games_per_s": ("games/s txn", True, "{:,.1f}"),
    "clone_us": ("clone µs", False, "{:,.1f}"),
    "import_ms": ("import ms", False, "{:,.0f}"),
    "load_ms": ("load ms", False, "{:,.0f}"),
    "first_state_ms": ("first state ms", False, "{:,.1f}"),
    "peak_kib": ("game peak KiB", False, "{:,.0f}"),
    "maxrss_kib": ("process RSS KiB", False, "{:,.0f}"),
    "ref_games_per_s": ("by hand games/s", True, "{:,.0f}"),
    "ref_ratio": ("engine/by hand", True, "{:.3f}"),
    "contract_games_per_s": ("contract games/s", True, "{:,.0f}"),
    "contract_ratio": ("engine/contract", True, "{:.3f}"),
    "mcts_iterations_per_s": ("MCTS it/s", True, "{:,.0f}"),
    "greedy_games_per_s": ("greedy games/s", True, "{:,.2f}"),
    "check_decisions_per_s": ("check decisions/s", True, "{:,.0f}"),
}
# Two tables, so each fits a terminal: playing speed, then start-up and memory.
PLAY_COLUMNS = ["games_per_s", "decisions_per_s", "apply_per_s", "txn_games_per_s", "clone_us",
                "ref_games_per_s", "ref_ratio", "contract_games_per_s", "contract_ratio",
                "mcts_iterations_per_s", "greedy_games_per_s",
                "check_decisions_per_s"]
START_COLUMNS = ["import_ms", "load_ms", "first_state_ms", "peak_kib", "maxrss_kib"]


def better(metric: str, a: float, b: float) -> bool:
    """True when value `a` is better than `b` for `metric`."""
    return a > b if METRICS[metric][1] else a < b


def _fmt(metric: str, value) -> str:
    if value is None:
        return "-"
    return METRICS[metric][2].format(value)


def table(result: dict, columns: list[str], title: str) -> Table:
    t = Table(title=title)
    t.add_column("pack / mode")
    shown = [m for m in columns
             if any(w.get(m) is not None for w in result["workloads"].values())]
    if columns is PLAY_COLUMNS:
        t.add_column("players", justify="right")
        t.add_column("games", justify="right")
    for m in shown:
        t.add_column(METRICS[m][0], justify="right")
    for name, w in result["workloads"].items():
        extra = [str(w.get("players", "-")), str(w.get("games", "-"))] \
            if columns is PLAY_COLUMNS else []
        t.add_row(name, *extra, *[_fmt(m, w.get(m)) for m in shown])
    return t


def notes(result: dict) -> list[str]:
    out = []
    for name, w in result["workloads"].items():
        for key in ("error", "cold_error", "mcts_error"):
            if w.get(key):
                out.append(f"{name}: {key.replace('_', ' ')}: {w[key]}")
    if not result.get("mcts_available"):
        out.append("MCTS: engine.bots offers no 'mcts' bot yet; iterations/s not measured")
    return out


def show(result: dict, console: Console | None = None) -> None:
    console = console or Console()
    m, st = result["machine"], result["settings"]
    console.print(table(result, PLAY_COLUMNS,
                        f"playing, random bots (greedy: the pack's policy; check: every law of "
                        f"`horde check`; {st['seconds']:g} s "
                        f"per workload, best of {st['repeat']})"))
    console.print(table(result, START_COLUMNS, "cold start (fresh process) and memory"))
    console.print(f"[dim]{m['cpu']}, {m['nproc']} cores, Python {m['python']}[/dim]")
    for line in notes(result):
        console.print(f"[dim]{line}[/dim]")


def save(result: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")


def compare(new: dict, old: dict) -> Table:
    """Speed-up factors new vs old (> 1: the new run is better) for shared workloads."""
    t = Table(title="speed-up vs the earlier run (> 1 is better)")
    t.add_column("pack / mode")
    metrics = [m for m in METRICS if m not in ("ref_games_per_s", "contract_games_per_s")]
    rows = []
    for name, w in new["workloads"].items():
        o = old.get("workloads", {}).get(name)
        if not o:
            continue
        cells = []
        for m in metrics:
            a, b = w.get(m), o.get(m)
            if not a or not b:
                cells.append(None)
            else:
                cells.append(a / b if METRICS[m][1] else b / a)
        rows.append((name, cells))
    used = [k for k, m in enumerate(metrics) if any(r[1][k] is not None for r in rows)]
    for k in used:
        t.add_column(METRICS[metrics[k]][0], justify="right")
    for name, cells in rows:
        t.add_row(name, *[f"×{cells[k]:.2f}" if cells[k] is not None else "-" for k in used])
    return t
