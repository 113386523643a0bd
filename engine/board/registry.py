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

from engine import extensions
from engine.dsl.builtins import builtin
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
    merged = [x if x == y else "any" for x, y in zip(a, b, strict=False)] + \
             [x if x.endswith("?") else x + "?" for x in longer[n:]]
    for k in range(n):
        if a[k].endswith("?") or b[k].endswith("?"):
            merged[k] = merged[k].rstrip("?") + "?"
    return (" ".join(merged), returns if returns == old[1] else "any", effect or old[2],
            old[3] if len(old[3]) >= len(doc) else doc)


_SIGNATURES: dict[str, tuple[str, str, bool, str]] = {}


def board_builtin(name: str, args: str = "", returns: str = "any", effect: bool = False,
                  doc: str = ""):
    """Register builtin `name` as a call of the board's method `name(S, *args)`."""
    args, returns, effect, doc = _merge(name, args, returns, effect, doc)
    _SIGNATURES[name] = (args, returns, effect, doc)

    def call(S, *a):
        method = getattr(board_of(S), name, None)
        if method is None:
            raise RuleRuntimeError(f"this pack's board has no '{name}'")
        return method(S, *a)
    call.__doc__ = doc
    call.__name__ = name
    builtin(name, args, returns, effect)(call)
    return call
