"""`horde play`, `horde resume` and `horde replay`: games at the terminal, live, resumed from a
record, or shown again from one."""

from __future__ import annotations

import random
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.rule import Rule
from rich.text import Text

from engine.cli.common import (
    AllErrorsOpt,
    HouseOpt,
    ModeOpt,
    PackArg,
    SeedOpt,
    SetOpt,
    decimal,
    load_game,
    out,
    parse_sets,
    seats,
)
from engine.errors import HordeError, clipped, printable
from engine.render.panels import result_text
from engine.tui import wants_app

MAX_DELAY = 3600.0  # seconds: more is no pause but a hang (and past time_t, an error)
DelayOpt = Annotated[float, typer.Option(
    "--delay", metavar="SECONDS", parser=decimal(0, MAX_DELAY),
    help="Pause between decisions when only bots play (at most an hour).")]

PlainOpt = Annotated[bool, typer.Option(
    "--plain", help="Play line by line (prompts and numbered lists) instead of the full-screen "
                    "table; the default when input or output is not a terminal.")]
AppOpt = Annotated[bool, typer.Option(
    "--app", help="Open the full-screen table even when input or output is not a terminal.")]

ScoresForBotsOpt = Annotated[bool, typer.Option(
    "--scores-for-bots", help="Record the score in the high-score table even when bots "
                              "played (marked with the bots' names).")]


def seat_specs(players: str | None, game) -> list[str]:
    """One spec per seat: as given, or one person plus random bots (up to the number
    given, or the pack's default)."""
    count, specs = seats(players)
    if specs is None:
        n = game.players_default if count is None else count
        return ["human"] + ["random"] * max(n - 1, 0)
    return specs


def play(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", metavar="SEATS",
        help="Who sits at each seat, e.g. human,random,random (the count is the number "
             "of players), or a number: you plus random bots. Default: you plus random "
             "bots up to the pack's default.")] = None,
    seed: SeedOpt = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Write the game record to FILE (for `horde replay` and `horde resume`).")
    ] = None,
    delay: DelayOpt = 0.0,
    scores_for_bots: ScoresForBotsOpt = False,
    all_errors: AllErrorsOpt = False,
    plain: PlainOpt = False,
    app: AppOpt = False,
) -> None:
    """Play a game at the terminal: people choose from numbered lists, bots play themselves.

    In a terminal the game opens as a full-screen table (board, players, your hand, the log
    and your choices in view; ? for help); --plain plays line by line. A game at the
    table is autosaved as it goes: `horde resume --last` goes on with the newest unfinished one."""
    from engine import autosave
    from engine.atomic import check_target
    from engine.bots import make_bot
    from engine.cli.session import Session
    from engine.record import SEEDS, make_record
    from engine.sim.seeds import bot_seed

    game = load_game(pack, mode, house, set_)
    specs = seat_specs(players, game)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    if seed not in SEEDS:
        raise HordeError(f"--seed {seed}: not a 64-bit number", hint="a record could not keep it")
    if save is not None:
        check_target(save)  # before the game: a game played for nothing is lost
    bots = [make_bot(spec, bot_seed(seed, 0, s), game) for s, spec in enumerate(specs)]
    if wants_app(plain, app):
        state = game.new_state(players=len(specs), seed=seed)
        _in_app(state, specs, bots, pack, house or [], parse_sets(set_), save, delay,
                scores_for_bots)
        return
    params = parse_sets(set_)
    keeper = autosave.Keeper(lambda S: make_record(S, pack, house or [], params, specs),
                             game.pack_id, warn=_warn)
    session = Session(game, specs, bots, seed, out(), delay, keep=keeper.keep)
    state = session.run()
    _after(session, state, save, lambda: make_record(state, pack, house or [], params, specs),
           scores_for_bots)


