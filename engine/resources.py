"""Where the bundled rulesets, schemas and grammar live, and where the user's cache lives.

In a wheel they are package data under `engine/_bundled/`; in a source checkout (editable
install, tests) they are the top-level folders next to `engine/`. Never the working
directory: `horde` must behave the same from any folder.

The cache (docs/cache.md) keeps work a load can skip next time: the grammar's parser
tables, parsed snippets, schema checks that passed. Every file in it is named after a
digest of everything its content depends on, holds plain JSON (never pickles), and is
written whole or not at all. A cache that cannot be read or written is no cache: loading
never fails because of it.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

KEEP_VERSIONS = 4  # per kind of cache file; older versions are deleted when one is written


def data_dir(name: str) -> Path:
    """The folder `rulesets`, `schemas` or `grammar`."""
    bundled = resources.files("engine") / "_bundled" / name
    if bundled.is_dir():
        return Path(str(bundled))
    return Path(__file__).resolve().parent.parent / name


def cache_dir() -> Path | None:
    """The user's horde cache folder, made on first use; None when caching is off.

    `HORDE_NO_CACHE=1` turns it off; `HORDE_CACHE_DIR` names the folder (tests and the
    benchmark use their own); otherwise `$XDG_CACHE_HOME/horde` or `~/.cache/horde`.
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
    except OSError:
        return None
    return path if os.access(path, os.W_OK | os.X_OK) else None


def digest(*parts: bytes | str) -> str:
    """A short name for content: different parts, different names (lengths are hashed too)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:24]


def code_identity(*modules: str) -> str | None:
    """What identifies the installed code of `modules` without importing them: the path,
    size and modification time of each one's source file. An upgrade or an edit rewrites
    the file, and with it this identity. Part of every cache file's name; None when a
    source file cannot be found (a zip, say), and then nothing may be cached."""
    parts = [sys.version]
    for name in modules:
        spec = find_spec(name)
        try:
            st = os.stat(spec.origin)  # type: ignore[arg-type, union-attr]
        except (AttributeError, TypeError, OSError):
            return None
        parts.append(f"{name}:{spec.origin}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def read_cache(name: str) -> bytes | None:
    """The content of cache file `name`, or None (no cache, no such file, unreadable)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return (folder / name).read_bytes()
    except OSError:
        return None


def write_cache(name: str, data: bytes) -> None:
    """Replace cache file `name` atomically, so a reader sees the old file or the new one,
    never half of one; then delete old versions of the same kind (the part before '-')."""
    folder = cache_dir()
    if folder is None:
        return
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        tmp.write_bytes(data)
        os.replace(tmp, folder / name)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return
    _prune(folder, name)


def _prune(folder: Path, name: str) -> None:
    kind = name.split("-", 1)[0] + "-"
    try:
        others = [p for p in folder.iterdir() if p.name.startswith(kind) and p.name != name]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_VERSIONS - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
