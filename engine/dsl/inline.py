"""Conditions compiled once more, from their own tree, as the tests of legality plans.

Windows ask every seat at every point whether it may act, so engine.flow.labels puts the
conditions of `me` alone of a point's actions into one function, a *plan*, from the tests
made here by the compiler's emitter with three changes:

- A leaf `value:` procedure (one expression that calls no procedure and binds no
  variable) called on names or constants is its expression with the arguments' trees in
  place of its parameters: the emitter then knows their types (`me` is a player) and
  tests none at run time. Such a call charges no step nor checks the depth: the plan
  does both up front (`calls`).
- `me`'s record and zones are looked up once per seat (`hoisted`), and `has(me.zone,
  'card')` looks into the set of the ids of the cards in that zone, made once.
- A test says the zones of `me` it first needs a card in (a window passes over empty
  hands), and whether it cannot fail.
"""

from __future__ import annotations

import dataclasses
import re
from typing import NamedTuple

from engine.dsl import ast
from engine.dsl import builtins as core
from engine.dsl.compiler import _Emitter, names_of
from engine.dsl.emit_expr import CONSTS, NAMESPACES, _Literal
from engine.dsl.parser import MAX_NESTING

# An expression with procedures written into it is at most as deep (in the language's
# tree) as the parser lets one snippet be, which compiles (tests/security/
# test_generated_nesting.py: every form at the parser's limit; its MAX_NESTING counts
# levels of Lark's tree, which has as many as ours or more). A condition and the procedure
# it calls, both at that limit, would make one twice as deep: more than Python compiles
# (200 brackets inside each other), or than the emitter's recursion takes when a plan is
# made deep in a stack. A call that would make it deeper stays a call.
MAX_INLINED_DEPTH = MAX_NESTING

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")  # generated code that is a name or a number
Held = tuple[tuple[str, "str | None"], ...]


class PlanTest(NamedTuple):
    """A condition as a plan test (see the module's docstring)."""

    test: str  # the expression, of `S` and `v_me`, and of the names `hoisted` defines
    calls: int  # the procedure calls written in
    names: dict  # the namespace it needs
    hoisted: dict[str, str]  # name -> its definition, in order (of `S`, `v_me` and `names`)
    held: Held | None  # the zones of `me` it first needs a card in, each with the card (None: any)
    plain: bool  # it cannot fail nor charge a step


def plan_test(game, c) -> PlanTest | None:
    """Compiled snippet `c`, a condition or a domain of an action, as a plan test, when it is
    an expression that reads only `me`, the player asked."""
    if c.tree is None or isinstance(c.tree, ast.Program) or c.uses is None or not set(c.uses) <= {"me"}:
        return None
    em = _PlanEmitter(game, {"me": "player"})
    try:
        code, _ = em.expr(c.tree)
    except RecursionError:  # too deep to compile here: it joins no plan
        return None
    return None if em.problems else \
        PlanTest(str(code), em.calls, names_of(em), em.hoisted, getattr(code, "held", None), _plain(code))


class _Code(str):
    """Generated code, with what a plan needs to know of it: `held` and `plain` as in
    PlanTest; `zones`, the zones of `me` whose cards it lists, all and only those."""

    held: Held | None
    zones: tuple[str, ...] | None
    plain: bool

    def __new__(cls, text: str, held: Held | None = None, zones: tuple[str, ...] | None = None,
                plain: bool = False):
        code = super().__new__(cls, text)
        code.held, code.zones, code.plain = held, zones, plain
        return code


def _plain(code: str) -> bool:
    """A name, a constant, a field of `me`'s record, or one of those compared with == and !=
    and joined with and, or, not: nothing that can fail."""
    return isinstance(code, _Literal) or getattr(code, "plain", False) or _NAME.fullmatch(code) is not None


