"""A quick reader for the snippets packs are made of, giving exactly Lark's AST or nothing.

Lark is the effect language's parser and grammar/effects.lark the language's definition.
But before Lark parses anything, a new process must build the grammar's LALR tables, in
Python: some 200 ms, and Lark's parsing of a pack's few hundred snippets as much again.
That was most of a first load. This module reads the same snippets by recursive descent
and precedence climbing, without tables, and builds the same `engine.dsl.ast` nodes with
the same positions (see `_Reader` for the rule Lark's `propagate_positions` follows).

It is narrower than the grammar on purpose. Whenever it is not sure, it gives up and
returns None, and `engine.dsl.parser` hands the text to Lark: on any error (so every
message and position comes from Lark, as before); on a keyword where a name is expected
(Lark's contextual lexer reads `x.if` as a name); on tabs, carriage returns, form feeds,
line continuations and characters outside ASCII other than inside a string; and on nesting
that might be deeper than `MAX_NESTING`. tests/dsl/test_fastparse.py checks it against
Lark on every snippet of the bundled packs and on generated ones, well-formed and broken:
whatever it reads, Lark reads the same.
"""

from __future__ import annotations

import re

from engine.dsl import ast

# The grammar this reader follows: the sha256 of grammar/effects.lark's text.
# `engine.dsl.parser` uses the reader only while the grammar is this one; after an edit
# everything goes to Lark (correct, only slower) until the reader is brought in line and
# this digest updated, which tests/dsl/test_fastparse.py asks for.
GRAMMAR_SHA256 = "d1d2acc7ed2e37454bd73ee639764d4580029d7eb71f0702fa424008df070721"

_KEYWORDS = frozenset({"and", "or", "not", "in", "if", "elif", "else", "for", "repeat", "pass",
                       "call", "true", "false", "none"})
_CONSTS = {"true": True, "false": False, "none": None}

