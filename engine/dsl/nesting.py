"""Lists inside lists: what a value is when written out, bounded before anything walks it.

A list may hold one list many times over: `[[[0] * 1000] * 1000] * 1000` is three
thousand items in memory, made in three thousand steps, and a billion when written out.
Whatever walks a value item by item, lists in it as often as they occur, walks the billion:
comparing two such values, looking for one in a list, sorting them, and saving the state
(JSON has no sharing). So (docs/limits.md, "The work inside a step"):

- a value stored into the state (a game or turn variable, a player's or a piece's field,
  an item of a list, the arguments of a flow procedure) is walked once, each list in it
  once, and charged a step per item of each list walked; written out, it may hold at most
  MAX_ITEMS items, lists nested at most MAX_DEPTH deep, and no list that holds itself.
  Past that it is a rule error at its line. A list holding no list (nearly all of them)
  is one C-level scan, charged a step per SCAN_UNIT items;
- comparing a list that holds lists (`==`, `<`, `in`, `sorted`, `min`, `max`) is charged
  the items it holds written out, the most the comparison can walk, before it is made.

Copies of the state (engine.copying) keep a list that occurs twice in a value one list,
so a copy costs what the value holds in memory, not what it is written out.
"""

from __future__ import annotations

from engine.dsl.values import MAX_LEN
from engine.errors import RuleRuntimeError

MAX_ITEMS = MAX_LEN  # items of a stored value written out, lists in it as often as they occur
MAX_DEPTH = 100  # lists inside lists inside lists...
SCAN_UNIT = 100  # items of a list holding no list looked through in a step

_flat = frozenset({list, dict}).isdisjoint  # _flat(types): none of them is a list or a dict


def kept(S, v):
    """`v`, to be stored into the state: checked (written out within MAX_ITEMS items and
    MAX_DEPTH levels, holding no list that holds itself) and charged as it is walked."""
    if type(v) is not list:
        return v
    if _flat(map(type, v)):
        if len(v) >= SCAN_UNIT:
            S.charge(len(v) // SCAN_UNIT)
        return v
    written_out(S, v, "a value kept in the game")
    return v


def written_out(S, v: list, what: str) -> int:
    """The items of list `v` written out (each list's items, a list in it as often as it
    occurs), walking each list in it once and charging a step per item walked; a rule
    error naming `what` past MAX_ITEMS, MAX_DEPTH or at a list that holds itself."""
    return _walk(S, v, {}, set(), 0, what)


def _walk(S, v: list, memo: dict, open_: set, depth: int, what: str) -> int:
    if depth >= MAX_DEPTH:
        raise RuleRuntimeError(f"{what}: lists nested more than {MAX_DEPTH} deep",
                               hint="keep lists of lists a few levels deep")
    key = id(v)
    open_.add(key)
    S.charge(len(v))
    n = len(v)
    for x in v:
        if type(x) is list:
            k = id(x)
            got = memo.get(k)
            if got is None:
                if k in open_:
                    raise RuleRuntimeError(f"{what}: a list holds itself",
                                           hint="put a copy of a list into it, not the list")
                got = memo[k] = _walk(S, x, memo, open_, depth + 1, what)
            n += got
            if n > MAX_ITEMS:
                raise RuleRuntimeError(
                    f"{what}: a list of more than {MAX_ITEMS:,} items written out (a list in it "
                    "counted as often as it occurs)",
                    hint="a list of one list many times over is that list written out each time: "
                         "keep fewer, or count instead of listing")
    open_.discard(key)
    return n


def compared(S, v):
    """`v`, about to be compared item by item with another value (`==`, `<`, `in`,
    sorting; the walk ends within the smaller of the two): a list holding lists is charged
    the items it holds written out, the most a comparison walks; a list holding none, a
    step per SCAN_UNIT items."""
    if type(v) is list:
        if _flat(map(type, v)):
            if len(v) >= SCAN_UNIT:
                S.charge(len(v) // SCAN_UNIT)
        else:
            S.charge(written_out(S, v, "a list compared"))
    return v
