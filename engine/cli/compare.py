"""`horde compare`: rule variants of one pack side by side, on the same seeds.

    horde compare PACK base lives=4 easy -n 2000
    horde compare PACK --set lives=4 -n 4000 --seed 1    # base vs lives=4

Variant syntax: see `engine.sim.compare`. The report is a table of every measure per
variant with the difference to the first variant, its 95% interval and whether it is
significant, then one plain sentence per variant.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from engine.cli.common import AllErrorsOpt, ClusterOpt, JsonOpt, PackArg, SetOpt, cluster_of, out, parse_sets
from engine.cli.sim import (
    BatchSeedOpt,
    BotsOpt,
    CsvOpt,
    ForceJobsOpt,
    GamesOpt,
    JobsOpt,
    PlayersOpt,
    PlotOpt,
    finish,
    interrupted_note,
    jobs_count,
    progress_bar,
    seat_bots,
    seating,
    warn_bots,
    wide,
)
from engine.errors import HordeError

VariantsArg = Annotated[list[str] | None, typer.Argument(
    metavar="VARIANT...",
    help="base, mode:NAME, a house rule (file or name), NAME=VALUE[,NAME=VALUE], or parts "
         "joined by + (easy+lives=4). The first is the reference.")]


def _fmt(value: float, rate: bool) -> str:
    return f"{100 * value:.1f}%" if rate else f"{value:.2f}"


def _diff(d: dict | None, rate: bool) -> tuple[str, str, Text]:
    if d is None:
        return "—", "", Text("")
    k = 100 if rate else 1
    unit = " pts" if rate else ""
    sig = Text("yes", style="bold green") if d["significant"] else Text("no", style="dim")
    return (f"{k * d['value']:+.1f}{unit}", f"{k * d['lo']:+.1f} to {k * d['hi']:+.1f}", sig)


def table(cmp: dict) -> Table:
    variants = cmp["variants"]
    counts = sorted({v["games"] for v in variants})
    games = str(counts[0]) if len(counts) == 1 else "/".join(str(v["games"]) for v in variants)
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left",
              title=f"{games} games per variant, {cmp['players']} players "
                    f"({', '.join(cmp['bots'])}), seed {cmp['seed']}")
    t.add_column("Measure", no_wrap=True)
    t.add_column(variants[0]["label"], justify="right")
    for v in variants[1:]:
        t.add_column(v["label"], justify="right")
        t.add_column("difference", justify="right")
        t.add_column("95% interval", justify="right")
        t.add_column("sig.", justify="center")
    for row in cmp["rows"]:
        rate = row["rate"]
        cells: list = [row["label"], _fmt(row["values"][0]["value"], rate)]
        for j in range(1, len(variants)):
            cells.append(_fmt(row["values"][j]["value"], rate))
            cells.extend(_diff(row["diffs"][j - 1], rate))
        t.add_row(*cells)
    return t


def compare(
    pack: PackArg,
    variants: VariantsArg = None,
    set_: SetOpt = None,
    players: PlayersOpt = None,
    bots: BotsOpt = None,
    games: GamesOpt = 1000,
    seed: BatchSeedOpt = 0,
    jobs: JobsOpt = 1,
    force_jobs: ForceJobsOpt = False,
    cluster: ClusterOpt = None,
    as_json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Compare rule variants on the same seeds: win rates, draws and lengths side by side,
    each difference with its 95% interval, then one sentence per variant.

    `--set NAME=VALUE` adds the variant "these params" (and `base` before it when no
    variant is named): `horde compare PACK --set lives=4` compares base with lives=4."""
    from engine.sim.compare import compare as compare_results
    from engine.sim.compare import load_variant, parse_variant, sets_variant
    from engine.sim.parallel import Batch, check_games, run_batches

    names = list(variants or [])
    sets = parse_sets(set_)
    if sets:
        names = (names or ["base"]) + [sets_variant(sets)]
    if len(names) < 2:
        raise HordeError("name at least two variants to compare (or one with --set)",
                         hint="for example: horde compare PACK base lives=4")
    if len(set(names)) < len(names):
        raise HordeError("a variant is named twice")
    check_games(games * len(names), records=True)  # game i of each variant is paired
    count, specs = seat_bots(players, bots)
    ray = cluster_of(cluster, jobs)
    workers = jobs_count(jobs, force_jobs)
    parsed = [parse_variant(v) for v in names]
    gameset = [load_variant(pack, v) for v in parsed]
    for g in gameset[1:]:
        warn_bots(g, specs, gameset[0])
    count = gameset[0].players_default if count is None else count
    batches = [Batch.of(g, count, specs, games, seed, label=v.label, records=True)
               for g, v in zip(gameset, parsed, strict=True)]
    with progress_bar(games * len(batches), "comparing") as progress:
        results = run_batches(batches, jobs=workers, progress=progress, cluster=ray)
    if any(r.interrupted for r in results):
        interrupted_note(results)
    cmp = compare_results(results)
    from engine.coverage.report import actions_chosen, actions_line
    cmp["coverage"] = [{"label": r.label, **actions_chosen(g, r)}
                       for g, r in zip(gameset, results, strict=True)]
    if csv_file:
        from engine.sim.output import write_csv
        write_csv(csv_file, results)
    if plot:
        from engine.sim.plots import compare_plot
        compare_plot(cmp, [res.tally.turns for res in results], plot,
                     f"{gameset[0].title}: {' vs '.join(names)} — {games} games each, "
                     f"{seating(batches[0].specs)}")
    console = wide(out())
    if as_json:
        console.file.write(json.dumps(cmp, sort_keys=True) + "\n")
    else:
        console.print(table(cmp))
        for sentence in cmp["sentences"]:
            console.print(Text(sentence))
        for c in cmp["coverage"]:
            console.print(Text(actions_line(c, c["label"])))
        for path in (csv_file, plot):
            if path:
                console.print(Text(f"wrote {path}", style="dim"))
    finish(results)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare)
