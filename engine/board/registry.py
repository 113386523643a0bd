"""The `board:` section: one registry of board types, chosen by the section's `type:`.

Several board types (a fixed grid, tiles laid during play, ...) share the one `board:`
section of a pack. Each type registers a factory here under its name; the section itself is
registered once with `engine.extensions`, and hands the section to the factory its `type:`
names. A new board type is one module and one `register_type` call.

Builtins that more than one board type answers (`neighbors`, `distance`, `shortest_path`,
`closest`, ...) are registered through `board_builtin`: the builtin calls the method of the
same name on the pack's board, so two board modules never fight over a builtin's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import extensions
from engine.dsl.builtins import builtin
from engine.dsl.values import E, Z
from engine.errors import RuleRuntimeError, did_you_mean

# board type name -> factory(section_plain, section_node, build_context) -> Extension | None
TYPES: dict[str, Callable] = {}


def register_type(name: str):
    """Register a board type: `board: {type: name, ...}` is built by the decorated factory."""
    def deco(factory):
        TYPES[name] = factory
        return factory
    return deco


@extensions.register("board")
def _board(section, node, ctx):
    kind = section.get("type") if isinstance(section, dict) else None
    factory = TYPES.get(kind) if isinstance(kind, str) else None
    if factory is None:
        ctx.fail(f"board type must be one of {', '.join(sorted(TYPES)) or 'none'}, got {kind!r}",
                 "board", "type", hint=did_you_mean(str(kind), TYPES))
        return None
    return factory(section, node, ctx)


def board_of(S):
    """The pack's board, or a clear error when the pack declares none."""
    b = S.game.extensions.get("board")
    if b is None:
        raise RuleRuntimeError("this pack declares no board")
    return b


def _spawn_in_zone(S, kind: str, where):
    """`spawn` in a pack without a board: a new entity of a kind, with its kind's fields,
    on top of a zone (a die under a player's cup, a token in a pool)."""
    if type(where) is not Z:
        raise RuleRuntimeError(f"spawn: this pack declares no board, so a piece is spawned "
                               f"in a zone, not at {S.describe(where)}")
    d = S.game.kinds.get(kind) or S.game.cards.get(kind)
    if d is None:
        raise RuleRuntimeError(f"spawn: no kind '{kind}'",
                               hint=did_you_mean(kind, [*S.game.kinds, *S.game.cards]))
    uid = S.new_entity(kind, d.fields)
    S.move_ent(uid, where)
    return E(uid)


# The board words that mean something without a board (the others need one).
_WITHOUT_BOARD: dict[str, Callable] = {"spawn": _spawn_in_zone}


def _merge(name: str, args: str, returns: str, effect: bool, doc: str):
    """One signature for a word several board types register: arguments past the shortest
    list become optional, differing result kinds become `any`, so the order in which board
    modules are imported never decides which packs compile."""
    old = _SIGNATURES.get(name)
    if old is None:
        return args, returns, effect, doc
    a, b = old[0].split(), args.split()
    n = min(len(a), len(b))
    longer = a if len(a) >= len(b) else b
    merged = [x if x.rstrip("?") == y.rstrip("?") else "any" for x, y in zip(a, b, strict=False)] + \
             [x if x.endswith("?") else x + "?" for x in longer[n:]]
    for k in range(n):
        if a[k].endswith("?") or b[k].endswith("?"):
            merged[k] = merged[k].rstrip("?") + "?"
    return (" ".join(merged), returns if returns == old[1] else "any", effect or old[2],
            old[3] if len(old[3]) >= len(doc) else doc)


_SIGNATURES: dict[str, tuple[str, str, bool, str]] = {}


_NO = object()  # an optional argument the rule left out


def _caller(name: str, most: int) -> Callable:
    """The builtin `name(S, ...)`: the method `name` of the pack's board, called with the
    rule's arguments. Board words run several times for every step of every piece, so the
    method of the board asked last is kept (most programs play one game at a time) and, for
    up to three arguments, they are plain parameters rather than `*args`: together those
    were most of the cost of calling a board word."""
    last: list[tuple[object, Any]] = [(_NO, None)]  # (the board asked last, its method)

    def method_of(board, S):
        method = getattr(board, name, None) if board is not None else _WITHOUT_BOARD.get(name)
        if method is None:
            board_of(S)  # says so when the pack has no board at all
            raise RuleRuntimeError(f"this pack's board has no '{name}'")
        last[0] = (board, method)
        return method

    if most > 3:
        def call_any(S, *a):
            board = S.game.extensions.get("board")
            m = last[0]
            return (m[1] if m[0] is board else method_of(board, S))(S, *a)
        return call_any

    def call(S, a=_NO, b=_NO, c=_NO):
        board = S.game.extensions.get("board")
        m = last[0]
        f = m[1] if m[0] is board else method_of(board, S)
        if c is not _NO:
            return f(S, a, b, c)
        if b is not _NO:
            return f(S, a, b)
        if a is not _NO:
            return f(S, a)
        return f(S)
    return call


def bound_words(board) -> dict[str, Callable]:
    """The board words this board answers, as its own bound methods (`Extension.words`):
    what `board_builtin`'s dispatch would call, without the dispatch."""
    return {name: method for name in _SIGNATURES if (method := getattr(board, name, None)) is not None}


def board_builtin(name: str, args: str = "", returns: str = "any", effect: bool = False,
                  doc: str = "", **touches):
    """Register builtin `name` as a call of the board's method `name(S, *args)`; `touches`
    says what it reads and writes, as to `builtin`."""
    args, returns, effect, doc = _merge(name, args, returns, effect, doc)
    _SIGNATURES[name] = (args, returns, effect, doc)
    call = _caller(name, len(args.split()))
    call.__doc__ = doc
    call.__name__ = name
    builtin(name, args, returns, effect, **touches)(call)
    return call
