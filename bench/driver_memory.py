"""Driver memory: the peak resident memory of the process that runs `horde sim`, by games.

A long run (or one on a cluster) is limited by what its driver keeps. Each run here is a
fresh interpreter that runs `horde sim` in-process with its output thrown away, then reads
its own peak (VmHWM from /proc/self/status: `ru_maxrss` would count a forked parent's
peak); worker processes (`--jobs`) have their own memory and are not counted.

    python -m bench.driver_memory                       # 10^4 and 10^5 games, --jobs 2
    python -m bench.driver_memory --games 10000 --jobs 1 --tree ../horde-old   # an older tree
    python -m bench.driver_memory --csv                 # also writing the per-game CSV
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACK = "roll-them-bones"


# Run by `python -c` in the tree measured, so that nothing of this tree is imported there:
# argv is the pack, games, jobs and the CSV file (or -). The command's stdout is thrown away.
CHILD = """
import io, json, sys, time
from contextlib import redirect_stdout
from engine.cli.app import app
pack, games, jobs, csv = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
args = ["sim", pack, "-n", str(games), "--seed", "1", "--jobs", str(jobs), "--json"]
if csv != "-":
    args += ["--csv", csv]
start = time.perf_counter()
with redirect_stdout(io.StringIO()):
    try:
        app(args, standalone_mode=False)
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
seconds = time.perf_counter() - start
with open("/proc/self/status") as f:
    peak = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:"))
print(json.dumps({"games": games, "jobs": jobs, "vmhwm_kib": peak,
                  "seconds": round(seconds, 1)}), file=sys.stderr)
"""


def measure(games: int, jobs: int, tree: Path, csv: str | None) -> dict:
    """One fresh interpreter running `horde sim` from `tree`: its peak and time."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", CHILD, PACK, str(games), str(jobs), csv or "-"]
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    lines = [x for x in out.stderr.splitlines() if x.startswith("{")]
    if out.returncode != 0 or not lines:
        tail = out.stderr.strip().splitlines()
        return {"games": games, "jobs": jobs, "error": tail[-1] if tail else str(out.returncode)}
    return json.loads(lines[-1])


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.driver_memory",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tree", type=Path, default=ROOT, help="the horde tree to run")
    ap.add_argument("--csv", action="store_true", help="also write the per-game CSV")
    args = ap.parse_args(argv)
    print(f"{'games':>9} {'jobs':>4} {'driver VmHWM MiB':>17} {'seconds':>8}")
    for n in args.games:
        csv = str(Path("/tmp") / f"driver-memory-{os.getpid()}.csv") if args.csv else None
        r = measure(n, args.jobs, args.tree.resolve(), csv)
        if "error" in r:
            print(f"{n:>9,} {args.jobs:>4} error: {r['error']}")
        else:
            print(f"{n:>9,} {args.jobs:>4} {r['vmhwm_kib'] / 1024:>17.1f} {r['seconds']:>8}")
        if csv:
            Path(csv).unlink(missing_ok=True)


if __name__ == "__main__":
    main(sys.argv[1:])
