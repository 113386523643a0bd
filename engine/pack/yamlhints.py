"""Hints for YAML layout errors, which PyYAML words least plainly.

A tab in a line's indentation ("found character that cannot start any token") and a line
indented unlike its block ("mapping values are not allowed here", "did not find expected
key") are the slips a new author makes most; the hint says which, and where.
"""

from __future__ import annotations

from engine.errors import Span

# what PyYAML says when a line is indented unlike the block it is in
_INDENT_ERRORS = ("mapping values are not allowed", "did not find expected key",
                  "did not find expected '-' indicator", "expected <block end>")


def layout_hint(text: str, span: Span, message: str) -> tuple[Span, str | None]:
    """A hint for the two layout slips PyYAML words least plainly, and where: a tab in a
    line's indentation (YAML indents with spaces only; pointed at the tab), or a line
    indented unlike the lines of its block above it."""
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return span, None
    tab = "tab" in message or "cannot start any token" in message
    for n in (span.line, span.line - 1) if tab else (span.line,):  # PyYAML may stop after it
        line = lines[n - 1] if n >= 1 else ""
        lead = line[:len(line) - len(line.lstrip(" \t"))]
        if "\t" in lead:
            return (Span(span.file, n, lead.index("\t") + 1),
                    "YAML indents with spaces only: replace the tab with spaces")
    return span, _indent_hint(text, span, message)


def _indent_hint(text: str, span: Span, message: str) -> str | None:
    """For an error of indentation: how this line is indented against the lines above."""
    if not any(message.startswith(e) for e in _INDENT_ERRORS):
        return None
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return None
    here = lines[span.line - 1]
    width = len(here) - len(here.lstrip(" "))
    above = [len(x) - len(x.lstrip(" ")) for x in lines[:span.line - 1]
             if x.strip() and not x.lstrip().startswith("#")]
    if not above or width in above:
        return None
    spaces = f"{width} space{'' if width == 1 else 's'}"
    return (f"line {span.line} is indented {spaces}, which lines up with no line above it "
            f"(the one above: {above[-1]}): the keys of one mapping, and the items of one "
            "list, line up")
