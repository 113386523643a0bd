"""What `?`/F1 shows: the text of everything on the screen, in the pack's own words.

First the board's whole legend (the table itself names only what its crop shows), then
the choices explained (what each does, what each parameter is), then the glossary
(`Renderer.glossary()`: cards, piece kinds with their numbers, dice faces, tiles' powers),
then the keys. Nothing here knows a game.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from engine.cli.seen import explain
from engine.errors import printable

KEYS = ("Keys: arrows and Enter, a digit or a click choose · ? or F1 this help · u undo your "
        "last decision (not past a die roll or a hidden card seen) · s save · q leave (the game "
        "is autosaved: `horde resume --last` goes on with it) · Ctrl-C leave at once, saved")


def help_body(renderer, S, viewer, shown: list[str]) -> list[RenderableType]:
    out: list[RenderableType] = []
    for ext in S.game.extensions.values():  # what every character of the board means, first
        legend = getattr(ext, "legend", None)
        if callable(legend):
            out += [Text(printable(legend(S))), Text("")]
    d = S.decision()
    if d is not None and shown and d.player == viewer:
        out += explain(S, d, renderer, shown)[:-1]  # its last line is the plain prompt's keys
        out.append(Text(""))
    out += glossary(renderer)
    out += [Text(""), Text(KEYS, style="dim")]
    return out


def glossary(renderer) -> list[Text]:
    """The pack's glossary (`Renderer.glossary`), grouped by section."""
    out = [Text(printable(renderer.game.title), style="bold")]
    section = None
    for sec, name, text in renderer.glossary():
        if sec != section:
            section = sec
            out.append(Text(str(sec), style="bold underline"))
        line = Text(f"  {name}", style="bold")
        if text:
            line.append(f": {text}", style="")
        out.append(line)
    return out
