"""Autosaved games: every game played at the table is kept in the data folder as it goes.

A person who closes the terminal, loses the connection or meets a crash has not lost their
game: `horde resume --last` goes on with the newest unfinished one. The files are ordinary
game records (`engine.record`) in `<data folder>/games/` (the data folder of
`engine.scores.data_dir`: `$HORDE_DATA_DIR`, else `$XDG_DATA_HOME/horde`, else
`~/.local/share/horde`), named `<time>-<pack>.json`; a finished game's file is renamed to
end in `.over.json`, so it stays for `horde replay` and `--last` skips it. The table
(`engine.tui.table`) and plain play (`Keeper`) both keep their games here.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from engine.errors import HordeError
from engine.scores import data_dir

FOLDER = "games"
OVER = ".over.json"
_SAFE = re.compile(r"[^a-z0-9-]+")


def folder() -> Path:
    return data_dir() / FOLDER


def new_path(pack_id: str) -> Path:
    """A fresh autosave file for a game of `pack_id`, taken at once (made empty, the folder
    too): games started in the same second, in two tabs of `horde serve` say, each get
    their own file instead of writing over one another's."""
    where = folder()
    where.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = _SAFE.sub("-", pack_id.lower()).strip("-")[:40] or "game"
    k = 1
    while True:
        path = where / (f"{stamp}-{name}.json" if k == 1 else f"{stamp}-{name}-{k}.json")
        if not path.with_name(path.stem + OVER).exists():
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                return path
            except FileExistsError:
                pass
        k += 1


def finished(path: Path) -> Path:
    """Mark the game autosaved at `path` as over (its file renamed); the new path."""
    done = path.with_name(path.name.removesuffix(".json") + OVER)
    try:
        os.replace(path, done)
    except OSError:
        return path
    return done


def last() -> Path:
    """The newest autosaved game that is not over."""
    try:
        files = [p for p in folder().glob("*.json")  # empty: a name taken, no game saved yet
                 if not p.name.endswith(OVER) and p.is_file() and p.stat().st_size > 0]
    except OSError:
        files = []
    if not files:
        raise HordeError(f"no unfinished game in {folder()}",
                         hint="`horde play PACK` starts one; every game is saved there as it goes")
    return max(files, key=lambda p: (p.stat().st_mtime, p.name))


class Keeper:
    """A game kept in its autosave file as it goes: `keep(state)` writes the record that
    `record_of(state)` makes, and marks the file over once the game is. Plain play calls it
    before each of a person's decisions, after it, and when the game stops or fails. A data
    folder that cannot be written costs a warning (`warn`), once, never the game."""

    def __init__(self, record_of: Callable[[object], dict], pack_id: str,
                 path: Path | None = None, warn: Callable[[str], None] = print) -> None:
        self.record_of = record_of
        self.warn = warn
        self.kept = -1  # decisions in the record last written
        self.path: Path | None = path
        if path is None:
            try:
                self.path = new_path(pack_id)
            except OSError as exc:
                self._failed(f"{folder()}: {exc.strerror or exc}")

    def keep(self, state) -> Path | None:
        """The game so far written (unless it was already at this decision); the file."""
        from engine.record import save

        if self.path is None or (len(state.history) == self.kept and not state.over):
            return self.path
        try:
            save(self.record_of(state), self.path)
        except (OSError, HordeError) as exc:
            self._failed(exc.problem.message if isinstance(exc, HordeError)
                         else f"{self.path}: {exc.strerror or exc}")
            return None
        self.kept = len(state.history)
        if state.over:
            done, self.path = finished(self.path), None
            return done
        return self.path

    def _failed(self, why: str) -> None:
        self.path = None
        self.warn(f"warning: the game is not autosaved: {why} (HORDE_DATA_DIR, if set, must "
                  "name a folder; --save FILE keeps it elsewhere)")
