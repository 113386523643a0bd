"""Files the balance tools write: per-game CSV rows, and every file written atomically.

Files are written with `engine.atomic`, so an interrupted run never leaves half a CSV or
half a PNG where the last good one was. A CSV is read in terminals too (`cat`, `column`):
its texts (a metric's name comes from the pack) pass `engine.errors.printable`.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from engine.atomic import write_text
from engine.errors import printable
from engine.sim.result import SimResult


def csv_rows(results: list[SimResult]) -> tuple[list[str], list[list]]:
    """One row per game (of every batch): its variant, seed, outcome, length, metrics and
    how often each seat chose each action."""
    players = max((r.players for r in results), default=0)
    metrics = sorted({m for r in results for m in r.metric_names})
    actions = sorted({a for r in results for rec in r.records for u in rec.uses for a in u})
    labelled = any(r.label for r in results)
    head = ["variant"] if labelled else []
    head += ["game", "seed", "winners", "no_winner", "team_win", "team_loss", "turn_limit",
            "turns", "decisions"]
    head += [f"metric:{m}" for m in metrics]
    head += [f"uses:P{s}:{a}" for s in range(players) for a in actions]
    rows = []
    for r in results:
        for rec in r.records:
            row: list[object] = [r.label] if labelled else []
            row += [rec.index, rec.seed, ";".join(map(str, rec.winners)),
                   int(not rec.winners), int(rec.team_win(r.players)), int(rec.all_lost),
                   int(rec.limit),
                   rec.turns, rec.decisions]
            row += [rec.metrics.get(m, "") for m in metrics]
            row += [rec.uses[s].get(a, 0) if s < len(rec.uses) else "" for s in range(players)
                    for a in actions]
            rows.append(row)
    return head, rows


def write_csv(path: str | Path, results: list[SimResult]) -> None:
    head, rows = csv_rows(results)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(map(printable, head))
    w.writerows([printable(c) if isinstance(c, str) else c for c in row] for row in rows)
    write_text(path, buf.getvalue())
