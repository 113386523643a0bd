"""Parse effect-language text into the AST of `engine.dsl.ast`.

Lark, with grammar/effects.lark, is the parser: one shared LALR parser, made on first
need. Lark errors become `DSLSyntaxError` with a snippet position; the pack compiler
shifts that position onto the YAML file the snippet came from.

Building the parser's tables in a new process costs more than reading all of a pack's
snippets, so a snippet is first offered to `engine.dsl.fastparse`, which reads the
everyday ones without tables and gives exactly Lark's AST, or nothing. Lark parses what
it does not read, errors included, so every error is found, worded and placed by Lark.
The reader is used only with the grammar it was written for (its GRAMMAR_SHA256).

Both Lark's tables and each snippet's AST are kept in the user's cache
(`engine.resources`, docs/cache.md): the tables as Lark's own serialized form, each
snippet that parsed as its AST. Both files are plain JSON named after a digest of the
grammar, this module, the AST module, the quick reader and the installed Lark, so a change
to any of them starts afresh. Snippets that fail to parse are never cached. Lark itself is
imported only when something has to be parsed by it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from typing import TYPE_CHECKING

from engine import resources
from engine.dsl import ast, fastparse
from engine.errors import DSLSyntaxError

if TYPE_CHECKING:
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

MAX_NESTING = 60  # the transformer recurses; deeper trees are refused before it runs
MAX_CACHED = 5_000  # snippets in the cache file; past this, only those the writer used stay


@functools.cache
def _grammar() -> str:
    return (resources.data_dir("grammar") / "effects.lark").read_text()


@functools.cache
def _quick_reader_fits() -> bool:
    """Whether `engine.dsl.fastparse` was written for this grammar (see GRAMMAR_SHA256)."""
    return hashlib.sha256(_grammar().encode()).hexdigest() == fastparse.GRAMMAR_SHA256


@functools.cache
def _version() -> str | None:
    """What every cached parse depends on, as the cache files' names (None: cache nothing)."""
    code = resources.code_identity("lark", "engine.dsl.parser", "engine.dsl.ast",
                                   "engine.dsl.fastparse")
    return resources.digest(_grammar(), code) if code is not None else None


def _indenter():
    from lark.indenter import Indenter

    class Indent(Indenter):
        NL_type = "_NL"
        OPEN_PAREN_types = ["LPAR", "LSQB"]
        CLOSE_PAREN_types = ["RPAR", "RSQB"]
        INDENT_type = "_INDENT"
        DEDENT_type = "_DEDENT"
        tab_len = 4

    return Indent()


# Lark options given again when tables are loaded (Lark's own cache does the same): they
# are objects or do not shape the tables, so they are not stored.
_RUNTIME_OPTIONS = ("postlex", "transformer", "lexer_callbacks", "use_bytes", "debug",
                    "g_regex_flags", "regex", "propagate_positions", "tree_class", "_plugins")


@functools.cache
def _parser():
    from lark import Lark

    name = f"lalr-{_version()}.json" if _version() is not None else None
    raw = resources.read_cache(name) if name is not None else None
    if raw is not None:
        try:
            saved = json.loads(raw, object_hook=_int_keys)
            return Lark._load_from_dict(saved["data"], saved["memo"], postlex=_indenter(),
                                        propagate_positions=True)
        except Exception:  # noqa: BLE001 - a damaged or foreign cache file is no cache
            pass
    parser = Lark(_grammar(), parser="lalr", postlex=_indenter(), propagate_positions=True,
                  maybe_placeholders=True)
    if name is not None:
        _save_tables(parser, name)
    return parser


def _save_tables(parser, name: str) -> None:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    if resources.cache_dir() is None:
        return
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _RUNTIME_OPTIONS}
    try:
        text = json.dumps(_tag_int_keys({"data": data, "memo": memo}))
    except (TypeError, ValueError):  # something Lark stores that JSON cannot hold: no cache
        return
    resources.write_cache(name, text.encode())


