"""`horde sweep`: play every combination of param values and find the ones that fit a target.

    horde sweep PACK --param goal=10:24:2 --param lives=2:5 -n 500 \\
        --target "win_rate=0.3" --plot out.png

Prints one row per combination (seat win rates, no winner, turns, balance, the target's
measure with its interval), marks the three closest to the target with ★, and draws a
heatmap for two params or a line with its interval for one.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from engine.api import load
from engine.cli.common import (
    AllErrorsOpt,
    ClusterOpt,
    HouseOpt,
    JsonOpt,
    ModeOpt,
    PackArg,
    SetOpt,
    cluster_of,
    out,
    parse_sets,
    whole,
)
from engine.cli.sim import (
    BatchSeedOpt,
    BotsOpt,
    CsvOpt,
    ForceJobsOpt,
    JobsOpt,
    PlayersOpt,
    PlotOpt,
    finish,
    interrupted_note,
    jobs_count,
    progress_bar,
    seat_bots,
    seating,
    wide,
)
from engine.errors import HordeError

ParamOpt = Annotated[list[str], typer.Option(
    "--param", metavar="NAME=LO:HI[:STEP]",
    help="A param and its values: LO:HI[:STEP] (ends included) or A,B,C. Repeatable.")]
TargetOpt = Annotated[str | None, typer.Option(
    "--target", metavar="MEASURE=VALUE",
    help="Rank combinations by closeness: win_rate[:SEAT], no_winner, turns, balance, "
         "completion, decisions, team_win, timeouts, metric:NAME (e.g. win_rate=0.5).")]
MeasureOpt = Annotated[str | None, typer.Option(
    "--measure", help="The measure the table highlights and the plot shows "
                      "(default: the target's, else win_rate).")]


def _pct(e: dict) -> str:
    return f"{100 * e['value']:.0f}%"


def _value(e: dict, rate: bool) -> str:
    if rate:
        return f"{100 * e['value']:.1f} ± {50 * (e['hi'] - e['lo']):.1f}%"
    return f"{e['value']:.2f} ± {(e['hi'] - e['lo']) / 2:.2f}"


def table(sw: dict) -> Table:
    names = [p["name"] for p in sw["params"]]
    target = sw["target"]
    lost = any(c["team_loss"]["value"] for c in sw["cells"])
    title = f"{len(sw['cells'])} combinations, {sw['cells'][0]['games']} games each, " \
            f"{sw['players']} players ({', '.join(sw['bots'])}), seed {sw['seed']}"
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title, title_justify="left",
              caption=f"P0..P{sw['players'] - 1}: seat win rates; none: no winner"
                      f"{'; lost: team loss (every seat lost)' if lost else ''}; "
                      f"last column: {sw['measure_label']} with its 95% interval",
              caption_justify="left")
    for name in names:
        t.add_column(name, justify="right", no_wrap=True)
    for s in range(sw["players"]):
        t.add_column(f"P{s}", justify="right", no_wrap=True)
    for name in ("none", *(("lost",) if lost else ()), "turns", "balance"):
        t.add_column(name, justify="right", no_wrap=True)
    t.add_column(sw["measure_label"], justify="right", style="bold", no_wrap=True)
    if target is not None:
        t.add_column("", justify="left", no_wrap=True)
    for c in sw["cells"]:
        row = [str(c["params"][n]) for n in names]
        row += [_pct(w) for w in c["win_rates"]]
        row += [_pct(c["no_winner"]), *([_pct(c["team_loss"])] if lost else []),
                f"{c['turns']['value']:.1f}", f"{c['balance']:.2f}",
                _value(c["measure"], sw["rate"])]
        if target is not None:
            row.append("★" if c["rank"] < 3 else "")
        t.add_row(*row, style="bold yellow" if c["rank"] is not None and c["rank"] < 3 else None)
    return t


def closest_line(sw: dict) -> Text:
    rate = sw["rate"]
    target = f"{100 * sw['target']:g}%" if rate else f"{sw['target']:g}"
    best = sorted((c for c in sw["cells"]), key=lambda c: c["rank"])[:3]
    parts = [f"{c['label']} ({_value(c['measure'], rate)})" for c in best]
    return Text(f"Closest to {sw['measure_label']} = {target}: " + "; ".join(parts))


def sweep(
    pack: PackArg,
    param: ParamOpt,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    games: Annotated[int, typer.Option("-n", "--games", parser=whole(1),
                                       help="Games per combination.")] = 200,
    seed: BatchSeedOpt = 0,
    jobs: JobsOpt = 1,
    force_jobs: ForceJobsOpt = False,
    cluster: ClusterOpt = None,
    target: TargetOpt = None,
    measure: MeasureOpt = None,
    as_json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Play every combination of param values on the same seeds; show a table, the
    combinations closest to a target, and a heatmap (two params) or a line (one)."""
    from engine.sim.parallel import Batch, check_games, run_batches
    from engine.sim.sweep import combinations, label_of, parse_param, parse_target
    from engine.sim.sweep import sweep as sweep_results

    ranges = [parse_param(p) for p in param]
    if plot and len(ranges) > 2:
        raise HordeError(f"a sweep plot shows one or two params, not {len(ranges)}",
                         hint="sweep fewer params, or leave out --plot")
    goal = parse_target(target) if target else None
    shown = measure or (goal[0] if goal else "win_rate")
    combos = combinations(ranges)
    check_games(games * len(combos), records=bool(csv_file))
    count, specs = seat_bots(players, bots)
    ray = cluster_of(cluster, jobs)
    workers = jobs_count(jobs, force_jobs)
    fixed = parse_sets(set_)
    batches = []
    for params in combos:
        game = load(pack, mode=mode, house=list(house or []),
                    params={**fixed, **{k: str(v).lower() if isinstance(v, bool) else str(v)
                                        for k, v in params.items()}})
        batches.append(Batch.of(game, count, specs, games, seed,
                                label=label_of(params), records=bool(csv_file)))
    from engine.sim.measures import parse_measure
    from engine.sim.result import SimResult
    probe = SimResult("", None, {}, batches[0].players, batches[0].specs, seed,
                      metric_names=[str(k) for k in (batches[0].game.metrics or {})])
    parse_measure(shown, probe)  # a typo in the measure is reported before any game is played
    with progress_bar(games * len(batches), "sweeping") as progress:
        results = run_batches(batches, jobs=workers, progress=progress, cluster=ray)
    if any(r.interrupted for r in results):
        interrupted_note(results)
    sw = sweep_results(ranges, combos, results, shown, goal[1] if goal else None)
    if csv_file:
        from engine.sim.output import write_csv
        write_csv(csv_file, results)
    if plot:
        from engine.sim.plots import sweep_plot
        sweep_plot(sw, plot, f"{batches[0].game.title}: {sw['measure_label']} — {games} games "
                             f"per cell, {seating(batches[0].specs)}")
    console = wide(out())
    if as_json:
        console.file.write(json.dumps(sw, sort_keys=True) + "\n")
    else:
        console.print(table(sw))
        if goal:
            console.print(closest_line(sw))
        for path in (csv_file, plot):
            if path:
                console.print(Text(f"wrote {path}", style="dim"))
    finish(results)


def register(app: typer.Typer) -> None:
    app.command("sweep")(sweep)
