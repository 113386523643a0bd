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
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

# Span file name -> the text read under that name; its lines, once an excerpt needs them.
_SOURCES: dict[str, str] = {}
_LINES: dict[str, list[str]] = {}
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as one
# Never printed as they are: control characters, C0 and C1 (a pack's "\e[2J" would drive the
# terminal; tab and newline are kept), DEL, bidirectional controls (they reorder how a line
# reads) and lone surrogates (no encoding can write them: printing one would crash).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                          "\u2066-\u2069\ud800-\udfff]")

# What one error may print, whatever its input: an excerpt is cut to EXCERPT_WIDTH columns
# around its caret, a message or hint to MESSAGE_WIDTH characters, and a listing of problems
# stops after MAX_SHOWN of them (`--all-errors` shows them all).
EXCERPT_WIDTH = 100
MESSAGE_WIDTH = 400
MAX_SHOWN = 50
_shown: list[int | None] = [MAX_SHOWN]
# did_you_mean compares a name with at most this many candidates, each at most this long:
# a hint costs the same for a pack of ten names and one of ten thousand.
HINT_CANDIDATES = 1000
HINT_LENGTH = 64
ELLIPSIS = "…"


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


def source_excerpt(span: Span, width: int = EXCERPT_WIDTH) -> str:
    """The source line of `span` and a caret under its column, or '' if it was not read.
    A line longer than `width` is cut to the `width` columns around the caret, with an
    ellipsis on each side where something was cut."""
    text = source_line(span.file, span.line)
    if not text:
        return ""
    col = max(span.col - 1, 0)
    if len(text) > width:  # cut before anything else: the work is that of `width` columns
        start = max(0, min(col - width // 2, len(text) - width))
        end = start + width
        text = (ELLIPSIS if start else "") + text[start:end] + (ELLIPSIS if end < len(text) else "")
        col = col - start + (1 if start else 0)
    text = _UNPRINTABLE.sub("?", text.replace("\t", " "))  # one character each: the caret fits
    return f"    {text}\n    {' ' * col}^"


def printable(text: str) -> str:
    """`text` with what could drive or garble a terminal written as escapes (`\\x1b`,
    `\\u202e`): control characters but tab and newline, bidi controls, lone surrogates.
    Every text that comes from a pack, overlay, record, save or scenario is shown through it."""
    return _UNPRINTABLE.sub(lambda m: ascii(m[0])[1:-1], text)


def clipped(text: str, width: int = MESSAGE_WIDTH) -> str:
    """`text`, printable, at most about `width` characters: cut in the middle, with an
    ellipsis, when longer (an error quoting a megabyte of pack text prints a line of it)."""
    keep = width // 2
    while True:
        shown = printable(cut(text, 2 * keep))
        if len(shown) <= width + 1 or keep < 8:  # escapes lengthen it: cut shorter
            return shown
        keep //= 2


def cut(text: str, width: int = MESSAGE_WIDTH) -> str:
    """`text` cut in the middle to `width` characters and an ellipsis, when longer."""
    keep = width // 2
    return text if len(text) <= 2 * keep else text[:keep] + ELLIPSIS + text[-keep:]


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest candidate, as Starlark's resolver does. Only the first
    HINT_CANDIDATES candidates, and names up to HINT_LENGTH long, are compared."""
    name = str(name)
    if len(name) > HINT_LENGTH:
        return None
    pool = [c for c in map(str, itertools.islice(candidates, HINT_CANDIDATES))
            if len(c) <= HINT_LENGTH]
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def show_problems(limit: int | None) -> None:
    """How many problems an error lists: the first `limit`, or all of them with None."""
    _shown[0] = limit


def problems_shown() -> int | None:
    """How many problems an error lists (None: all), as set by show_problems."""
    return _shown[0]


def more_line(more: int, word: str = "problem") -> str:
    """The line that ends a cut listing: how many were not shown, and how to see them."""
    return (f"{ELLIPSIS} and {more} more {word}{'s' if more != 1 else ''} "
            "(use --all-errors to see them all)")


def listing(problems: list[Problem], limit: int | None | bool = True) -> str:
    """`problems`, formatted one after another: the first `limit` (as set by show_problems
    when True) and, when there are more, a line saying how many more."""
    if limit is True:
        limit = _shown[0]
    shown = problems if limit is None else problems[:limit]
    lines = [p.format() for p in shown]
    if len(problems) > len(shown):
        lines.append(more_line(len(problems) - len(shown)))
    return "\n".join(lines)


@dataclass
class Problem:
    """One thing wrong with a pack, scenario or save file."""

    message: str
    span: Span | None = None
    hint: str | None = None

    def format(self, excerpt: bool = True) -> str:
        parts = [clipped(f"{self.span}: {self.message}" if self.span else self.message)]
        if excerpt and self.span:
            src = source_excerpt(self.span)
            if src:
                parts.append(src)
        if self.hint:
            parts.append("    hint: " + clipped(self.hint))
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
        return self.report()

    def report(self, limit: int | None | bool = True) -> str:
        """The problems, as `listing` shows them (all of them with limit=None)."""
        return listing(self.problems, limit)


class PackError(HordeError):
    """Everything wrong with a pack, all at once: a designer fixes them in one pass."""

    def __init__(self, problems: list[Problem]):
        Exception.__init__(self, f"{len(problems)} problem(s)")
        self._problems = list(problems)

    @property
    def problems(self) -> list[Problem]:
        return self._problems

    def report(self, limit: int | None | bool = True) -> str:
        n = len(self._problems)
        return f"{listing(self._problems, limit)}\n{n} problem{'s' if n != 1 else ''} found"


class DSLSyntaxError(HordeError):
    """An effect or expression that does not parse."""


class RuleRuntimeError(HordeError):
    """A rule did something impossible while the game ran (budget exhausted, bad value)."""


class StateError(HordeError):
    """A corrupt save file, an illegal action label, a game that is already over."""


class ScenarioFailure(HordeError):
    """A scenario whose expectations did not hold."""
