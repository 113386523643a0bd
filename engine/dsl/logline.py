"""`log(fmt, ...)` written out in generated code, so a game pays little for the log it keeps."""

from __future__ import annotations

import re
import string

from engine.dsl import ast
from engine.dsl.facts import Tally
from engine.dsl.pysource import CURRENT, VARIABLE
from engine.dsl.runtime import MAX_LEN
from engine.errors import RuleRuntimeError

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
    facts.use("_say")  # which charges the line's characters, as the builtin does
    return f"_say(S, {' + '.join(parts)})"


_DIGITS = re.compile(r"\d+")


def fit_line(fmt: str, texts: list[str]) -> None:
    """`fmt.format(*texts)` makes a line of at most MAX_LEN characters, or this says why not
    before Python pads a field to the 2000000000 of `{:2000000000}`. Each field counts as its
    widest padding or its longest argument (up to ten characters a character with `!r`).
    A field naming an argument's attribute or item (`{0.x}`, `{0[1]}`) is not a log field:
    ValueError, as for a format that does not parse, and the line is written as it is."""
    longest = max(map(len, texts), default=0)
    total = 0
    for literal, name, spec, conversion in _FORMATTER.parse(fmt):
        total += len(literal)
        if name is None:
            continue
        if name and not name.isdigit():
            raise ValueError(f"'{{{name}}}' is not a field of a log line")
        width = longest * (10 if conversion in ("r", "a") else 1) + 2
        if spec:
            numbers = _DIGITS.findall(" ".join([spec, *texts]) if "{" in spec else spec)
            width = max(width, *(int(n[:19]) for n in numbers), 0)
        total += width
    if total > MAX_LEN:
        raise RuleRuntimeError(f"log: a line of up to {total:,} characters is longer than the "
                               f"{MAX_LEN:,} characters a text may hold",
                               hint="a format field's width (the 9 of '{:9}') pads it to that "
                                    "many characters")
