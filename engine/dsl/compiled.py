"""A compiled snippet, and what its generated code needs when it runs or fails.

Below both the compiler (engine.dsl.compiler), which makes `Compiled` snippets, and the
procedures' direct functions (engine.dsl.procs), which the compiled code calls and which
make functions of their own: so neither imports the other to share these.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.dsl import ast
from engine.dsl.facts import Facts
from engine.errors import RuleRuntimeError


@dataclass(eq=False)  # each snippet is itself: what a game works out about one is kept by it
class Compiled:
    """A compiled snippet: call `fn(S, L)`. `lines` maps generated lines to snippet positions."""

    fn: Callable
    type: str
    source: str
    lines: dict[int, ast.Pos] = field(default_factory=dict)
    locate: Callable[[ast.Pos | None], object] | None = None  # snippet pos -> file Span
    uses: tuple[str, ...] | None = None  # outer names the snippet reads from `L` (None: unknown)
    body: list[str] = field(default_factory=list, repr=False)  # generated lines, indent 1
    body_lines: dict[int, ast.Pos] = field(default_factory=dict, repr=False)
    direct: Callable | None = field(default=None, repr=False)  # as a procedure: see direct_proc
    facts: Facts | None = field(default=None, repr=False)  # what it does (None: not known)
    tree: ast.Node | None = field(default=None, repr=False)  # what it was compiled from
    # its `emit(...)` calls: (event name or None, field names, snippet pos)
    emits: tuple = field(default=(), repr=False)


_COUNTER = [0]


def filename(label: str) -> str:
    """A file name no other generated code has, for tracebacks: `<horde:label:n>`."""
    _COUNTER[0] += 1
    return f"<horde:{label}:{_COUNTER[0]}>"


def error_pos(compiled: Compiled) -> ast.Pos | None:
    """The snippet position of the innermost frame of the exception being handled."""
    tb = sys.exc_info()[2]
    pos = None
    code = compiled.fn.__code__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            pos = compiled.lines.get(tb.tb_lineno)
        tb = tb.tb_next
    return pos


def runtime_message(exc: BaseException) -> str:
    if isinstance(exc, RuleRuntimeError):
        return exc.problem.message
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, KeyError):
        return f"no value for {exc.args[0]!r}"
    if isinstance(exc, AttributeError):
        return "a value here is none or of the wrong kind"
    if isinstance(exc, TypeError):  # Python's words for a value of the wrong kind, in the pack's
        text = _CONCAT.sub(r"unsupported operand type(s) for +: '\1' and '\2'", str(exc))
        text = _PY_TYPE.sub(lambda m: m[1] + _PY_TYPES.get(m[2], m[2]) + m[1], text)
        return "a value of the wrong kind: " + text.replace("instances of ", "").replace(
            "unsupported operand type(s) for", "cannot use")
    return f"{type(exc).__name__}: {exc}"


_PY_TYPE = re.compile(r"""(['"])(\w+)\1""")
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+')
_PY_TYPES = {"int": "number", "str": "text", "NoneType": "none", "bool": "true/false",
             "list": "list", "dict": "record", "P": "player", "E": "entity", "Z": "zone",
             "Face": "die face"}
