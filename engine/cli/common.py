"""What the commands share: option types, `--set` parsing, loading a game, consoles.

Consoles are made per call and write to whatever `sys.stdout`/`sys.stderr` are at that
moment, so a test runner that swaps the streams sees everything a user would.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.segment import Segment

from engine.api import load
from engine.errors import MAX_SHOWN, HordeError, printable, show_problems

_WHOLE = re.compile(r"[-+]?[0-9]+")
_DECIMAL = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def whole(low: int | None = None) -> Callable[[str], int]:
    """The parser of a whole-number option, at least `low`: the digits 0-9 only, which
    Python's int() does not insist on ('৪', a Bengali four that looks like 8, reads as 4)."""
    return _number(_WHOLE, int, "a whole number", low)


def decimal(low: float | None = None, high: float | None = None) -> Callable[[str], float]:
    """The parser of a number option (seconds, say), from `low` to `high`: digits 0-9 only."""
    return _number(_DECIMAL, float, "a number", low, high)


def _number(pattern: re.Pattern, kind: Callable, words: str, low, high=None):
    def parse(text):
        if not isinstance(text, str):  # a default, given as a number
            return kind(text)
        if not pattern.fullmatch(text.strip()):
            raise typer.BadParameter(f"expected {words} written with the digits 0-9, got {text!r}")
        value = kind(text)
        if low is not None and value < low:
            raise typer.BadParameter(f"{text.strip()} is less than the minimum, {low:g}")
        if high is not None and value > high:
            raise typer.BadParameter(f"{text.strip()[:40]} is more than the maximum, {high:g}")
        return value
    return parse


PackArg = Annotated[str, typer.Argument(
    metavar="PACK", help="A pack id (see `horde list`), a pack folder or a pack .yaml file.")]
ModeOpt = Annotated[str | None, typer.Option(
    "--mode", "-m", help="A mode of the pack (its modes/<mode>.yaml).")]
HouseOpt = Annotated[list[str] | None, typer.Option(
    "--house", metavar="FILE",
    help="A house-rule file, or the name of one of the pack's house rules. Repeatable.")]
SetOpt = Annotated[list[str] | None, typer.Option(
    "--set", metavar="NAME=VALUE", help="Override a param of the pack. Repeatable.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", parser=whole(), help="Random seed.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON to stdout instead of tables.")]


def _all_errors(shown: bool) -> None:
    show_problems(None if shown else MAX_SHOWN)


AllErrorsOpt = Annotated[bool, typer.Option(
    "--all-errors", callback=_all_errors, expose_value=False, is_eager=True,
    help=f"List every problem found, not only the first {MAX_SHOWN}.")]
ClusterOpt = Annotated[str | None, typer.Option(
    "--cluster", metavar="ADDRESS",
    help="Play on a Ray cluster: ray://HOST:10001, auto (this machine is part of one), or "
         "local (start Ray here). Needs pip install 'horde\\[cluster]'; see docs/cluster.md.")]


def cluster_of(address: str | None, jobs: int = 1):
    """The Ray cluster `--cluster` names, joined (an `engine.sim.cluster.Cluster`), or
    None without it. Joined before any game is loaded, so a wrong address fails at once."""
    if address is None:
        return None
    if jobs != 1:
        raise HordeError("--cluster and --jobs: give one of them",
                         hint="on a cluster, Ray decides how many games run at once")
    from engine.sim.cluster import connect
    return connect(address.strip())


def seats(text: str | None, bots: str | None = None) -> tuple[int | None, list[str] | None]:
    """`--players`, the same in every command: a number of seats (`3`), or who sits at
    each, comma-separated (`human,greedy`, `greedy,random`). Returns (count, specs); with
    a number, specs are `bots` (the sim commands' `--bots`) split, or None."""
    given = [b.strip() for b in bots.split(",")] if bots is not None else None
    if text is None:
        return None, given
    t = text.strip()
    if _WHOLE.fullmatch(t):
        n = int(t)
        if n < 1:
            raise HordeError(f"--players {t}: at least one seat")
        return n, given
    specs = [s.strip() for s in t.split(",")]
    if not all(specs):
        raise HordeError(f"--players '{text}': an empty seat",
                         hint="write one bot or 'human' per seat, e.g. human,random,random")
    if given is not None:
        raise HordeError("--players names who sits at each seat, so --bots is not needed",
                         hint="give either --players greedy,random or --players 2 --bots "
                              "greedy,random")
    return len(specs), specs


class SafeConsole(Console):
    """A console whose every text passes `engine.errors.printable` on its way out, and
    whose strings are never read as markup: pack, record and save text reaches the
    terminal as text, never as a control sequence (`ESC[2J`, OSC 52), a bidi override or
    a Rich tag. What Rich itself writes to move the cursor passes untouched."""

    def __init__(self, **kw) -> None:
        super().__init__(highlight=False, soft_wrap=True, markup=False, emoji=False, **kw)

    def render(self, renderable, options=None):
        for segment in super().render(renderable, options):
            if segment.control is None:
                text = printable(segment.text)
                if text != segment.text:
                    segment = Segment(text, segment.style)
            yield segment


def out() -> SafeConsole:
    return SafeConsole()


def err() -> SafeConsole:
    return SafeConsole(stderr=True)


def parse_sets(items: list[str] | None) -> dict[str, str]:
    """`["blocks=20", "fast=true"]` -> `{"blocks": "20", "fast": "true"}`. Values stay
    strings: the pack knows each param's type and coerces (and reports) them."""
    params: dict[str, str] = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise HordeError(f"--set expects NAME=VALUE, got '{item}'",
                             hint="for example --set rounds=5")
        params[name.strip()] = value.strip()
    return params


def load_game(pack: str, mode: str | None = None, house: list[str] | None = None,
              sets: list[str] | None = None):
    return load(pack, mode=mode, params=parse_sets(sets), house=list(house or []))


def yaml_files(paths: list[Path]) -> list[Path]:
    """The files named, with folders expanded to every .yaml/.yml file below them."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml")
                            and f.is_file())
        else:
            files.append(p)
    return files
