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

from engine.dsl import ast, compiled, nesting, procs, pysource, runtime, work
from engine.dsl.builtins import BUILTINS
from engine.dsl.compiled import Compiled
from engine.dsl.compiled import error_pos as error_pos  # (where they were first)
from engine.dsl.compiled import runtime_message as runtime_message
from engine.dsl.emit_expr import (
    _KEPT_FIELDS,
    CompileProblem,
    ExprEmitter,
    _GenericField,
    _Literal,
    scalar,
)
from engine.dsl.env import Env
from engine.dsl.facts import ANY
from engine.dsl.pysource import ASSIGN_OPS, MAX_BLOCKS, MAX_BRANCH_DEPTH, VARIABLE
from engine.dsl.pysource import name as pyname
from engine.dsl.values import E, P
from engine.dsl.vtypes import TYPE_WORDS, elem, family
from engine.errors import did_you_mean

_SCALAR = re.compile(r"-?[0-9]+|True|False|None")  # generated code for a literal of no container


class _Emitter(ExprEmitter):
    """Compiles statements (engine.dsl.emit_expr compiles the expressions in them)."""

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
            self.bind_local(st, st.var, elem(t))
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
                    self.emit_line(indent, f"{var} = {helper}({var}, {value}, S)", st.pos)
                    return
            if op != "=":
                self.facts.writes.add(ANY)  # `x += ...` may grow a list the state holds
            self.emit_line(indent, f"{pyname('v_', tgt.id)} {op} {value}", st.pos)
            return
        # anything else is a place the state may hold (a list a variable holds, a field)
        raw, value = value, self.keep(st.value, value)
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
                self.facts.use("_kept")
                self.emit_line(indent, f"_o, _k = {obj}, {idx}", st.pos)
                self.emit_line(indent, f"_o[_k] = {self.keep_sum(st, f'{helper}(_o[_k], {raw}, S)')}", st.pos)
                return
            if value is not raw:  # a list, maybe: the list it goes into is checked with it
                self.emit_line(indent, f"_v = {raw}", st.pos)
                self.emit_line(indent, f"_o = {obj}", st.pos)
                self.emit_line(indent, f"_o[{idx}] {op} _v", st.pos)
                self.emit_line(indent, "_kept(S, _o)", st.pos)
                return
            self.emit_line(indent, f"{obj}[{idx}] {op} {value}", st.pos)
            return
        assert isinstance(tgt, ast.Attr)
        place = self.attr_place(tgt, writing=True)
        if place is None:
            return
        if op == "=":
            self.check_write(st, place, tgt.name, vt)
        self.facts.writes.add(tgt.name)
        self.facts.use("_kept")
        if isinstance(place, _GenericField):
            obj = str(place)
            fast = self.player_place(obj, tgt.name, writing=True) if self.untyped else None
            if op == "=" and VARIABLE.fullmatch(obj) and tgt.name in self.env.ent_fields and \
                    tgt.name not in _KEPT_FIELDS:
                self.entity_write(obj, tgt.name, value, fast, indent, st.pos)
                return
            helper = self.checked(op[0], "any", vt) if op != "=" else None
            if fast is not None:  # most untyped values are players: try that first
                self.facts.use("_type", "_P")
                self.emit_line(indent, f"if _type({obj}) is _P:", st.pos)
                self.emit_line(indent + 1, f"{fast} = {self.keep_sum(st, f'{helper}({fast}, {raw}, S)')}"
                               if helper else f"{fast} {op} {value}", st.pos)
                self.emit_line(indent, "else:", st.pos)
                indent += 1
            if op == "=":
                self.emit_line(indent, self.set_call(obj, tgt.name, value), st.pos)
            else:
                self.emit_line(indent, f"_o = {obj}", st.pos)
                old = self.get_call("_o", tgt.name)
                new = self.keep_sum(st, f"{helper}({old}, {raw}, S)") if helper else f"{old} {op[0]} {value}"
                self.emit_line(indent, self.set_call("_o", tgt.name, new), st.pos)
        else:
            helper = None
            if op != "=":
                self.check_arith(st, op[0], self.place_type(place, tgt.name), vt)
                helper = self.checked(op[0], self.place_type(place, tgt.name), vt)
            self.emit_line(indent, f"{place} = {self.keep_sum(st, f'{helper}({place}, {raw}, S)')}" if helper
                           else f"{place} {op} {value}", st.pos)

    def keep(self, node: ast.Node, code: str) -> str:
        """The code of value `node` (`code`) to be stored into the state: checked and charged
        by engine.dsl.nesting `kept` unless it is surely no list."""
        if scalar(node, code):
            return code
        return self.kept(code)

    def keep_sum(self, st: ast.Assign, code: str) -> str:
        """`keep` of the value of `place op= st.value`, generated as `code`: no list when
        the operator makes none or a number or text is added."""
        if st.op[0] in "-/%" or st.op[0] == "+" and scalar(st.value):
            return code
        return self.kept(code)

    def kept(self, code: str) -> str:
        """`nesting.kept(S, code)`, the type test that passes what is no list written out
        (a statement's value: no comprehension's source, where `:=` may not be)."""
        self.facts.use("_kept", "_type", "_list")
        return f"(_kv if _type(_kv := {code}) is not _list else _kept(S, _kv))"

    def check_write(self, st: ast.Assign, place: str, name: str, vt: str) -> None:
        """A value of a known type into a field whose type is known, and another (a text
        into a number): a load-time error, where the game would go wrong only later."""
        if isinstance(place, _GenericField):  # an entity's field, or a value's of unknown type
            entity = self.obj_type == "ent" or name not in self.env.player_fields
            ft = self.env.ent_types.get(name, "any") if entity else "any"
        else:
            ft = self.place_type(place, name)
        if family(ft) and family(vt) and family(ft) != family(vt):
            held, given = TYPE_WORDS.get(ft, "a list"), TYPE_WORDS.get(vt, "a list")
            self.fail(st, f"'{name}' holds {held}: it cannot be set to {given}",
                      "str(x) is x as a text" if ft == "str" else None)

    def entity_write(self, obj: str, name: str, value: str, player: str | None, indent: int,
                     pos: ast.Pos) -> None:
        """`obj.name = value` for a variable `obj` of unknown type and a field cards or pieces
        have: a player's field (`player`, when players have one) or an entity's own field is
        written straight into its record, as `runtime.set_` would; anything else, and a list
        or a dict (which set_ has copied with the state), goes through set_."""
        scalar = _SCALAR.fullmatch(value)  # (a variable's type may change in a loop)
        if not (scalar or VARIABLE.fullmatch(value)):
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

    def set_call(self, obj: str, name: str, value: str) -> str:
        """Field `name` of a value `obj` of no known type, written through `runtime.set_`
        (which the analyses take to read anything)."""
        self.facts.use("_set")
        self.facts.reads.add(ANY)
        self.facts.writes.add(name)
        return f"_set(S, {obj}, {name!r}, {value})"

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
        """The arguments of flow procedure `name`, kept in its frame (and so in the state)."""
        pairs = self.bind_pairs(node, name, params, args, kwargs)
        return ", ".join(f"{p!r}: {self.kept(code)}" for p, code in pairs)


def _globals(env: Env) -> dict:
    g: dict = {"__builtins__": {}, "_get": runtime.get, "_set": runtime.set_,
               "_items": runtime.items, "_repeat": runtime.repeat, "_in": runtime.contains,
               "_mul": runtime.mul, "_add": runtime.add, "_mod": runtime.mod,
               "_sized": work.sized, "_say": work.say, "_kept": nesting.kept, "_cv": nesting.compared,
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