def _tag_int_keys(x):
    """JSON keeps only string keys; Lark's tables are keyed by state and token numbers.
    Any other kind of key is a TypeError: JSON would turn it into a string unannounced."""
    if isinstance(x, dict):
        if x and all(type(k) is int for k in x):
            return {"#int": {str(k): _tag_int_keys(v) for k, v in x.items()}}
        if "#int" in x or not all(type(k) is str for k in x):
            raise TypeError("a mapping JSON cannot hold as it is")
        return {k: _tag_int_keys(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_tag_int_keys(v) for v in x]
    return x


def _int_keys(obj: dict):
    inner = obj.get("#int") if len(obj) == 1 else None
    return {int(k): v for k, v in inner.items()} if inner is not None else obj


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
    elif isinstance(exc, UnexpectedCharacters):
        msg = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        msg = "unexpected end of text" + _expected(exc)
    else:
        msg = str(exc).split("\n")[0]
    err = DSLSyntaxError(msg)
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
        try:
            return ast.Const(_tpos(c[0]), int(c[0]))
        except ValueError:  # longer than Python converts (int_max_str_digits)
            err = DSLSyntaxError(f"number is longer than {sys.get_int_max_str_digits()} digits")
            err.pos = _tpos(c[0])  # type: ignore[attr-defined]
            raise err from None

    def string(self, meta, c):
        return ast.Const(_tpos(c[0]), fastparse.unescape(str(c[0])))

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


_NODE_TYPES = {cls.__name__: cls for cls in vars(ast).values()
               if isinstance(cls, type) and issubclass(cls, ast.Node) and cls is not ast.Node}


_FIELDS = {cls: (name, tuple(f for f in cls.__dataclass_fields__ if f != "pos"))
           for name, cls in _NODE_TYPES.items()}


def _encode(x):
    """An AST as JSON: a node is [type, line, col, fields...], a tuple is ["", items...]."""
    kind = _FIELDS.get(x.__class__)
    if kind is not None:
        name, fields = kind
        return [name, x.pos[0], x.pos[1], *[_encode(getattr(x, f)) for f in fields]]
    if isinstance(x, ast.Node):
        raise TypeError(f"no JSON form for {type(x).__name__}")
    if isinstance(x, tuple):
        return ["", *[_encode(v) for v in x]]
    if x is None or isinstance(x, (str, int)):  # bool is an int
        return x
    raise TypeError(f"no JSON form for {type(x).__name__}")


def _decode(x):
    if x.__class__ is not list:
        return x
    tag = x[0]
    if not tag:
        return tuple([_decode(v) for v in x[1:]])
    return _NODE_TYPES[tag]((x[1], x[2]), *[_decode(v) for v in x[3:]])


class _SnippetCache:
    """Snippets parsed in earlier processes, by text, read from the cache on first need,
    and those parsed in this one, written back by `save_cache`. Each AST is kept as its
    own JSON text inside the file, so a load decodes only the snippets it asks for."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.saved: dict[str, str] | None = None  # None: not read yet
        self.on = False
        self.used: set[str] = set()
        self.fresh: dict[str, str] = {}

    @property
    def name(self) -> str:
        return f"parse-{_version()}.json"

    def get(self, text: str) -> ast.Program | None:
        if self.saved is None:
            self.on = _version() is not None and resources.cache_dir() is not None
            raw = resources.read_cache(self.name) if self.on else None
            try:
                saved = json.loads(raw) if raw is not None else {}
            except ValueError:
                saved = {}
            self.saved = saved if isinstance(saved, dict) else {}
        found = self.saved.get(text)
        if found is None:
            return None
        try:
            prog = _decode(json.loads(found))
        except (KeyError, TypeError, ValueError, IndexError, RecursionError):
            return None
        if not isinstance(prog, ast.Program):
            return None
        self.used.add(text)
        return prog

    def put(self, text: str, prog: ast.Program) -> None:
        if self.on:
            try:
                self.fresh[text] = json.dumps(_encode(prog), separators=(",", ":"))
            except TypeError:
                pass

    def save(self) -> None:
        if not self.fresh or self.saved is None:
            return
        entries = {**self.saved, **self.fresh}
        if len(entries) > MAX_CACHED:
            entries = {k: v for k, v in entries.items() if k in self.used or k in self.fresh}
        resources.write_cache(self.name, json.dumps(entries, separators=(",", ":")).encode())
        self.used.update(self.fresh)
        self.saved, self.fresh = entries, {}


_CACHE = _SnippetCache()


def save_cache() -> None:
    """Write the snippets parsed since the last call to the user's cache (`engine.load`
    calls this once a pack is compiled, or has failed to)."""
    _CACHE.save()


@functools.lru_cache(maxsize=4096)
def parse_program(text: str) -> ast.Program:
    """Statements (an effect). Remembered: packs repeat the same snippets across modes."""
    prog = _CACHE.get(text)
    if prog is None:
        prog = fastparse.read(text, MAX_NESTING) if _quick_reader_fits() else None
        if prog is None:  # an error, or something only Lark reads: Lark decides
            prog = _ToAst().transform(_parse_tree(text))
        _CACHE.put(text, prog)
    return prog


@functools.lru_cache(maxsize=4096)
def parse_expr(text: str) -> ast.Node:
    """One expression (a condition, a domain, a value)."""
    prog = parse_program(text.strip())
    if len(prog.body) != 1 or not isinstance(prog.body[0], ast.ExprStmt):
        err = DSLSyntaxError("expected one expression here, not statements")
        err.pos = prog.body[0].pos if prog.body else (1, 1)  # type: ignore[attr-defined]
        raise err
    return prog.body[0].expr
