"""The expression half of the effect language's compiler: one node of the tree in, its
Python source and its type out, with what it reads, writes and calls recorded.

`ExprEmitter` holds what compiling one snippet collects (problems, locals, lines, facts);
statements, which are made of expressions, are compiled by its subclass in
engine.dsl.compiler, which also turns the lines into a function. The rules that keep pack
text out of generated source are engine.dsl.compiler's (see its docstring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.dsl import ast, names, pysource, work
from engine.dsl.builtins import BUILTINS
from engine.dsl.compiled import error_pos as error_pos  # (where they were first)
from engine.dsl.compiled import runtime_message as runtime_message
from engine.dsl.env import Env
from engine.dsl.facts import ANY, Tally
from engine.dsl.logline import log_line
from engine.dsl.pysource import CURRENT, OPERATORS, VARIABLE
from engine.dsl.pysource import name as pyname
from engine.dsl.vtypes import (
    NOT_OF_KIND,
    TYPE_WORDS,
    VALUE_TYPES,
    arith_mismatch,
    capped_op,
    elem,
)
from engine.errors import did_you_mean

NAMESPACES = ("turn", "game", "params", "event")
CONSTS = ("players", "current")
# builtins whose argument, when it is a list literal or comprehension, needs no checking:
# they are Python's own functions then
_ON_LISTS = {"all": "_py_all", "any": "_py_any", "sum": "_py_sum", "count": "_py_len"}
# builtins that, given two values or more, are Python's own functions of them
_OF_VALUES = {"min": "_py_min", "max": "_py_max"}
# builtins that read a zone only when given one: the size of a list reads what the list does
_SIZES = ("count", "empty")


@dataclass
class CompileProblem:
    message: str
    pos: ast.Pos
    hint: str | None = None


# fields of cards and pieces no rule may set, and why (runtime.set_ refuses them too)
_KEPT_FIELDS = {
    "id": "a card's id is what it is; move it, discard it or make another instead",
    "tags": "a card's tags come from its definition",
    "cell": "a piece's cell is kept by its board (which indexes pieces by cell): move pieces "
            "with the board's own words, see docs/boards.md",
}


class _GenericField(str):
    """`attr_place`'s answer for writing a field of a value of unknown type: the code of the
    object, for the caller to wrap in a `_set(...)` call (there is no place to assign to)."""


class _Literal(str):
    """The code of a text known at load time (a literal, a die, a param): `text` is it."""

    text: str


def _literal(text: str) -> _Literal:
    code = _Literal(repr(text))
    code.text = text
    return code


class _ProcValue(str):
    """The code of a direct call of effect procedure `proc`: its value is the procedure's."""

    proc: str


