"""Parse effect-language text into the AST of `engine.dsl.ast`.

Lark, with grammar/effects.lark, is the parser: one shared LALR parser, made on first
need. Lark errors become `DSLSyntaxError` with a snippet position; the pack compiler
shifts that position onto the YAML file the snippet came from.

Building the parser's tables in a new process costs more than reading all of a pack's
snippets, so the tables are made once from the grammar and shipped with the package
(`engine.dsl.tables`): a new process loads them with Lark's own deserialize path. Every
snippet, well-formed or not, is read by Lark, so every error is found, worded and placed by
Lark. A process keeps its parses (`parse_program` remembers them); nothing is kept between
processes.
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING

from engine.dsl import ast
from engine.errors import DSLSyntaxError

if TYPE_CHECKING:
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

MAX_NESTING = 60  # the transformer recurses; deeper trees are refused before it runs
EQUALS_HINT = "did you mean '=='? '=' sets a value, '==' compares two"
# The grammar's words, which no name may be (tests/dsl/test_tables.py reads them from it)
KEYWORDS = frozenset({"and", "or", "not", "in", "if", "elif", "else", "for", "repeat", "pass",
                      "call", "true", "false", "none"})


@functools.cache
def _parser():
    from engine.dsl import tables  # on first need: `python -m engine.dsl.tables` runs it as a script

    return tables.load(tables.grammar_text(), tables.indenter())


_TOKEN_WORDS = {
    "_NL": "end of line", "$END": "end of text", "NAME": "a name", "NUMBER": "a number",
    "STRING": "a string", "COLON": "':'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "EQUAL": "'='", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "MINUS": "'-'", "PLUS": "'+'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'",
    "COMMA": "','", "DOT": "'.'", "SEMICOLON": "';'", "COMPOP": "a comparison",
    "AUGOP": "'+=' '-=' '*='",
}


def _expected(exc: UnexpectedInput) -> str:
    names = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    words = [_TOKEN_WORDS.get(n, n.lower()) for n in names if not n.startswith("__")]
    if not words:
        return ""
    return "; expected " + (", ".join(words[:6]) + (" …" if len(words) > 6 else ""))


def _fail(exc: UnexpectedInput, text: str) -> DSLSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    hint = None
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            what = "unexpected end of text"
            lines = text.rstrip("\n").split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        elif tok.type == "_NL":
            what = "unexpected end of line"
        elif tok.type in ("_INDENT", "_DEDENT"):
            what = "unexpected indentation"
        else:
            what = f"unexpected {tok.value!r}"
        msg = what + _expected(exc)
        if tok.type == "EQUAL":  # `if x = 1:`, `[p for p in players if p.out = true]`
            hint = EQUALS_HINT
    elif isinstance(exc, UnexpectedCharacters):
        msg = f"unexpected character {exc.char!r}"
        if exc.char.isdigit():  # another script's digit, which Python's int() would read
            msg = f"expected a number (digits 0-9), got {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        msg = "unexpected end of text" + _expected(exc)
    else:
        msg = str(exc).split("\n")[0]
    err = DSLSyntaxError(msg, hint=hint)
    err.pos = (line, col)  # type: ignore[attr-defined]
    return err


def _bad_dedent_line(text: str) -> int:
    stack = [0]
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" \t"))
        if ind > stack[-1]:
            stack.append(ind)
            continue
        while ind < stack[-1]:
            stack.pop()
        if ind != stack[-1]:
            return n
    return 1


def unescape(raw: str) -> str:
    """A string token's value: the text between its quotes, where a backslash escapes the
    next character and `\\n`, `\\t` are a newline and a tab."""
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


def _is_tree(child) -> bool:
    """A tree's children are subtrees, tokens (strings) and None for an absent `[part]`."""
    return child is not None and not isinstance(child, str)


def _depth(tree: Tree) -> int:
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((c, d + 1) for c in node.children if _is_tree(c))
    return deepest


def _pos(meta) -> ast.Pos:
    return (getattr(meta, "line", 1), getattr(meta, "column", 1))


def _tpos(tok: Token) -> ast.Pos:
    return (tok.line or 1, tok.column or 1)


def _flatten(items) -> tuple:
    out: list = []
    for it in items:
        out.extend(it) if isinstance(it, list) else out.append(it)
    return tuple(out)


def _binop(op):
    def build(self, meta, children):
        left, right = children[0], children[-1]
        return ast.BinOp(_pos(meta), op, left, right)
    return build


