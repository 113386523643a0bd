"""What a compiled snippet may read and write: enough to skip work that cannot matter.

The game's end conditions are checked after every effect, because any effect might make
one true. Most effects cannot: rolling dice or moving a token does not change who is
out. A *footprint* is a conservative answer to "which state can this touch", read off
the generated Python of a snippet (and of the procedures it calls):

- a field, turn or game variable named by a constant key (`S.pl[..]['out']`) is its key;
  keys are not told apart by owner, which can only make answers more cautious;
- `OTHER` stands for zones and the places of entities, which only some builtins touch;
- `ANY` stands for everything: what is not understood (an unknown call, a write through
  a computed key, the current player or turn, which change between effects) is `ANY`;
- a builtin that knows what it touches may say so (`declare`, next to its registration):
  a board's tile under a square reads only the map, moving a piece writes only its cell;
- `count` and `empty` of a list (a list display or comprehension, or a procedure whose
  value is one) read what the list reads, no zone.

Two footprints meet when they share a key, or one holds `ANY`, or both hold `OTHER`.
An effect whose writes do not meet what the end conditions read leaves them as false as
they were after the last check, so that check need not run again.
"""

from __future__ import annotations

import ast as py

from engine.dsl.builtins import BUILTINS
from engine.memo import remembered

ANY = "*"
OTHER = "@other"

# builtins whose answer depends on their arguments alone
_ARGS_ONLY = frozenset({"any", "all", "sum", "min", "max", "abs", "range", "first", "sorted",
                        "icons", "str", "seat", "tagged"})
# builtins that read zones and nothing else
_READ_ZONES = frozenset({"count", "empty", "has", "cards", "top", "find", "zone_of", "owner"})
# effects that change only zones and entities' places
_WRITE_ZONES = frozenset({"draw", "move", "discard", "shuffle", "emit", "end_turn"})
# effects that change only the dice stream and the log, which no rule reads
_WRITE_NOTHING = frozenset({"roll", "log", "random", "choice"})
# effects that change who won or lost, which only `winners()` reads (and it reads ANY)
_WRITE_RESULT = frozenset({"win", "lose", "end_game"})
# helpers of generated code that neither read nor change the state
_PLAIN = frozenset({"_items", "_repeat", "_Z", "_P", "_type", "_mul", "_add", "_mod"})
# what a condition may read from the state object itself (fields through constant keys)
_STATE_PARTS = frozenset({"pl", "ents", "vars", "players"})
# the log and how values are described in it, which log lines written out use: no rule
# reads the log (`logged` is a builtin, and reads ANY), and a value's description is its own
_LOG_PARTS = frozenset({"log", "describe"})


# builtins that said what they read or write (see `declare`): name -> footprint
_DECLARED: dict[str, dict[str, frozenset]] = {"reads": {}, "writes": {}}
# builtins that read a zone only when given one: of a list they read nothing
_SIZE_OF = frozenset({"_b_count", "_b_empty"})


def declare(name: str, reads=None, writes=None) -> None:
    """Builtin `name` reads (or, as an effect, writes) only the keys `reads` (`writes`):
    for builtins that know exactly what they touch, registered beside them (a board's
    words). Keys may be names of the state no rule can spell, like a board's own variable;
    what a builtin does not declare stays `ANY`."""
    if reads is not None:
        _DECLARED["reads"][name] = frozenset(reads)
    if writes is not None:
        _DECLARED["writes"][name] = frozenset(writes)


def meet(a: frozenset, b: frozenset) -> bool:
    """Whether state read through footprint `a` may be changed through footprint `b`."""
    return ANY in a or ANY in b or not a.isdisjoint(b)


def reads(game, c) -> frozenset:
    return _footprint(game, c, "reads")


def writes(game, c) -> frozenset:
    return _footprint(game, c, "writes")


def body_tree(c) -> py.Module | None:
    """The generated code of snippet `c` as a Python tree (its body in a function `_f`), for
    the analyses that read it; None when it has no body to read."""
    if not c.body:
        return None
    try:
        return py.parse("def _f():\n" + "\n".join(c.body) + "\n")
    except SyntaxError:
        return None


def is_ent_w(call: py.Call) -> bool:
    """Whether `call` is `S.ent_w(...)`: an entity's record, to write a field of (the
    assignment around it names the field)."""
    f = call.func
    return isinstance(f, py.Attribute) and f.attr == "ent_w" and isinstance(f.value, py.Name) and \
        f.value.id == "S"


def is_log_write(call: py.Call) -> bool:
    """Whether `call` is `S.log.append(...)` or `S.describe(...)`, as the compiler writes out
    a log line (engine.dsl.compiler `_log_line`): neither reads or changes the game."""
    f = call.func
    if not isinstance(f, py.Attribute):
        return False
    v = f.value
    if f.attr == "describe":
        return isinstance(v, py.Name) and v.id == "S"
    return f.attr == "append" and isinstance(v, py.Attribute) and v.attr == "log" and \
        isinstance(v.value, py.Name) and v.value.id == "S"


def _footprint(game, c, kind: str) -> frozenset:
    """Made once per snippet and game; a snippet reached again while its own is being made
    (a procedure that calls itself) counts as anything."""
    def make() -> frozenset:
        tree = body_tree(c)
        if tree is None:
            return frozenset({ANY})
        walker = _Reads(game) if kind == "reads" else _Writes(game)
        walker.visit(tree)
        return frozenset(walker.found)
    return remembered(game.plans.setdefault(("footprint", kind), {}), c, make, frozenset({ANY}))