class _PlanEmitter(_Emitter):
    def __init__(self, game, scope: dict[str, str]):
        super().__init__(game.env, scope, True)
        self.procs = game.effect_procs
        self.calls = 0
        self.hoisted: dict[str, str] = {}
        self.depth = 0  # of the expression being emitted

    def expr(self, e: ast.Node) -> tuple[str, str]:
        self.depth += 1
        try:
            return super().expr(e)
        finally:
            self.depth -= 1

    def player_place(self, obj: str, name: str, writing: bool) -> str | None:
        place = super().player_place(obj, name, writing)
        if obj != "v_me" or place is None:
            return place
        if place.startswith("S.pl["):
            self.hoisted.setdefault("_my_rec", "S.pl[v_me.i]")
            return _Code(f"_my_rec[{name!r}]", plain=True)
        if place.startswith("_zr_"):
            self.hoisted.setdefault("_my_zone_" + name, place)
            return "_my_zone_" + name
        return place

    def place_type(self, place: str, name: str) -> str:
        if place.startswith("_my_rec["):
            return self.env.player_fields.get(name, "any")
        if place.startswith("_my_zone_"):
            return "zone"
        return super().place_type(place, name)

    def binop(self, e: ast.BinOp, left: str, lt: str, right: str, rt: str) -> tuple[str, str]:
        code, t = super().binop(e, left, lt, right, rt)
        if e.op == "and":
            return _Code(code, held=getattr(left, "held", None), plain=_plain(left) and _plain(right)), t
        if e.op in ("or", "==", "!="):
            return _Code(code, plain=_plain(left) and _plain(right)), t
        zones = getattr(left, "zones", None), getattr(right, "zones", None)
        if e.op == "+" and zones[0] and zones[1]:
            return _listing(code, zones[0] + zones[1]), t
        return code, t

    def x_Not(self, e: ast.Not):
        code, _ = self.expr(e.operand)
        return _Code(f"(not {code})", plain=_plain(code)), "bool"

    def builtin_call(self, e: ast.Call, b, parts: list[str]) -> str:
        code = super().builtin_call(e, b, parts)
        zone = parts[0][len("_my_zone_"):] if parts and parts[0] in self.hoisted and \
            parts[0].startswith("_my_zone_") else None
        if zone is None or e.kwargs or b.name in self.env.words:
            return code
        if b.name == "has" and len(parts) == 2 and isinstance(parts[1], _Literal) and b.fn is core._has:
            ids = "_my_ids_" + zone  # an empty hand, the usual one, needs no set of ids
            self.hoisted.setdefault(ids, f"_zone_ids(S, {parts[0]}) if S.zones[{parts[0]}.key] else _NO_IDS")
            return _Code(f"({parts[1]} in {ids})", held=((zone, parts[1].text),))
        if b.name == "cards" and len(parts) == 1 and b.fn is core._cards:
            return _listing(code, (zone,))
        return code

    def x_Call(self, e: ast.Call):
        body = self.written_in(e)
        if body is not None:
            problems, hoisted = len(self.problems), dict(self.hoisted)
            code, _ = self.expr(body)
            if len(self.problems) == problems:
                self.calls += 1
                return code, "any"  # what the call's value was to the caller
            del self.problems[problems:]  # (it does not fit here: the call it was)
            self.hoisted = hoisted
        return super().x_Call(e)

    def written_in(self, e: ast.Call) -> ast.Node | None:
        """The expression of leaf procedure `e.func` with its parameters replaced by the
        arguments of `e`, when they are plain and it fits here; else None."""
        leaf = _leaf(self.procs, self.env, e.func)
        if leaf is None:
            return None
        params, tree, free = leaf
        given = [*params[:len(e.args)], *(k for k, _ in e.kwargs)]
        args = [*e.args, *(v for _, v in e.kwargs)]
        if len(e.args) > len(params) or given != params or not all(map(self.plain_arg, args)) or \
                free & (self.locals.keys() | self.scope.keys()) or self.depth + _depth(tree) > MAX_INLINED_DEPTH:
            return None
        return _substitute(tree, dict(zip(params, args, strict=True)))

    def plain_arg(self, a: ast.Node) -> bool:
        """Whether argument `a` compiles to a name or a constant, which may be written in
        wherever the procedure names its parameter."""
        if isinstance(a, ast.Const):
            return True
        if isinstance(a, ast.Name):
            return a.id in self.locals or a.id in self.scope or a.id in self.env.dice or a.id in self.env.consts
        if isinstance(a, ast.Attr) and isinstance(a.obj, ast.Name) and a.obj.id == "params" and \
                "params" not in self.locals and a.name in self.env.params:
            value = self.env.params[a.name]
            return not (type(value) is int and value < 0)  # -1 is an operation, in Python
        return False


def _listing(code: str, zones: tuple[str, ...]) -> _Code:
    """`code`, which lists the cards of `me`'s `zones`: it needs one in any of them."""
    return _Code(code, held=tuple((zone, None) for zone in zones), zones=zones)


def _leaf(procs: dict, env, name: str) -> tuple[list[str], ast.Node, set[str]] | None:
    """(parameters, expression, the other names it reads) of `value:` procedure `name` when
    it is a leaf: it calls no procedure, has no comprehension (whose variable could take an
    argument's name) and reads no name a caller gives but its parameters, none of which is
    a namespace of the language (`params.x` is not a parameter's field)."""
    entry = procs.get(name)
    if entry is None or name not in env.effect_procs:
        return None
    params, c = entry
    tree = c.tree
    if tree is None or isinstance(tree, ast.Program) or c.uses is None or not set(c.uses) <= set(params) or \
            any(p in NAMESPACES or p in CONSTS for p in params):
        return None
    free = set()
    for node, _ in ast.walk(tree):
        if isinstance(node, ast.Comprehension) or isinstance(node, ast.Call) and node.func in env.effect_procs:
            return None
        if isinstance(node, ast.Name) and node.id not in params:
            free.add(node.id)
    return params, tree, free


def _fields(node: ast.Node):
    """The values of `node`'s fields but its position."""
    return ((f.name, getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "pos")


def _depth(tree: ast.Node) -> int:
    return max(depth for _, depth in ast.walk(tree))


def _substitute(node: ast.Node, bound: dict[str, ast.Node]) -> ast.Node:
    """`node` with every name in `bound` replaced by its tree (an expression that binds no
    variable: every name in it is free)."""
    if isinstance(node, ast.Name):
        return bound.get(node.id, node)
    changes: dict[str, object] = {}
    for name, value in _fields(node):
        if isinstance(value, ast.Node):
            changes[name] = _substitute(value, bound)
        elif isinstance(value, tuple) and value:
            changes[name] = tuple(_substitute(x, bound) if isinstance(x, ast.Node) else
                                    (x[0], _substitute(x[1], bound)) for x in value)
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[arg-type]
