"""Parse time: every effect-language snippet of the bundled packs, read in a fresh process.

A pack's load parses a few hundred snippets; in a new process the parser must first be
made (its LALR tables loaded, or built). This measures, in fresh processes, the CPU time
to make the parser (`parser_ms`) and to read every distinct snippet of every bundled pack,
mode and house rule once (`parse_ms`, parser made included), so that two trees can be
compared: `python -m bench.parse --tree ../horde-old` runs the same measure on another
checkout (its own engine, this file).

    python -m bench.parse                  # this tree, 5 fresh processes, as JSON lines
    python -m bench.parse --tree DIR -r 9  # another tree, 9 processes
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def snippets() -> list[str]:
    """Every distinct text the bundled packs hand to `parse_program` (expressions stripped)."""
    import engine
    from engine.dsl import parser
    from engine.pack.loader import list_packs

    seen: dict[str, None] = {}
    real_program, real_expr = parser.parse_program, parser.parse_expr

    def program(text):
        seen.setdefault(text)
        return real_program(text)

    def expr(text):
        seen.setdefault(text.strip())
        return real_expr(text)

    swapped = []
    for mod in list(sys.modules.values()):  # the loader's modules import the functions by name
        for name, real, fake in (("parse_program", real_program, program), ("parse_expr", real_expr, expr)):
            if getattr(mod, name, None) is real:
                setattr(mod, name, fake)
                swapped.append((mod, name, real))
    try:
        for info in list_packs():
            for mode in [None, *info.modes]:
                engine.load(info.id, mode=mode)
            for house in info.house:
                engine.load(info.id, house=[house])
    finally:
        for mod, name, real in swapped:
            setattr(mod, name, real)
    return list(seen)


def child() -> None:
    texts = snippets()
    from engine.dsl import parser

    parser.parse_program.cache_clear()
    parser.parse_expr.cache_clear()
    if hasattr(parser._parser, "cache_clear"):
        parser._parser.cache_clear()
    clock = time.process_time
    t0 = clock()
    if not hasattr(parser, "_quick_reader_fits"):  # every snippet goes to Lark: made first
        parser._parser()
    t1 = clock()
    for text in texts:
        parser.parse_program(text)
    t2 = clock()
    print(json.dumps({"snippets": len(texts), "parser_ms": (t1 - t0) * 1e3, "parse_ms": (t2 - t0) * 1e3}))


def measure(tree: Path, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--child"], cwd=tree, env=env, capture_output=True,
                             text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    keys = ("parser_ms", "parse_ms")
    return {"tree": str(tree), "snippets": runs[0]["snippets"], "runs": repeat,
            **{f"{k}_median": round(statistics.median(r[k] for r in runs), 1) for k in keys},
            **{f"{k}_min": round(min(r[k] for r in runs), 1) for k in keys}}


def main(argv: list[str]) -> None:
    if argv == ["--child"]:
        child()
        return
    ap = argparse.ArgumentParser(prog="python -m bench.parse", description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose engine is measured")
    ap.add_argument("-r", "--repeat", type=int, default=5, help="fresh processes (default 5)")
    args = ap.parse_args(argv)
    print(json.dumps(measure(args.tree.resolve(), args.repeat)))


if __name__ == "__main__":
    main(sys.argv[1:])
