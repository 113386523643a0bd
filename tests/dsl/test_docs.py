"""The builtins reference in docs/ is generated from the registry and must be current."""

from pathlib import Path

from engine.dsl.doc import builtins_markdown


def test_builtins_reference_is_current():
    doc = Path(__file__).resolve().parents[2] / "docs" / "builtins.md"
    assert doc.read_text() == builtins_markdown(), "run: python -m engine.dsl.doc > docs/builtins.md"
