"""validate's problems as LSP diagnostics: each at the range of the token its span starts
(a YAML value, a key, a name inside a snippet), its hint in the message, and a "did you
mean" hint's replacement kept for the code action that applies it."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types as lsp

from engine.errors import Problem
from engine.lsp.text import span_range, utf16_col

_SUGGESTION = re.compile(r"did you mean '([^']+)'\?")
_QUOTED = re.compile(r"'([^']+)'")


def same_file(span_file: str, path: Path) -> bool:
    return os.path.realpath(span_file) == os.path.realpath(path)


def _range(lines: list[str], row: int, start: int, end: int) -> lsp.Range:
    text = lines[row] if row < len(lines) else ""
    return lsp.Range(lsp.Position(row, utf16_col(text, start)), lsp.Position(row, utf16_col(text, end)))


def diagnostic(p: Problem, path: Path, lines: list[str], severity: lsp.DiagnosticSeverity) -> lsp.Diagnostic:
    message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
    data = None
    if p.span is not None and same_file(p.span.file, path):
        row, start, _, end = span_range(lines, p.span)
        data = _fix(p, lines, row, start)
        if data is not None and data["start"] < start:
            start = data["start"]
        if data is not None:
            end = max(end, data["end"])
        where = _range(lines, row, start, end)
    else:
        if p.span is not None:
            message = f"{p.span}: {message}"
        where = _range(lines, 0, 0, 0)
    return lsp.Diagnostic(where, message, severity=severity, source="horde", data=data)


def _fix(p: Problem, lines: list[str], row: int, col: int) -> dict | None:
    """The replacement a "did you mean" hint proposes: the quoted name of the message most
    like the suggestion (the wrong one), where it is written on the problem's line nearest
    its column."""
    found = _SUGGESTION.search(p.hint or "")
    if not found or row >= len(lines):
        return None
    text = lines[row]
    names = sorted(set(_QUOTED.findall(p.message)) - {found.group(1)},
                   key=lambda n: -difflib.SequenceMatcher(None, n, found.group(1)).ratio())
    for wrong in names:
        spots = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(wrong)}(?![\w-])", text)]
        if spots:
            start = min(spots, key=lambda s: (s < col, abs(s - col)))
            return {"row": row, "start": start, "end": start + len(wrong), "with": found.group(1)}
    return None


def code_actions(uri: str, lines: list[str], diagnostics: Sequence[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    out = []
    for d in diagnostics:
        fix = d.data if isinstance(d.data, dict) else None
        if not fix or not {"row", "start", "end", "with"} <= set(fix):
            continue
        row = int(fix["row"])
        edit = lsp.TextEdit(_range(lines, row, int(fix["start"]), int(fix["end"])), str(fix["with"]))
        out.append(lsp.CodeAction(f"Replace with '{fix['with']}'", kind=lsp.CodeActionKind.QuickFix,
                                  diagnostics=[d], is_preferred=True,
                                  edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    return out
