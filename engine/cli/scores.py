"""`horde scores`: the local high-score table (packs with `highscores: true` fill it)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from engine.cli.common import JsonOpt, out, whole
from engine.errors import printable


def scores(
    pack: Annotated[str | None, typer.Argument(
        metavar="[PACK]", help="Only this pack's scores (its id).")] = None,
    mode: Annotated[str | None, typer.Option(
        "--mode", "-m", help="Only games of this mode.")] = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-n", parser=whole(1), help="How many entries to show.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """Show the best scores of finished games, best first."""
    from engine import scores as table

    entries = table.top(pack, mode, limit)
    console = out()
    if pack is not None and not entries:
        _check_pack(pack)
    if as_json:
        console.print_json(json.dumps(entries))
        return
    if not entries:
        where = f" for {pack}" + (f" ({mode})" if mode else "") if pack else ""
        console.print(Text(f"no scores yet{where}: {table.scores_path()}"))
        kept = sorted({(e["pack"], e.get("mode") or "") for e in table.load()})
        if kept and (pack or mode):  # a misspelt pack or mode finds nothing: say what there is
            console.print(Text("    hint: scores are kept for " + ", ".join(
                p + (f" --mode {m}" if m else "") for p, m in kept)))
        return
    grid = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=str(table.scores_path()),
                 title_style="dim")
    for name in ("#", "Score", "Game", "Players", "Turns", "Settings", "Date"):
        right = name in ("#", "Score")
        grid.add_column(name, overflow="fold", justify="right" if right else "left",
                        no_wrap=name in ("Score", "Date"))
    for k, e in enumerate(entries, 1):
        settings = ", ".join(f"{n}={v}" for n, v in sorted((e.get("params") or {}).items()))
        game = e["pack"] + (f" · {e['mode']}" if e.get("mode") else "")
        players = str(e.get("players", "?"))
        if e.get("bots"):
            players += " (bots: " + ", ".join(str(b) for b in e["bots"]) + ")"
        score = Text(str(e["score"]), style="bold")
        if e.get("bots"):
            score.append(" (bot)", style="dim")
        # bots' names and params come from records (resume): anyone's text
        grid.add_row(Text(str(k)), score, Text(printable(game)),
                     Text(printable(players)), Text(printable(str(e.get("turns", "?")))),
                     Text(printable(settings) or "—"),
                     Text(printable(str(e.get("when", ""))[:10])))
    console.print(grid)


def _check_pack(pack: str) -> None:
    """A pack name that is neither a bundled pack nor one with scores: a clear error."""
    from engine import scores as table
    from engine.errors import HordeError, did_you_mean
    from engine.pack.loader import list_packs

    known = {p.id for p in list_packs()} | {e["pack"] for e in table.load()}
    if pack not in known:
        raise HordeError(f"no pack '{pack}'", hint=did_you_mean(pack, sorted(known))
                         or f"the packs: {', '.join(sorted(known))}")


def register(app: typer.Typer) -> None:
    app.command("scores")(scores)
