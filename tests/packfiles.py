"""Packs written into a temporary folder, for tests of what a load reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.pack import loader


def write(folder: Path, files: dict[str, str]) -> Path:
    """Each `name: text` of `files` as a file below `folder` (folders made as needed)."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


@pytest.fixture
def no_bundled_packs(tmp_path, monkeypatch):
    """Pack ids are looked up in an empty folder: a test sees only the packs it writes."""
    (tmp_path / "bundled").mkdir()
    monkeypatch.setattr(loader, "rulesets_dir", lambda: tmp_path / "bundled")
