"""Finite declared domains for action parameters: what an agent's fixed action space is made of.

A parameter's domain in the pack is an expression evaluated at play time; learning agents
need, before any game is played, every value it could ever take. That set is worked out
from the expression's tree: `players` is the seats, a list literal its items, a
comprehension what its item is made of, a builtin what it declares it returns
(`Builtin.domain`: a seat, a card, a piece, a cell, a cell next to a place, a tile
position, a rotation...), a pack procedure what its body returns. Where that cannot be
known (`turn.steps`, a record's field), the pack says it beside the params:
`domains: {param: cell}` or a list of values.

A domain is a tuple of *keys*: plain, hashable, independent of any state. A value's key
(`key_of`) is its seat, its card's kind (interchangeable copies share it), a piece's kind
and square, the offset of a cell from an earlier parameter's place (`step`), or the value.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.dsl import ast
from engine.dsl.builtins import BUILTINS
from engine.dsl.values import E, P
from engine.errors import PackError, Problem

# Tags a pack may give as a parameter's domain (`domains: {param: tag}`), as builtins do
TAGS = ("seat", "card", "piece", "cell", "spot", "rotation")
ROTATIONS = (0, 90, 180, 270)
STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
# How deep domain inference follows procedures calling procedures: a pack's are a few deep
MAX_PROC_DEPTH = 12
# Values a `range(...)` domain may hold (its ends may come from params)
MAX_RANGE = 100_000
# Squares of a tile, a side (engine.board.tiles lays tiles out 3 by 3)
TILE_SIDE = 3


class Dom(NamedTuple):
    """The keys a parameter's values may have; `rel`: the earlier parameter whose place a
    `step` key is the offset from (None: absolute keys)."""

    keys: tuple
    rel: str | None = None


def key_of(S, v, origin=None):
    """The key of value `v` (a `step` offset from `origin`'s place when it is given)."""
    t = type(v)
    if origin is not None:
        o = origin
        if type(o) is E:
            o = S.ents[o.i].get("cell")
        try:
            return ("step", v[0] - o[0], v[1] - o[1])
        except (TypeError, IndexError):
            return ("v", v)
    if t is P:
        return ("seat", v.i)
    if t is E:
        ent = S.ents[v.i]
        cell = ent.get("cell")
        return ("card", ent["id"]) if cell is None else ("piece", ent["id"], cell)
    return ("v", v)


def key_text(game, key) -> str:
    """A key as an action label writes it."""
    tag = key[0]
    if tag == "seat":
        return str(key[1])
    if tag == "card":
        return key[1]
    if tag == "piece":
        return f"{key[1]}@{_value_text(game, key[2])}"
    if tag == "step":
        return f"{key[1]:+d},{key[2]:+d}"
    return _value_text(game, key[1])


def _value_text(game, v) -> str:
    if isinstance(v, tuple) and type(v) is tuple:
        return ",".join(map(str, v))
    if type(v) is str or type(v) is int:
        return str(v)
    return game.describe_extra(v)


def entity_kinds(game) -> list[str]:
    """Every kind an entity of this game may be: cards, kinds, and the board's tiles."""
    kinds = dict.fromkeys([*game.cards, *game.kinds])
    board = game.extensions.get("board")
    kinds.update(dict.fromkeys(getattr(board, "tiles", None) or ()))
    return sorted(kinds)


def board_cells(game) -> list:
    """Every cell a piece of this game may stand on: a grid's cells; for tiles, every
    square of every tile position as far from the start as the tiles can reach."""
    board = game.extensions.get("board")
    if board is None:
        return []
    if hasattr(board, "all_cells"):
        return board.all_cells()
    side = TILE_SIDE
    return [(x * side + c, y * side + r) for x, y in tile_spots(game)
            for r in range(side) for c in range(side)]


def tile_spots(game) -> list[tuple[int, int]]:
    """Tile positions: the tiles join edge to edge from the start tile at (0, 0), so none
    lies farther from it (in steps) than there are other tiles."""
    board = game.extensions.get("board")
    tiles = getattr(board, "tiles", None) or {}
    reach = max(sum(t.count for t in tiles.values()) - 1, 0)
    return [(x, y) for x in range(-reach, reach + 1) for y in range(-reach, reach + 1)
            if abs(x) + abs(y) <= reach]


class Inference:
    """Works out the domains of one game's action parameters (see the module docstring)."""

    def __init__(self, game, players: int):
        self.game = game
        self.players = players
        self._cells: tuple | None = None

    # ---------- tags ----------
    def tagged(self, tag: str, kinds: list[str] | None = None) -> Dom | None:
        if tag == "seat":
            return Dom(tuple(("seat", i) for i in range(self.players)))
        if tag == "card":
            return Dom(tuple(("card", k) for k in (kinds or entity_kinds(self.game))))
        if tag == "piece":
            kinds = kinds or sorted(self.game.kinds) or entity_kinds(self.game)
            return Dom(tuple(("piece", k, c) for k in kinds for c in self.cells()))
        if tag == "cell":
            return Dom(tuple(("v", c) for c in self.cells()))
        if tag == "spot":
            return Dom(tuple(("v", s) for s in tile_spots(self.game)))
        if tag == "rotation":
            return Dom(tuple(("v", r) for r in ROTATIONS))
        return None

    def cells(self) -> tuple:
        if self._cells is None:
            self._cells = tuple(board_cells(self.game))
        return self._cells

    def declared(self, spec) -> Dom | None:
        """A pack's `domains:` entry: a tag, or a list of values."""
        if isinstance(spec, str):
            return self.tagged(spec)
        if isinstance(spec, list):
            return Dom(tuple(dict.fromkeys(("v", v) for v in spec)))
        return None

    # ---------- expressions ----------
    def elems(self, node, scope: dict, earlier: tuple, depth: int = 0) -> Dom | None:
        """The domain of the items of list expression `node`; `scope`: the comprehension
        variables in scope and their domains; `earlier`: the earlier parameters' names."""
        if isinstance(node, ast.ListLit):
            return _union([self.scalar(i, scope, earlier, depth) for i in node.items])
        if isinstance(node, ast.Comprehension):
            src = self.elems(node.source, scope, earlier, depth)
            if src is None:
                return None
            return self.scalar(node.item, {**scope, node.var: src}, earlier, depth)
        if isinstance(node, ast.BinOp) and node.op == "+":
            return _union([self.elems(node.left, scope, earlier, depth),
                           self.elems(node.right, scope, earlier, depth)])
        if isinstance(node, ast.Name) and node.id == "players":
            return self.tagged("seat")
        if isinstance(node, ast.Call):
            return self.call(node, scope, earlier, depth)
        return None

    def scalar(self, node, scope: dict, earlier: tuple, depth: int) -> Dom | None:
        """The domain of the value of expression `node`."""
        if isinstance(node, ast.Const):
            v = node.value
            return Dom((("v", v),)) if isinstance(v, str | int) and type(v) is not bool else None
        if isinstance(node, ast.Name):
            if node.id in scope:
                return scope[node.id]
            return self.tagged("seat") if node.id in ("me", "current") else None
        if isinstance(node, ast.Attr) and node.name == "id":
            of = self.scalar(node.obj, scope, earlier, depth)
            if of is not None and of.rel is None and all(k[0] in ("card", "piece") for k in of.keys):
                return Dom(tuple(dict.fromkeys(("v", k[1]) for k in of.keys)))
        if isinstance(node, ast.Call) and node.func in ("first", "min", "max") and node.args:
            return self.elems(node.args[0], scope, earlier, depth)
        return None

    def call(self, node: ast.Call, scope: dict, earlier: tuple, depth: int) -> Dom | None:
        procs = self.game.effect_procs
        if node.func in procs:
            params, compiled = procs[node.func]
            if depth >= MAX_PROC_DEPTH or compiled.tree is None:
                return None
            inner = {}
            for name, arg in zip(params, node.args, strict=False):  # an argument's items are
                got = self.scalar(arg, scope, earlier, depth)  # what its parameter may be
                if got is not None:
                    inner[name] = got
            return self.elems(compiled.tree, inner, (), depth + 1)
        b = BUILTINS.get(node.func)
        tag = getattr(b, "domain", None)
        if tag is None:
            return None
        if tag in ("arg0", "arg1"):
            k = int(tag[-1])
            return self.elems(node.args[k], scope, earlier, depth) if len(node.args) > k else None
        if tag == "range":
            ints = [fixed_int(a, self.game.params) for a in node.args]
            ends = [e for e in ints if e is not None]
            if not ends or len(ends) != len(ints):
                return None
            lo, hi = (0, ends[0]) if len(ends) == 1 else ends[:2]
            if hi - lo > MAX_RANGE:  # a param that makes a range too long for an action space
                return None
            return Dom(tuple(("v", i) for i in range(lo, hi)))
        if tag == "step":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Name) and first.id in earlier:
                return Dom(tuple(("step", dx, dy) for dx, dy in STEPS), first.id)
            return self.tagged("cell")
        if tag == "piece":
            return self.tagged("piece", _kinds_named(node.args))
        return self.tagged(tag)


