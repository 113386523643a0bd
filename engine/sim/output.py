"""Files the balance tools write: per-game CSV rows, and every file written atomically.

A file is written to a temporary name beside its target and moved over it with `os.replace`,
so an interrupted run never leaves half a CSV or half a PNG where the last good one was.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from engine.errors import HordeError
from engine.sim.result import SimResult


def write_atomic(path: str | Path, write: Callable[[str], None]) -> None:
    """Call `write(tmp_path)` to produce the file, then move it over `path`."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise HordeError(f"cannot write {path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=folder)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        raise HordeError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_text(path: str | Path, text: str) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    write_atomic(path, write)


def csv_rows(results: list[SimResult]) -> tuple[list[str], list[list]]:
    """One row per game (of every batch): its variant, seed, outcome, length, metrics and
    how often each seat chose each action."""
    players = max((r.players for r in results), default=0)
    metrics = sorted({m for r in results for m in r.metric_names})
    actions = sorted({a for r in results for rec in r.records for u in rec.uses for a in u})
    labelled = any(r.label for r in results)
    head = ["variant"] if labelled else []
    head += ["game", "seed", "winners", "no_winner", "team_win", "turn_limit",
            "turns", "decisions"]
    head += [f"metric:{m}" for m in metrics]
    head += [f"uses:P{s}:{a}" for s in range(players) for a in actions]
    rows = []
    for r in results:
        for rec in r.records:
            row = [r.label] if labelled else []
            row += [rec.index, rec.seed, ";".join(map(str, rec.winners)),
                   int(not rec.winners), int(rec.team_win(r.players)), int(rec.limit),
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
    w.writerow(head)
    w.writerows(rows)
    write_text(path, buf.getvalue())
