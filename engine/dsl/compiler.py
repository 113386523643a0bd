"""Resolve and compile effect-language snippets to Python functions.

Every snippet becomes the source of one Python function `f(S, L)` (S: the state, L: the
locals of the flow), handed to `compile()` once at load time and run with empty
`__builtins__`. Identifiers in the generated source come only from this module, a pack's
names behind a prefix of their kind (`v_x`), literals only through `repr()`, operators
from a fixed table (engine.dsl.pysource): nothing from a pack is ever evaluated.

Resolution and code generation walk the tree together: every name is looked up in the
pack's `Env` and the snippet's scope, problems are collected (all of them, with "did you
mean"), and the code is only used when there were none. A light type inference (player,
entity, zone, list, int, ...) lets the compiler check field names where the type is known
and emit direct dictionary access instead of a generic lookup. As it resolves each node,
the emitter records what the node reads, writes and calls (engine.dsl.facts): the
snippet's facts come with its code, and no analysis reads the code.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from engine.dsl import ast, compiled, procs, pysource, runtime
from engine.dsl.builtins import BUILTINS
from engine.dsl.compiled import Compiled
from engine.dsl.compiled import error_pos as error_pos  # (where they were first)
from engine.dsl.compiled import runtime_message as runtime_message
from engine.dsl.env import Env
from engine.dsl.facts import ANY, Tally
from engine.dsl.pysource import ASSIGN_OPS, MAX_BLOCKS, MAX_BRANCH_DEPTH, OPERATORS
from engine.dsl.pysource import name as pyname
from engine.dsl.values import E, P
from engine.errors import did_you_mean

NAMESPACES = ("turn", "game", "params", "event")
CONSTS = ("players", "current")
CURRENT = "S.players[S.cur]"
_VARIABLE = re.compile(r"v_[a-z0-9_]+")  # generated code for a variable: cheap to read twice
_SCALAR = re.compile(r"-?[0-9]+|True|False|None")  # generated code for a literal of no container
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


def _elem(t: str) -> str:
    return t.split(":", 1)[1] if t.startswith("list:") else "any"


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


class _Emitter:
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
        # the `emit(...)` calls: (event name, or None when not a literal; field names; pos)
        self.emits: list[tuple[str | None, tuple[str, ...], ast.Pos]] = []

    # -- problems --
    def fail(self, node: ast.Node, msg: str, hint: str | None = None) -> None:
        self.problems.append(CompileProblem(msg, node.pos, hint))

    # -- statements --
    def emit_line(self, indent: int, text: str, pos: ast.Pos) -> None:
        self.lines.append("    " * indent + text)
        self.line_pos[len(self.lines)] = pos

    def stmts(self, body, indent: int, depth: int = 0) -> None:
        """Statements at `indent`, inside `indent - 1` blocks and `depth` levels of Python
        statements (an `elif` is one level deeper than its `if`)."""
        if not body:
            self.emit_line(indent, "pass", (1, 1))
        for st in body:
            self.stmt(st, indent, depth)

    def too_deep(self, node: ast.Node, indent: int, depth: int) -> bool:
        """Whether a block at `indent` and Python depth `depth` is beyond what compiles
        (engine.dsl.pysource MAX_BLOCKS, MAX_BRANCH_DEPTH): then a problem at `node`."""
        if indent - 1 > MAX_BLOCKS:
            self.fail(node, f"blocks nested more than {MAX_BLOCKS} deep; move the inner part into a procedure")
        elif depth > MAX_BRANCH_DEPTH:
            self.fail(node, f"ifs, elifs and loops nested more than {MAX_BRANCH_DEPTH} deep (each elif is an "
                            "if inside the else before it); split the chain, or move part of it into a procedure")
        else:
            return False
        return True

    def stmt(self, st: ast.Node, indent: int, depth: int = 0) -> None:
        if isinstance(st, ast.Assign):
            self.assign(st, indent)
        elif isinstance(st, ast.ExprStmt):
            code, _ = self.expr(st.expr)
            self.emit_line(indent, code, st.pos)
        elif isinstance(st, ast.Pass):
            self.emit_line(indent, "pass", st.pos)
        elif isinstance(st, ast.CallFlow):
            self.callflow(st, indent)
        elif isinstance(st, ast.If):
            for k, (cond, body) in enumerate(st.branches):
                if self.too_deep(cond if k else st, indent + 1, depth + k + 1):
                    return
                code, _ = self.expr(cond)
                self.emit_line(indent, f"{'if' if k == 0 else 'elif'} {code}:", cond.pos)
                self.stmts(body, indent + 1, depth + k + 1)
            if st.orelse:
                self.emit_line(indent, "else:", st.pos)
                self.stmts(st.orelse, indent + 1, depth + len(st.branches))
        elif isinstance(st, ast.For):
            if self.too_deep(st, indent + 1, depth + 1):
                return
            src, t = self.expr(st.source)
            self.bind_local(st, st.var, _elem(t))
            self.facts.use("_items")
            self.emit_line(indent, f"for {pyname('v_', st.var)} in _items(S, {src}):", st.pos)
            self.stmts(st.body, indent + 1, depth + 1)
        elif isinstance(st, ast.Repeat):
            if self.too_deep(st, indent + 1, depth + 1):
                return
            n, _ = self.expr(st.count)
            self.facts.use("_repeat")
            self.emit_line(indent, f"for _ in _repeat(S, {n}):", st.pos)
            self.stmts(st.body, indent + 1, depth + 1)
        else:  # pragma: no cover - the parser makes no other statements
            self.fail(st, f"unsupported statement {type(st).__name__}")

    def bind_local(self, node: ast.Node, name: str, t: str) -> None:
        if name in self.scope or name in NAMESPACES or name in CONSTS:
            self.fail(node, f"'{name}' is already a name here; choose another variable name")
        self.locals[name] = t
        self.facts.binds.add(name)

    def assign(self, st: ast.Assign, indent: int) -> None:
        if self.pure:
            self.fail(st, "assignment is not allowed here: conditions and domains cannot change the game")
        value, vt = self.expr(st.value)
        op = ASSIGN_OPS.get(st.op)
        if op is None:  # the parser makes no other operators
            self.fail(st, f"unsupported assignment {st.op!r}")
            return
        tgt = st.target
        if isinstance(tgt, ast.Name):
            if op == "=":
                self.bind_local(tgt, tgt.id, vt)
            elif tgt.id not in self.locals:
                self.fail(tgt, f"'{tgt.id}' has no value yet", did_you_mean(tgt.id, self.locals))
            else:
                self.check_arith(st, op[0], self.locals[tgt.id], vt)
                helper = self.checked(op[0], self.locals[tgt.id], vt)
                if helper:
                    var = pyname('v_', tgt.id)
                    self.emit_line(indent, f"{var} = {helper}({var}, {value})", st.pos)
                    return
            if op != "=":
                self.facts.writes.add(ANY)  # `x += ...` may grow a list the state holds
            self.emit_line(indent, f"{pyname('v_', tgt.id)} {op} {value}", st.pos)
            return
        if isinstance(tgt, ast.Index):
            obj, _ = self.expr(tgt.obj)
            idx, _ = self.expr(tgt.index)
            helper = self.checked(op[0], "any", vt) if op != "=" else None
            key = idx.text if isinstance(idx, _Literal) and not helper else None
            if key is None:
                self.facts.writes.add(ANY)  # a place the analyses cannot name
            else:
                self.facts.reads.add(key)
                self.facts.writes.add(key)
            if helper:
                self.emit_line(indent, f"_o, _k = {obj}, {idx}", st.pos)
                self.emit_line(indent, f"_o[_k] = {helper}(_o[_k], {value})", st.pos)
                return
            self.emit_line(indent, f"{obj}[{idx}] {op} {value}", st.pos)
            return
        assert isinstance(tgt, ast.Attr)
        place = self.attr_place(tgt, writing=True)
        if place is None:
            return
        self.facts.writes.add(tgt.name)
        if isinstance(place, _GenericField):
            obj = str(place)
            fast = self.player_place(obj, tgt.name, writing=True) if self.untyped else None
            if op == "=" and _VARIABLE.fullmatch(obj) and tgt.name in self.env.ent_fields and \
                    tgt.name not in _KEPT_FIELDS:
                self.entity_write(obj, tgt.name, value, fast, indent, st.pos)
                return
            helper = self.checked(op[0], "any", vt) if op != "=" else None
            if fast is not None:  # most untyped values are players: try that first
                self.facts.use("_type", "_P")
                self.emit_line(indent, f"if _type({obj}) is _P:", st.pos)
                self.emit_line(indent + 1, f"{fast} = {helper}({fast}, {value})" if helper else
                               f"{fast} {op} {value}", st.pos)
                self.emit_line(indent, "else:", st.pos)
                indent += 1
            if op == "=":
                self.emit_line(indent, self.set_call(obj, tgt.name, value), st.pos)
            else:
                self.emit_line(indent, f"_o = {obj}", st.pos)
                old = self.get_call("_o", tgt.name)
                new = f"{helper}({old}, {value})" if helper else f"{old} {op[0]} {value}"
                self.emit_line(indent, self.set_call("_o", tgt.name, new), st.pos)
        else:
            helper = None
            if op != "=":
                self.check_arith(st, op[0], self.place_type(place, tgt.name), vt)
                helper = self.checked(op[0], self.place_type(place, tgt.name), vt)
            self.emit_line(indent, f"{place} = {helper}({place}, {value})" if helper else
                           f"{place} {op} {value}", st.pos)

    def entity_write(self, obj: str, name: str, value: str, player: str | None, indent: int,
                     pos: ast.Pos) -> None:
        """`obj.name = value` for a variable `obj` of unknown type and a field cards or pieces
        have: a player's field (`player`, when players have one) or an entity's own field is
        written straight into its record, as `runtime.set_` would; anything else, and a list
        or a dict (which set_ has copied with the state), goes through set_."""
        scalar = _SCALAR.fullmatch(value)  # (a variable's type may change in a loop)
        if not (scalar or _VARIABLE.fullmatch(value)):
            self.emit_line(indent, f"_v = {value}", pos)  # worked out first, as before
            value = "_v"
        word = "if"
        if player is not None:
            self.facts.use("_P")
            self.emit_line(indent, f"if _type({obj}) is _P:", pos)
            self.emit_line(indent + 1, f"{player} = {value}", pos)
            word = "elif"
        plain = "" if scalar else f" and _type({value}) is not _list and _type({value}) is not _dict"
        self.facts.use("_type", "_E", *(() if scalar else ("_list", "_dict")))
        self.facts.reads.update((ANY, name))  # (the record written through S.ent_w, cautiously)
        self.emit_line(indent, f"{word} _type({obj}) is _E and {name!r} in S.ents[{obj}.i]{plain}:", pos)
        self.emit_line(indent + 1, f"S.ent_w({obj}.i)[{name!r}] = {value}", pos)
        self.emit_line(indent, "else:", pos)
        self.emit_line(indent + 1, self.set_call(obj, name, value), pos)

    def get_call(self, obj: str, name: str) -> str:
        """Field `name` of a value `obj` of no known type, read through `runtime.get`."""
        self.facts.use("_get")
        self.facts.reads.add(name)
        return f"_get(S, {obj}, {name!r})"

    def set_call(self, obj: str, name: str, value: str) -> str:
        """Field `name` of a value `obj` of no known type, written through `runtime.set_`
        (which the analyses take to read anything)."""
        self.facts.use("_set")
        self.facts.reads.add(ANY)
        self.facts.writes.add(name)
        return f"_set(S, {obj}, {name!r}, {value})"

    def checked(self, op: str, lt: str, rt: str) -> str | None:
        """`_checked`, recording the helper it names."""
        helper = _checked(op, lt, rt)
        if helper:
            self.facts.use(helper)
            self.facts.capped = True
        return helper

    def callflow(self, st: ast.CallFlow, indent: int) -> None:
        if self.pure:
            self.fail(st, "'call' is not allowed here: conditions cannot start a procedure")
        params = self.env.flow_procs.get(st.proc)
        if params is None:
            hint = did_you_mean(st.proc, self.env.flow_procs)
            if st.proc in self.env.effect_procs:
                hint = f"'{st.proc}' is an effect procedure: call it as {st.proc}(...) without 'call'"
            self.fail(st, f"unknown flow procedure '{st.proc}'", hint)
            return
        args = self.bind_args(st, st.proc, params, st.args, st.kwargs)
        self.facts.flows.add(st.proc)
        self.facts.unknown()  # a flow procedure's frames, run later: anything
        self.emit_line(indent, f"S.call_flow({st.proc!r}, {{{args}}})", st.pos)

    def bind_args(self, node, name, params, args, kwargs) -> str:
        pairs = self.bind_pairs(node, name, params, args, kwargs)
        return ", ".join(f"{p!r}: {code}" for p, code in pairs)

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
        self.untyped = t == "any" and _VARIABLE.fullmatch(obj) is not None
        if writing:
            return _GenericField(obj)
        slow = self.get_call(obj, name)
        if _VARIABLE.fullmatch(obj) and t in ("ent", "any") and name in self.env.ent_fields:
            # an entity's own field, read straight from its record (runtime.get's first case)
            rec = f"S.ents[{obj}.i]"
            if t != "ent":
                self.facts.use("_type", "_E")
            slow = f"({rec}[{name!r}] if {'' if t == 'ent' else f'_type({obj}) is _E and '}" \
                   f"{name!r} in {rec} else {slow})"
            if t == "ent":
                return slow
        if t == "any" and _VARIABLE.fullmatch(obj):
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
            return place, _VALUE_TYPES.get(type(self.env.params.get(e.name)), "any")
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
        """A load-time error when `lt op rt` cannot work (see `_arith_mismatch`)."""
        if _arith_mismatch(op, lt, rt):
            self.fail(node, f"'{op}' cannot take {_A.get(lt, 'a list')} and {_A.get(rt, 'a list')}",
                      "str(x) is x as a text, to join it to another" if op == "+" and "str" in (lt, rt) else None)

    def x_Index(self, e: ast.Index):
        obj, t = self.expr(e.obj)
        idx, _ = self.expr(e.index)
        if isinstance(idx, _Literal):
            self.facts.reads.add(idx.text)
        if t in ("int", "bool", "none"):
            self.fail(e, f"{_A[t]} has no elements: xs[i] is an element of a list or a text")
        return f"{obj}[{idx}]", _elem(t)

    def x_Call(self, e: ast.Call):
        name = e.func
        if name in self.env.effect_procs:
            if self.pure and name not in self.env.pure_procs:
                self.fail(e, f"procedure '{name}' may change the game; it cannot be used here")
            params = self.env.effect_procs[name]
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
            written = _log_line(e.args[0], parts[1:], types[1:], self.facts)
            if written is not None:
                return written, b.returns
        if name in _ON_LISTS and len(parts) == 1 and not e.kwargs and \
                isinstance(e.args[0], ast.Comprehension | ast.ListLit):
            self.facts.use(_ON_LISTS[name])
            return f"{_ON_LISTS[name]}({parts[0]})", b.returns  # a list for sure: no checks
        if name in _OF_VALUES and len(parts) >= 2 and not e.kwargs:
            self.facts.use(_OF_VALUES[name])
            return f"{_OF_VALUES[name]}({', '.join(parts)})", b.returns  # Python's own, then
        return self.builtin_call(e, b, parts), b.returns

    def builtin_call(self, e: ast.Call, b, parts: list[str]) -> str:
        """A call of builtin `b` on the generated arguments `parts`."""
        self.builtin_facts(e, b, parts)
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
        A builtin takes those its function takes: any (an event's fields) when it takes
        `**fields`, but none that is the name of one of its own parameters."""
        own, any_name = pysource.keywords_of(b.fn)
        seen: set[str] = set()
        for k, _ in e.kwargs:
            if not any_name:
                self.fail(e, f"'{k}' is not a parameter of {name}()", f"{name}() takes no named arguments")
            elif k in own:
                self.fail(e, f"{name}(): a named argument cannot be called '{k}'", "choose another name")
            elif k in seen:
                self.fail(e, f"{name}(): '{k}' is given twice")
            seen.add(k)
        pairs = [(k, self.expr(v)[0]) for k, v in e.kwargs]
        if all(pysource.bare_keyword(k) for k, _ in pairs):
            return ", ".join(f"{k}={code}" for k, code in pairs)
        return "**{" + ", ".join(f"{k!r}: {code}" for k, code in pairs) + "}"

    def check_arg(self, fname: str, kind: str, a: ast.Node, t: str) -> None:
        if kind == "card" and isinstance(a, ast.Const) and isinstance(a.value, str):
            if a.value not in self.env.cards:
                self.fail(a, f"'{fname}': no card or piece kind '{a.value}'",
                          did_you_mean(a.value, self.env.cards))
        elif kind in ("die", "zone", "player", "ent") and t not in ("any", kind, "none"):
            self.fail(a, f"'{fname}' expects a {kind} here, got a {t}")
        elif kind in _NOT_OF_KIND and (t in _NOT_OF_KIND[kind] or kind != "list" and t.startswith("list")):
            self.fail(a, f"'{fname}' expects {_A[kind]} here, got {_A.get(t, 'a list')}")

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
            return f"{helper}({left}, {right})", t
        return f"({left} {py_op} {right})", t

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
        self.bind_local(e, e.var, _elem(st))
        item, it = self.expr(e.item)
        cond = f" if {self.expr(e.cond)[0]}" if e.cond is not None else ""
        self.locals = saved
        self.facts.use("_items")
        return f"[{item} for {pyname('v_', e.var)} in _items(S, {src}){cond}]", f"list:{it}"


