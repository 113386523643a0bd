"""Facts about values: a test that the pack's own declarations make constant.

`me.score > 30` where score is declared `max: params.goal` and that param goes up to 20,
`params.level == 'hardd'` where that is none of its `choices`, a die face no die has, an
id nothing has, a field compared to a value no card or kind gives it: each loads and
plays, and the rule is never (or always) taken. They are found by an
abstract interpretation of each snippet's tree (engine.dsl.ast): every expression is given
what the pack says its value may be — an interval of whole numbers or a finite set of
values — or nothing, when that is not known, and a comparison of two known domains that
can only come out one way is reported.

Unknown stays unknown, so that a report is never a false alarm: a local variable is known
only when it is assigned once; an entity field only when no rule writes a field of that
name; `.id` of a value of unknown type is any id the pack's files declare anywhere (cards,
kinds, tiles, tokens); a field that a player and an entity may both have is the union of
both; a procedure's parameter, a turn or game variable, an event's field are unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.dsl import ast
from engine.errors import Problem, did_you_mean

_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_COMPARE = frozenset(_FLIP) | {"in", "notin"}
_MOST = 64  # a finite set larger than this is not worth keeping


@dataclass(frozen=True)
class Dom:
    """What a value may be: a whole number in lo..hi (`ints`; None ends are open), or one
    of `values`; `why` says so for the message ("player field 'health' is {} (its min
    and max)", the domain's text in place of {}); `ids`: it is the ids of things."""

    values: frozenset | None = None
    lo: int | None = None
    hi: int | None = None
    why: str = ""
    ids: bool = False

    @property
    def ints(self) -> bool:
        return self.values is None

    def text(self) -> str:
        if self.values is None:
            lo = "" if self.lo is None else self.lo
            hi = "" if self.hi is None else self.hi
            return f"within {lo}..{hi}"
        shown = sorted(repr(v) for v in self.values if v is not None)
        return "one of " + ", ".join(shown[:8]) + (", ..." if len(shown) > 8 else "")


def _union(a: Dom | None, b: Dom | None) -> Dom | None:
    if a is None or b is None or a.ints != b.ints:
        return None
    if a.values is not None and b.values is not None:
        return Dom(a.values | b.values, why=a.why or b.why)
    lo = None if a.lo is None or b.lo is None else min(a.lo, b.lo)
    hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
    return Dom(None, lo, hi, a.why or b.why)


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | bool | int)


def _const(v: Any) -> Dom | None:
    if isinstance(v, int) and not isinstance(v, bool):
        return Dom(None, v, v)
    return Dom(frozenset({v})) if _scalar(v) else None


def _verdict(op: str, a: Dom, b: Dom) -> bool | None:
    """The one outcome of `a op b` for every value of each, or None."""
    if op in ("==", "!="):
        if a.ints and b.ints:
            apart = (a.hi is not None and b.lo is not None and a.hi < b.lo
                     or b.hi is not None and a.lo is not None and b.hi < a.lo)
        elif a.values is not None and b.values is not None:  # as the game compares: 1 == True
            apart = not any(x == y for x in a.values for y in b.values)
        else:  # a set against a range: apart when no value of the set is a whole number in it
            s, r = (a, b) if b.ints else (b, a)
            apart = all(not _in_range(v, r) for v in s.values or ())
        if apart:
            return op == "!="
        return None
    if not (a.ints and b.ints):
        return None
    if op in (">", ">="):
        op, a, b = _FLIP[op], b, a
    strict = op == "<"
    # a < b always false: a.lo >= b.hi (or > for <=); always true: a.hi < b.lo (<= for <=)
    if a.lo is not None and b.hi is not None and (a.lo >= b.hi if strict else a.lo > b.hi):
        return False
    if a.hi is not None and b.lo is not None and (a.hi < b.lo if strict else a.hi <= b.lo):
        return True
    return None


def _numbers(values: frozenset) -> bool:
    """Whether a set mixes numbers of different kinds (1 == 1.0 == True): not compared."""
    return any(isinstance(v, bool | int | float) for v in values)


def _in_range(v: Any, r: Dom) -> bool:
    if not isinstance(v, int) or isinstance(v, bool):
        return False
    return (r.lo is None or v >= r.lo) and (r.hi is None or v <= r.hi)


