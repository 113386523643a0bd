"""The `horde` command: a Typer app assembled from one module per command group.

Each module in COMMAND_MODULES exposes `register(app)` and adds its commands; a new
command group is a new module plus one line here. Every command runs inside one error
boundary (`HordeGroup.invoke`): a `HordeError` is printed as `file:line:col: message`
with the source line and a caret, exit code 1, and so is a file the system refuses
(`FILE: File name too long`, a full disk); Ctrl-C exits 130 quietly (SIGTERM and
SIGHUP take the same way out, exiting 143 and 129: `engine.cli.signals`), and so does a
reader that stops early (`horde sim --help | head`: exit 141, as a shell reports SIGPIPE);
anything else is a bug in horde and is reported in one line (HORDE_DEBUG=1 shows the
traceback).
"""

from __future__ import annotations

import importlib
import inspect
import os
import platform
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from engine.cli.signals import stop_signals
from engine.errors import MAX_SHOWN, HordeError, clipped, printable, show_problems

COMMAND_MODULES = [
    "engine.cli.packs",       # list, diff
    "engine.cli.validate",    # validate
    "engine.cli.play",        # play, replay
    "engine.cli.serve",       # serve
    "engine.cli.sim",         # sim
    "engine.cli.compare",     # compare
    "engine.cli.sweep",       # sweep
    "engine.cli.scenarios",   # scenario
    "engine.cli.check",       # check
    "engine.cli.scores",      # scores
    "engine.cli.doc",         # doc, schema
    "engine.cli.lsp",         # lsp
]


USAGE_EXIT = 1  # a bad command line is bad input like any other (click's own code is 2)


def _usage_error(exc: BaseException) -> bool:
    """A usage error of the command-line framework: click's, or the click Typer vendors."""
    return type(exc).__module__.split(".")[0] in ("click", "typer") and \
        any(c.__name__ == "UsageError" for c in type(exc).__mro__)


class HordeGroup(TyperGroup):
    """The one place where errors turn into messages and exit codes."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except Exception as exc:  # an unknown option before the command, or none at all
            if _usage_error(exc):
                exc.exit_code = USAGE_EXIT  # type: ignore[attr-defined]
            raise

    def invoke(self, ctx: Any) -> Any:  # Typer's click Context: click's own, or Typer's copy
        show_problems(MAX_SHOWN)  # until a command's --all-errors says otherwise
        _forgiving_output()
        with stop_signals() as stop:  # SIGTERM and SIGHUP take Ctrl-C's way out
            try:
                return self._invoke(ctx)
            except typer.Exit as exc:
                if stop.signum is not None and exc.exit_code == INTERRUPTED_EXIT:
                    raise typer.Exit(stop.exit_code) from None
                raise

    def _invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except HordeError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            raise typer.Exit(INTERRUPTED_EXIT) from None
        except BrokenPipeError:
            _quiet_stdout()
            raise typer.Exit(SIGPIPE_EXIT) from None
        except OSError as exc:  # the system refused a file named, or the disk: not a bug
            typer.echo(_os_problem(exc), err=True)
            raise typer.Exit(1) from None
        except Exception as exc:
            # usage errors, exits and aborts belong to the command-line framework (Typer, or
            # the click it wraps or vendors, depending on its version): let them through
            if type(exc).__module__.split(".")[0] in ("click", "typer"):
                if _usage_error(exc):
                    exc.exit_code = USAGE_EXIT  # type: ignore[attr-defined]
                raise
            if os.environ.get("HORDE_DEBUG"):
                raise
            typer.echo(f"horde: internal error: {type(exc).__name__}: {clipped(str(exc))}\n"
                       f"This is a bug in {version()}; set HORDE_DEBUG=1 to see where it happened.",
                       err=True)
            raise typer.Exit(2) from None


def _forgiving_output() -> None:
    """What stdout and stderr cannot encode is written as an escape (`\\udcff`, `\\xe9`)
    rather than failing: a lone surrogate (a file name whose bytes are not UTF-8) or a
    terminal that is not UTF-8 must not turn a message into a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # closed, or not a text stream after all
                pass


def _os_problem(exc: OSError) -> str:
    """`FILE: File name too long`: what the system said of which file."""
    why = exc.strerror or str(exc) or type(exc).__name__
    name = exc.filename if isinstance(exc.filename, str) else None
    return printable(f"{name}: {why}" if name is not None else f"horde: {why}")


SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader went away
INTERRUPTED_EXIT = 130  # 128 + SIGINT: Ctrl-C (SIGTERM and SIGHUP: 128 + theirs)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null: the reader is gone, and Python's own flush of stdout at
    exit would fail again with the same error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (a test's capture)
        pass


def build_app() -> typer.Typer:
    app = typer.Typer(
        cls=HordeGroup, name="horde", no_args_is_help=True, add_completion=False,
        pretty_exceptions_enable=False,
        help="Play, check and simulate tabletop games written as horde rule packs.")
    app.callback()(_root)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(app)
    for info in app.registered_commands:
        if info.help is None:
            info.help = reflowed(inspect.getdoc(info.callback) or "")
    return app


def version() -> str:
    """`horde 0.1.0 (Python 3.11.7)`: what a bug report needs to say first."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        mine = installed("horde")
    except PackageNotFoundError:  # run from a source tree that was never installed
        mine = "(not installed)"
    return f"horde {mine} (Python {platform.python_version()})"


def _show_version(shown: bool) -> None:
    if shown:
        typer.echo(version())
        raise typer.Exit()


def _root(
    show_version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                      help="Print horde's version and Python's, and exit."),
) -> None:
    """The options before a command."""


def reflowed(doc: str) -> str:
    """A docstring with each paragraph on one line. Docstrings are wrapped at the source's
    width, and Typer's rich help keeps single line breaks: the terminal should wrap them."""
    return "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))


app = build_app()


def main() -> None:
    try:
        app(prog_name="horde")
    except BrokenPipeError:  # the reader went away while the last output was flushed
        _quiet_stdout()
        sys.exit(SIGPIPE_EXIT)


if __name__ == "__main__":  # python -m engine.cli.app, as the installed `horde` runs main()
    main()
