"""AST of the effect language: one frozen dataclass per named grammar alternative.

Each node carries `pos` = (line, col) inside the snippet (1-based); the parser's caller maps
that onto the YAML file, so errors point into the pack and not into a string.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields

Pos = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Node:
    pos: Pos = field(compare=False)


# ---- expressions ----
@dataclass(frozen=True, slots=True)
class Const(Node):
    value: object


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str


@dataclass(frozen=True, slots=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, slots=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class BinOp(Node):
    op: str  # + - * / % == != < <= > >= in notin and or
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class IfExp(Node):
    """`then if cond else orelse`."""

    then: Node
    cond: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    item: Node
    var: str
    source: Node
    cond: Node | None


# ---- statements ----
@dataclass(frozen=True, slots=True)
class Assign(Node):
    target: Node  # Name | Attr | Index
    op: str  # '=', '+=', '-=', '*='
    value: Node


@dataclass(frozen=True, slots=True)
class ExprStmt(Node):
    expr: Node


@dataclass(frozen=True, slots=True)
class Pass(Node):
    pass


@dataclass(frozen=True, slots=True)
class CallFlow(Node):
    proc: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class If(Node):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]  # (condition, body) pairs
    orelse: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class For(Node):
    var: str
    source: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    count: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Program(Node):
    body: tuple[Node, ...]


def walk(tree: Node) -> Iterator[tuple[Node, int]]:
    """(node, its depth) for every node of `tree`, the tree itself at depth 1, in no set
    order: for analyses that look at every node of a snippet (which names it uses, how
    deep it goes)."""
    todo = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        yield node, depth
        for f in fields(node):
            if f.name != "pos":
                todo.extend((child, depth + 1) for child in _nodes(getattr(node, f.name)))


def _nodes(value) -> Iterator[Node]:
    """The nodes in a field's value: a node, or tuples of them (arguments, `(name, value)`
    pairs, `(condition, body)` branches)."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)


def variables_read(tree: Node, updates: bool = True) -> set[tuple[str, str]]:
    """('turn' or 'game', name) of each `turn.x` and `game.x` that `tree` reads (an
    assignment's target is a read too when it adds to the old value, `turn.x += 1`,
    unless not `updates`: what only updates itself is never read by anything else)."""
    nodes = [node for node, _ in walk(tree)]
    written = {id(n.target) for n in nodes if isinstance(n, Assign) and (n.op == "=" or not updates)}
    out = set()
    for node in nodes:
        if id(node) not in written and isinstance(node, Attr) and isinstance(node.obj, Name) \
                and node.obj.id in ("turn", "game"):
            out.add((node.obj.id, node.name))
    return out
