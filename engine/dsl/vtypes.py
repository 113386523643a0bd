"""The value types the effect-language compiler infers, and what each allows.

Types are words: `int`, `bool`, `str`, `none`, `player`, `ent`, `zone`, `die`, `list` or
`list:<item>`, and `any` for what is not known at load time. They let the compiler refuse,
at load time, what would surely fail in play (a text set into a number field, a number
added to a player), and choose Python's own operator where no cap on values is needed.
"""

from __future__ import annotations


def elem(t: str) -> str:
    return t.split(":", 1)[1] if t.startswith("list:") else "any"


# What a value of a known type cannot be given as a builtin's argument of kind int, str or
# list (a list type is `list` or `list:<item>`): what is "any" (unknown) passes, and the
# run time says more if it is wrong. The words for types in messages: `TYPE_WORDS`.
SCALARS = ("player", "ent", "zone")
NOT_OF_KIND = {"int": ("str", "none", *SCALARS), "str": ("int", "bool", *SCALARS),
                "list": ("int", "bool", "str", *SCALARS)}
TYPE_WORDS = {"int": "a number", "bool": "a true/false", "str": "a text", "none": "none", "player": "a player",
      "ent": "an entity", "zone": "a zone", "die": "a die", "list": "a list"}
NUMBERS = ("int", "bool")
KNOWN = (*NUMBERS, "str", "none", *SCALARS)


# what may outgrow the caps on values (engine.dsl.runtime): a product, and a sum or a
# remainder of values not known to be numbers (two texts or lists joined, a text formatted)
CHECKED_OPS = {"*": "_mul", "+": "_add", "%": "_mod"}
VALUE_TYPES = {bool: "bool", int: "int", str: "str"}


def family(t: str) -> str | None:
    """What a field of type `t` holds, for the check of writes: numbers (true/false count
    as 1/0), texts, lists, players, entities, zones; None for what is not known, or none
    (which a field of any type may be set to)."""
    if t in NUMBERS:
        return "number"
    if t.startswith("list"):
        return "list"
    return t if t in ("str", *SCALARS) else None


def capped_op(op: str, lt: str, rt: str) -> str | None:
    """The runtime helper that computes `lt op rt` within the caps, or None for Python's own
    operator (a sum, difference or remainder of numbers, which cannot blow up)."""
    if op == "*" or op in CHECKED_OPS and not (lt in NUMBERS and rt in NUMBERS):
        return CHECKED_OPS[op]
    return None


def arith_mismatch(op: str, lt: str, rt: str) -> bool:
    """Whether `lt op rt` (an arithmetic operator) surely fails on values of these types,
    known at load time (what is "any" may be anything). Numbers (true/false count as 1/0)
    take every operator; `+` also joins two texts or two lists, `*` repeats a text or a
    list a number of times."""
    if op not in ("+", "-", "*", "/", "%"):
        return False
    known = [t in KNOWN or t.startswith("list") for t in (lt, rt)]
    if not all(known) or lt in NUMBERS and rt in NUMBERS:
        return False
    lists = [t.startswith("list") for t in (lt, rt)]
    if op == "+" and (lt == rt == "str" or all(lists)):
        return False
    repeated = lists[0] or lists[1] or "str" in (lt, rt)  # a text or a list, times a number
    return not (op == "*" and repeated and (lt in NUMBERS or rt in NUMBERS))