def _in_app(state, specs, bots, pack, house, params, save, delay, scores_for_bots,
            autosave_to: Path | None = None) -> None:
    """The game at the full-screen table; after it, where it is kept and the score."""
    from engine.tui.app import run
    from engine.tui.table import Table

    table = Table(state.game, specs, bots, state, pack, list(house), params, save, autosave_to)
    app = run(table, delay)
    state = table.state
    console = out()
    if app.failed is not None:  # the boundary reports it in one line
        where = table.autosave_to or table.save_to
        console.print(Text(f"The game is kept in {where}: horde resume --last goes on with it."))
        raise app.failed
    if state.over:
        console.print(Text(f"{state.game.title}: {result_text(state)}", style="bold"))
    if save is not None:
        console.print(Text(f"saved to {save}"))
    if app.stopped:
        where = save if save is not None else table.autosave_to
        console.print(Text(f"Stopped after {len(state.history)} decisions; to go on with it: "
                           + (f"horde resume {shlex.quote(str(where))}" if save is not None
                              else "horde resume --last"), style="bold"))
    _score(state, table, scores_for_bots)
    if app.interrupted:
        raise typer.Exit(130)


def _after(session, state, save: Path | None, record, scores_for_bots: bool = False) -> None:
    """The end of a session: the record saved, then the score (packs that keep high scores).
    In that order, and a problem with the score table only a warning: it never costs the
    game itself (autosaved as it went, `engine.autosave.Keeper`). A game stopped with Ctrl-C
    is saved like one stopped with `q`, then exits with 130."""
    from engine.record import save as save_record

    try:
        if save is not None:
            save_record(record(), save)
            out().print(Text(f"saved to {save}"))
            if session.stopped:
                out().print(Text(f"to go on with it: horde resume {shlex.quote(str(save))}",
                                 style="bold"))
        elif session.stopped:
            out().print(Text("to go on with it: horde resume --last", style="bold"))
    finally:
        _score(state, session, scores_for_bots)
    if session.interrupted:
        raise typer.Exit(130)


def _warn(text: str) -> None:
    typer.echo(clipped(text), err=True)


def _score(state, session, scores_for_bots: bool) -> None:
    from engine.bots import is_human
    from engine.scores import record_score

    bots = [spec for spec, bot in zip(session.specs, session.bots, strict=True)
            if not is_human(bot)]
    if bots and not scores_for_bots and state.game.highscores and state.over:
        out().print(Text("score not recorded: bots played (--scores-for-bots records it, "
                         "marked as a bot's game)", style="dim"))
        return
    try:
        entry = record_score(state.game, state, bots=bots)  # only packs with `highscores:`
    except HordeError as exc:
        hint = f"; {exc.problem.hint}" if exc.problem.hint else ""
        typer.echo(f"warning: the score was not recorded: {clipped(exc.problem.message + hint)}",
                   err=True)
        return
    if entry is not None:
        who = " (a bot's game)" if bots else ""
        out().print(Text(f"score {entry['score']}{who}: #{entry['rank']} in the local "
                         "high-score table (`horde scores`)", style="bold"))


