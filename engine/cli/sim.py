"""`horde sim`: many games with bots, summarised as win rates and game lengths."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from engine.cli.common import HouseOpt, JsonOpt, ModeOpt, PackArg, SetOpt, err, load_game, out


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "—"


def report(result) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False,
                  title=f"{result.games} games, {result.players} players, seed {result.seed}",
                  title_justify="left")
    for name, justify in (("Seat", "left"), ("Bot", "left"), ("Wins", "right"),
                          ("Win rate", "right")):
        table.add_column(name, justify=justify)
    wins = result.wins
    for seat in range(result.players):
        table.add_row(f"P{seat}", Text(result.bots[seat]), str(wins[seat]),
                      _pct(wins[seat], result.games))
    n = result.games
    table.add_section()
    table.add_row("No winner", "", str(result.no_winner), _pct(result.no_winner, n))
    table.add_row("Turn limit", "", str(result.limit_hits), _pct(result.limit_hits, n))
    return table


def lengths(result) -> Text:
    t = result.turns
    rate = result.games / result.seconds if result.seconds > 0 else 0.0
    return Text(f"Game length in turns: mean {t['mean']:.1f}, median {t['median']:g}, "
                f"p90 {t['p90']:g}\n{result.seconds:.2f} s, {rate:,.0f} games/s")


def sim(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players (default: the pack's default).")] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", metavar="BOTS",
        help="Bots by seat, comma-separated; the list cycles over the seats.")] = "random",
    games: Annotated[int, typer.Option("-n", "--games", min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Master seed of the batch.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Play many games with bots; print win rates, draws and game lengths."""
    from engine.sim import simulate

    game = load_game(pack, mode, house, set_)
    specs = bots.split(",")
    if sys.stderr.isatty():
        columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=err(), transient=True) as bar:
            task = bar.add_task("sim", total=games)
            result = simulate(game, players, specs, games, seed,
                              progress=lambda done, total: bar.update(task, completed=done))
    else:
        result = simulate(game, players, specs, games, seed)
    console = out()
    if as_json:
        console.file.write(result.to_json() + "\n")
        return
    console.print(report(result))
    console.print(lengths(result))


def register(app: typer.Typer) -> None:
    app.command("sim")(sim)