# What a value of a known type cannot be given as a builtin's argument of kind int, str or
# list (a list type is `list` or `list:<item>`): what is "any" (unknown) passes, and the
# run time says more if it is wrong. The words for types in messages: `_A`.
_SCALARS = ("player", "ent", "zone")
_NOT_OF_KIND = {"int": ("str", "none", *_SCALARS), "str": ("int", "bool", *_SCALARS),
                "list": ("int", "bool", "str", *_SCALARS)}
_A = {"int": "a number", "bool": "a true/false", "str": "a text", "none": "none", "player": "a player",
      "ent": "an entity", "zone": "a zone", "die": "a die", "list": "a list"}
_NUMBERS = ("int", "bool")
_KNOWN = (*_NUMBERS, "str", "none", *_SCALARS)


# what may outgrow the caps on values (engine.dsl.runtime): a product, and a sum or a
# remainder of values not known to be numbers (two texts or lists joined, a text formatted)
_CHECKED_OPS = {"*": "_mul", "+": "_add", "%": "_mod"}
_VALUE_TYPES = {bool: "bool", int: "int", str: "str"}


def _checked(op: str, lt: str, rt: str) -> str | None:
    """The runtime helper that computes `lt op rt` within the caps, or None for Python's own
    operator (a sum, difference or remainder of numbers, which cannot blow up)."""
    if op == "*" or op in _CHECKED_OPS and not (lt in _NUMBERS and rt in _NUMBERS):
        return _CHECKED_OPS[op]
    return None


