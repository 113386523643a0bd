"""`Journal`: the append-only list behind a state's log and history.

Both only ever grow, and a game clones its state before every transactional action and
search bots clone it thousands of times, so copying them whole made every clone cost a
little more each turn. A journal keeps its past in frozen tuples that its copies share;
`fork()` freezes what was appended since the last fork (a few entries) and copies nothing
else. Frozen parts are merged so that each is at least twice the size of the next: a
journal of n entries has at most about log2(n) parts, and each entry is copied about
log2(n) times over a whole game instead of once per clone.

It reads as a list (len, indexing, slicing, iteration, `==` with a list) and `append` is
the list's own `append`: writing the log costs what it did. The entries themselves are
shared, as a shallow `list(log)` shared them; nothing changes an entry once it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, islice


class Journal(Sequence):
    __slots__ = ("_parts", "_done", "_tail", "append", "extend")

    def __init__(self, items=()):
        self._parts: tuple[tuple, ...] = ()  # frozen entries, oldest first
        self._done = 0  # how many entries the parts hold
        self._set_tail(list(items))

    def _set_tail(self, tail: list) -> None:
        self._tail = tail
        self.append = tail.append  # a bound C method: no Python frame per log entry
        self.extend = tail.extend

    def fork(self) -> Journal:
        """An independent copy: it shares every entry written so far, and copies none."""
        tail = self._tail
        if tail:
            self._freeze(tail)
        c = Journal.__new__(Journal)
        c._parts = self._parts
        c._done = self._done
        c._set_tail([])
        return c

    def _freeze(self, tail: list) -> None:
        parts = (*self._parts, tuple(tail))
        while len(parts) > 1 and len(parts[-2]) < 2 * len(parts[-1]):
            parts = (*parts[:-2], parts[-2] + parts[-1])
        self._parts = parts
        self._done += len(tail)
        tail.clear()  # the same list: an `append` taken from this journal earlier still works

    # ---------- reading, as a list ----------
    def __len__(self) -> int:
        return self._done + len(self._tail)

    def __iter__(self):
        if not self._parts:
            return iter(self._tail)
        return chain(*self._parts, self._tail)

    def __getitem__(self, i):
        if type(i) is slice:
            start, stop, step = i.indices(len(self))
            if step != 1:
                return list(self)[i]
            return list(islice(self._from(start), max(stop - start, 0)))
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("journal index out of range")
        done = self._done
        if i >= done:
            return self._tail[i - done]
        for part in self._parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise AssertionError("unreachable")  # pragma: no cover

    def _from(self, start: int):
        """Iterate from entry `start` on without walking the parts before it."""
        rest: list[Iterable] = []
        for part in self._parts:
            if start < len(part):
                rest.append(islice(part, start, None) if start else part)
                start = 0
            else:
                start -= len(part)
        rest.append(islice(self._tail, start, None) if start else self._tail)
        return chain.from_iterable(rest)

    def __reversed__(self):
        return reversed(list(self))

    def __eq__(self, other) -> bool:
        if isinstance(other, (Journal, list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self):
        return Journal, (list(self),)
