"""Helpers for `horde check` tests: a private cache folder, fixtures by name."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture(name: str) -> str:
    return str(FIXTURES / f"{name}.yaml")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch) -> Path:
    """Hypothesis's example database goes to a fresh folder: tests never share failures."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    return folder
