"""Helpers that generated code calls where the compiler could not specialise an operation.

Generated snippets run with empty `__builtins__`; these functions (and the builtins) are the
only names they can reach besides the state object.

`mul`, `add` and `mod` keep values within caps (docs/limits.md): a text or a list of at most
MAX_LEN characters or items, a product within 64 bits. Past them a rule is surely wrong, and
Python would spend minutes or gigabytes on it (`x = x * x` ten times over, a text doubled
in a loop) before failing, if it failed at all. The caps are checked before the value is
made, and cost a comparison or two on the usual small numbers. A text or list they make,
and the items `in` looks through, are charged to the step budget first (engine.dsl.work).
"""

from __future__ import annotations

from engine.dsl import values
from engine.dsl.values import E_OF, E, Face, P, Z
from engine.errors import RuleRuntimeError


def get(S, obj, name: str):
    """`obj.name` when the type was unknown at compile time."""
    t = type(obj)
    if t is P:
        if name == "seat":
            return obj.i
        rec = S.pl[obj.i]
        if name in rec:
            return rec[name]
        if S.game.env.zones.get(name):
            return Z(name, obj.i)
    elif t is E:
        rec = S.ents[obj.i]
        if name in rec:
            return rec[name]
        if name == "tags":
            return list(S.game.tags_of(rec["id"]))
        ext = S.game.ent_attr(S, obj, name)
        if ext is not _MISSING:
            return ext
    elif t is Face:
        if name == "name":
            return obj.name
        return obj.icons.get(name, 0)
    elif t is Z:
        if name == "owner":
            return S.players[obj.owner] if obj.owner >= 0 else None
        if name == "name":
            return obj.name
    elif obj is None:
        raise RuleRuntimeError(f"cannot read '.{name}' of none")
    else:
        ext = S.game.value_attr(S, obj, name)
        if ext is not _MISSING:
            return ext
    raise RuleRuntimeError(f"{S.describe(obj)} has no field '{name}'")


def set_(S, obj, name: str, value):
    """`obj.name = value` when the type was unknown at compile time."""
    t = type(obj)
    if t is P and name in S.pl[obj.i]:
        S.pl[obj.i][name] = value
        return
    if t is E and name in S.ents[obj.i] and not name.startswith("@") and name not in ("id", "cell"):
        S.ent_w(obj.i)[name] = value
        if type(value) is list or type(value) is dict:
            S.mark_deep(obj.i)
        return
    if t is E and name == "cell":
        raise RuleRuntimeError(f"cannot set '.cell' of {S.describe(obj)}: a piece's cell is kept by its "
                               "board; move pieces with the board's own words (docs/boards.md)")
    raise RuleRuntimeError(f"cannot set '.{name}' of {S.describe(obj)}")


def items(S, x):
    """Iterate a list or a zone; charges its length to the step budget."""
    if type(x) is list:
        S.charge(len(x))
        return list(x)
    if type(x) is Z:
        seq = list(map(E_OF, S.zone(x)))
    elif isinstance(x, list):
        seq = x
    elif x is None:
        raise RuleRuntimeError("cannot iterate over none")
    else:
        raise RuleRuntimeError(f"cannot iterate over {S.describe(x)}")
    S.charge(len(seq))
    return list(seq)


def repeat(S, n):
    """`repeat n:` runs n times (none when n < 1); charges n steps."""
    if type(n) is not int and (not isinstance(n, int) or isinstance(n, bool)):
        raise RuleRuntimeError(f"repeat needs a number, got {S.describe(n)}")
    S.charge(n if n > 0 else 0)
    return range(n)