def resume(
    file: Annotated[Path | None, typer.Argument(
        help="A game record written by `horde play --save` or autosaved.")] = None,
    last: Annotated[bool, typer.Option(
        "--last", help="The newest unfinished game autosaved in the data folder.")] = False,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", metavar="SEATS",
        help="Who sits at each seat from now on, e.g. human,random (default: as recorded).")
    ] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Write the game record here (default: back to FILE, the game so far and on).")
    ] = None,
    delay: DelayOpt = 0.0,
    scores_for_bots: ScoresForBotsOpt = False,
    all_errors: AllErrorsOpt = False,
    plain: PlainOpt = False,
    app: AppOpt = False,
) -> None:
    """Go on with a saved game (stopped with `q`) where it was left, and save it again.
    `--last`: the newest unfinished game autosaved in the data folder.

    The rules must be the ones it was played with, as for `horde replay`. Bots go on with
    dice of their own: a resumed game is not the game that an unstopped one would have been."""
    from engine import autosave
    from engine.atomic import check_target
    from engine.bots import make_bot
    from engine.cli.session import Session
    from engine.record import last_state, load, make_record
    from engine.sim.seeds import bot_seed

    if (file is None) == (not last):
        raise HordeError("give a saved game FILE or --last" if file is None
                         else "give FILE or --last, not both",
                         hint="horde resume --last goes on with the newest autosaved game")
    if file is None:
        file = autosave.last()
    record = load(file)
    check_target(save or file)
    state = last_state(record, str(file))
    if state.over:
        raise HordeError(f"{file}: the game is over", hint=f"`horde replay {file}` shows it")
    specs = seat_specs(players, state.game) if players else record["bots"]
    if not specs:
        raise HordeError(f"{file} does not say who sat where",
                         hint="give the seats with --players, e.g. human,random")
    if len(specs) != len(state.pl):
        raise HordeError(f"--players '{','.join(specs)}': this game has {len(state.pl)} seats, "
                         f"not {len(specs)}")
    made = len(state.history)  # the bots' dice depend on where the game goes on
    bots = []
    for s, spec in enumerate(specs):
        try:
            bots.append(make_bot(spec, bot_seed(state.seed, made, s), state.game))
        except HordeError as exc:
            if players:  # typed on the command line: the error says it all
                raise
            raise HordeError(f"{file}: 'bots' item {s + 1} (P{s}): {exc.problem.message}",
                             hint=exc.problem.hint) from None
    if wants_app(plain, app):
        house = [h["path"] for h in record["house"]]
        auto = file.parent.resolve() == autosave.folder().resolve()
        _in_app(state, specs, bots, record["pack"], house, record["params"],
                None if auto and save is None else (save or file), delay, scores_for_bots,
                autosave_to=file if auto else None)
        return
    house = [h["path"] for h in record["house"]]
    auto = file.parent.resolve() == autosave.folder().resolve()
    keeper = autosave.Keeper(lambda S: make_record(S, record["pack"], house, record["params"],
                                                   specs),
                             state.game.pack_id, file if auto else None, warn=_warn)
    session = Session(state.game, specs, bots, state.seed, out(), delay, keep=keeper.keep)
    state = session.run(state)
    _after(session, state, None if auto and save is None else (save or file),
           lambda: make_record(state, record["pack"], house, record["params"], specs),
           scores_for_bots)


def replay(
    file: Annotated[Path, typer.Argument(help="A game record written by `horde play --save`.")],
    step: Annotated[bool, typer.Option(
        "--step", help="Wait for Enter after each decision (line by line).")] = False,
    plain: PlainOpt = False,
    all_errors: AllErrorsOpt = False,
    app: AppOpt = False,
) -> None:
    """Show a recorded game again: the state after each decision, and the result.

    In a terminal it opens the full-screen table as a viewer: → and ← step through the
    decisions, Home/End, g jumps to a turn, v shows the whole table or one seat's view."""
    from engine.cli.session import QUIT, InputEnded, read_line
    from engine.record import load
    from engine.record import replay as states_of
    from engine.render import Renderer

    record = load(file)
    if not step and wants_app(plain, app):
        from engine.tui.replay import ReplayApp
        ReplayApp(record, str(file)).run()
        return
    console = out()
    total = len(record["decisions"])
    renderer = None
    deciding = None
    state = None
    for k, state in enumerate(states_of(record, str(file))):
        if renderer is None:
            renderer = Renderer(state.game, names=record["bots"] or None)
        console.print(Rule(style="dim"))
        if k == 0:
            console.print(Text(f"{printable(state.game.title)}: {record['players']} players, "
                               f"seed {record['seed']}, {total} decisions", style="bold"))
        else:
            console.print(Text(f"decision {k}/{total}: P{deciding} plays {state.history[-1]}",
                               style="cyan"))
        console.print(renderer.render(state, None))
        d = state.decision()
        deciding = d.player if d is not None else None
        if step and k < total:
            try:
                answer = read_line("Enter for the next decision, q to stop ", console)
            except InputEnded:
                step = False
                continue
            if answer.lower() in QUIT:
                console.print(Text(f"Stopped after decision {k}/{total}.", style="yellow"))
                return
    if state is None or not state.over:  # else the last drawing ends with the result
        console.print(Text("The record stops before the end of the game.", style="yellow"))


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("resume")(resume)
    app.command("replay")(replay)
