"""Cold start: import, load and compile a pack in a fresh Python process.

A warm process has the grammar's parser tables built and every module imported; a person
typing `horde play` pays all of that. So the harness runs this module in subprocesses
(`python -m bench.cold PACK [MODE]` does the same and prints the result as one JSON line).

Loading uses the user's cache (docs/cache.md), so there are two cold starts to tell apart,
each measured in its own process with its own cache folder (a fresh temporary one, never
the user's):
- `first_load_ms`: the cache is empty, as on the first start after installing or after a
  change to the grammar or the parser; this load also writes the cache.
- `load_ms`: the same pack again in a new process, with the cache the first one left.
`import_ms`, `first_state_ms` and `maxrss_kib` are the second process's: milliseconds to
import the engine and to make the first state, and its peak resident memory by then.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
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
    """One cold start in this process, with whatever cache the environment names."""
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
    """Two fresh interpreters sharing a new, empty cache folder: the first load fills it,
    the second uses it. The second's numbers plus `first_load_ms`, or an `error`."""
    folder = tempfile.mkdtemp(prefix="horde-bench-cache-")
    try:
        first = _run(pack, mode, folder, timeout)
        if "error" in first:
            return first
        got = _run(pack, mode, folder, timeout)
        if "error" not in got:
            got["first_load_ms"] = first["load_ms"]
        return got
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run(pack: str, mode: str | None, cache: str, timeout: float) -> dict:
    cmd = [sys.executable, "-m", "bench.cold", "--child", pack, mode or "-"]
    env = {k: v for k, v in os.environ.items() if k != "HORDE_NO_CACHE"}
    env["HORDE_CACHE_DIR"] = cache
    try:
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                             check=False, env=env)
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