def fixed_int(node, params: dict) -> int | None:
    """The whole number expression `node` always is: made of whole numbers and the game's
    params (`2 * params.dice + 1`) with + - * / % (`/` whole, as the language divides);
    None when it may be anything else."""
    if isinstance(node, ast.Const):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == "params":
        v = params.get(node.name)
        return v if type(v) is int else None
    if isinstance(node, ast.Neg):
        v = fixed_int(node.operand, params)
        return None if v is None else -v
    if isinstance(node, ast.BinOp) and node.op in _ARITH:
        a, b = fixed_int(node.left, params), fixed_int(node.right, params)
        if a is None or b is None or (node.op in ("/", "%") and b == 0):
            return None
        return _ARITH[node.op](a, b)
    return None


_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": lambda a, b: a // b, "%": lambda a, b: a % b}


def _kinds_named(args) -> list[str] | None:
    """The kinds a call names by a literal (`pieces('walker')`), or None for any."""
    for a in args:
        if isinstance(a, ast.Const) and isinstance(a.value, str):
            return [a.value]
        if isinstance(a, ast.ListLit) and a.items and all(
                isinstance(i, ast.Const) and isinstance(i.value, str) for i in a.items):
            return sorted({str(i.value) for i in a.items if isinstance(i, ast.Const)})
    return None


