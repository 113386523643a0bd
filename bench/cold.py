"""Cold start: import, load and compile a pack in a fresh Python process.

A warm process has the grammar's parser tables built and every module imported; a person
typing `horde play` pays all of that. So the harness runs this module in subprocesses
(`python -m bench.cold PACK [MODE]` does the same and prints the result as one JSON line).

Loading keeps nothing between processes, so every start is a first start.
`import_ms`, `load_ms` and `first_state_ms` are milliseconds to import the engine, to load
the pack and to make the first state; `maxrss_kib` the process's peak resident memory by then.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peak_rss_kib() -> int:
    """This process's peak resident memory. `ru_maxrss` survives `exec` on Linux (a child
    starts with its parent's peak), so the kernel's per-process VmHWM is read first."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def child(argv: list[str]) -> None:
    """One cold start in this process."""
    pack = argv[0]
    mode = argv[1] if len(argv) > 1 and argv[1] != "-" else None
    clock = time.process_time  # CPU time: the machine is shared (see bench.play)
    t0 = clock()
    import engine

    t1 = clock()
    game = engine.load(pack, mode=mode)
    t2 = clock()
    game.new_state(seed=0)
    t3 = clock()
    rss = peak_rss_kib()
    print(json.dumps({"import_ms": (t1 - t0) * 1e3, "load_ms": (t2 - t1) * 1e3,
                      "first_state_ms": (t3 - t2) * 1e3, "maxrss_kib": rss}))


def measure(pack: str, mode: str | None, timeout: float = 120.0) -> dict:
    """One fresh interpreter's start: its numbers, or an `error`."""
    cmd = [sys.executable, "-m", "bench.cold", "--child", pack, mode or "-"]
    try:
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                             check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {out.returncode}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--child":
        child(argv[1:])
        return
    if not argv:
        sys.exit("usage: python -m bench.cold PACK [MODE]")
    print(json.dumps(measure(argv[0], argv[1] if len(argv) > 1 and argv[1] != "-" else None)))


if __name__ == "__main__":
    main(sys.argv[1:])
