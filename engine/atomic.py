"""The files horde keeps for the user: written so that a crash never loses the old version,
and read back as the untrusted input they are.

The new content goes to a temporary file beside the target, is flushed to disk, and is
moved over the target with `os.replace` (atomic on POSIX and Windows); the folder is
synced so the rename itself survives a power cut. Game records, the high-score table and
the balance tools' CSV and PNG files are all written this way.

A rename replaces whatever the name points at, so only a regular file (or a new name) is
ever replaced: `--save /dev/null` run as root would otherwise swap the device for a file.
A process killed mid-write leaves its temporary file (`.NAME.xxxxxxxx.EXT`); the next write
of the same target removes those of its own that are over an hour old.

Reading is bounded (`read_json`): a file is read up to a size limit, and JSON that is
nested too deeply or holds an absurd number is one clear error, not a crash.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.errors import HordeError

STALE_SECONDS = 3600  # a temporary file this old is no write in progress: a killed one
MiB = 1 << 20


def write_atomic(path: str | Path, write: Callable[[str], None]) -> None:
    """Call `write(tmp_path)` to produce the file, then move it over `path`."""
    path = Path(path)
    folder = check_target(path)
    suffix = path.suffix or ".tmp"  # some writers choose a format by the suffix: keep it
    _remove_stale(folder, path.name, suffix)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=folder)
    except OSError as exc:
        raise HordeError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        check_target(path)  # it may have been replaced while we wrote
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


def check_target(path: str | Path) -> Path:
    """The folder `path` would be written in, if it may be: a regular file or a new name in
    an existing folder. (`lstat`: a symbolic link is refused too, not written through.)"""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise HordeError(f"cannot write {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a symbolic link" if stat.S_ISLNK(mode) \
            else "a device, pipe or socket"
        raise HordeError(f"cannot write {path}: it is {kind}, not a regular file",
                         hint="horde only replaces regular files; give a new file name")
    if not folder.is_dir():
        raise HordeError(f"cannot write {path}: folder {folder} does not exist")
    return folder


def _remove_stale(folder: Path, name: str, suffix: str) -> None:
    """Remove temporary files of `name` that a killed write left: only our exact pattern
    (mkstemp's 8 random characters), only regular files we own, only old ones."""
    pattern = re.compile(re.escape(f".{name}.") + r"[a-z0-9_]{8}" + re.escape(suffix))
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
            if stat.S_ISREG(st.st_mode) and mine and now - st.st_mtime > STALE_SECONDS:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove


def read_json(path: str | Path, limit: int):
    """The JSON value in `path`, read as untrusted input: at most `limit` bytes. An OSError
    if it cannot be read; a ValueError saying why if it is no JSON horde would write."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit / MiB:g} MiB, more than horde writes")
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not text (UTF-8)") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError:  # an integer of thousands of digits
        raise ValueError("a number too large to read") from None
    found = lone_surrogate(value)
    if found is not None:
        where, code = found
        raise ValueError(f"the text at {where} holds a lone surrogate ({code}): half of a "
                         "character, which no text file can hold")
    return value


def lone_surrogate(value) -> tuple[str, str] | None:
    """Where in a JSON value (`bots[1]`, `params`) a text holds a lone surrogate, and which
    one (`\\udc80`), or None. JSON may write one as an escape (`"\\udc80"`); it is half
    of a character, so it can be neither printed nor written as UTF-8."""
    todo: list[tuple[str, object]] = [("", value)]
    while todo:  # by hand, not recursively: the JSON may nest as deep as json.loads allows
        where, v = todo.pop()
        texts: list = []
        if isinstance(v, str):
            texts = [v]
        elif isinstance(v, list):
            todo += reversed([(f"{where}[{k}]", item) for k, item in enumerate(v)])
        elif isinstance(v, dict):
            texts = list(v)  # the keys: a bad one is reported at its object
            for key, item in reversed(v.items()):
                step = key if _NAME.fullmatch(key) else json.dumps(key[:40])  # ASCII escapes
                todo.append((f"{where}.{step}" if where else step, item))
        for text in texts:
            bad = _SURROGATE.search(text)
            if bad:
                return where or "the top", ascii(bad.group())[1:-1]
    return None


_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")


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
