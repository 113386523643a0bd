"""Where a load's files come from: this machine's disk, or a map of the files' contents.

A game played on another machine (a cluster worker) cannot be given a path: the pack and
house rules are not there, or not at the same place. So every load keeps what it read,
as `Sources`: each file's bytes under its real path, the symlinks it followed, and the
pack and house rules as the caller named them. Loading from `Sources` answers every
question the loader asks of a file system (does this file exist, is this a folder, where
does this path really lead, what does it hold) from that map alone and never touches the
disk, so the confinement rules of `engine.pack.confine` apply unchanged: a file that is
not in the map does not exist, and a file outside the pack folder is refused by its path
before anything is looked up.

`Sources.digest()` is a hash of all of it: whoever receives a map checks it against the
hash it was sent with, so a map changed on the way is refused, not played.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from engine import resources
from engine.errors import PackError, Problem
from engine.pack.yamlspan import read_bytes


def _plain(path: Path | str) -> str:
    """`path` absolute, with `.` and `..` taken away by the letters (no symlink followed)."""
    return os.path.normpath(os.path.abspath(path))


def _house_entry(entry: str | Path, fs: Disk | Sources) -> str:
    """A house rule as another machine finds it in the sources: a file by its absolute
    path, the name of one of the pack's house rules as it is."""
    path = Path(str(entry)).expanduser()
    return _plain(path) if fs.kind(path) is not None else str(entry)


class Disk:
    """The files as they are on this machine. With `links`, every path that leads elsewhere
    (a symlink on the way) is noted there, so a `Sources` can answer the same."""

    def __init__(self, links: dict[str, str] | None = None,
                 rulesets: Callable[[], Path] | None = None):
        self.links = links
        self._rulesets = rulesets or (lambda: resources.data_dir("rulesets"))

    def real(self, path: Path) -> Path:
        """`path` with every symlink followed (as far as they lead: a loop stays a loop)."""
        try:
            found = path.resolve()
        except (OSError, RuntimeError, ValueError):  # a loop; a NUL in the name
            return Path(os.path.abspath(path))
        if self.links is not None and str(found) != _plain(path):
            self.links[_plain(path)] = str(found)
        return found

    def kind(self, path: Path) -> str | None:
        """'file' (a regular one), 'dir', 'other' (a FIFO, a device...) or None (nothing)."""
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            return None
        return "file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode) else "other"

    def names(self, folder: Path) -> list[str]:
        """The names in `folder`, sorted; none when it is no folder."""
        try:
            return sorted(os.listdir(folder))
        except (OSError, ValueError):
            return []

    def read(self, path: Path, name: str) -> bytes:
        return read_bytes(path, name)

    def rulesets(self) -> Path:
        """Where the bundled packs are."""
        return self._rulesets()


DISK = Disk()


@dataclass(frozen=True)
class Sources:
    """The files one load read, by content: enough to load the same game anywhere."""

    ref: str  # the pack as the caller named it: an absolute path
    house: tuple[str, ...]  # the house rules as named: absolute paths, or a house rule's name
    files: tuple[tuple[str, bytes], ...]  # real path -> the bytes read
    links: tuple[tuple[str, str], ...]  # path as written -> where it really led
    rulesets_dir: str  # where the bundled packs were (a pack may extend one by its id)

    @classmethod
    def of(cls, named: Path, house, texts: dict[Path, bytes], links: dict[str, str],
           fs: Disk | Sources) -> Sources:
        """What a load from `fs` read: `named` the pack, `house` its house rules as given,
        `texts` each file read, `links` the symlinks followed (when `fs` is the disk)."""
        return cls(_plain(named), tuple(_house_entry(h, fs) for h in house),
                   tuple((str(p), b) for p, b in texts.items()),
                   tuple(sorted(links.items())) if isinstance(fs, Disk) else fs.links,
                   str(fs.rulesets()))

    def digest(self) -> str:
        """A hash of everything here: the names, the links and every file's bytes."""
        body = json.dumps([self.ref, list(self.house), self.rulesets_dir, sorted(self.links),
                           sorted((n, hashlib.sha256(b).hexdigest()) for n, b in self.files)])
        return hashlib.sha256(body.encode()).hexdigest()

    @cached_property
    def _files(self) -> dict[str, bytes]:
        return dict(self.files)

    @cached_property
    def _links(self) -> dict[str, str]:
        return dict(self.links)

    @cached_property
    def _folders(self) -> set[str]:
        """Every folder above a file: those are the map's folders."""
        out: set[str] = set()
        for name in self._files:
            parent = os.path.dirname(name)
            while parent not in out:
                out.add(parent)
                if os.path.dirname(parent) == parent:
                    break
                parent = os.path.dirname(parent)
        return out

    # ---------- the same questions as `Disk`, answered from the map ----------

    def real(self, path: Path) -> Path:
        plain = _plain(path)
        return Path(self._links.get(plain, plain))

    def kind(self, path: Path) -> str | None:
        found = str(self.real(path))
        return "file" if found in self._files else "dir" if found in self._folders else None

    def names(self, folder: Path) -> list[str]:
        found = str(self.real(folder))
        return sorted({os.path.basename(n) for n in (*self._files, *self._folders)
                       if os.path.dirname(n) == found and n != found})

    def read(self, path: Path, name: str) -> bytes:
        data = self._files.get(str(self.real(path)))
        if data is None:
            raise PackError([Problem(f"cannot read {name}: it is not among the files sent")])
        return data

    def rulesets(self) -> Path:
        return Path(self.rulesets_dir)