def _arith_mismatch(op: str, lt: str, rt: str) -> bool:
    """Whether `lt op rt` (an arithmetic operator) surely fails on values of these types,
    known at load time (what is "any" may be anything). Numbers (true/false count as 1/0)
    take every operator; `+` also joins two texts or two lists, `*` repeats a text or a
    list a number of times."""
    if op not in ("+", "-", "*", "/", "%"):
        return False
    known = [t in _KNOWN or t.startswith("list") for t in (lt, rt)]
    if not all(known) or lt in _NUMBERS and rt in _NUMBERS:
        return False
    lists = [t.startswith("list") for t in (lt, rt)]
    if op == "+" and (lt == rt == "str" or all(lists)):
        return False
    repeated = lists[0] or lists[1] or "str" in (lt, rt)  # a text or a list, times a number
    return not (op == "*" and repeated and (lt in _NUMBERS or rt in _NUMBERS))


def _log_line(fmt: ast.Node, args: list[str], types: list[str], facts: Tally) -> str | None:
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
        elif t == "player" and _VARIABLE.fullmatch(code):
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


_FORMATTER = string.Formatter()


def _globals(env: Env) -> dict:
    g: dict = {"__builtins__": {}, "_get": runtime.get, "_set": runtime.set_,
               "_items": runtime.items, "_repeat": runtime.repeat, "_in": runtime.contains,
               "_mul": runtime.mul, "_add": runtime.add, "_mod": runtime.mod,
               "_Z": runtime.zone_ref, "_P": P, "_E": E, "_type": type, "_list": list, "_dict": dict,
               "_proc": _call_proc, "_py_all": all, "_py_any": any, "_py_sum": sum, "_py_len": len, "_py_min": min,
               "_py_max": max}
    for name, b in BUILTINS.items():
        g["_b_" + name] = b.fn
    for name, fn in env.words.items():  # an extension's own answer to a builtin (a board's)
        if name in BUILTINS:
            g["_b_" + name] = fn
    for name, (value, _) in env.consts.items():
        g["_c_" + name] = value
    return g