class Domains:
    """What the pack declares about values, read once per game."""

    def __init__(self, game):
        raw = game.raw
        self.params = {n: self._param(n, s) for n, s in (raw.get("params") or {}).items()}
        self.fields = {n: self._field(f) for n, f in game.player_fields.items()}
        self.dice: dict[str, Dom | None] = {}
        for name, faces in game.dice.items():
            nums = [f for f in faces if isinstance(f, int) and not isinstance(f, bool)]
            self.dice[name] = Dom(None, min(nums), max(nums), f"die '{name}' rolls {{}}") \
                if nums and len(nums) == len(faces) else None
        written = {n.target.name for tree, _ in game.env.snippets for n, _ in ast.walk(tree)
                   if isinstance(n, ast.Assign) and isinstance(n.target, ast.Attr)}
        given: dict[str, set] = {}
        for c in [*game.cards.values(), *game.kinds.values()]:
            for f, v in c.fields.items():
                given.setdefault(f, set()).add(v if _scalar(v) else object())
        self.ent: dict[str, Dom | None] = {f: _given(f, vs) for f, vs in given.items() if f not in written}
        ids = set(game.cards) | set(game.kinds)
        self.ent_ids = Dom(frozenset(ids), why="no card or kind has that id", ids=True)
        self.any_ids = Dom(frozenset(ids | _declared_ids(raw)), why="nothing in the pack has that id",
                           ids=True)
        self.keyed = _keyed_values(raw)  # field -> every value written under that key

    def _param(self, name: str, spec: Any) -> Dom | None:
        if not isinstance(spec, dict):
            return None
        why = f"param '{name}'"
        if isinstance(spec.get("choices"), list) and all(_scalar(c) for c in spec["choices"]):
            return Dom(frozenset(spec["choices"]), why=why + " is {} (its choices)")
        default = spec.get("default")
        if isinstance(default, bool):
            return Dom(frozenset({True, False}), why=why + " is {}")
        lo, hi = spec.get("min"), spec.get("max")
        if isinstance(default, int) and (isinstance(lo, int) or isinstance(hi, int)):
            return Dom(None, lo if isinstance(lo, int) else None,
                       hi if isinstance(hi, int) else None, why + " is {} (its min and max)")
        return None

    def _bound(self, v: Any, end: str) -> int | None:
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        tree = getattr(v, "tree", None)
        if isinstance(tree, ast.Attr) and isinstance(tree.obj, ast.Name) and tree.obj.id == "params":
            d = self.params.get(tree.name)
            if d is not None and d.ints:
                return d.lo if end == "lo" else d.hi
        return None

    def _field(self, f) -> Dom | None:
        why = f"player field '{f.name}'"
        if f.type == "bool":
            return Dom(frozenset({True, False}), why=why + " is {}")
        if f.type == "int" and (f.min is not None or f.max is not None):
            lo, hi = self._bound(f.min, "lo"), self._bound(f.max, "hi")
            if lo is None and hi is None:
                return None
            return Dom(None, lo, hi, why + " is {} (its declared min and max)")
        return None


def _given(f: str, values: set) -> Dom | None:
    """The domain of entity field `f` from the values cards and kinds give it (a card
    without it reads none)."""
    why = f"'{f}' of every card and kind is {{}}"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return Dom(None, min(values), max(values), why)
    if all(_scalar(v) for v in values) and not _numbers(frozenset(values)):
        return Dom(frozenset(values | {None}), why=why)
    return None


def _declared_ids(raw: Any) -> set:
    """Every value written under a key `id` anywhere in the pack."""
    out: set = set()
    todo = [raw]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            if "id" in x and _scalar(x["id"]):
                out.add(x["id"])
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return out


def _keyed_values(raw: Any) -> dict[str, set]:
    """key -> the numbers and texts written under it anywhere in the pack."""
    out: dict[str, set] = {}
    todo = [raw]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            for k, v in x.items():
                if _scalar(v):  # a list or mapping never equals a number or a text
                    out.setdefault(str(k), set()).add(v)
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return out


PLAYER, ENT = "player", "ent"


