"""`horde --help`: every command's summary reads as the sentence its docstring says."""

from __future__ import annotations

import inspect
import re

from engine.cli.app import app


def _summaries() -> dict[str, str]:
    """command name -> the first paragraph of its docstring, on one line."""
    out = {}
    for info in app.registered_commands:
        doc = inspect.getdoc(info.callback) or ""
        out[info.name] = " ".join(doc.split("\n\n")[0].split())
    return out


def test_command_list_does_not_break_summaries_where_the_docstring_does(horde, monkeypatch):
    # A docstring wraps its lines at the source's width; the help must reflow them to the
    # terminal's, not keep those breaks (on a wide terminal every summary fits one row).
    monkeypatch.setenv("COLUMNS", "400")
    r = horde("--help")
    assert r.exit_code == 0
    rows = [re.sub(r"\s+", " ", line.strip("│ ")) for line in r.output.splitlines()]
    for name, summary in _summaries().items():
        assert any(row == f"{name} {summary}" for row in rows), f"{name}: {summary!r} not on one row"


def test_later_paragraphs_of_a_command_help_are_reflowed(horde, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    r = horde("compare", "--help")
    assert r.exit_code == 0
    assert "(and `base` before it when no variant is named): `horde compare PACK" in r.output


def test_version_names_horde_and_python(horde):
    import platform
    from importlib.metadata import version

    r = horde("--version")
    assert r.exit_code == 0
    assert r.output.strip() == f"horde {version('horde')} (Python {platform.python_version()})"


def test_commands_run_as_before_with_the_root_options(horde):
    r = horde("list")
    assert r.exit_code == 0 and "roll-them-bones" in r.output
