"""Shared fixtures for the balance tools' tests: the reference pack, and an editable copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import engine
from engine.pack.loader import rulesets_dir

PACK = "roll-them-bones"


@pytest.fixture(scope="session")
def rtb():
    return engine.load(PACK)


@pytest.fixture
def pack_copy(tmp_path) -> Path:
    """A private copy of the reference pack's folder, to edit."""
    dst = tmp_path / PACK
    shutil.copytree(rulesets_dir() / PACK, dst)
    return dst


def set_metrics(folder: Path, lines: str) -> Path:
    """Replace the copy's `metrics:` section with `lines` (YAML, indented by two)."""
    path = folder / "pack.yaml"
    text = path.read_text()
    head = text[:text.index("\nmetrics:")]
    path.write_text(head + "\nmetrics:\n" + lines)
    return path
