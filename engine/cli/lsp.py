"""`horde lsp`: the language server for editors (engine.lsp), an optional extra."""

from __future__ import annotations

from typing import Annotated

import typer

INSTALL = "pip install 'horde[lsp]'"


def lsp(
    tcp: Annotated[int | None, typer.Option(
        "--tcp", metavar="PORT", min=1, max=65535,
        help="Listen on 127.0.0.1:PORT instead of stdin/stdout (to debug a client).")] = None,
) -> None:
    """Run the language server: live errors, hover, completion and definitions in an editor."""
    try:
        from engine.lsp.server import serve
    except ImportError as exc:
        missing = (exc.name or "pygls").split(".")[0]
        typer.echo(f"horde lsp needs the language-server extra ({missing} is not installed): "
                   f"{INSTALL}", err=True)
        raise typer.Exit(1) from None
    serve(tcp)


def register(app: typer.Typer) -> None:
    app.command("lsp")(lsp)
