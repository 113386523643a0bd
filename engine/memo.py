"""What a game works out once about one of its objects (a snippet, an action), kept by identity.

An object's `id()` is its own only while the object lives. The game holds the snippets of its
pack, but not everything it is asked about: a scenario's setup, a view or a metric is compiled
for one use and freed afterwards, and a later object may then get its id. So an entry holds
its object, and an entry found under an id whose object is another is worked out again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def remembered(memo: dict, obj: object, make: Callable[[], Any], pending: Any = None) -> Any:
    """`make()` for `obj`, worked out once per memo. While it is being worked out, asking again
    (an analysis that reaches the same object through a procedure calling itself) gives
    `pending`."""
    got = memo.get(id(obj))
    if got is not None and got[0] is obj:
        return got[1]
    memo[id(obj)] = (obj, pending)
    value = make()
    memo[id(obj)] = (obj, value)
    return value
