"""`python -m bench`: measure every pack and mode, print a table, optionally save and compare.

    python -m bench                              # all packs and modes, ~1.5 min in all
    python -m bench --packs roll-them-bones --seconds 5 --repeat 3
    python -m bench --json after.json --compare before.json
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console

from bench import harness, report


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    ap.add_argument("--packs", nargs="*", metavar="PACK",
                    help="packs (or pack/mode) to measure; default: every pack and mode")
    ap.add_argument("--seconds", type=float, default=None,
                    help="time budget of the game-playing measurement per workload (default: "
                         "up to 2, less when there are many workloads, so a run takes ~1.5 min)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run everything this many times and keep the best (default 1)")
    ap.add_argument("--no-cold", action="store_true",
                    help="skip the cold start measurement (a fresh process per workload)")
    ap.add_argument("--json", metavar="OUT.json", help="write the results as JSON")
    ap.add_argument("--compare", metavar="OLD.json", help="print speed-ups against an earlier run")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    console = Console()
    if not console.is_terminal:  # a log file or a pipe: do not squeeze the tables into 80 columns
        console = Console(width=160)
    old = None
    if args.compare:
        try:
            with open(args.compare) as f:
                old = json.load(f)
        except (OSError, ValueError) as exc:
            console.print(f"[red]cannot read {args.compare}: {exc}[/red]")
            return 1
    if args.repeat < 1 or (args.seconds is not None and args.seconds <= 0):
        console.print("[red]--repeat must be at least 1 and --seconds positive[/red]")
        return 1
    result = harness.run(args.packs, seconds=args.seconds, repeat=args.repeat,
                         with_cold=not args.no_cold,
                         progress=lambda what: console.print(f"[dim]measuring {what}[/dim]"))
    if not result["workloads"]:
        console.print("[red]no pack matches[/red] " + " ".join(args.packs or []))
        return 1
    report.show(result, console)
    console.print(f"[dim]{result['elapsed_s']:.0f} s in all[/dim]")
    if args.json:
        report.save(result, args.json)
    if old is not None:
        console.print(report.compare(result, old))
    return 0


if __name__ == "__main__":
    sys.exit(main())
