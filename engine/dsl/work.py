"""What the work inside one step costs: charged to the step budget before it is done.

A step of the effect language (a statement, a loop's turn) is a fraction of a
microsecond; a builtin given a list of 200,000 items, or a text made of a list whose items
are one shared list a thousand times over, is seconds or gigabytes. So work that grows with
the values it is given is charged by their size, at the call and before it runs, and text
made from values is built against its cap, never past it (docs/limits.md, "The work inside
a step"):

- a builtin that declares `charges="items"` (engine.dsl.builtins) is charged the items of
  each list, and the entities of each zone, it is given: the compiler wraps those arguments
  in `sized` (one type test for what is neither);
- a list made by `*` or `+` is charged its items, a text made so a step per `TEXT_UNIT`
  characters (engine.dsl.runtime's `mul` and `add`), once the caps on values said it may
  be made and before it is;
- a value turned into text (`str`, the fields of `log`) is built item by item against
  MAX_LEN characters, a list that occurs in it more than once written out once
  (`list_text`), and then charged a step per character (a log line is kept for the whole
  game): the most one such text does before the budget stops it is one text at the cap.
"""

from __future__ import annotations

import re

from engine.dsl.runtime import MAX_LEN
from engine.dsl.values import Face, Z
from engine.errors import RuleRuntimeError


def sized(S, x):
    """`x`, after charging its items (a list) or its entities (a zone): what a builtin that
    declares `charges="items"` is given goes through here first."""
    t = type(x)
    if t is list:
        n = len(x)
    elif t is Z:
        n = len(S.zones.get(x.key) or ())
    else:
        return x
    S.charge(n)
    return x


_CONSTANT = re.compile(r"-?[0-9]+|None|True|False|'[^'\\]*'|\"[^\"\\]*\"")  # generated code of a literal


def sized_args(b, given: int, parts: list[str], facts) -> list[str]:
    """The generated arguments `parts` of a call of builtin `b` (the first `given` of them
    positional) with each that may be a list or a zone passed through `sized`: those of the
    kinds list, zone and any (a builtin's arguments past its declared ones are any)."""
    out = list(parts)
    for k in range(given):
        kind = b.args[k].rstrip("?") if k < len(b.args) else "any"
        if kind in ("list", "zone", "any") and not _CONSTANT.fullmatch(parts[k]):
            out[k] = f"_sized(S, {parts[k]})"
            facts.use("_sized")
    return out


def say(S, text: str) -> None:
    """Append `text` to the game log as a message: a step per character, as it is kept until
    the game ends, and no line past MAX_LEN characters."""
    if len(text) > MAX_LEN:
        too_long(f"log: a line of {len(text):,} characters")
    S.charge(len(text))
    S.log.append({"t": "msg", "text": text})


def too_long(what: str, hint: str | None = None) -> None:
    raise RuleRuntimeError(f"{what} is longer than the {MAX_LEN:,} characters a text may hold", hint=hint)


class _TooLong(Exception):
    pass


def list_text(S, v: list) -> str:
    """List `v` as players read it (`[a, b]`), built against MAX_LEN characters: past them,
    a rule error before any more is made. A list that occurs in `v` more than once is
    described once and its text reused, so a list of one list a thousand times over costs
    what its text does, not a thousand walks of it."""
    try:
        return _text(S, v, {}, MAX_LEN)
    except _TooLong:
        too_long("the text of a list", "a list is written out item by item, a list in it as "
                 "often as it occurs: write out a part of it")
        raise  # (too_long raised)


def _text(S, v: list, memo: dict, room: int) -> str:
    parts = []
    n = 2  # the brackets, then each item with its separator
    for x in v:
        t = type(x)
        if t is list:
            s = memo.get(id(x))
            if s is None:
                s = memo[id(x)] = _text(S, x, memo, room - n)
        elif t is Face:  # a roll, the usual list logged
            s = x.text
        else:
            s = S.describe(x)
        n += len(s) + 2
        if n > room:
            raise _TooLong
        parts.append(s)
    return "[" + ", ".join(parts) + "]"


def charge_text(S, text: str) -> str:
    """`text`, made from a value by a rule (`str(x)`), charged a step per character."""
    S.charge(len(text))
    return text
