"""`horde check`: property-test a pack's laws with Hypothesis; shrink what breaks them.

The command is thin: `engine.check` plays and shrinks, `engine.check.report` words the
outcome and writes the reproduction. Exit 0 when no law broke, 1 when one did (with a
scenario file that fails the same way). Ctrl-C reports what was played so far, then exits 130 (or 1
with a law broken by then, shrunk as far as it got).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from engine.cli.common import (
    AllErrorsOpt,
    ClusterOpt,
    HouseOpt,
    ModeOpt,
    PackArg,
    SetOpt,
    cluster_of,
    decimal,
    err,
    load_game,
    out,
    parse_sets,
    whole,
)


def _title(pack: str, mode: str | None, house: list[str]) -> str:
    return pack + (f" --mode {mode}" if mode else "") + "".join(f" --house {h}" for h in house)


def _default_out(game) -> Path:
    return Path(f"horde-check-{game.pack_id}" + (f"-{game.mode}" if game.mode else "") + ".yaml")


def _warn_unused_database(db: Path | None) -> None:
    """Say so when the example database cannot be used: known failures are then neither
    retried nor kept, and the user may want to move the link or folder out of the way."""
    from engine.check.database import database_at
    from engine.errors import printable
    from engine.resources import cache_problem

    problem = cache_problem() if db is None else database_at(db).problem()
    if problem:
        err().print(Text(f"warning: not using the example database: {printable(problem)}; known "
                         "failures are neither retried nor kept (remove it, or set "
                         "HORDE_NO_CACHE=1)", style="yellow"), soft_wrap=True)


def check(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", parser=whole(1),
        help="Number of players (default: every count the pack allows).")] = None,
    examples: Annotated[int, typer.Option(
        "--examples", "-n", parser=whole(1),
        help="Games to generate (shrinking a failure plays more).")] = 100,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", parser=whole(), help="Seed Hypothesis with this, for a repeatable run (which "
        "neither reads nor writes the database of known failures).")] = None,
    max_steps: Annotated[int, typer.Option(
        "--max-steps", parser=whole(1),
        help="Decisions a game may take before it counts as endless.")] = 5000,
    time_limit: Annotated[float | None, typer.Option(
        "--time", "-t", metavar="SECONDS", parser=decimal(0),
        help="Stop after about this long: games are played in rounds sized to the time "
        "left (a failure found is still shrunk).")] = None,
    scenario_out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="FILE",
        help="Where to write the reproducing scenario (default: ./horde-check-PACK.yaml).")] = None,
    cluster: ClusterOpt = None,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Play many games chosen by Hypothesis, checking every law after every decision;
    shrink a failure to the smallest game and write it as a scenario."""
    from engine.check import database_path, run_check
    from engine.check.report import failure_lines, law_lines, summary_line, write_scenario

    house = list(house or [])
    ray = cluster_of(cluster)
    game = load_game(pack, mode, house, set_)
    title = _title(pack, mode, house)
    params = {k: game.params[k] for k in parse_sets(set_)}
    db = database_path(pack, mode, house, sorted(params.items()), players, max_steps)
    if seed is None and ray is None:
        _warn_unused_database(db)

    def run(progress=None):
        options: dict = {"players": players, "max_steps": max_steps, "time_limit": time_limit}
        if ray is not None:  # independent runs on the workers, without the local database
            return ray.check(game, examples=examples, seed=seed, progress=progress, **options)
        return run_check(game, examples=examples, seed=seed, database=db, progress=progress,
                         **options)

    if sys.stderr.isatty():
        columns = (TextColumn("[bold]checking[/] {task.description}"), BarColumn(),
                   MofNCompleteColumn(), TextColumn("{task.fields[note]}"), TimeElapsedColumn())
        with Progress(*columns, console=err(), transient=True) as bar:
            task = bar.add_task(escape(title), total=examples, note="")  # read as markup

            def progress(r):
                note = (f"law broken, shrinking: {r.failing_games} failing games, shortest "
                        f"{len(r.failure.steps)} decisions" if r.failure else
                        f"{r.steps:,} decisions")
                bar.update(task, completed=min(r.games, examples), note=note)

            result = run(progress)
    else:
        result = run()
    console = out()
    if result.failure is None and not result.interrupted:
        _check_bounds(game, title, players, examples, seed)
    if result.interrupted:
        err().print(Text(f"Interrupted: reporting the {result.games} of {examples} games "
                         "that were played.", style="yellow"))
    if result.failure is None:
        console.print(Text(f"✓ {title}: no law broken in {summary_line(result)}",
                           style="bold green"))
        console.print("  laws checked after every decision:")
        for line in law_lines(game, result.laws):
            console.print(Text(line), soft_wrap=True)
        if ray is None:  # the cluster's games are not seen here
            from engine.coverage.report import checked_line
            console.print(Text(f"  {checked_line(game, result.offered, result.chosen)}"))
        if result.interrupted:
            raise typer.Exit(130)
        return
    f = result.failure
    path = write_scenario(f, scenario_out or _default_out(game), pack=pack, mode=mode,
                          house=house, params=params)
    console.print(Text(f"✗ {title}: a law is broken ({summary_line(result)}; "
                       f"{result.failing_games} failing games while shrinking)", style="bold red"))
    for line in failure_lines(f):
        console.print(Text(line), soft_wrap=True)
    console.print(Text(f"  reproduction: {path}  (`horde scenario {path}` fails the same way)"),
                  soft_wrap=True)
    raise typer.Exit(1)


# Games played to check a pack's declared agent bounds (engine.agents.bounds), at most
BOUND_GAMES = 20


def _check_bounds(game, title: str, players: int | None, examples: int, seed: int | None) -> None:
    """Exit 1 naming each declared `agents:` bound a random game outgrew."""
    from engine.agents.bounds import bound_problems
    sizes = [players] if players else list(range(game.players_min, game.players_max + 1))
    problems = bound_problems(game, sizes, min(examples, BOUND_GAMES), seed or 0)
    if not problems:
        return
    console = out()
    console.print(Text(f"✗ {title}: a declared bound does not hold", style="bold red"))
    for line in problems:
        console.print(Text(f"  {line}"), soft_wrap=True)
    console.print(Text("  hint: raise the bound under agents: in the pack, or leave it out to "
                       "have it worked out"), soft_wrap=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("check")(check)
