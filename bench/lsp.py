"""How long `horde lsp` works on each request, on every file of the bundled packs.

The language server answers hover, completion, definition, references, the outline and
code actions from the last check of a file; a check (diagnostics) runs in the background
after a pause in typing. This times, in one process, the check of every pack file, mode
and house rule (`diagnostics`, the file opened as the editor holds it), then each request
kind at every name written in the file (`hover`, `definition`, `references`) or at every
line (`completion`, at each line's end), the outline once per file, and the code action
of a slip typed in each file with an `at:` (its check is `slip diagnostics`). Also the
check of a 10 MB buffer and of a deeply nested one. Median and worst, in milliseconds.

    python -m bench.lsp            # a table
    python -m bench.lsp --json     # the same as JSON
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import defaultdict
from pathlib import Path


def _time(fn, *args) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - start) * 1000, out


def files() -> list[Path]:
    from engine.pack.loader import list_packs
    out = []
    for info in list_packs():
        folder = info.path
        out += [folder / "pack.yaml", *sorted((folder / "modes").glob("*.yaml")),
                *sorted((folder / "house").glob("*.yaml"))]
    return out


def measure() -> dict[str, dict[str, float]]:
    from lsprotocol import types as lsp

    from engine.lsp import diagnostics as diag
    from engine.lsp import features
    from engine.lsp.analysis import analyse
    times: dict[str, list[float]] = defaultdict(list)
    for path in files():
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        ms, a = _time(analyse, path, text)
        times["diagnostics"].append(ms)
        for row, line in enumerate(lines):
            times["completion"].append(_time(features.completion, a, lines, row, len(line))[0])
            for m in re.finditer(r"[a-z][a-z0-9_-]+", line):
                if m.group() in a.names.by_name:
                    times["hover"].append(_time(features.hover, a, lines, row, m.start())[0])
                    times["definition"].append(_time(features.definition, a, lines, row, m.start(), path)[0])
                    times["references"].append(_time(features.references, a, lines, row, m.start(), path)[0])
        times["symbols"].append(_time(features.symbols, a, lines)[0])
        slip = re.search(r"\bat: ([a-z_]+[a-z])\b", text)
        if slip:
            typed = text[:slip.end(1) - 1] + text[slip.end(1):]
            ms, b = _time(analyse, path, typed)
            times["slip diagnostics"].append(ms)
            tlines = typed.split("\n")
            found = [diag.diagnostic(p, b.path, tlines, lsp.DiagnosticSeverity.Error) for p in b.problems]
            ms, fixes = _time(diag.code_actions, path.as_uri(), tlines, found)
            assert fixes, f"no fix offered for the slip in {path}"
            times["code action"].append(ms)
    big = files()[0]
    for name, text in (("10 MB buffer", "x" * (10 * 1024 * 1024)),
                       ("nested buffer", "a: " + "[" * 100_000 + "]" * 100_000)):
        times[name].append(_time(analyse, big, text)[0])
    return {k: {"n": len(v), "median_ms": round(statistics.median(v), 3), "max_ms": round(max(v), 3)}
            for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    found = measure()
    if args.json:
        print(json.dumps(found, indent=1))
        return
    print(f"{'request':<18} {'n':>6} {'median ms':>10} {'max ms':>10}")
    for name, row in found.items():
        print(f"{name:<18} {row['n']:>6} {row['median_ms']:>10.2f} {row['max_ms']:>10.2f}")


if __name__ == "__main__":
    main()
