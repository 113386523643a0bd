"""Which line of an overlay a problem in its base pack comes from.

A house rule that changes a procedure's parameters breaks every base snippet that calls
it; the compiler finds the break in the base pack's file, a file the designer did not
touch and may not even have. `horde validate` shows such a problem (one the base alone
does not have) at the overlay's change that caused it: the change (engine.pack.changes)
whose path names what the problem names, or the overlay's first change when none does,
with the base's place kept in the message.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.errors import Problem, Span, source_excerpt
from engine.pack.changes import Change

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _culprit(problem: Problem, ours: list[Change]) -> Change:
    """The overlay change that most likely caused `problem`: the first whose path shares
    a name with the problem's message or the base line it points at."""
    named = set(re.findall(r"'([^']+)'", problem.message))
    for change in ours:  # an item the message names by its id first
        if any(f"[id={n}]" in change.path for n in named):
            return change
    said = _words(problem.message) | _words(source_excerpt(problem.span) or "" if problem.span else "")
    for change in ours:
        if _words(change.path) & said - {"id"}:
            return change
    return ours[0]


def _same_file(span: Span, files: set[str]) -> bool:
    return str(Path(span.file).resolve()) in files


def repoint(problems: list[Problem], base: list[Problem], overlay: list[Path],
            changes: list[Change]) -> list[Problem]:
    """`problems` of a load with `overlay` files, those outside them and not among the
    `base` load's `problems` shown at the overlay's change (`changes`: base -> merged)."""
    files = {str(p.resolve()) for p in overlay}
    ours = [c for c in changes if c.span is not None and _same_file(c.span, files)]
    known = {(p.message, p.span) for p in base}
    out = []
    for p in problems:
        if not ours or p.span is None or _same_file(p.span, files) or (p.message, p.span) in known:
            out.append(p)
            continue
        change = _culprit(p, ours)
        out.append(Problem(f"{p.message} (at {p.span}, after this change of {change.path})",
                           change.span, p.hint))
    return out
