"""Procedures as plain Python functions, called directly.

A call `proc(a, b)` compiles to `_pc_proc(S, a, b)`. Procedures are compiled in no
particular order, so that name first holds a stub which, on the first call, finds the
procedure in the running game, makes its *direct function* and puts it in its place. The
direct function is the procedure's own generated code with its parameters as Python
parameters: no dict of arguments, no detour through `Game.call_effect_proc`, but the same
depth limit, step charge and error positions.

Legality plans go one step further for the small `value:` procedures conditions are made
of: the compiler writes their expression into the condition (engine.dsl.inline).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from engine.dsl import pysource
from engine.dsl.compiled import Compiled, error_pos, filename, runtime_message
from engine.errors import HordeError, RuleRuntimeError

_CATCH = (ArithmeticError, LookupError, TypeError, AttributeError, ValueError, RecursionError)


def stub(ns: dict, name: str) -> Callable:
    """What `_pc_<name>` holds in namespace `ns` until the first call."""
    def first_call(S, *args):
        fn = direct_proc(S.game, name)
        ns["_pc_" + name] = fn
        return fn(S, *args)
    return first_call


def direct_proc(game, name: str) -> Callable:
    """The procedure `name` of `game` as a function `fn(S, *args)` (made once)."""
    params, compiled = game.effect_procs[name]
    if compiled.direct is None:
        compiled.direct = _make_direct(compiled, name, params, game.limits)
    return compiled.direct


def _too_deep(name: str, depth: int):
    raise RuleRuntimeError(f"procedure calls nested deeper than {depth} (calling '{name}')")


def _locate_error(c):
    """Inside an `except`: give the error being handled the position it happened at (as
    `machine.evaluate` does): a rule error gets it, any other error becomes one."""
    exc = sys.exc_info()[1]
    assert exc is not None, "called outside an except block"
    span = c.locate(error_pos(c)) if c.locate else None
    if isinstance(exc, HordeError):
        if isinstance(exc, RuleRuntimeError) and exc.problem.span is None:
            exc.problem.span = span
        return exc
    return RuleRuntimeError(runtime_message(exc), span)


def _make_direct(c, name: str, params: list[str], limits: dict) -> Callable:
    if c.uses is None or not set(c.uses) <= set(params) or not c.body or \
            not all(pysource.is_ident(p) for p in params):
        def generic(S, *args):  # reads a name no argument gives: the general way
            return S.game.call_effect_proc(S, name, dict(zip(params, args, strict=True)))
        return generic
    depth = pysource.whole(limits["depth"])
    head = [
        f"def _direct(S{''.join(', ' + pysource.name('v_', p) for p in params)}):",
        f"    if S.depth >= {depth}:",
        f"        _too_deep({name!r}, {depth})",
        "    S.depth += 1",
        *pysource.charge_lines(1, "    "),
        "    try:",
    ]
    tail = [
        "    except _HordeError:",
        "        _locate_error(_D)",
        "        raise",
        "    except _CATCH:",
        "        raise _locate_error(_D) from None",
        "    finally:",
        "        S.depth -= 1",
    ]
    source = "\n".join([*head, *("    " + line for line in c.body), *tail]) + "\n"
    ns = c.fn.__globals__  # the procedure's own names: builtins, constants, callees
    pysource.run(source, filename(f"proc {name}"), ns, c.locate(None) if c.locate else None)
    fn = ns.pop("_direct")
    lines = {ln + len(head): pos for ln, pos in c.body_lines.items()}
    ns["_D"] = Compiled(fn, c.type, source, lines, c.locate)
    ns.update(_too_deep=_too_deep, _locate_error=_locate_error, _HordeError=HordeError,
              _CATCH=_CATCH)
    return fn