def _call_proc(S, name: str, args: dict):
    return S.game.call_effect_proc(S, name, args)


def compile_snippet(tree: ast.Node, env: Env, scope: dict[str, str], *, expr: bool,
                    pure: bool, label: str = "snippet") -> tuple[Compiled | None, list[CompileProblem]]:
    """Compile an expression (`expr=True`) or a statement list to `fn(S, L)`."""
    em = _Emitter(env, scope, pure)
    if expr:
        code, t = em.expr(tree)
        em.emit_line(1, f"return {code}", tree.pos)
    else:
        assert isinstance(tree, ast.Program)
        t = "none"
        em.stmts(tree.body, 1)
    if em.problems:
        return None, em.problems
    head = [f"    {pyname('v_', n)} = L[{n!r}]" for n in sorted(em.used_outer)]
    src_lines = ["def _snippet(S, L):", *head, *em.lines]
    offset = 1 + len(head)
    lines = {ln + offset: pos for ln, pos in em.line_pos.items()}
    filename = compiled.filename(label)
    source = "\n".join(src_lines) + "\n"
    namespace = names_of(em)
    try:
        pysource.run(source, filename, namespace)
    except pysource.GeneratedCodeError as exc:  # a bug: said at the snippet's line, not a crash
        return None, [CompileProblem(exc.problem.message, lines.get(exc.lineno or 0, tree.pos), exc.problem.hint)]
    fn = namespace["_snippet"]
    facts = em.facts.freeze(makes_list=expr and isinstance(tree, ast.ListLit | ast.Comprehension))
    return Compiled(fn, t, source, lines, uses=tuple(sorted(em.used_outer)), body=em.lines,
                    body_lines=dict(em.line_pos), facts=facts, tree=tree, emits=tuple(em.emits)), []


def names_of(em: _Emitter) -> dict:
    """The namespace of the code emitter `em` made: builtins, constants, the procedures it
    calls, the zones and params it names."""
    namespace = _globals(em.env)
    for name in em.facts.procs:
        namespace["_pc_" + name] = procs.stub(namespace, name)
    for name in em.zones_named:
        namespace["_zr_" + name] = runtime.zone_refs(name)
    for name in em.params_named:
        namespace["_pm_" + name] = em.env.params[name]
    return namespace
