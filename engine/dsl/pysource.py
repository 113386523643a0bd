"""What text from a pack may become in generated Python, and the one place it is compiled.

Snippets, procedures, flow steppers, legality plans and the end check are Python source
made at load time (or on first need) and compiled with `compile()`. Pack text reaches
that source in three ways only, each checked here rather than trusted:

- a name (a variable, a field, a procedure, a zone...) only behind a prefix of its kind
  (`v_x`, `_pc_x`, `_zr_x`: `name`), and only when it is an ASCII identifier; names the
  generated code uses for itself have none of these prefixes, so no pack name can stand
  for one of them (a pack variable `S` is `v_S`, never the state);
- a value only as a literal of itself (`literal`: none, true/false, a whole number, a
  text, through `repr`), or else from the snippet's namespace, never as text;
- an operator only through a fixed table (`OPERATORS`, `ASSIGN_OPS`).

A named argument is written `k=...` only when `k` may stand there (`bare_keyword`);
otherwise as `**{'k': ...}`. Python's own limits on what it compiles are kept apart by
the compiler (MAX_BLOCKS, MAX_BRANCH_DEPTH) and the parser (MAX_NESTING); should
generated code still not compile, `compile_source` makes that a clear error instead of a
crash.
"""

from __future__ import annotations

import functools
import inspect
import keyword
import re
import warnings

from engine.errors import HordeError, Span

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # always with fullmatch: ASCII, as the grammar's NAME
VARIABLE = re.compile(r"v_[a-z0-9_]+")  # the code of a variable (`name('v_', ...)`): cheap to read twice
CURRENT = "S.players[S.cur]"  # the code of `current`, the player whose turn it is

# the prefix of each kind of name made from a pack's names; no helper name of generated
# code starts with one (tests/security/test_generated_code.py checks every namespace)
PREFIXES = {
    "v_": "a variable, a parameter or a loop's variable",
    "_b_": "a builtin",
    "_c_": "a constant of an extension",
    "_pc_": "an effect procedure, called directly",
    "_pm_": "a param whose value is no literal",
    "_zr_": "a zone's references by seat",
    "_my_zone_": "a zone of `me`, looked up once in a plan",
    "_my_ids_": "the card ids in a zone of `me`, in a plan",
}

# the effect language's operators (engine.dsl.ast.BinOp.op) -> Python's; `in` and
# `not in` are calls (`_in`), and `/` is floor division
OPERATORS = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%", "==": "==", "!=": "!=",
             "<": "<", "<=": "<=", ">": ">", ">=": ">=", "and": "and", "or": "or"}
ASSIGN_OPS = {"=": "=", "+=": "+=", "-=": "-=", "*=": "*="}

# An `if`, `for` or `repeat` inside this many others is refused: Python compiles at most
# 20 loops (and `try` blocks) inside each other in one function, a procedure's direct
# function (engine.dsl.procs) wraps the body in a try (2 of them), and 2 are spare.
MAX_BLOCKS = 16
# Every `elif` is an `if` inside the `else` of the one before it in Python, which
# compiles it by recursion: at most this many levels of ifs, elifs and loops in all, far
# below where compiling runs out of stack (some 300 when called deep in a stack).
MAX_BRANCH_DEPTH = 100


def name(prefix: str, text: str) -> str:
    """The name in generated code of pack name `text` of the kind `prefix`."""
    if prefix not in PREFIXES or not IDENT.fullmatch(text):
        raise HordeError(f"internal: {text!r} cannot be a name in generated code")
    return prefix + text


def is_ident(text) -> bool:
    return isinstance(text, str) and IDENT.fullmatch(text) is not None


def bare_keyword(text: str) -> bool:
    """Whether `text=...` is a keyword argument in Python: an identifier, not a keyword."""
    return is_ident(text) and not keyword.iskeyword(text) and text != "__debug__"


@functools.cache
def keywords_of(fn) -> tuple[frozenset[str], frozenset[str], bool]:
    """(the names of `fn`'s positional parameters, of its named-only ones, whether it takes
    other named arguments too): the named arguments a builtin takes."""
    params = inspect.signature(fn).parameters.values()
    return (frozenset(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD),
            frozenset(p.name for p in params if p.kind is p.KEYWORD_ONLY),
            any(p.kind is p.VAR_KEYWORD for p in params))


_LITERAL_INT = 1 << 64


def literal(value) -> str | None:
    """Python source for `value` when it is none, true/false, a text, or a whole number of
    at most 64 bits (whose `repr` is it, as a literal); else None: give it by name."""
    t = type(value)
    if value is None or t is bool or t is str or t is int and -_LITERAL_INT < value < _LITERAL_INT:
        return repr(value)
    return None


def whole(value) -> str:
    """A whole number (a pack's limit, a count) as a literal in generated code."""
    if type(value) is not int:
        raise HordeError(f"internal: {value!r} cannot be a number in generated code")
    return repr(value)


class GeneratedCodeError(HordeError):
    """Generated Python that did not compile: a bug of horde's, which a pack only found."""

    def __init__(self, exc: BaseException, filename: str, span: Span | None = None):
        what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        super().__init__(f"internal: generated code did not compile ({what}, in {filename})", span,
                         "this is a bug in horde, not in the pack: please report it with the pack")
        self.lineno = getattr(exc, "lineno", None)  # the line of the generated source, if known


def compile_source(source: str, filename: str, span: Span | None = None):
    """`compile(source, filename, "exec")`; its errors as a GeneratedCodeError at `span`.
    Python's warnings about what it compiles (`1[0]` "is not subscriptable") are not
    shown: such code fails when it runs, where the error names the place in the pack."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return compile(source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError) as exc:
        raise GeneratedCodeError(exc, filename, span) from None


def run(source: str, filename: str, ns: dict, span: Span | None = None) -> dict:
    """Compile `source` and run it in namespace `ns` (which it fills with its definitions)."""
    exec(compile_source(source, filename, span), ns)  # noqa: S102 - generated source only
    return ns


def charge_lines(n: int, indent: str = "", fresh: bool = False, effect_steps: int | None = None,
                 over: str = "S.charge(0)  # which raises the error") -> list[str]:
    """`S.charge(n)` written out, for generated code that runs at every step: `n` steps
    counted against the effect's budget and the game's, and past either `over` runs (by
    default `S.charge(0)`, which raises the error). `fresh`: they are an effect's first
    steps (its count starts at `n`); when its budget `effect_steps` is known to hold them,
    only the game's is tested."""
    k = whole(n)
    if not fresh:
        lines = [f"S.fx_steps += {k}", f"S.steps += {k}", "if S.fx_steps > S.fx_cap or S.steps > S.step_cap:"]
    else:
        test = "" if effect_steps is not None and effect_steps >= n else f" or S.fx_cap < {k}"
        lines = [f"S.fx_steps = {k}", f"S.steps += {k}", f"if S.steps > S.step_cap{test}:"]
    return [indent + line for line in (*lines, "    " + over)]
