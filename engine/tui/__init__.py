"""The full-screen table (Textual), opened by `horde play`, `resume` and `replay`.

Textual is imported only when the app opens (`engine.tui.app`), so `--plain` play, the
other commands and scripts start without it. `wants_app` is the one rule for when the app
opens: a terminal at both ends (or a web driver, `horde serve`), and not `--plain`.
"""

from __future__ import annotations

import os
import sys

from engine.errors import HordeError


def wants_app(plain: bool = False, app: bool = False) -> bool:
    """Whether to open the full-screen app: `--app` forces it, `--plain` refuses it; else
    when standard input and output are a terminal, or TEXTUAL_DRIVER names a driver (a
    browser tab of `horde serve`, whose streams are pipes)."""
    if plain and app:
        raise HordeError("--plain and --app: give one of them")
    if plain:
        return False
    if app or os.environ.get("TEXTUAL_DRIVER"):
        return True
    return _tty(sys.stdin) and _tty(sys.stdout)


def _tty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False
