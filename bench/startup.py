"""Start-up of `horde play`: from the command to the first decision on the screen.

A person types `horde play PACK` and waits for the first choices to be drawn; that wait is
the interpreter, the imports, the pack's load and compile, the first state and (in a
terminal) the full-screen table's first frame. This bench spawns the command in an 80x24
pseudo-terminal, reads the screen back through a terminal emulator (pyte) and stops the
clock when the first decision's prompt ("your choice") is on it. With `--tree OLD` it runs
the same command on an older checkout too, alternating old and new each round so that the
shared machine's drift falls on both; it prints the median wall time and the child's CPU
time (user + system, from wait4) per pack and tree.

    python -m bench.startup                              # every pack, this tree, 5 rounds
    python -m bench.startup --tree /tmp/old-tree --rounds 7
    python -m bench.startup --packs defcon-z --plain     # line-by-line play (--plain)
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import select
import signal
import statistics
import struct
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS, COLS = 24, 80
READY = "your choice"


def once(tree: Path, pack: str, plain: bool, timeout: float = 120.0) -> dict:
    """One start of `horde play PACK` from `tree` in a fresh pty: wall and CPU seconds."""
    import pyte

    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    plain = plain and "--plain" in (tree / "engine" / "cli" / "play.py").read_text()
    argv = [sys.executable, "-c", "from engine.cli.app import main; main()", "play", pack,
            "--players", "human,random", "--seed", "1", *(["--plain"] if plain else [])]
    env = {**os.environ, "PYTHONPATH": str(tree), "TERM": "xterm-256color",
           "COLUMNS": str(COLS), "LINES": str(ROWS),
           "HORDE_DATA_DIR": os.environ.get("HORDE_DATA_DIR", "/tmp/bench-startup-data")}
    env.pop("TEXTUAL_DRIVER", None)
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal 80x24, then the command
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        os.chdir(tree)
        os.execve(argv[0], argv, env)
    seen = False
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.01)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                stream.feed(data)
                if READY in "\n".join(screen.display):
                    seen = True
                    break
        wall = time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        _, _, usage = os.wait4(pid, 0)
        os.close(fd)
    if not seen:
        return {"error": "the first decision never came on screen:\n" + "\n".join(screen.display)}
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.startup",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--packs", nargs="*", metavar="PACK",
                    default=["roll-them-bones", "theyre-coming", "defcon-z"])
    ap.add_argument("--tree", type=Path, help="an older checkout to compare with, paired")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--plain", action="store_true",
                    help="play line by line (--plain, on the trees that have it; older ones "
                         "always play so)")
    ap.add_argument("--json", metavar="OUT.json", help="write every measurement as JSON")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    trees = {"new": ROOT} if args.tree is None else {"old": args.tree.resolve(), "new": ROOT}
    runs: dict[str, dict[str, list[dict]]] = {}
    for pack in args.packs:
        runs[pack] = {name: [] for name in trees}
        for k in range(args.rounds):
            order = list(trees.items()) if k % 2 == 0 else list(trees.items())[::-1]
            for name, tree in order:
                r = once(tree, pack, args.plain)
                if "error" in r:
                    print(f"{pack} ({name}): {r['error']}", file=sys.stderr)
                    return 1
                runs[pack][name].append(r)
        line = f"{pack:18}"
        for name in trees:
            wall = statistics.median(r["wall_s"] for r in runs[pack][name]) * 1e3
            cpu = statistics.median(r["cpu_s"] for r in runs[pack][name]) * 1e3
            line += f"  {name}: {wall:6.0f} ms wall {cpu:6.0f} ms cpu"
        if len(trees) == 2:
            old = statistics.median(r["wall_s"] for r in runs[pack]["old"])
            new = statistics.median(r["wall_s"] for r in runs[pack]["new"])
            line += f"  new/old {new / old:4.2f}"
        print(line, flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"trees": {k: str(v) for k, v in trees.items()}, "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
