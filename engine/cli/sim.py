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

from engine.cli.common import (
    AllErrorsOpt,
    ClusterOpt,
    HouseOpt,
    JsonOpt,
    ModeOpt,
    PackArg,
    SetOpt,
    cluster_of,
    err,
    load_game,
    out,
    seats,
    whole,
)
from engine.errors import HordeError

PlayersOpt = Annotated[str | None, typer.Option(
    "--players", "-p", metavar="SEATS",
    help="The seats, as in `horde play`: a number of players (default: the pack's "
         "default), or the bot at each seat, e.g. greedy,random.")]
BotsOpt = Annotated[str | None, typer.Option(
    "--bots", "-b", metavar="BOTS",
    help="Bots by seat, comma-separated (random, greedy, policy:NAME, mcts:200, mcts:0.5s, "
         "search, search:400, search:iters=100:horizon=4, search:1s); "
         "the list cycles over the seats. Default: random.")]
GamesOpt = Annotated[int, typer.Option("-n", "--games", parser=whole(1), help="Games to play.")]
BatchSeedOpt = Annotated[int, typer.Option("--seed", "-s", parser=whole(), help="Master seed of the batch.")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", parser=whole(0), help="Worker processes (0: one per core; more than the cores only "
                                "with --force-jobs). Results do not depend on it.")]
ForceJobsOpt = Annotated[bool, typer.Option(
    "--force-jobs", help="Start as many worker processes as --jobs says, even more than the "
                         "cores horde may use.")]
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


def jobs_count(jobs: int, force: bool = False) -> int:
    """The worker processes to start for `--jobs`: at most one per core this process may use
    (more only slow a run down: they take turns on the same cores, each with its own copy of
    the pack), unless forced; never more than MAX_JOBS."""
    from engine.sim.parallel import MAX_JOBS, usable_cores
    cores = usable_cores()
    if jobs == 0:
        return cores
    if jobs > MAX_JOBS:
        raise HordeError(f"--jobs {jobs} is more than {MAX_JOBS} worker processes",
                         hint=f"this machine lets horde use {cores} cores: --jobs 0 uses them all")
    if jobs > cores and not force:
        err().print(Text(f"--jobs {jobs}: horde may use {cores} core{'s' if cores > 1 else ''} "
                         f"here, so it starts {cores} worker process{'es' if cores > 1 else ''} "
                         f"(--force-jobs starts {jobs})", style="yellow"))
        return cores
    return jobs


def interrupted_note(results) -> None:
    """Say that Ctrl-C cut the run short; the caller prints what there is, then exits 130."""
    played = sum(r.games for r in results)
    asked = sum(r.requested for r in results)
    err().print(Text(f"Interrupted: reporting the {played} of {asked} games that finished.",
                     style="yellow"))


def finish(results) -> None:
    if any(r.interrupted for r in results):
        raise typer.Exit(130)


def warn_bots(game, specs: list[str], base) -> None:
    """Say (on stderr) which of `game`'s actions that `base` has not a seat's policy bot
    never plays: its games would measure nothing of them (engine.pack.lint)."""
    from engine.pack.lint import bot_warnings
    for w in bot_warnings(game, specs, base):
        err().print(Text("warning: " + w.format(), style="yellow"))


def seat_bots(players: str | None, bots: str | None) -> tuple[int | None, list[str]]:
    """--players and --bots as the number of seats and the bots that cycle over them."""
    count, specs = seats(players, bots)
    return count, specs or ["random"]


def sim(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    games: GamesOpt = 100,
    seed: BatchSeedOpt = 0,
    jobs: JobsOpt = 1,
    force_jobs: ForceJobsOpt = False,
    cluster: ClusterOpt = None,
    as_json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Play many games with bots: win rates with 95% intervals, draws, game lengths, how
    often each action was chosen, the pack's metrics and balance measures."""
    from engine.sim import simulate
    from engine.sim.measures import report
    from engine.sim.parallel import check_games

    check_games(games, records=bool(csv_file))
    count, specs = seat_bots(players, bots)
    ray = cluster_of(cluster, jobs)
    workers = jobs_count(jobs, force_jobs)
    game = load_game(pack, mode, house, set_)
    if mode or house:  # the variant's new actions that a seat's policy never plays
        warn_bots(game, specs, load_game(pack, None, None, set_))
    with progress_bar(games) as progress:
        result = simulate(game, count, specs, games, seed, progress=progress,
                          jobs=workers, cluster=ray, records=bool(csv_file))
    if result.interrupted:
        interrupted_note([result])
    rep = report(result)
    from engine.coverage.report import actions_chosen, actions_line
    rep["coverage"] = actions_chosen(game, result)
    if csv_file:
        from engine.sim.output import write_csv
        write_csv(csv_file, [result])
    if plot:
        from engine.sim.plots import sim_plot
        sim_plot(rep, result.tally.turns, plot,
                 f"{game.title}: {result.games} games, {seating(result.bots)}")
    console = wide(out())
    if as_json:
        console.file.write(json.dumps(rep, sort_keys=True) + "\n")
    else:
        from engine.sim.report import sim_report
        console.print(sim_report(rep, result))
        console.print(Text(actions_line(rep["coverage"])))
        for path in (csv_file, plot):
            if path:
                console.print(Text(f"wrote {path}", style="dim"))
    finish([result])


def register(app: typer.Typer) -> None:
    app.command("sim")(sim)