class _ToAst:
    """Lark tree → AST dataclasses, bottom up: one method per grammar `-> name` alias,
    called with the node's positions and its children already converted."""

    def transform(self, tree: Tree):
        children = [self.transform(c) if _is_tree(c) else c for c in tree.children]
        return getattr(self, tree.data)(tree.meta, children)

    # -- atoms --
    def number(self, meta, c):
        if not c[0].isascii():  # the grammar's \d is any script's digit: int() reads ৪ as 4
            err = DSLSyntaxError(f"expected a number (digits 0-9), got '{c[0]}'")
            err.pos = _tpos(c[0])  # type: ignore[attr-defined]
            raise err
        try:
            return ast.Const(_tpos(c[0]), int(c[0]))
        except ValueError:  # longer than Python converts (int_max_str_digits)
            err = DSLSyntaxError(f"number is longer than {sys.get_int_max_str_digits()} digits")
            err.pos = _tpos(c[0])  # type: ignore[attr-defined]
            raise err from None

    def string(self, meta, c):
        return ast.Const(_tpos(c[0]), unescape(str(c[0])))

    def true(self, meta, c):
        return ast.Const(_pos(meta), True)

    def false(self, meta, c):
        return ast.Const(_pos(meta), False)

    def none(self, meta, c):
        return ast.Const(_pos(meta), None)

    def name(self, meta, c):
        return ast.Name(_tpos(c[0]), str(c[0]))

    def call(self, meta, c):
        args, kwargs = c[1] if c[1] is not None else ((), ())
        return ast.Call(_pos(meta), str(c[0]), args, kwargs)

    def arguments(self, meta, c):
        args = tuple(a for a in c if not isinstance(a, tuple))
        kwargs = tuple(a for a in c if isinstance(a, tuple))
        return args, kwargs

    def keyword(self, meta, c):
        return (str(c[0]), c[1])

    def list_lit(self, meta, c):
        return ast.ListLit(_pos(meta), tuple(x for x in c if x is not None))

    def comprehension(self, meta, c):
        return ast.Comprehension(_pos(meta), c[0], str(c[1]), c[2], c[3])

    def attr(self, meta, c):
        return ast.Attr(_pos(meta), c[0], str(c[1]))

    def index(self, meta, c):
        return ast.Index(_pos(meta), c[0], c[1])

    # -- operators --
    add, sub, mul, div, mod = (_binop(o) for o in "+-*/%")
    or_op, and_op = _binop("or"), _binop("and")
    in_op, not_in_op = _binop("in"), _binop("notin")

    def compare(self, meta, c):
        return ast.BinOp(_pos(meta), str(c[1]), c[0], c[2])

    def cond_expr(self, meta, c):
        return ast.IfExp(_pos(meta), c[0], c[1], c[2])

    def not_op(self, meta, c):
        return ast.Not(_pos(meta), c[0])

    def neg(self, meta, c):
        return ast.Neg(_pos(meta), c[0])

    # -- statements --
    def target_name(self, meta, c):
        return ast.Name(_tpos(c[0]), str(c[0]))

    def target_attr(self, meta, c):
        return ast.Attr(_pos(meta), c[0], str(c[1]))

    def target_index(self, meta, c):
        return ast.Index(_pos(meta), c[0], c[1])

    def assign(self, meta, c):
        return ast.Assign(_pos(meta), c[0], "=", c[1])

    def augassign(self, meta, c):
        return ast.Assign(_pos(meta), c[0], str(c[1]), c[2])

    def pass_stmt(self, meta, c):
        return ast.Pass(_pos(meta))

    def expr_stmt(self, meta, c):
        return ast.ExprStmt(_pos(meta), c[0])

    def callflow(self, meta, c):
        args, kwargs = c[1] if c[1] is not None else ((), ())
        return ast.CallFlow(_pos(meta), str(c[0]), args, kwargs)

    def stmt(self, meta, c):
        # `a; b` on one line: several statements from one grammar `stmt`
        return list(c)

    def block(self, meta, c):
        return _flatten(c)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse: tuple = ()
        for extra in c[2:]:
            if extra[0] == "else":
                orelse = extra[1]
            else:
                branches.append(extra)
        return ast.If(_pos(meta), tuple(branches), orelse)

    def for_stmt(self, meta, c):
        return ast.For(_pos(meta), str(c[0]), c[1], c[2])

    def repeat_stmt(self, meta, c):
        return ast.Repeat(_pos(meta), c[0], c[1])

    def start(self, meta, c):
        return ast.Program(_pos(meta), _flatten(c))


def _parse_tree(text: str) -> Tree:
    from lark.exceptions import LarkError, UnexpectedInput

    src = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(src)
    except UnexpectedInput as exc:
        raise _fail(exc, src) from None
    except LarkError:  # the indenter's DedentError carries no position: find the line
        err = DSLSyntaxError("this line's indentation matches no enclosing block")
        err.pos = (_bad_dedent_line(src), 1)  # type: ignore[attr-defined]
        raise err from None
    if _depth(tree) > MAX_NESTING:
        err = DSLSyntaxError(f"expression nested too deeply (more than {MAX_NESTING} levels)")
        err.pos = (1, 1)  # type: ignore[attr-defined]
        raise err
    return tree


@functools.lru_cache(maxsize=4096)
def parse_program(text: str) -> ast.Program:
    """Statements (an effect). Remembered: packs repeat the same snippets across modes."""
    return _ToAst().transform(_parse_tree(text))


@functools.lru_cache(maxsize=4096)
def parse_expr(text: str) -> ast.Node:
    """One expression (a condition, a domain, a value)."""
    prog = parse_program(text.strip())
    if len(prog.body) != 1 or not isinstance(prog.body[0], ast.ExprStmt):
        first = prog.body[0] if prog.body else None
        if isinstance(first, ast.Assign) and first.op == "=":
            err = DSLSyntaxError("'=' sets a value; a condition or a value cannot set one",
                                 hint=EQUALS_HINT)
            err.pos = first.pos  # type: ignore[attr-defined]
            raise err
        err = DSLSyntaxError("expected one expression here, not statements")
        err.pos = prog.body[0].pos if prog.body else (1, 1)  # type: ignore[attr-defined]
        raise err
    return prog.body[0].expr