# One token per match; `lastgroup` is its kind. Newlines, blank lines and comments run
# together into one end-of-line token, as the grammar's _NL does.
_TOKEN = re.compile(r"""
    (?P<SP>\ +)
  | (?P<NL>(?:\n\ *|\#[^\n]*)+)
  | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<NUMBER>[0-9]+)
  | (?P<STRING>'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*")
  | (?P<OP>\+=|-=|\*=|==|!=|<=|>=|[<>=+\-*/%.,;:()\[\]])
""", re.VERBOSE)
_REFUSED = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # tabs, \r, \f: control characters but \n
# How tightly each binary operator binds, as the grammar's rules nest: or_expr, and_expr,
# (not_expr 3), comparison, sum, term.
_LEVELS = {"or": 1, "and": 2, "==": 4, "!=": 4, "<=": 4, ">=": 4, "<": 4, ">": 4, "in": 4,
           "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
_AUGOPS = frozenset({"+=", "-=", "*="})
_OPEN, _CLOSE = frozenset("(["), frozenset(")]")
_INDENT, _DEDENT, _END = "<indent>", "<dedent>", "<end>"


class _GiveUp(Exception):
    """Not sure: let Lark parse it."""


def read(text: str, max_nesting: int) -> ast.Program | None:
    """The AST Lark would give for `text`, or None whenever that is not certain."""
    src = text if text.endswith("\n") else text + "\n"
    if _REFUSED.search(src):
        return None
    try:
        prog = _Reader(_tokens(src)).program()
        return prog if _height(prog) <= max_nesting else None
    except (_GiveUp, IndexError, ValueError, RecursionError):
        return None


def _tokens(src: str) -> list[tuple[str, str, ast.Pos]]:
    """(kind, text, (line, col)) as Lark's lexer and the grammar's indenter give them:
    keywords are their own kind, end-of-line inside brackets is dropped, indentation
    becomes indent and dedent tokens at the end-of-line token's place."""
    out: list[tuple[str, str, ast.Pos]] = []
    line, line_start, depth, indents = 1, 0, 0, [0]
    pos, end = 0, len(src)
    match = _TOKEN.match
    while pos < end:
        m = match(src, pos)
        if m is None:
            raise _GiveUp
        kind, value = m.lastgroup or "", m.group()
        where = (line, pos - line_start + 1)
        pos = m.end()
        if kind == "NL":
            breaks = value.count("\n")
            if breaks:
                line += breaks
                line_start = m.start() + value.rindex("\n") + 1
            if depth:
                continue
            out.append(("NL", value, where))
            indent = pos - line_start
            if indent > indents[-1]:
                indents.append(indent)
                out.append((_INDENT, "", where))
                continue
            while indent < indents[-1]:
                indents.pop()
                out.append((_DEDENT, "", where))
            if indent != indents[-1]:
                raise _GiveUp
            continue
        if kind == "SP":
            continue
        if kind == "NAME" and value in _KEYWORDS:
            kind = value
        elif kind == "OP":
            kind = value
            if value in _OPEN:
                depth += 1
            elif value in _CLOSE:
                depth -= 1
                if depth < 0:
                    raise _GiveUp
        out.append((kind, value, where))
    where = out[-1][2] if out else (1, 1)
    out.extend((_DEDENT, "", where) for _ in indents[1:])
    out.append((_END, "", where))
    return out


class _Reader:
    """Recursive descent over the tokens.

    Positions follow Lark's `propagate_positions`: a node is where its first token is, or,
    when its first part is an expression, where that expression's text begins, brackets
    around it included (`(a + b) * c` is at the '(' and its `a + b` at the `a`). So the
    expression methods return (node, start), start being that beginning; a node whose own
    position differs from its start is a whole in brackets, which can be no target of `=`.
    """

    def __init__(self, tokens):
        self.toks = tokens
        self.i = 0

    # -- helpers --
    def kind(self) -> str:
        return self.toks[self.i][0]

    def take(self, kind: str):
        tok = self.toks[self.i]
        if tok[0] != kind:
            raise _GiveUp
        self.i += 1
        return tok

    def name(self) -> str:
        return self.take("NAME")[1]

    # -- statements --
    def program(self) -> ast.Program:
        first = None
        if self.kind() == "NL":
            first = self.toks[self.i][2]
            self.i += 1
        body: list[ast.Node] = []
        while self.kind() != _END:
            starts = self.statement(body)
            if first is None:
                first = starts
        return ast.Program(first or (1, 1), tuple(body))

    def statement(self, out: list) -> ast.Pos:
        """One grammar `stmt` into `out`; its start."""
        kind = self.kind()
        if kind == "if":
            return self.if_stmt(out)
        if kind == "for":
            pos = self.take("for")[2]
            var = self.name()
            self.take("in")
            source = self.value()[0]
            self.take(":")
            out.append(ast.For(pos, var, source, self.suite()))
            return pos
        if kind == "repeat":
            pos = self.take("repeat")[2]
            count = self.value()[0]
            self.take(":")
            out.append(ast.Repeat(pos, count, self.suite()))
            return pos
        start = self.simple_statements(out)
        self.take("NL")
        return start

    def if_stmt(self, out: list) -> ast.Pos:
        pos = self.take("if")[2]
        branches = []
        while True:
            cond = self.value()[0]
            self.take(":")
            branches.append((cond, self.suite()))
            if self.kind() != "elif":
                break
            self.i += 1
        orelse: tuple = ()
        if self.kind() == "else":
            self.i += 1
            self.take(":")
            orelse = self.suite()
        out.append(ast.If(pos, tuple(branches), orelse))
        return pos

    def suite(self) -> tuple:
        body: list[ast.Node] = []
        if self.kind() != "NL":
            self.simple_statements(body)
            self.take("NL")
            return tuple(body)
        self.i += 1
        self.take(_INDENT)
        while self.kind() != _DEDENT:
            self.statement(body)
        self.i += 1
        return tuple(body)

    def simple_statements(self, out: list) -> ast.Pos:
        start = self.small(out)
        while self.kind() == ";":
            self.i += 1
            self.small(out)
        return start

    def small(self, out: list) -> ast.Pos:
        kind = self.kind()
        if kind == "pass":
            pos = self.take("pass")[2]
            out.append(ast.Pass(pos))
            return pos
        if kind == "call":
            pos = self.take("call")[2]
            proc = self.name()
            self.take("(")
            args, kwargs = self.arguments()
            out.append(ast.CallFlow(pos, proc, args, kwargs))
            return pos
        node, start = self.value()
        op = self.kind()
        if op == "=" or op in _AUGOPS:
            # A target is a name, `x.name` or `x[i]`, never a whole in brackets.
            if not isinstance(node, (ast.Name, ast.Attr, ast.Index)) or node.pos != start:
                raise _GiveUp
            self.i += 1
            out.append(ast.Assign(start, node, op, self.value()[0]))
        else:
            out.append(ast.ExprStmt(start, node))
        return start

    def arguments(self) -> tuple[tuple, tuple]:
        """After '(': arguments up to and including ')'."""
        args: list = []
        kwargs: list = []
        while self.kind() != ")":
            if self.kind() == "NAME" and self.toks[self.i + 1][0] == "=":
                key = self.name()
                self.i += 1
                kwargs.append((key, self.value()[0]))
            else:
                args.append(self.value()[0])
            if self.kind() != ",":
                break
            self.i += 1
        self.take(")")
        return tuple(args), tuple(kwargs)

    # -- expressions --
    def value(self):
        """The grammar's `expr`: an `or` expression, or a conditional `a if c else b`
        (whose last part may be another); a comprehension's source and filter are `or`
        expressions (`expr`), so their `if` is the filter's."""
        node, start = self.expr()
        if self.kind() != "if":
            return node, start
        self.i += 1
        cond = self.expr()[0]
        self.take("else")
        return ast.IfExp(start, node, cond, self.value()[0]), start

    def expr(self, least: int = 1):
        """An expression of operators that bind at least as tightly as `least` (see
        _LEVELS), by precedence climbing. The grammar's rules become the `cap` on what may
        follow: `a < b < c` and `not a < b < c` stop at the second `<` and fail."""
        toks = self.toks
        tok = toks[self.i]
        if tok[0] == "not" and least <= 3:
            self.i += 1
            left: ast.Node = ast.Not(tok[2], self.expr(3)[0])
            start, cap = tok[2], 2
        else:
            left, start = self.factor()
            cap = 6
        while True:
            op = toks[self.i][0]
            level = _LEVELS.get(op)
            width = 1
            if level is None:
                if op != "not" or toks[self.i + 1][0] != "in":
                    return left, start
                op, level, width = "notin", 4, 2
            if level < least or level > cap:
                return left, start
            self.i += width
            if level == 4:  # comparisons do not chain; `and` and `or` may follow
                left, cap = ast.BinOp(start, op, left, self.expr(5)[0]), 3
            else:
                left, cap = ast.BinOp(start, op, left, self.expr(level + 1)[0]), level

    def factor(self):
        tok = self.toks[self.i]
        if tok[0] == "-":
            self.i += 1
            return ast.Neg(tok[2], self.factor()[0]), tok[2]
        return self.postfix()

    def postfix(self):
        node, start = self.atom()
        while True:
            kind = self.kind()
            if kind == ".":
                self.i += 1
                node = ast.Attr(start, node, self.name())
            elif kind == "[":
                self.i += 1
                node = ast.Index(start, node, self.value()[0])
                self.take("]")
            else:
                return node, start

    def atom(self):
        kind, value, pos = self.toks[self.i]
        self.i += 1
        if kind == "NAME":
            if self.kind() != "(":
                return ast.Name(pos, value), pos
            self.i += 1
            args, kwargs = self.arguments()
            return ast.Call(pos, value, args, kwargs), pos
        if kind == "NUMBER":
            return ast.Const(pos, int(value)), pos  # ValueError past int_max_str_digits
        if kind == "STRING":
            return ast.Const(pos, unescape(value)), pos
        if kind in _CONSTS:
            return ast.Const(pos, _CONSTS[kind]), pos
        if kind == "(":
            node = self.value()[0]
            self.take(")")
            return node, pos
        if kind == "[":
            return self.bracket(pos), pos
        raise _GiveUp

    def bracket(self, pos: ast.Pos) -> ast.Node:
        """After '[': a list or a comprehension."""
        items: list = []
        if self.kind() != "]":
            items.append(self.value()[0])
            if self.kind() == "for":
                self.i += 1
                var = self.name()
                self.take("in")
                source = self.expr()[0]
                cond = None
                if self.kind() == "if":
                    self.i += 1
                    cond = self.expr()[0]
                self.take("]")
                return ast.Comprehension(pos, items[0], var, source, cond)
            while self.kind() == ",":
                self.i += 1
                if self.kind() == "]":
                    break
                items.append(self.value()[0])
        self.take("]")
        return ast.ListLit(pos, tuple(items))


def unescape(raw: str) -> str:
    """A string token's value: the text between its quotes, where a backslash escapes the
    next character and `\\n`, `\\t` are a newline and a tab (Lark's path uses it too)."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _height(node) -> int:
    """At least the depth of the tree Lark would build (its `_depth`): one level per node,
    one per argument list, keyword argument, block and `elif`/`else` clause, and one per
    statement for the tree `a; b` makes."""
    if isinstance(node, ast.BinOp):
        return 1 + max(_height(node.left), _height(node.right))
    if isinstance(node, (ast.Name, ast.Const, ast.Pass)):
        return 1
    if isinstance(node, ast.Attr):
        return 1 + _height(node.obj)
    if isinstance(node, ast.Index):
        return 1 + max(_height(node.obj), _height(node.index))
    if isinstance(node, ast.IfExp):
        return 1 + max(_height(node.then), _height(node.cond), _height(node.orelse))
    if isinstance(node, (ast.Not, ast.Neg)):
        return 1 + _height(node.operand)
    if isinstance(node, (ast.Call, ast.CallFlow)):
        if not node.args and not node.kwargs:
            return 1
        return 2 + max([_height(a) for a in node.args] + [1 + _height(v) for _, v in node.kwargs])
    if isinstance(node, ast.ListLit):
        return 1 + max([_height(x) for x in node.items], default=0)
    if isinstance(node, ast.Comprehension):
        inner = [node.item, node.source] + ([node.cond] if node.cond is not None else [])
        return 1 + max(_height(x) for x in inner)
    if isinstance(node, ast.Assign):
        return 1 + max(_height(node.target), _height(node.value))
    if isinstance(node, ast.ExprStmt):
        return 1 + _height(node.expr)
    if isinstance(node, ast.If):
        parts = [_height(node.branches[0][0]), _block(node.branches[0][1])]
        parts += [1 + max(_height(c), _block(b)) for c, b in node.branches[1:]]
        if node.orelse:
            parts.append(1 + _block(node.orelse))
        return 1 + max(parts)
    if isinstance(node, (ast.For, ast.Repeat)):
        head = node.source if isinstance(node, ast.For) else node.count
        return 1 + max(_height(head), _block(node.body))
    if isinstance(node, ast.Program):
        return 1 + max([1 + _height(s) for s in node.body], default=0)
    raise _GiveUp


def _block(body: tuple) -> int:
    return 1 + max([1 + _height(s) for s in body], default=0)
