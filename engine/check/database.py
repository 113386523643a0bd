"""`horde check`'s example database: Hypothesis's folder layout, read as untrusted data.

Hypothesis keeps failing choice sequences in a folder, one sub-folder per test key and one
file per sequence, both named by a hash. Its own `DirectoryBasedExampleDatabase` reads every
name it finds there as a file, whole: an entry that is a FIFO hangs the check, a link to
`/dev/zero` is read until memory runs out, and a folder replaced by a link is written
through. Anything can land in a cache folder (a restored backup, a synced home, another
program), so this database reads and writes the same layout under rules of its own
(SECURITY.md, docs/limits.md):

- every folder from the cache folder down is opened without following a link, and must be
  a folder owned by this user that nobody else can write; otherwise the database is not
  used (`problem` says why, and `horde check` warns);
- an entry is read only when its name is a hash as Hypothesis writes it and it is a regular
  file (opened without following a link and without waiting on a FIFO, then checked), of at
  most `ENTRY_BYTES`; at most `ENTRIES_READ` entries a key, among the first `NAMES_SEEN`
  names;
- an entry is written to a fresh temporary file in its folder, then renamed over its name:
  a link or FIFO in the way is replaced, never followed.

Problems on disk never stop a check: an entry that cannot be read is skipped, one that
cannot be written is not kept. The database is a cache of failures worth retrying first.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from hashlib import sha384
from pathlib import Path

from hypothesis.database import ExampleDatabase

from engine.resources import cache_dir

ENTRY_BYTES = 256 * 1024  # Hypothesis's own sequences for a check are tens of KiB at most
ENTRIES_READ = 256
NAMES_SEEN = 4096

_NAME = re.compile(r"[0-9a-f]{16}")
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _hash(data: bytes) -> str:
    """Hypothesis's name for a key or a value, so an existing database keeps its entries."""
    return sha384(data).hexdigest()[:16]


class Unsafe(OSError):
    """A folder of the database is not one this user alone controls."""


def _folder(name: str | Path, parent: int | None, *, create: bool) -> int:
    """A descriptor of folder `name` (inside the folder `parent`, or a path when None), never
    reached through a link; made private when `create` and missing."""
    if create:
        with suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=parent)
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        try:
            st = os.lstat(name, dir_fd=parent)
        except OSError:
            raise exc from None
        if stat.S_ISLNK(st.st_mode):
            raise Unsafe("is a link") from None
        if not stat.S_ISDIR(st.st_mode):
            raise Unsafe("is not a folder") from None
        raise
    st = os.fstat(fd)
    if st.st_uid != os.geteuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.close(fd)
        raise Unsafe("is not a private folder of this user's")
    return fd


def database_at(path: Path) -> FolderDatabase:
    """The database in folder `path`: from horde's cache folder down when it lies there
    (`database_path`), else `path` alone is kept from links."""
    cache = cache_dir()
    if cache is not None and path.is_relative_to(cache) and path != cache:
        return FolderDatabase(cache, *path.relative_to(cache).parts)
    return FolderDatabase(path.parent.resolve(), path.name)


class FolderDatabase(ExampleDatabase):
    """Hypothesis's folder layout at `base`/`parts`..., where `base` is a folder horde
    checked as the user's own and every one of `parts` is made and kept by horde."""

    def __init__(self, base: Path, *parts: str) -> None:
        super().__init__()
        self.base = base
        self.parts = parts
        self.path = base.joinpath(*parts)

    def __repr__(self) -> str:
        return f"FolderDatabase({str(self.path)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FolderDatabase) and self.path == other.path

    def __hash__(self) -> int:
        return hash(self.path)

    def problem(self) -> str | None:
        """Why the database cannot be used (its first folder that is a link, not a folder
        or not private), or None when it can (folders not made yet are fine)."""
        where = self.base
        try:
            fd = _folder(self.base, None, create=False)
        except Unsafe as exc:
            return f"{where} {exc}"
        except OSError:
            return None
        try:
            for part in self.parts:
                where = where / part
                try:
                    new = _folder(part, fd, create=False)
                except Unsafe as exc:
                    return f"{where} {exc}"
                except OSError:
                    return None
                os.close(fd)
                fd = new
            return None
        finally:
            os.close(fd)

    @contextmanager
    def _key_folder(self, key: bytes, *, create: bool) -> Iterator[int]:
        fds: list[int] = []
        try:
            fds.append(_folder(self.base, None, create=False))
            for part in (*self.parts, _hash(key)):
                fds.append(_folder(part, fds[-1], create=create))
            yield fds[-1]
        finally:
            for fd in fds:
                os.close(fd)

    def fetch(self, key: bytes) -> list[bytes]:
        values: list[bytes] = []
        try:
            with self._key_folder(key, create=False) as folder, os.scandir(folder) as names:
                for seen, entry in enumerate(names):
                    if seen >= NAMES_SEEN or len(values) >= ENTRIES_READ:
                        break
                    if _NAME.fullmatch(entry.name):
                        value = _read(entry.name, folder)
                        if value is not None:
                            values.append(value)
        except OSError:
            pass  # no such key yet, or a folder that is not the user's: nothing to retry
        return values

    def save(self, key: bytes, value: bytes) -> None:
        if len(value) > ENTRY_BYTES:
            return  # it could not be read back
        name = _hash(value)
        try:
            with self._key_folder(key, create=True) as folder:
                with suppress(FileNotFoundError):
                    if stat.S_ISREG(os.lstat(name, dir_fd=folder).st_mode):
                        return
                temp = f".tmp-{secrets.token_hex(8)}"
                fd = os.open(temp, _WRITE_FLAGS, 0o600, dir_fd=folder)
                try:
                    with os.fdopen(fd, "wb", closefd=True) as f:
                        f.write(value)
                    os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
                except OSError:
                    with suppress(OSError):
                        os.unlink(temp, dir_fd=folder)
        except OSError:
            pass  # a full disk or an unusable folder: the failure is not kept

    def delete(self, key: bytes, value: bytes) -> None:
        with suppress(OSError), self._key_folder(key, create=False) as folder:
            os.unlink(_hash(value), dir_fd=folder)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        if src != dest:
            self.delete(src, value)
        self.save(dest, value)


def _read(name: str, folder: int) -> bytes | None:
    """The entry `name` when it is a regular file of at most ENTRY_BYTES, else None."""
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except OSError:
        return None  # a link, or gone
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > ENTRY_BYTES:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= ENTRY_BYTES:  # the file may have grown since fstat
            chunk = os.read(fd, ENTRY_BYTES + 1 - size)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None
    except OSError:
        return None
    finally:
        os.close(fd)
