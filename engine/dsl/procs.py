"""Procedures as plain Python functions: direct calls, and inlining into legality plans.

A call `proc(a, b)` compiles to `_pc_proc(S, a, b)`. Procedures are compiled in no
particular order, so that name first holds a stub which, on the first call, finds the
procedure in the running game, makes its *direct function* and puts it in its place. The
direct function is the procedure's own generated code with its parameters as Python
parameters: no dict of arguments, no detour through `Game.call_effect_proc`, but the same
depth limit, step charge and error positions.

Legality plans (`engine.flow.labels`) go one step further for the small `value:`
procedures conditions are made of: `inline` writes their expression into the caller.
"""

from __future__ import annotations

import ast as py
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
        "    S.fx_steps += 1",  # S.charge(1), written out
        "    S.steps += 1",
        "    if S.fx_steps > S.fx_cap or S.steps > S.step_cap:",
        "        S.charge(0)",
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


# ---- inlining ----

def _leaf_value(game, name: str):
    """(params, expression source, namespace) of a `value:` procedure that calls no other
    procedure and has no comprehension (whose variables could capture an argument's
    name), or None. Worked out once per game."""
    if name in game.program.leaves:
        return game.program.leaves[name]
    leaf = None
    entry = game.effect_procs.get(name)
    if entry is not None:
        params, c = entry
        line = c.body[0].strip() if len(c.body) == 1 else ""
        if c.uses is not None and set(c.uses) <= set(params) and line.startswith("return "):
            source = line[len("return "):]
            leaf = params, source, c.fn.__globals__
            for node in py.walk(py.parse(source, mode="eval")):
                if isinstance(node, py.comprehension | py.Lambda | py.NamedExpr) or \
                        isinstance(node, py.Name) and (node.id.startswith("_pc_") or
                                                       node.id == "_proc"):
                    leaf = None
                    break
    game.program.leaves[name] = leaf
    return leaf


class _Inliner(py.NodeTransformer):
    def __init__(self, game, players: tuple[str, ...]):
        self.game = game
        self.players = players
        self.inlined = 0  # call sites replaced
        self.ns: dict = {}

    def visit_Call(self, node: py.Call):
        self.generic_visit(node)
        f = node.func
        if not (isinstance(f, py.Name) and f.id.startswith("_pc_")) or node.keywords:
            return node
        leaf = _leaf_value(self.game, f.id[len("_pc_"):])
        args = node.args[1:]  # after S
        if leaf is None or len(args) != len(leaf[0]) or \
                not all(isinstance(a, py.Name | py.Constant) for a in args):
            return node
        params, source, ns = leaf
        bound = {"v_" + p: a for p, a in zip(params, args, strict=True)}
        body = _Substitute(bound).visit(py.parse(source, mode="eval").body)
        self.inlined += 1
        self.ns.update(ns)
        return self.visit(body)  # settles its type tests on known players

    def visit_IfExp(self, node: py.IfExp):
        """`x if _type(v) is _P else y` is `x` when `v` is known to hold a player."""
        self.generic_visit(node)
        t = node.test
        if isinstance(t, py.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], py.Is) and \
                isinstance(t.left, py.Call) and isinstance(t.left.func, py.Name) and \
                t.left.func.id == "_type" and len(t.left.args) == 1 and \
                isinstance(t.left.args[0], py.Name) and t.left.args[0].id in self.players and \
                isinstance(t.comparators[0], py.Name) and t.comparators[0].id == "_P":
            return node.body
        return node


class _Substitute(py.NodeTransformer):
    def __init__(self, bound: dict):
        self.bound = bound

    def visit_Name(self, node: py.Name):
        return self.bound.get(node.id, node)


# An expression with procedures written into it is at most this deep (in Python's tree),
# else it is left as it was: a condition and the procedure it calls, both at the parser's
# limit of nesting, make one over 220 deep, more than Python's recursive rewriting and
# compiling take when a plan is made deep in a stack (and Python takes 200 brackets inside
# each other at most); a snippet alone compiles to some 180.
MAX_INLINED_DEPTH = 150


def inline(source: str, game, players: tuple[str, ...] = ()) -> tuple[py.AST, int, dict]:
    """The generated expression `source`, parsed, with calls of leaf `value:` procedures on
    plain arguments replaced by their expressions; how many call sites were replaced; the
    names the inlined expressions need. The variables named in `players` are known to
    hold players, which settles the type tests written for values of unknown type.

    An inlined call charges no step and checks no depth, and an error inside it would be
    reported at the caller: so only a caller that can redo its work the careful way on
    any error, with the steps charged up front, may use this (see flow.labels)."""
    inliner = _Inliner(game, players)
    try:
        tree = inliner.visit(py.parse(source, mode="eval"))
        if inliner.inlined and _depth(tree) > MAX_INLINED_DEPTH:
            raise RecursionError
    except RecursionError:  # too deep with the procedures in it: as it was
        return py.parse(source, mode="eval"), 0, {}
    return tree, inliner.inlined, inliner.ns


def _depth(tree: py.AST) -> int:
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((child, d + 1) for child in py.iter_child_nodes(node))
    return deepest
