"""`horde sim`: many games with bots, reported as win rates with intervals, draws, lengths,
action use, the pack's metrics and balance measures.

The options and helpers the three balance commands share (`sim`, `compare`, `sweep`) live
here too: bots per seat, worker processes, the progress bar, and what to do on Ctrl-C
(stop, then still print and write what was played, and exit 130).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from engine.cli.common import HouseOpt, JsonOpt, ModeOpt, PackArg, SetOpt, err, load_game, out

PlayersOpt = Annotated[int | None, typer.Option(
    "--players", "-p", help="Number of players (default: the pack's default).")]
BotsOpt = Annotated[str, typer.Option(
    "--bots", "-b", metavar="BOTS",
    help="Bots by seat, comma-separated (random, greedy, policy:NAME, mcts:200, mcts:0.5s); "
         "the list cycles over the seats.")]
GamesOpt = Annotated[int, typer.Option("-n", "--games", min=1, help="Games to play.")]
BatchSeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Master seed of the batch.")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, help="Worker processes (0: one per core). Results do not depend on it.")]
CsvOpt = Annotated[str | None, typer.Option(
    "--csv", metavar="FILE", help="Write one CSV row per game to FILE.")]
PlotOpt = Annotated[str | None, typer.Option(
    "--plot", metavar="FILE.png", help="Draw the results to an image (needs matplotlib: pip install horde\\[plot]).")]


class RateColumn(ProgressColumn):
    """Games per second, as measured by the progress bar."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "… games/s", style="cyan")


@contextmanager
def progress_bar(total: int, what: str = "simulating") -> Iterator[Callable | None]:
    """A progress callback drawing a bar on stderr, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=err(), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def wide(console, width: int = 120):
    """Wide tables stay whole when the output goes to a file or a pipe (Rich assumes 80
    columns there); a terminal keeps its own width."""
    if not console.is_terminal:
        console.width = max(console.width, width)
    return console


def seating(specs: list[str]) -> str:
    """`['random', 'random']` -> '2 random bots'; mixed seats are listed in seat order."""
    if len(set(specs)) == 1:
        return f"{len(specs)} {specs[0]} bot{'s' if len(specs) > 1 else ''}"
    return ", ".join(specs)


def jobs_count(jobs: int) -> int:
    from engine.sim.parallel import default_jobs
    return default_jobs() if jobs == 0 else jobs


def interrupted_note(results) -> None:
    """Say that Ctrl-C cut the run short; the caller prints what there is, then exits 130."""
    played = sum(r.games for r in results)
    asked = sum(r.requested for r in results)
    err().print(Text(f"Interrupted: reporting the {played} of {asked} games that finished.",
                     style="yellow"))


def finish(results) -> None:
    if any(r.interrupted for r in results):
        raise typer.Exit(130)


def sim(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = "random",
    games: GamesOpt = 100,
    seed: BatchSeedOpt = 0,
    jobs: JobsOpt = 1,
    as_json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
) -> None:
    """Play many games with bots: win rates with 95% intervals, draws, game lengths, how
    often each action was chosen, the pack's metrics and balance measures."""
    from engine.sim import simulate
    from engine.sim.measures import report

    game = load_game(pack, mode, house, set_)
    with progress_bar(games) as progress:
        result = simulate(game, players, bots.split(","), games, seed, progress=progress,
                          jobs=jobs_count(jobs))
    if result.interrupted:
        interrupted_note([result])
    rep = report(result)
    if csv_file:
        from engine.sim.output import write_csv
        write_csv(csv_file, [result])
    if plot:
        from engine.sim.plots import sim_plot
        sim_plot(rep, [r.turns for r in result.records], plot,
                 f"{game.title}: {result.games} games, {seating(result.bots)}")
    console = wide(out())
    if as_json:
        console.file.write(json.dumps(rep, sort_keys=True) + "\n")
    else:
        from engine.sim.report import sim_report
        console.print(sim_report(rep, result))
        for path in (csv_file, plot):
            if path:
                console.print(Text(f"wrote {path}", style="dim"))
    finish([result])


def register(app: typer.Typer) -> None:
    app.command("sim")(sim)
