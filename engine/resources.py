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
from contextlib import suppress
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
    return _cache()[0]


def cache_problem() -> str | None:
    """Why the cache folder is not used although caching is on, or None."""
    return _cache()[1]


def _cache() -> tuple[Path | None, str | None]:
    if os.environ.get("HORDE_NO_CACHE", "") not in ("", "0"):
        return None, None
    folder = os.environ.get("HORDE_CACHE_DIR")
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "horde")
    path = Path(folder)
    with suppress(OSError):  # what is there instead is said below
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    problem = folder_problem(path)
    return (None, f"the cache folder {path} {problem}") if problem else (path, None)


def folder_problem(path: Path) -> str | None:
    """None when `path` is a folder (not a link to one) that only this user can change,
    else what it is instead."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"cannot be made or read ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "is a link"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid != os.geteuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is not a private folder of this user's"
    return None
