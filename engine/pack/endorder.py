"""Order of end rules: a rule that an earlier one always pre-empts never decides a game.

The game's `end:` rules are tried in order after every effect and the first that holds
ends the game. A house rule that adds `reached the exit with 3 health` after `reached the exit`
never fires: whenever it holds, the earlier rule holds too. That is found on the rules'
trees (engine.dsl.ast), by a conservative test of implication: a condition implies
another when it is the same (positions aside), when it holds every conjunct of it, when
it compares the same thing to a whole number more narrowly (`x >= 10` implies `x >= 5`),
or when both are `any`/`all` over the same list and one's item implies the other's.
Anything else is not known to imply, so nothing is said.
"""

from __future__ import annotations

from engine.dsl import ast
from engine.dsl.parser import parse_expr
from engine.errors import DSLSyntaxError, Problem


def _ends(op: str, n: int) -> tuple[float, float] | None:
    """The whole numbers x with `x op n`, as an interval."""
    inf = float("inf")
    return {"==": (n, n), ">": (n + 1, inf), ">=": (n, inf), "<": (-inf, n - 1),
            "<=": (-inf, n)}.get(op)


def _bounded(e: ast.Node) -> tuple[ast.Node, tuple[float, float]] | None:
    """`thing op number` (or `number op thing`) as (thing, its interval)."""
    if not isinstance(e, ast.BinOp):
        return None
    flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "=="}
    left, op, right = e.left, e.op, e.right
    if isinstance(left, ast.Const) and op in flip:
        left, op, right = right, flip[op], left
    if isinstance(right, ast.Const) and isinstance(right.value, int) and not isinstance(right.value, bool):
        span = _ends(op, right.value)
        if span is not None:
            return left, span
    return None


def implies(b: ast.Node, a: ast.Node) -> bool:
    """Whether `b` holding makes `a` hold, as far as their trees show."""
    if b == a or isinstance(a, ast.Const) and a.value is True:
        return True
    if isinstance(a, ast.BinOp) and a.op == "and":
        return implies(b, a.left) and implies(b, a.right)
    if isinstance(b, ast.BinOp) and b.op == "or":
        return implies(b.left, a) and implies(b.right, a)
    if isinstance(a, ast.BinOp) and a.op == "or" and (implies(b, a.left) or implies(b, a.right)):
        return True
    if isinstance(b, ast.BinOp) and b.op == "and" and (implies(b.left, a) or implies(b.right, a)):
        return True
    nb, na = _bounded(b), _bounded(a)
    if nb is not None and na is not None and nb[0] == na[0]:
        return na[1][0] <= nb[1][0] and nb[1][1] <= na[1][1]
    if isinstance(a, ast.Call) and isinstance(b, ast.Call) and a.func == b.func \
            and a.func in ("any", "all") and len(a.args) == len(b.args) == 1:
        ca, cb = a.args[0], b.args[0]
        if isinstance(ca, ast.Comprehension) and isinstance(cb, ast.Comprehension) \
                and ca.var == cb.var and ca.source == cb.source:
            if a.func == "all":
                return ca.cond == cb.cond and implies(cb.item, ca.item)
            return implies(_both(cb.item, cb.cond), _both(ca.item, ca.cond))
    return False


def _both(item: ast.Node, cond: ast.Node | None) -> ast.Node:
    return item if cond is None else ast.BinOp(item.pos, "and", cond, item)


def end_warnings(game) -> list[Problem]:
    """Each end rule whose condition implies an earlier rule's."""
    rules = [e for e in game.raw.get("end") or [] if isinstance(e, dict)]
    trees = []
    for e in rules:
        try:
            trees.append(parse_expr(e["when"]) if isinstance(e.get("when"), str) else None)
        except DSLSyntaxError:
            trees.append(None)
    spans = [d.span for d in game.end] if len(game.end) == len(rules) else [None] * len(rules)
    out = []
    for j, later in enumerate(trees):
        for i in range(j):
            earlier, at = trees[i], spans[i]
            if later is not None and earlier is not None and implies(later, earlier):
                name, first = rules[j].get("id", f"#{j + 1}"), rules[i].get("id", f"#{i + 1}")
                where = f" ({at.file}:{at.line})" if at is not None else ""
                out.append(Problem(
                    f"end rule '{name}' never decides a game: whenever it holds, the earlier "
                    f"rule '{first}'{where} holds too and ends the game first", spans[j],
                    f"put it before '{first}' (before: {first}), or make its `when` "
                    "something the earlier rule does not cover"))
                break
    return out
