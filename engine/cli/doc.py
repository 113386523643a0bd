"""`horde doc` and `horde schema`: the references an author writes a house rule against.

`horde schema` tells an editor's YAML plugin where the JSON Schemas are (every bundled file
names its schema in a `# yaml-language-server: $schema=...` comment, so editors that read
it need nothing more). `horde doc` is the pack as an author needs to know it: its params,
its flow's points with what may be done at each, its events, its fields, cards and bots.
"""

from __future__ import annotations

from typing import Annotated

import typer

from engine.cli.common import AllErrorsOpt, out
from engine.errors import HordeError, printable

SCHEMAS = ("pack", "overlay", "scenario")


def schema(
    which: Annotated[str, typer.Argument(
        help="pack (a base pack), overlay (a mode, house rule or included file) or scenario.")]
        = "pack",
    show: Annotated[bool, typer.Option("--print", help="Print the schema itself.")] = False,
) -> None:
    """Print the path of a JSON Schema (or, with --print, the schema), for an editor."""
    from engine import resources
    from engine.errors import did_you_mean

    if which not in SCHEMAS:
        raise HordeError(f"no schema named '{which}'",
                         hint=did_you_mean(which, SCHEMAS) or f"schemas: {', '.join(SCHEMAS)}")
    path = resources.data_dir("schemas") / f"{which}.schema.json"
    console = out()
    if show:
        console.file.write(path.read_text(encoding="utf-8"))
    else:
        console.file.write(f"{path}\n")


def doc(
    pack: Annotated[str, typer.Argument(help="The pack: an id, a folder or a pack.yaml.")],
    mode: Annotated[str | None, typer.Option("--mode", help="A mode of the pack.")] = None,
    house: Annotated[list[str] | None, typer.Option(
        "--house", help="A house rule (a file, or the name of one of the pack's); repeatable.")]
        = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Write Markdown.")] = False,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Print a pack's reference for an author: params, the flow's points with the actions
    offered at each, events, fields, cards and policies."""
    from engine.api import load

    out().file.write(printable(render(load(pack, mode=mode, house=house or ()), markdown)))


def render(game, markdown: bool = False) -> str:
    """`horde doc`'s text for a built game, as the pack wrote it (`doc` prints it through
    `engine.errors.printable`)."""
    from engine.pack.reference import reference

    title = game.title + (f" — mode {game.mode}" if game.mode else "")
    lines = [f"# {title}" if markdown else title, ""]
    for section in reference(game):
        lines += [f"## {section.title}" if markdown else f"{section.title}:", ""]
        for line in section.lines:
            if markdown:
                depth = (len(line) - len(line.lstrip())) // 4
                lines.append("  " * depth + "- " + line.strip())
            else:
                lines.append("  " + line)
        lines.append("")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command("doc")(doc)
    app.command("schema")(schema)
