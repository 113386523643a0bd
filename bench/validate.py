"""`python -m bench.validate`: the work `horde validate` does for each pack and mode.

Each load that validate makes (the base pack, the base with each mode, with each house
rule) is timed on its own in a warm process: load and compile, view, metrics, warnings
and the static checks. The figure is CPU seconds, the best of `--repeat` runs, so that
other work on the machine counts as little as possible. The goal: under 1 s each.

    python -m bench.validate                 # every bundled pack
    python -m bench.validate --repeat 5 roll-them-bones
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def workloads(packs: list[str]) -> list[tuple[str, Path, dict]]:
    """(label, pack file, load keywords) for each load validate makes of each pack."""
    out = []
    for folder in sorted((ROOT / "rulesets").iterdir()):
        pack = folder / "pack.yaml"
        if not pack.is_file() or packs and folder.name not in packs:
            continue
        out.append((folder.name, pack, {}))
        for m in sorted((folder / "modes").glob("*.yaml")):
            out.append((f"{folder.name} mode {m.stem}", pack, {"mode": m.stem}))
        for h in sorted((folder / "house").glob("*.yaml")):
            out.append((f"{folder.name} house {h.stem}", pack, {"house": [h]}))
    return out


def once(pack: Path, kw: dict) -> float:
    from engine.cli.validate import _load, _warn
    problems: list = []
    start = time.process_time()
    _warn(_load(pack, problems, **kw), [], kw["house"][0] if "house" in kw else None)
    took = time.process_time() - start
    if problems:
        raise SystemExit(f"{pack} {kw}: {problems[0].format()}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.validate", description=__doc__.splitlines()[0])
    ap.add_argument("packs", nargs="*", help="pack folder names (default: all)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    args = ap.parse_args()
    once(*workloads(args.packs)[0][1:])  # imports and the grammar's tables, paid once
    worst = 0.0
    for label, pack, kw in workloads(args.packs):
        best = min(once(pack, kw) for _ in range(max(1, args.repeat)))
        worst = max(worst, best)
        print(f"{label:45s} {best:6.3f} s")
    print(f"{'slowest':45s} {worst:6.3f} s")


if __name__ == "__main__":
    main()
