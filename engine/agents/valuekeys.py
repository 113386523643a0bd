"""The values a game or turn variable (or a text player field) may hold, read from the
pack's code, so the observation tensor can give each one a slot before any game is played.

- a text variable: its initial value and every text literal assigned to it (`turn.x =
  'a'`); unknown when anything else is assigned to it;
- a list of die faces (`turn.x = roll(die_a, turn.n) + roll(die_b, 2)`): at most how
  many, and which faces: `roll(die, n)` gives at most the most `n` may be (a whole
  number, a variable only ever set to whole numbers, their sums and differences), of that
  die's faces, and `+` joins lists. Unknown for anything else.

Unknown stays unknown: such a variable gets no slot (`Layout.left_out` names it).
"""

from __future__ import annotations

from collections import defaultdict

from engine.dsl import ast


def assignments(game) -> dict[tuple[str, str], list]:
    """(`turn`/`game`/`field`, name) -> the value of each plain assignment to it (None
    for `+=` and the like); `field` is any `x.name = ...` of an other object."""
    out: dict[tuple[str, str], list] = defaultdict(list)
    for tree, _ in game.env.snippets:
        for node, _ in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Attr):
                obj = node.target.obj
                ns = obj.id if isinstance(obj, ast.Name) and obj.id in ("turn", "game") else "field"
                out[(ns, node.target.name)].append(node.value if node.op == "=" else None)
    return out


def texts(init, values: list) -> tuple[str, ...] | None:
    """The texts a variable set to `init` and assigned `values` may hold, or None."""
    got = {init}
    for v in values:
        if not (isinstance(v, ast.Const) and type(v.value) is str):
            return None
        got.add(v.value)
    return tuple(sorted(got))


class Faces:
    """How long a list of die faces may get, and its faces' texts, per variable."""

    def __init__(self, game, assigned: dict[tuple[str, str], list]):
        self.game, self.assigned = game, assigned
        self.inits = {("turn", k): v for k, v in game.turn_init.items()}
        self.inits.update({("game", k): v for k, v in game.vars_init.items()})

    def of(self, key: tuple[str, str]) -> tuple[int, tuple[str, ...]] | None:
        """(most items, face texts) of a list variable only ever given rolled faces."""
        init = self.inits[key]
        if type(init) is not list or init:
            return None
        most, dice = 0, set[str]()
        for v in self.assigned.get(key, ()):
            got = self._list(v, dice)
            if got is None:
                return None
            most = max(most, got)
        if not dice:
            return None
        faces = sorted({repr(f) for d in dice for f in self.game.dice[d]})
        return most, tuple(faces)

    def _list(self, node, dice: set) -> int | None:
        if isinstance(node, ast.ListLit) and not node.items:
            return 0
        if isinstance(node, ast.BinOp) and node.op == "+":
            a, b = self._list(node.left, dice), self._list(node.right, dice)
            return None if a is None or b is None else a + b
        if isinstance(node, ast.Call) and node.func == "roll" and len(node.args) == 2 \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.game.dice:
            span = self._range(node.args[1])
            if span is None:
                return None
            dice.add(node.args[0].id)
            return max(span[1], 0)
        return None

    def _range(self, node, depth: int = 0) -> tuple[int, int] | None:
        """The least and most a whole-number expression may be, or None."""
        if depth > 8:
            return None
        if isinstance(node, ast.Const) and type(node.value) is int:
            return node.value, node.value
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) \
                and node.obj.id in ("turn", "game"):
            key = (node.obj.id, node.name)
            init = self.inits.get(key)
            vals = [init] + [v.value if isinstance(v, ast.Const) else None
                             for v in self.assigned.get(key, ())]
            ints = [v for v in vals if type(v) is int]
            return (min(ints), max(ints)) if len(ints) == len(vals) else None
        if isinstance(node, ast.BinOp) and node.op in "+-":
            a, b = self._range(node.left, depth + 1), self._range(node.right, depth + 1)
            if a is None or b is None:
                return None
            return (a[0] + b[0], a[1] + b[1]) if node.op == "+" else (a[0] - b[1], a[1] - b[0])
        return None
