"""`horde scenario`: run scenario files (rules as tests) and say which rules hold."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from engine.cli.common import AllErrorsOpt, out, yaml_files
from engine.errors import HordeError


def scenario(
    paths: Annotated[list[Path], typer.Argument(
        metavar="FILE_OR_DIR...", help="Scenario files, or folders of them.")],
    all_errors: AllErrorsOpt = False,
) -> None:
    """Run scenario files; print ✓/✗ for each scenario with its rule ids."""
    from engine.pack.confine import links_out
    from engine.scenario import run_file

    console = out()
    files = [(f, p) for p in paths for f in yaml_files([p])]
    if not files:
        raise HordeError(f"no scenario files in {', '.join(map(str, paths))}")
    passed = failed = 0
    for f, named in files:
        try:
            if named.is_dir() and links_out(f, named):  # found in a folder, but elsewhere
                raise HordeError(f"{f} leads outside {named}; not read")
            results = run_file(f)
        except HordeError as exc:
            failed += 1
            console.print(Text(f"✗ {f}: cannot run", style="red"))
            console.print(Text(str(exc)))
            continue
        for r in results:
            rules = f" [{', '.join(r.rules)}]" if r.rules else ""
            if r.ok:
                passed += 1
                console.print(Text(f"✓ {r.name}{rules}", style="green"))
            else:
                failed += 1
                console.print(Text(f"✗ {r.name}{rules}  ({r.file})", style="red"))
                console.print(Text("    " + r.message.replace("\n", "\n    ")))
    summary = f"{passed} passed, {failed} failed"
    console.print(Text(summary, style="bold red" if failed else "bold green"))
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("scenario")(scenario)