def _union(doms: list) -> Dom | None:
    if not doms or any(d is None for d in doms) or len({d.rel for d in doms}) > 1:
        return None
    if len(doms) == 1:
        return doms[0]
    return Dom(tuple(dict.fromkeys(k for d in doms for k in d.keys)), doms[0].rel)


def declared_domains(game, raw_action: dict | None) -> dict:
    """The `domains:` a pack gives one action (by its id), from the merged pack."""
    return dict((raw_action or {}).get("domains") or {})


def action_domains(game, players: int) -> dict[str, list[Dom]]:
    """action id -> the domain of each of its parameters, in order. Every parameter the
    inference cannot bound and the pack gives no domain for is one problem, all reported
    together."""
    inf = Inference(game, players)
    raw = {a.get("id"): a for a in (game.raw.get("actions") or []) if isinstance(a, dict)}
    out: dict[str, list[Dom]] = {}
    problems = []
    for a in game.actions:
        given = declared_domains(game, raw.get(a.id))
        doms = []
        for k, (name, compiled) in enumerate(a.params):
            earlier = tuple(n for n, _ in a.params[:k])
            if name in given:
                dom = inf.declared(given[name])
                if dom is None:
                    problems.append(Problem(
                        f"action '{a.id}': domain of '{name}' is {given[name]!r}, which is neither "
                        f"a list of values nor one of {', '.join(TAGS)}", a.span))
                    continue
            else:
                tree = compiled.tree
                dom = None if tree is None else inf.elems(tree, {}, earlier)
                if dom is None:
                    problems.append(Problem(
                        f"action '{a.id}': the values of parameter '{name}' cannot be bounded "
                        "from its expression, so it has no place in a fixed action space", a.span,
                        hint=f"say what it holds beside params: domains: {{{name}: cell}} "
                             f"(one of {', '.join(TAGS)}) or a list of its values"))
                    continue
            doms.append(dom)
        out[a.id] = doms
    if problems:
        raise PackError(problems)
    return out


def per_table(cache, game, players: int, make):
    """`make(game, players)`, made once per game and table size: `cache` is a
    WeakKeyDictionary by game, so a game's tables go when the game does."""
    per_game = cache.get(game)
    if per_game is None:
        per_game = cache[game] = {}
    got = per_game.get(players)
    if got is None:
        got = per_game[players] = make(game, players)
    return got


def domain_problems(game) -> list[Problem]:
    """What keeps a pack that means to have a fixed action space (it says something to
    agents: `agents:`, or an action's `domains:`) from having one, for `horde validate`:
    each parameter whose values cannot be bounded, with its params as loaded."""
    raw = game.raw
    if "agents" not in raw and not any(isinstance(a, dict) and "domains" in a
                                       for a in raw.get("actions") or ()):
        return []
    try:
        action_domains(game, game.players_max)
    except PackError as exc:
        return list(exc.problems)
    return []