# the operators whose value is never a list: comparing it with anything is one comparison
_NO_LIST_OPS = frozenset({"-", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in", "notin"})
_NO_LIST_RETURNS = frozenset({"int", "bool", "str", "player", "ent", "zone", "die", "none"})
# generated code of a value that is no list: a literal, a seat, an entity's card id
_NO_LIST_CODE = re.compile(r"-?[0-9]+|None|True|False|S\.cur|v_\w+\.i|S\.ents\[v_\w+\.i\]\['id'\]")


def scalar(node: ast.Node, code: str = "") -> bool:
    """Whether expression `node` (generated as `code`, when given) is surely no list holding
    lists, whatever its variables hold (their types may change in a loop): a constant, an
    operation whose value is a number, a text or a truth, a builtin that returns no list, a
    short list of such. Comparing it with anything, or keeping it, walks nothing."""
    if isinstance(node, ast.Const | ast.Not | ast.Neg) or isinstance(code, _Literal) or \
            _NO_LIST_CODE.fullmatch(code):
        return True
    if isinstance(node, ast.BinOp):  # a sum with a number or a text in it is one or fails
        return node.op in _NO_LIST_OPS or node.op == "+" and (scalar(node.left) or scalar(node.right))
    if isinstance(node, ast.Call):
        if node.func in _OF_VALUES and len(node.args) >= 2:  # the largest of a number and...
            return any(scalar(a) for a in node.args)
        b = BUILTINS.get(node.func)
        return b is not None and b.returns in _NO_LIST_RETURNS
    if isinstance(node, ast.ListLit):
        return len(node.items) < 100 and all(scalar(x) for x in node.items)
    return isinstance(node, ast.Name) and node.id == "current"


class ExprEmitter:
    def __init__(self, env: Env, scope: dict[str, str], pure: bool):
        self.env = env
        self.scope = dict(scope)  # outer locals: name -> type
        self.pure = pure
        self.problems: list[CompileProblem] = []
        self.locals: dict[str, str] = {}  # snippet-local names -> type
        self.used_outer: set[str] = set()
        self.lines: list[str] = []
        self.line_pos: dict[int, ast.Pos] = {}
        self.facts = Tally()
        self.zones_named: set[str] = set()
        self.params_named: set[str] = set()
        self.untyped = False  # the last attr_place was on a variable of unknown type
        self.obj_type = "any"  # the type of the object of the last attr_place's field
        # the `emit(...)` calls: (event name, or None when not a literal; field names; pos)
        self.emits: list[tuple[str | None, tuple[str, ...], ast.Pos]] = []

    # -- problems --
    def fail(self, node: ast.Node, msg: str, hint: str | None = None) -> None:
        self.problems.append(CompileProblem(msg, node.pos, hint))

    def emit_line(self, indent: int, text: str, pos: ast.Pos) -> None:
        self.lines.append("    " * indent + text)
        self.line_pos[len(self.lines)] = pos

    def bind_local(self, node: ast.Node, name: str, t: str) -> None:
        if name in self.scope or name in NAMESPACES or name in CONSTS:
            self.fail(node, f"'{name}' is already a name here; choose another variable name")
        self.locals[name] = t
        self.facts.binds.add(name)

    def get_call(self, obj: str, name: str) -> str:
        """Field `name` of a value `obj` of no known type, read through `runtime.get`."""
        self.facts.use("_get")
        self.facts.reads.add(name)
        return f"_get(S, {obj}, {name!r})"

    def checked(self, op: str, lt: str, rt: str) -> str | None:
        """`capped_op`, recording the helper it names."""
        helper = capped_op(op, lt, rt)
        if helper:
            self.facts.use(helper)
            self.facts.capped = True
        return helper

    def bind_pairs(self, node, name, params, args, kwargs) -> list[tuple[str, str]]:
        """(parameter, generated code) in the order the arguments are written."""
        if len(args) > len(params):
            self.fail(node, f"'{name}' takes {len(params)} argument(s), got {len(args)}")
        pairs = [(p, a) for p, a in zip(params, args, strict=False)]
        for k, v in kwargs:
            if k not in params:
                self.fail(node, f"'{k}' is not a parameter of {name}()",
                          did_you_mean(k, params) or f"its parameters: {', '.join(params) or 'none'}")
            elif any(p == k for p, _ in pairs):
                self.fail(node, f"{name}(): '{k}' is given twice")
            pairs.append((k, v))
        given = {p for p, _ in pairs}
        missing = [p for p in params if p not in given]
        if missing:
            self.fail(node, f"'{name}' needs a value for {', '.join(missing)}")
        return [(p, self.expr(a)[0]) for p, a in pairs]

    # -- expressions: return (python source, type) --
    def expr(self, e: ast.Node) -> tuple[str, str]:
        method = getattr(self, "x_" + type(e).__name__)
        return method(e)

    def x_Const(self, e: ast.Const):
        v = e.value
        t = {bool: "bool", int: "int", str: "str", type(None): "none"}[type(v)]
        return _literal(v) if isinstance(v, str) else repr(v), t

    def x_Name(self, e: ast.Name):
        n = e.id
        if n in self.locals:
            return pyname("v_", n), self.locals[n]
        if n in self.scope:
            self.used_outer.add(n)
            return pyname("v_", n), self.scope[n]
        if n == "players":
            return "S.players", "list:player"
        if n == "current":
            self.facts.reads.add(ANY)  # the current player changes between effects
            return "S.players[S.cur]", "player"
        if n in self.env.dice:
            return _literal(n), "die"
        if n in self.env.consts:
            self.facts.use(pyname("_c_", n))
            return pyname("_c_", n), self.env.consts[n][1]
        if n in self.env.zones:
            if self.env.zones[n]:
                self.fail(e, f"'{n}' is a zone of each player: write p.{n} (for example me.{n})")
            self.zones_named.add(n)
            self.env.zones_read.add(n)
            self.facts.use(pyname("_zr_", n))
            return f"{pyname('_zr_', n)}[-1]", "zone"
        if n in NAMESPACES:
            self.fail(e, f"'{n}' needs a field: {n}.<name>")
            return "None", "any"
        cands = [*self.locals, *self.scope, *CONSTS, *self.env.dice, *self.env.zones, *NAMESPACES,
                 *self.env.consts]
        hint = did_you_mean(n, cands)
        if n in self.env.cards:
            hint = f"card ids are strings: write '{n}'"
        self.fail(e, f"unknown name '{n}'", hint)
        return "None", "any"

    def attr_place(self, e: ast.Attr, writing: bool = False) -> str | None:
        """Python source for the storage place of `e` (for reading or assignment)."""
        name = e.name
        if isinstance(e.obj, ast.Name) and e.obj.id in NAMESPACES and e.obj.id not in self.locals:
            ns = e.obj.id
            if ns == "params":
                self.env.params_read.add(name)
                if writing:
                    self.fail(e, "params are fixed for a game; store changing values in turn.* or game.*")
                if name not in self.env.params:
                    self.fail(e, f"unknown param '{name}'", did_you_mean(name, self.env.params))
                    return "None"
                value = self.env.params[name]
                code = pysource.literal(value)
                if code is None:  # not a value of the language's own (given by a program)
                    self.params_named.add(name)
                    code = pyname("_pm_", name)
                    self.facts.use(code)
                return _literal(value) if isinstance(value, str) else code
            if ns == "event":
                self.used_outer.add("event")
                self.facts.reads.add(name)
                return f"v_event[{name!r}]"
            table = self.env.turn_vars if ns == "turn" else self.env.game_vars
            if name not in table:
                self.fail(e, f"unknown {ns} variable '{name}'",
                          did_you_mean(name, table) or f"declare it under `{'turn' if ns == 'turn' else 'vars'}:`")
                return None
            # the turn, like the current player, changes between effects
            self.facts.reads.update((name, ANY) if ns == "turn" else (name,))
            return f"S.{'turn' if ns == 'turn' else 'vars'}[{name!r}]"
        obj, t = self.expr(e.obj)
        if t == "player":
            fast = self.player_place(obj, name, writing)
            if fast is not None:
                return fast
            self.fail(e, f"players have no field '{name}'",
                      did_you_mean(name, [*self.env.player_fields, *self.env.zones]))
            return None
        if t == "ent":
            if name == "id" and not writing:
                self.facts.reads.add("id")
                return f"S.ents[{obj}.i]['id']"
            if writing and name in _KEPT_FIELDS:
                self.fail(e, _KEPT_FIELDS[name])
                return None
            if name not in self.env.ent_fields and name not in ("tags", "cell", "id"):
                self.fail(e, f"no card or piece has a field '{name}'",
                          did_you_mean(name, self.env.ent_fields))
                return None
        if t in ("int", "bool", "str", "none"):
            self.fail(e, f"a {t} has no field '{name}'")
            return None
        if name in self.env.zones:  # a player's zone, read through a value of unknown type
            self.env.zones_read.add(name)
        self.untyped = t == "any" and VARIABLE.fullmatch(obj) is not None
        self.obj_type = t
        if writing:
            return _GenericField(obj)
        slow = self.get_call(obj, name)
        if VARIABLE.fullmatch(obj) and t in ("ent", "any") and name in self.env.ent_fields:
            # an entity's own field, read straight from its record (runtime.get's first case)
            rec = f"S.ents[{obj}.i]"
            if t != "ent":
                self.facts.use("_type", "_E")
            slow = f"({rec}[{name!r}] if {'' if t == 'ent' else f'_type({obj}) is _E and '}" \
                   f"{name!r} in {rec} else {slow})"
            if t == "ent":
                return slow
        if t == "any" and VARIABLE.fullmatch(obj):
            fast = self.player_place(obj, name, writing)
            if fast is not None:  # most untyped values are players: try that first
                self.facts.use("_type", "_P")
                return f"({fast} if _type({obj}) is _P else {slow})"
        return slow

    def player_place(self, obj: str, name: str, writing: bool) -> str | None:
        """Direct access to field `name` of the player `obj` (generated code), if it has one.
        `runtime.get` and `runtime.set_` do the same for any value, only slower."""
        seat = "S.cur" if obj == CURRENT else f"{obj}.i"
        if name in self.env.player_fields:
            self.facts.reads.add(name)
            return f"S.pl[{seat}][{name!r}]"
        if writing:
            return None
        if name in self.env.zones and self.env.zones[name]:
            self.zones_named.add(name)
            self.env.zones_read.add(name)
            self.facts.use(pyname("_zr_", name))
            return f"{pyname('_zr_', name)}[{seat}]"
        if name == "seat":
            return seat
        return None

    def x_Attr(self, e: ast.Attr):
        place = self.attr_place(e)
        if place is None:
            return "None", "any"
        if isinstance(e.obj, ast.Name) and e.obj.id == "params" and e.obj.id not in self.locals:
            # a param is a value fixed for the game: its type is its value's
            return place, VALUE_TYPES.get(type(self.env.params.get(e.name)), "any")
        return place, self.place_type(place, e.name)

    def place_type(self, place: str, name: str) -> str:
        """The type of field `name` kept at `place` (what `attr_place` gave)."""
        if place.startswith("S.pl["):
            return self.env.player_fields.get(name, "any")
        if place.startswith("_zr_"):
            return "zone"
        if place.startswith("S.turn["):
            return self.env.turn_vars.get(name, "any")
        if place.startswith("S.vars["):
            return self.env.game_vars.get(name, "any")
        return {"seat": "int", "owner": "player"}.get(name, "any")

    def check_arith(self, node: ast.Node, op: str, lt: str, rt: str) -> None:
        """A load-time error when `lt op rt` cannot work (see `arith_mismatch`)."""
        if arith_mismatch(op, lt, rt):
            self.fail(node, f"'{op}' cannot take {TYPE_WORDS.get(lt, 'a list')} and {TYPE_WORDS.get(rt, 'a list')}",
                      "str(x) is x as a text, to join it to another" if op == "+" and "str" in (lt, rt) else None)

    def x_Index(self, e: ast.Index):
        obj, t = self.expr(e.obj)
        idx, _ = self.expr(e.index)
        if isinstance(idx, _Literal):
            self.facts.reads.add(idx.text)
        if t in ("int", "bool", "none"):
            self.fail(e, f"{TYPE_WORDS[t]} has no elements: xs[i] is an element of a list or a text")
        return f"{obj}[{idx}]", elem(t)

    def x_Call(self, e: ast.Call):
        name = e.func
        if name in self.env.effect_procs:
            if self.pure and name not in self.env.pure_procs:
                self.fail(e, f"procedure '{name}' may change the game; it cannot be used here")
            params = self.env.effect_procs[name]
            typed = self.env.proc_kinds.get(name)
            if typed:
                given = [*zip(params, e.args, strict=False), *e.kwargs]
                for p, a in given:
                    if p in typed:
                        self.check_names(name, typed[p], a)
            pairs = self.bind_pairs(e, name, params, e.args, e.kwargs)
            if [p for p, _ in pairs] == params:  # arguments in parameter order: a direct call
                self.facts.procs.add(name)
                self.facts.use(pyname('_pc_', name))
                call = _ProcValue(f"{pyname('_pc_', name)}(S{''.join(', ' + code for _, code in pairs)})")
                call.proc = name
                return call, "any"
            args = ", ".join(f"{p!r}: {code}" for p, code in pairs)
            self.facts.use("_proc")
            self.facts.unknown()  # through Game.call_effect_proc, which the analyses do not follow
            return f"_proc(S, {name!r}, {{{args}}})", "any"
        b = BUILTINS.get(name)
        if b is None:
            hint = did_you_mean(name, [*BUILTINS, *self.env.effect_procs])
            if name in self.env.flow_procs:
                hint = f"'{name}' is a flow procedure: start it with `call {name}(...)`"
            self.fail(e, f"unknown function '{name}'", hint)
            return "None", "any"
        if b.effect and self.pure:
            self.fail(e, f"'{name}' changes the game; it cannot be used in a condition or a domain")
        n = len(e.args)
        if n < b.min_args or (b.max_args is not None and n > b.max_args):
            want = str(b.min_args) if b.min_args == b.max_args else \
                f"{b.min_args} to {b.max_args}" if b.max_args is not None else f"at least {b.min_args}"
            self.fail(e, f"'{name}' takes {want} argument(s), got {n}")
        parts, types = [], []
        for k, a in enumerate(e.args):
            code, t = self.expr(a)
            kind = b.args[k].rstrip("?") if k < len(b.args) else "any"
            self.check_arg(name, kind, a, t)
            parts.append(code)
            types.append(t)
        if e.kwargs:
            parts.append(self.keywords(e, name, b))
        if name == "emit" and e.args:
            first = e.args[0]
            event = first.value if isinstance(first, ast.Const) and isinstance(first.value, str) else None
            self.emits.append((event, tuple(k for k, _ in e.kwargs), e.pos))
        self.facts.builtins.add(name)
        self.facts.effects |= b.effect
        if name == "log" and not e.kwargs and name not in self.env.words:
            written = log_line(e.args[0], parts[1:], types[1:], self.facts)
            if written is not None:
                return written, b.returns
        if name in _ON_LISTS and len(parts) == 1 and not e.kwargs and \
                isinstance(e.args[0], ast.Comprehension | ast.ListLit):
            self.facts.use(_ON_LISTS[name])
            return f"{_ON_LISTS[name]}({parts[0]})", b.returns  # a list for sure: no checks
        if name in _OF_VALUES and len(parts) >= 2 and not e.kwargs and \
                sum(not scalar(a) for a in e.args) <= 1:  # (else each is charged, by the builtin)
            self.facts.use(_OF_VALUES[name])
            return f"{_OF_VALUES[name]}({', '.join(parts)})", b.returns  # Python's own, then
        return self.builtin_call(e, b, parts), b.returns

    def builtin_call(self, e: ast.Call, b, parts: list[str]) -> str:
        """A call of builtin `b` on the generated arguments `parts`, charging what it is
        given first when its work grows with that (engine.dsl.work)."""
        self.builtin_facts(e, b, parts)
        if b.charges == "items":
            parts = work.sized_args(b, len(e.args), parts, self.facts)
        return f"{pyname('_b_', b.name)}(S{''.join(', ' + p for p in parts)})"

    def builtin_facts(self, e: ast.Call, b, parts: list[str]) -> None:
        """What a call of builtin `b` touches (its arguments aside), as it declared: the
        size of a list (`count([...])`) reads what the list does, no zone."""
        f = self.facts
        f.use(pyname("_b_", b.name))
        f.writes |= b.writes
        f.frames |= b.frames or b.name in self.env.words  # a pack's own word: not followed
        f.ends |= b.ends
        sized = b.name in _SIZES and len(e.args) == 1 and not e.kwargs
        if sized and isinstance(e.args[0], ast.ListLit | ast.Comprehension):
            return
        if sized and isinstance(parts[0], _ProcValue):
            f.sized.append((parts[0].proc, b.reads))
            return
        f.reads |= b.reads

    def keywords(self, e: ast.Call, name: str, b) -> str:
        """The named arguments of a call of builtin `b`, as Python: `k=...` each, or all of
        them as `**{'k': ...}` when one may not be written so (`class=`), in the order given.
        A builtin takes those its function takes: its named-only parameters (`seen_by`),
        and any (an event's fields) when it takes `**fields`, but none that is the name of
        one of its positional parameters."""
        own, named, any_name = pysource.keywords_of(b.fn)
        seen: set[str] = set()
        for k, _ in e.kwargs:
            if k in seen:
                self.fail(e, f"{name}(): '{k}' is given twice")
            elif k in named:
                pass
            elif not any_name:
                self.fail(e, f"'{k}' is not a parameter of {name}()", f"{name}() takes " + (
                    ", ".join(f"{n}=" for n in sorted(named)) if named else "no named arguments"))
            elif k in own:
                self.fail(e, f"{name}(): a named argument cannot be called '{k}'", "choose another name")
            seen.add(k)
        pairs = [(k, self.expr(v)[0]) for k, v in e.kwargs]
        if all(pysource.bare_keyword(k) for k, _ in pairs):
            return ", ".join(f"{k}={code}" for k, code in pairs)
        return "**{" + ", ".join(f"{k!r}: {code}" for k, code in pairs) + "}"

    def check_names(self, fname: str, kind: str, a: ast.Node) -> None:
        """Each literal text argument `a` gives names a thing of `kind` (engine.dsl.names)."""
        known = self.env.cards if kind == "card" else self.env.names.get(kind)
        if known is None:  # not a kind of name this pack's build said what it holds
            return
        for lit in names.literals(a):
            text = lit.value
            assert isinstance(text, str)
            if kind == "action":  # a decision's label names its action first: 'move(to=1,2)'
                text = text.split("(", 1)[0]
            if text not in known:
                hint = did_you_mean(text, known)
                if hint is None and len(known) <= 12:
                    hint = f"this pack's: {', '.join(sorted(known)) or 'none'}"
                self.fail(lit, f"'{fname}': no {names.NAME_KINDS[kind]} '{text}'", hint)

    def check_arg(self, fname: str, kind: str, a: ast.Node, t: str) -> None:
        if kind in names.NAME_KINDS:
            self.check_names(fname, kind, a)
        elif kind in ("die", "zone", "player", "ent") and t not in ("any", kind, "none"):
            self.fail(a, f"'{fname}' expects a {kind} here, got a {t}")
        elif kind in NOT_OF_KIND and (t in NOT_OF_KIND[kind] or kind != "list" and t.startswith("list")):
            self.fail(a, f"'{fname}' expects {TYPE_WORDS[kind]} here, got {TYPE_WORDS.get(t, 'a list')}")

    def x_BinOp(self, e: ast.BinOp):
        left, lt = self.expr(e.left)
        right, rt = self.expr(e.right)
        return self.binop(e, left, lt, right, rt)

    def binop(self, e: ast.BinOp, left: str, lt: str, right: str, rt: str) -> tuple[str, str]:
        op = e.op
        if op in ("in", "notin"):  # `x in zone` reads the zone, as has(zone, x)
            self.facts.use("_in")
            self.facts.reads |= BUILTINS["has"].reads
        if op == "in":
            return f"_in(S, {left}, {right})", "bool"
        if op == "notin":
            return f"(not _in(S, {left}, {right}))", "bool"
        py_op = OPERATORS.get(op)
        if py_op is None:  # the parser makes no other operators
            self.fail(e, f"unsupported operator {op!r}")
            return "None", "any"
        if op in ("==", "!=", "<", "<=", ">", ">=") and not (scalar(e.left, left) or scalar(e.right, right)):
            self.facts.use("_cv")  # two values that may be lists holding lists: charged first
            return f"(_cv(S, {left}) {py_op} {right})", "bool"
        if op in ("and", "or", "==", "!=", "<", "<=", ">", ">="):
            return f"({left} {py_op} {right})", "bool"
        self.check_arith(e, op, lt, rt)
        if op == "/":
            return f"({left} {py_op} {right})", "int"
        t = lt if lt == rt else "any"
        if op == "+" and lt.startswith("list") and rt.startswith("list"):
            t = lt if lt == rt else "list"
        helper = self.checked(op, lt, rt)
        if helper:
            return f"{helper}({left}, {right}, S)", t
        return f"({left} {py_op} {right})", t

    def x_IfExp(self, e: ast.IfExp):
        cond, _ = self.expr(e.cond)
        then, tt = self.expr(e.then)
        orelse, ot = self.expr(e.orelse)
        # of a type known only when both are of it: a value that may be none is not an int
        return f"({then} if {cond} else {orelse})", tt if tt == ot else "any"

    def x_Not(self, e: ast.Not):
        code, _ = self.expr(e.operand)
        return f"(not {code})", "bool"

    def x_Neg(self, e: ast.Neg):
        code, _ = self.expr(e.operand)
        return f"(-{code})", "int"

    def x_ListLit(self, e: ast.ListLit):
        parts = [self.expr(x) for x in e.items]
        types = {t for _, t in parts}
        t = f"list:{types.pop()}" if len(types) == 1 else "list"
        return "[" + ", ".join(c for c, _ in parts) + "]", t

    def x_Comprehension(self, e: ast.Comprehension):
        src, st = self.expr(e.source)
        saved = dict(self.locals)
        self.bind_local(e, e.var, elem(st))
        item, it = self.expr(e.item)
        cond = f" if {self.expr(e.cond)[0]}" if e.cond is not None else ""
        self.locals = saved
        self.facts.use("_items")
        return f"[{item} for {pyname('v_', e.var)} in _items(S, {src}){cond}]", f"list:{it}"
