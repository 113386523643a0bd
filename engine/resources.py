"""Where the bundled rulesets, schemas and grammar live, and horde's own cache folder.

In a wheel they are package data under `engine/_bundled/`; in a source checkout (editable
install, tests) they are the top-level folders next to `engine/`. Never the working
directory: `horde` must behave the same from any folder.

The cache folder holds only `horde check`'s example database (failing choice sequences,
which are data a check replays, never code). Loading a pack reads nothing from it. A
folder another user could have written to is not used at all (SECURITY.md).
"""

from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path


def data_dir(name: str) -> Path:
    """The folder `rulesets`, `schemas` or `grammar`."""
    bundled = resources.files("engine") / "_bundled" / name
    if bundled.is_dir():
        return Path(str(bundled))
    return Path(__file__).resolve().parent.parent / name


def cache_dir() -> Path | None:
    """The user's horde cache folder, made on first use; None when it is off or unsafe.

    `HORDE_NO_CACHE=1` turns it off; `HORDE_CACHE_DIR` names the folder (tests use their
    own); otherwise `$XDG_CACHE_HOME/horde` or `~/.cache/horde`. The folder must be a real
    folder (not a link), owned by this user and writable by nobody else.
    """
    if os.environ.get("HORDE_NO_CACHE", "") not in ("", "0"):
        return None
    folder = os.environ.get("HORDE_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "horde")
    path = Path(folder)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return path if private_folder(path) else None
    except OSError:
        return None


def private_folder(path: Path) -> bool:
    """Whether `path` is a folder (not a link to one) that only this user can change."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))
