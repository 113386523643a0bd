"""`horde list` and `horde diff`: what packs there are, and what an overlay changes."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from engine.cli.common import AllErrorsOpt, out


def list_packs() -> None:
    """List the bundled packs with their modes, house-rule examples and player counts."""
    from engine.pack.loader import list_packs as find

    packs = find()
    console = out()
    if not packs:
        console.print("no packs found")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("Pack", "Title", "Players"):
        table.add_column(name, overflow="fold", no_wrap=name != "Title")
    for name, lists in (("Modes", [p.modes for p in packs]), ("House rules", [p.house for p in packs])):
        # a name is never broken: the column is at least as wide as the longest one
        longest = max((len(n) for names in lists for n in names), default=1)
        table.add_column(name, min_width=max(longest + 1, len(name)))
    for p in packs:
        if p.players_min is None:
            players = "?"
        elif p.players_min == p.players_max:
            players = str(p.players_min)
        else:
            players = f"{p.players_min}–{p.players_max}"
        title = Text(p.title or "")
        if p.problems:
            title.append(f" ({len(p.problems)} problem(s): horde validate {p.id})", style="red")
        table.add_row(Text(p.id, style="bold"), title, Text(players),
                      Text(", ".join(p.modes) or "—"), Text(", ".join(p.house) or "—"))
    console.print(table)


def diff(
    base: Annotated[str, typer.Argument(help="The pack: an id, a folder or a pack.yaml.")],
    house: Annotated[str, typer.Argument(
        help="An overlay: a house-rule or mode file, or the name of one of the pack's "
             "house rules or modes.")],
    all_errors: AllErrorsOpt = False,
) -> None:
    """Print the effective changes an overlay makes to a pack: every item added (+),
    removed (-) or changed (~) in every list, by id, each changed field with its old and new
    value, and the file:line where each change was written."""
    from engine.pack.changes import changes
    from engine.pack.loader import load_tree, resolve_ref

    before = load_tree(base)
    modes = resolve_ref(base).parent / "modes"
    if (modes / f"{house}.yaml").is_file() and not (before.root / "house" / f"{house}.yaml"
                                                    ).is_file():
        after = load_tree(base, mode=house)
    else:
        after = load_tree(base, house=[house])
    lines = changes(before.node, after.node)
    console = out()
    if not lines:
        console.print(f"{house}: no effective changes to {before.pack_id}")
        return
    console.print(Text(f"{house} changes {before.pack_id} in {len(lines)} place(s):",
                       style="bold"))
    for change in lines:
        style = {"+": "green", "-": "red"}.get(change.sign, "")
        console.print(Text(f"  {change.text()}", style=style), soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("list")(list_packs)
    app.command("diff")(diff)
