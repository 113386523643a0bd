"""`log(fmt, ...)` written out in generated code, so a game pays little for the log it keeps."""

from __future__ import annotations

import string

from engine.dsl import ast
from engine.dsl.facts import Tally
from engine.dsl.pysource import CURRENT, VARIABLE

_FORMATTER = string.Formatter()

def log_line(fmt: ast.Node, args: list[str], types: list[str], facts: Tally) -> str | None:
    """`log(fmt, ...)` written out, when `fmt` is a literal with one plain `{}` per argument
    (nearly every log line): the message is put together in place, a player described
    without a call, so that a game pays little for the log it keeps. Anything else (numbered or
    formatted fields, a count that does not match, a format made at run time) is left to
    the builtin, which also says what it does with a format that does not fit. Like the
    builtin, such a line changes nothing a rule reads."""
    if not (isinstance(fmt, ast.Const) and isinstance(fmt.value, str)):
        return None
    try:
        parsed = list(_FORMATTER.parse(fmt.value))
    except ValueError:
        return None
    fields = [(f, spec, conv) for _, f, spec, conv in parsed if f is not None]
    if len(fields) != len(args) or any(f or spec or conv for f, spec, conv in fields):
        return None
    described = []
    for code, t in zip(args, types, strict=True):
        if code == CURRENT:
            described.append(f'f"P{{{code}.i}}"')
        elif t == "player" and VARIABLE.fullmatch(code):
            facts.use("_type", "_P")
            described.append(f'(f"P{{{code}.i}}" if _type({code}) is _P else S.describe({code}))')
        else:
            described.append(f"S.describe({code})")
    # the message is joined with +: every described value is a str, which a plain `{}`
    # formats as itself, and a join costs less than a call of `str.format`
    texts = iter(described)
    parts = []
    for literal, f, _, _ in parsed:
        if literal:
            parts.append(repr(literal))
        if f is not None:
            parts.append(next(texts))
    if len(parts) < 2:  # '' + a str gives a plain str, as a format would
        parts = ["''", *parts]
    return f"S.log.append({{'t': 'msg', 'text': {' + '.join(parts)}}})"


