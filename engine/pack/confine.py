"""Which files a load may read, decided before any is opened.

Packs are shared, so what a pack's text may make horde read is confined. A *pack file*
(a `pack.yaml`, a `.yaml` in a pack's `modes/` or `house/` folder, and whatever those
include or extend by path) must lie inside its pack's folder, where it really is once
symlinks are followed. Only a file the user names (a house rule on the command line) may
lie anywhere. Only regular `.yaml`/`.yml` files are read: a FIFO would block the read, a
device never end it, and any other file is no pack's business. `engine.pack.loader`
applies these rules to every file it reads, from the disk or from a map of the files'
contents (`engine.pack.sources`): each question about a file goes to the one given.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import Problem, Span, did_you_mean
from engine.pack.sources import DISK, Disk, Sources
from engine.pack.yamlspan import span_name

PACK_FILE = "pack.yaml"
YAML_SUFFIXES = (".yaml", ".yml")


def pack_home(path: Path, fs: Disk | Sources = DISK) -> Path | None:
    """The folder of the pack `path` is a file of (a pack.yaml, or a .yaml in a pack's
    modes/ or house/ folder), symlinks resolved; None if it is no pack's file. Decided by
    where `path` is written, not where it leads, so a link cannot change its pack."""
    full = Path(os.path.abspath(path))
    if full.name == PACK_FILE:
        return fs.real(full.parent)
    if full.parent.name in ("modes", "house") and fs.kind(full.parent.parent / PACK_FILE) == "file":
        return fs.real(full.parent.parent)
    return None


def links_out(path: Path, folder: Path) -> bool:
    """Whether `path`, found in `folder`, really is somewhere else (through a symlink)."""
    return not real(path).is_relative_to(real(folder))


def real(path: Path) -> Path:
    """`path` with every symlink followed (as far as they lead: a loop stays a loop)."""
    return DISK.real(path)


def unreadable(named: Path, target: Path, home: Path | None, what: str,
               span: Span | None = None, fs: Disk | Sources = DISK) -> Problem | None:
    """Why `named` (leading to `target`) may not be read as a file of the pack in `home`
    (anywhere, when None); None when it may. The folder is checked first: whether a file
    outside exists is nothing a pack may learn."""
    if home is not None and not target.is_relative_to(home):
        return Problem(f"{what} leaves the pack folder", span,
                       hint=f"a pack's files stay inside {span_name(home)} (a symlink counts "
                            "where it leads)")
    if named.suffix not in YAML_SUFFIXES or target.suffix not in YAML_SUFFIXES:
        return Problem(f"{what}: not a .yaml file", span)
    kind = fs.kind(target)
    if kind is None:
        hint = did_you_mean(named.stem, stems(target.parent, fs))
        return Problem(f"{what}: no such .yaml file", span, hint=hint)
    if kind != "file":
        return Problem(f"{what}: not a regular file", span,
                       hint="a pack is made of ordinary .yaml files (no FIFOs or devices)")
    return None


def stems(folder: Path, fs: Disk | Sources = DISK) -> list[str]:
    """The names of the .yaml files in `folder` (its modes, say)."""
    return [name[:-5] for name in fs.names(folder)
            if name.endswith(".yaml") and fs.kind(folder / name) == "file"]
