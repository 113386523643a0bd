"""Writing a file so that a crash mid-write never loses the previous version.

The new content goes to a temporary file beside the target, is flushed to disk, and is
moved over the target with `os.replace` (atomic on POSIX and Windows); the folder is
synced so the rename itself survives a power cut. Game records, the high-score table and
the balance tools' CSV and PNG files are all written this way.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from engine.errors import HordeError


def write_atomic(path: str | Path, write: Callable[[str], None]) -> None:
    """Call `write(tmp_path)` to produce the file, then move it over `path`."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise HordeError(f"cannot write {path}: folder {folder} does not exist")
    try:
        # the temporary file keeps the target's suffix: some writers choose a format by it
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix or ".tmp",
                                   dir=folder)
    except OSError as exc:
        raise HordeError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
        sync_dir(folder)
    except OSError as exc:
        raise HordeError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_text(path: str | Path, text: str) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    write_atomic(path, write)


def sync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX); harmless where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