def contains(S, x, coll):
    """`x in coll`: charges the items of a list (and, to look for a list in it, the items
    its lists hold: engine.dsl.nesting), the entities of a zone, a step per TEXT_UNIT
    characters of a text (docs/limits.md), before it looks."""
    if type(coll) is list:
        S.charge(len(coll))
        if type(x) is list:  # compared with each item: charged what they hold written out
            from engine.dsl.nesting import compared
            compared(S, coll)
        return x in coll
    if type(coll) is Z:
        lst = S.zone(coll)
        S.charge(len(lst))
        return type(x) is E and x.i in lst
    if isinstance(coll, list | str):
        S.charge(len(coll) if isinstance(coll, list) else -(-len(coll) // TEXT_UNIT))
        return x in coll
    raise RuleRuntimeError(f"'in' needs a list or a zone, got {S.describe(coll)}")


# ---------- arithmetic within caps ----------

MAX_LEN = values.MAX_LEN  # characters of a text, items of a list
TEXT_UNIT = 100  # characters of text `+` and `*` copy in a step (engine.dsl.work)
INT_BITS = 64  # a product lies in -2**63 .. 2**63-1, as a 64-bit integer (CEL's int)
_LO, _HI = -(1 << (INT_BITS - 1)), (1 << (INT_BITS - 1)) - 1


def _overflow():
    raise RuleRuntimeError(f"integer overflow: the result exceeds {INT_BITS} bits",
                           hint=f"numbers in rules stay within ±2**{INT_BITS - 1}")


def _fits(x, n: int, S=None) -> None:
    """A text or list of `n` characters or items may be made out of `x`: within MAX_LEN, and
    then (given the state `S`) charged to the step budget before it is made: an item a step,
    a step per TEXT_UNIT characters."""
    if n > MAX_LEN:
        what = "text" if isinstance(x, str) else "list"
        unit = "characters" if what == "text" else "items"
        raise RuleRuntimeError(f"a {what} of {n:,} {unit} is longer than the {MAX_LEN:,} "
                               f"{unit} a value may hold")
    if S is not None and n > 0:
        S.charge(n if isinstance(x, list) else -(-n // TEXT_UNIT))


def mul(a, b, S=None):
    """`a * b`: numbers (a product past 64 bits is an error), or a text or a list repeated
    (up to MAX_LEN, charged to `S`'s budget before it is made). Anything else fails as
    Python's own `*` does."""
    if type(a) is int and type(b) is int:
        if _LO <= a <= _HI and _LO <= b <= _HI:
            r = a * b  # at most 126 bits: made at once, then checked
            if _LO <= r <= _HI:
                return r
        elif not a or not b:
            return 0
        _overflow()
    if isinstance(b, int) and isinstance(a, str | list):
        _fits(a, len(a) * b, S)
    elif isinstance(a, int) and isinstance(b, str | list):
        _fits(b, len(b) * a, S)
    elif isinstance(a, int) and isinstance(b, int):  # true/false count as 1/0
        return mul(int(a), int(b))
    return a * b


def add(a, b, S=None):
    """`a + b` of values whose types the compiler did not know to be numbers: two texts or
    two lists joined (up to MAX_LEN, charged to `S`'s budget before it is made). Sums of
    numbers are not capped: one grows by at most a bit per step, which the step budget
    bounds."""
    t = type(a)
    if t is int and type(b) is int:
        return a + b
    if (t is list or t is str) and type(b) is t:  # the usual join, checked in place
        n = len(a) + len(b)
        if n > MAX_LEN:
            _fits(a, n)
        if S is not None:  # the step budget, before the join
            S.charge(n if t is list else -(-n // TEXT_UNIT))
        return a + b
    if isinstance(a, str | list) and isinstance(b, str | list):
        _fits(a, len(a) + len(b), S)
    return a + b


def mod(a, b, S=None):
    """`a % b`: numbers only. (Python's `%` would format a text, which the effect language
    does not: `log` does, within caps.)"""
    if isinstance(a, str):
        raise TypeError(f"unsupported operand type(s) for %: '{type(a).__name__}' and "
                        f"'{type(b).__name__}'")
    return a % b


class _Missing:
    pass


_MISSING = _Missing()
MISSING = _MISSING


class ZoneRefs(dict):
    """owner -> the zone reference `Z(name, owner)` of one zone name, made on first use.
    Zone references are immutable values, and generated code names the same few zones
    over and over: `_zr_hand[seat]` is one dictionary lookup."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __missing__(self, owner: int) -> Z:
        z = self[owner] = Z(self.name, owner)
        return z


_ZONE_REFS: dict[str, ZoneRefs] = {}


def zone_refs(name: str) -> ZoneRefs:
    refs = _ZONE_REFS.get(name)
    if refs is None:
        refs = _ZONE_REFS[name] = ZoneRefs(name)
    return refs


def zone_ref(name: str, owner: int = -1) -> Z:
    """The zone reference `Z(name, owner)`, made once."""
    return zone_refs(name)[owner]
