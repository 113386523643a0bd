"""Helpers for CLI tests: invoke `horde` in-process, copy a pack somewhere it may be edited."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.pack.loader import rulesets_dir

PACK = "roll-them-bones"



@pytest.fixture
def pack_copy(tmp_path) -> Path:
    """A private copy of the reference pack's folder (pack.yaml, house/, modes/)."""
    dst = tmp_path / PACK
    shutil.copytree(rulesets_dir() / PACK, dst)
    return dst


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def line_of(path: Path, needle: str) -> int:
    for k, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return k
    raise AssertionError(f"{needle!r} not in {path}")