class _Reader:
    """The domains of one snippet's expressions, and what it finds constant."""

    def __init__(self, d: Domains, tree: ast.Node):
        self.d = d
        self.found: list[tuple[ast.Node, str, str]] = []
        self.types: dict[str, str | None] = {}
        self.locals: dict[str, Dom | None] = {}
        assigned: dict[str, list[ast.Node]] = {}
        for node, _ in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
                assigned.setdefault(node.target.id, []).append(node)
            elif isinstance(node, ast.For | ast.Comprehension):
                assigned.setdefault(node.var, []).append(node)
        self.once = {n: nodes[0] for n, nodes in assigned.items()
                     if len(nodes) == 1 and not (isinstance(nodes[0], ast.Assign) and nodes[0].op != "=")}
        self.assigned = set(assigned)

    # ---------- what an expression may be ----------
    def type_of(self, e: ast.Node) -> str | None:
        if isinstance(e, ast.Name):
            if e.id in ("me", "current") and e.id not in self.assigned:
                return PLAYER
            node = self.once.get(e.id)
            if isinstance(node, ast.For | ast.Comprehension):
                return self.item_type(node.source)
            if isinstance(node, ast.Assign):
                return self.type_of(node.value)
        if isinstance(e, ast.Call) and e.func in ("top", "find", "draw", "copy"):
            return ENT
        return None

    def item_type(self, src: ast.Node) -> str | None:
        if isinstance(src, ast.Name) and src.id == "players" and "players" not in self.assigned:
            return PLAYER
        if isinstance(src, ast.Call) and src.func in ("opponents", "winners"):
            return PLAYER
        if isinstance(src, ast.Call) and src.func == "cards":
            return ENT
        return None

    def dom(self, e: ast.Node) -> Dom | None:
        d = self.d
        if isinstance(e, ast.Const):
            return _const(e.value)
        if isinstance(e, ast.Neg):
            inner = self.dom(e.operand)
            if inner is not None and inner.ints:
                return Dom(None, None if inner.hi is None else -inner.hi,
                           None if inner.lo is None else -inner.lo, inner.why)
            return None
        if isinstance(e, ast.Name):
            node = self.once.get(e.id)
            return self.dom(node.value) if isinstance(node, ast.Assign) else None
        if isinstance(e, ast.Call) and e.func == "roll" and len(e.args) == 1 and not e.kwargs \
                and isinstance(e.args[0], ast.Name) and e.args[0].id not in self.assigned:
            return d.dice.get(e.args[0].id)
        if not isinstance(e, ast.Attr):
            return None
        if isinstance(e.obj, ast.Name) and e.obj.id == "params" and "params" not in self.assigned:
            return d.params.get(e.name)
        if isinstance(e.obj, ast.Name) and e.obj.id in ("turn", "game", "event") \
                and e.obj.id not in self.assigned:
            return None
        t = self.type_of(e.obj)
        if t == PLAYER:
            return d.fields.get(e.name)
        if e.name == "id":
            return d.ent_ids if t == ENT else d.any_ids
        ent = d.ent.get(e.name)
        if t == ENT:
            return ent
        if ent is None:
            return None
        # a value of unknown type: a player's field of that name, or whatever the pack
        # writes under that key (a tile's, a token's) may be read too
        if e.name in d.fields:
            return _union(ent, d.fields[e.name])
        others = d.keyed.get(e.name, set())
        if ent.values is None:  # whole numbers: any other number written under the key too
            return _union(ent, _given(e.name, others)) if others else ent
        if not all(_scalar(v) for v in others) or _numbers(frozenset(others)):
            return None
        return Dom(ent.values | frozenset(others), why=ent.why)

    # ---------- constant tests ----------
    def visit(self, tree: ast.Node) -> None:
        for node, _ in ast.walk(tree):
            if isinstance(node, ast.BinOp) and node.op in _COMPARE:
                self.compare(node)

    def compare(self, node: ast.BinOp) -> None:
        if node.op in ("in", "notin"):
            if not isinstance(node.right, ast.ListLit):
                return
            a = self.dom(node.left)
            items = [self.dom(x) for x in node.right.items]
            if a is None or not a.why or not items or any(i is None or i.why for i in items):
                return
            if all(_verdict("==", a, i) is False for i in items if i is not None):
                self.say(node, node.op == "notin", a, "none of the list")
            return
        a, b = self.dom(node.left), self.dom(node.right)
        if a is None or b is None or bool(a.why) == bool(b.why):
            return  # unknown, or two declared things compared: a rule, not a slip
        verdict = _verdict(node.op, a, b)
        known, other = (a, b) if a.why else (b, a)
        if verdict is None or verdict and known.values is None:
            return  # a range's always-true test restates its bounds (an invariant's)
        self.say(node, verdict, known, other.values)

    def say(self, node: ast.Node, verdict: bool, known: Dom, given) -> None:
        head = f"this test is {'always' if verdict else 'never'} true: "
        hint = "compare with a value it can have"
        name = next(iter(given)) if isinstance(given, frozenset) and len(given) == 1 else None
        if isinstance(name, str) and known.values is not None:
            close = did_you_mean(name, [v for v in known.values if isinstance(v, str)])
            hint = close or hint
        if known.ids:
            what = known.why.replace("that id", f"the id {name!r}" if isinstance(name, str) else "it")
            self.found.append((node, head + what, hint))
        else:
            self.found.append((node, head + known.why.format(known.text()), hint))


def value_problems(game) -> list[Problem]:
    """Each comparison in the pack's snippets that its declarations make constant."""
    d = Domains(game)
    out = []
    for tree, locate in game.env.snippets:
        r = _Reader(d, tree)
        r.visit(tree)
        out += [Problem(msg, locate(node.pos), hint) for node, msg, hint in r.found]
    return out