def _proc(game, name: str):
    entry = game.effect_procs.get(name)
    return entry[1] if entry is not None else None


class _Walker(py.NodeVisitor):
    kind = ""

    def __init__(self, game):
        self.game = game
        self.found: set[str] = set()

    def visit_Call(self, node: py.Call):
        f = node.func
        name = f.id if isinstance(f, py.Name) else None
        if name is None:
            if not (is_ent_w(node) or is_log_write(node)):
                self.found.add(ANY)  # a method call: who knows what it changes
        elif name.startswith("_pc_"):
            proc = _proc(self.game, name[len("_pc_"):])
            self.found |= _footprint(self.game, proc, self.kind) if proc is not None else {ANY}
        elif name.startswith("_b_"):
            self.found |= self._builtin(name[len("_b_"):])
        elif name in ("_get", "_set"):  # a field of a value of unknown type, by name
            key = node.args[2] if len(node.args) > 2 else None
            if isinstance(key, py.Constant) and isinstance(key.value, str):
                self.found |= self._field(name, key.value)
            else:
                self.found.add(ANY)
        elif name == "_in":
            self.found |= self._builtin("has")  # `x in zone` reads the zone
        elif not (name.startswith("_py_") or name in _PLAIN):
            self.found.add(ANY)
        self.generic_visit(node)

    def _builtin(self, name: str) -> set[str]:
        raise NotImplementedError

    def _field(self, call: str, key: str) -> set[str]:
        raise NotImplementedError


class _Reads(_Walker):
    kind = "reads"

    def visit_Attribute(self, node: py.Attribute):
        if isinstance(node.value, py.Name) and node.value.id == "S" and \
                node.attr not in _STATE_PARTS and node.attr not in _LOG_PARTS:
            self.found.add(ANY)  # the current player, the turn: they change between effects
        self.generic_visit(node)

    def visit_Subscript(self, node: py.Subscript):
        if isinstance(node.slice, py.Constant) and isinstance(node.slice.value, str):
            self.found.add(node.slice.value)
        self.generic_visit(node)

    def visit_Call(self, node: py.Call):
        f = node.func
        if isinstance(f, py.Name) and f.id in _SIZE_OF and len(node.args) == 2 and \
                not node.keywords and self._is_list(node.args[1]):
            self.generic_visit(node)  # `count([...])` reads what the list does, no zone
            return
        super().visit_Call(node)

    def _is_list(self, node: py.AST) -> bool:
        """Whether `node` surely makes a list: a list display or comprehension, or a call
        of a procedure whose value is one."""
        if isinstance(node, py.List | py.ListComp):
            return True
        f = node.func if isinstance(node, py.Call) else None
        if not (isinstance(f, py.Name) and f.id.startswith("_pc_")):
            return False
        proc = _proc(self.game, f.id[len("_pc_"):])
        tree = body_tree(proc) if proc is not None else None
        if tree is None:
            return False
        body = tree.body[0].body
        return len(body) == 1 and isinstance(body[0], py.Return) and \
            isinstance(body[0].value, py.List | py.ListComp)

    def _builtin(self, name: str) -> set[str]:
        if name in _DECLARED["reads"]:
            return set(_DECLARED["reads"][name])
        b = BUILTINS.get(name)
        if b is None or b.effect:
            return {ANY}
        if name in _ARGS_ONLY:
            return set()
        return {OTHER} if name in _READ_ZONES else {ANY}

    def _field(self, call: str, key: str) -> set[str]:
        return {key} if call == "_get" else {ANY}


class _Writes(_Walker):
    kind = "writes"

    def _target(self, t: py.AST, augmented: bool) -> None:
        if isinstance(t, py.Name):
            if augmented:
                self.found.add(ANY)  # `x += ...` may grow a list the state holds
        elif isinstance(t, py.Subscript) and isinstance(t.slice, py.Constant) and \
                isinstance(t.slice.value, str):
            self.found.add(t.slice.value)
        elif isinstance(t, py.Tuple | py.List):
            for e in t.elts:
                self._target(e, augmented)
        else:
            self.found.add(ANY)

    def visit_Assign(self, node: py.Assign):
        for t in node.targets:
            self._target(t, False)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: py.AnnAssign):
        self._target(node.target, False)
        self.generic_visit(node)

    def visit_AugAssign(self, node: py.AugAssign):
        self._target(node.target, True)
        self.generic_visit(node)

    def visit_Delete(self, node: py.Delete):
        for t in node.targets:
            self._target(t, True)
        self.generic_visit(node)

    def visit_For(self, node: py.For):
        self._target(node.target, False)
        self.generic_visit(node)

    def _builtin(self, name: str) -> set[str]:
        if name in _DECLARED["writes"]:
            return set(_DECLARED["writes"][name])
        b = BUILTINS.get(name)
        if b is None:
            return {ANY}
        if not b.effect or name in _WRITE_NOTHING:
            return set()
        if name in _WRITE_RESULT:
            return {"@result"}
        return {OTHER} if name in _WRITE_ZONES else {ANY}

    def _field(self, call: str, key: str) -> set[str]:
        return {key} if call == "_set" else set()
