"""One error hierarchy for the whole engine.

Every error a user can cause (a bad pack, a bad save file, an illegal action, a rule that
runs away) is a `HordeError`. The CLI catches exactly this type at its boundary and prints
it; anything else is a bug in horde. Errors that point into a file carry `Span`s so the
message reads `file:line:col: what is wrong` followed by the source line and a caret.

That line is quoted from the text the YAML reader was given (`remember_source`), never
read from the file system again: a span can name any file, and quoting whatever it names
would print files no pack may read (and, read again, a line edited since).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

# Span file name -> the text read under that name; its lines, once an excerpt needs them.
_SOURCES: dict[str, str] = {}
_LINES: dict[str, list[str]] = {}
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as one
# Never printed as they are: control characters (a pack's "\e[2J" would drive the terminal)
# and bidirectional controls (they reorder how a line reads).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                          "\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a source file. Lines and columns are 1-based, as editors show them."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, dline: int, col: int) -> Span:
        """The span `dline` lines further down, at column `col` (used for DSL inside YAML)."""
        return Span(self.file, self.line + dline, col)


def remember_source(name: str, text: str) -> None:
    """Keep `text`, read as file `name`, for the excerpts of errors that point into it."""
    _SOURCES[name] = text
    _LINES.pop(name, None)


def source_line(name: str, line: int) -> str:
    """Line `line` (1-based) of the text remembered as `name`, '' if there is none."""
    lines = _LINES.get(name)
    if lines is None:
        text = _SOURCES.get(name)
        if text is None:
            return ""
        lines = _LINES[name] = _LINE_BREAK.split(text)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def locator(node) -> Callable[[tuple[int, int] | None], Span | None]:
    """A function mapping a snippet's position (line, col) to its Span in the YAML file
    `node` (a scalar read with positions) came from: the Span of the snippet itself when
    the position is None, no Span at all when `node` has none."""
    span: Span | None = getattr(node, "span", None)
    style = getattr(node, "style", None)
    if span is None:
        return lambda pos: None

    def locate(pos: tuple[int, int] | None) -> Span | None:
        if pos is None:
            return span
        line, col = pos
        if style in ("|", ">"):
            # the block's indentation is that of its first line; deeper lines keep theirs in `col`
            first = source_line(span.file, span.line + 1)
            indent = len(first) - len(first.lstrip(" "))
            return Span(span.file, span.line + line, indent + col)
        if line == 1:
            return Span(span.file, span.line, span.col + col - (0 if style in ('"', "'") else 1))
        return Span(span.file, span.line + line - 1, col)

    return locate


def source_excerpt(span: Span) -> str:
    """The source line of `span` and a caret under its column, or '' if it was not read."""
    text = source_line(span.file, span.line)
    if not text:
        return ""
    text = _UNPRINTABLE.sub("?", text.expandtabs(1))  # one character each: the caret fits
    caret = " " * max(span.col - 1, 0) + "^"
    return f"    {text}\n    {caret}"


def printable(text: str) -> str:
    """`text` with its control characters written as escapes (`\\x1b`)."""
    return _UNPRINTABLE.sub(lambda m: ascii(m[0])[1:-1], text)


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest candidate, as Starlark's resolver does."""
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


@dataclass
class Problem:
    """One thing wrong with a pack, scenario or save file."""

    message: str
    span: Span | None = None
    hint: str | None = None

    def format(self, excerpt: bool = True) -> str:
        head = f"{self.span}: {self.message}" if self.span else self.message
        parts = [printable(head)]
        if excerpt and self.span:
            src = source_excerpt(self.span)
            if src:
                parts.append(src)
        if self.hint:
            parts.append(printable(f"    hint: {self.hint}"))
        return "\n".join(parts)

    def to_dict(self) -> dict:
        d: dict = {"message": self.message}
        if self.span:
            d.update(file=self.span.file, line=self.span.line, col=self.span.col)
        if self.hint:
            d["hint"] = self.hint
        return d


class HordeError(Exception):
    """Base of every error a user can cause. The CLI prints these without a traceback."""

    exit_code = 1

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.problem = Problem(message, span, hint)

    @property
    def problems(self) -> list[Problem]:
        return [self.problem]

    def __str__(self) -> str:
        return "\n".join(p.format() for p in self.problems)


class PackError(HordeError):
    """Everything wrong with a pack, all at once: a designer fixes them in one pass."""

    def __init__(self, problems: list[Problem]):
        Exception.__init__(self, f"{len(problems)} problem(s)")
        self._problems = list(problems)

    @property
    def problems(self) -> list[Problem]:
        return self._problems

    def __str__(self) -> str:
        n = len(self._problems)
        body = "\n".join(p.format() for p in self._problems)
        return f"{body}\n{n} problem{'s' if n != 1 else ''} found"


class DSLSyntaxError(HordeError):
    """An effect or expression that does not parse."""


class RuleRuntimeError(HordeError):
    """A rule did something impossible while the game ran (budget exhausted, bad value)."""


class StateError(HordeError):
    """A corrupt save file, an illegal action label, a game that is already over."""


class ScenarioFailure(HordeError):
    """A scenario whose expectations did not hold."""
