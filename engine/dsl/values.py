"""Runtime values the effect language passes around besides ints, strings, bools and lists.

Players, entities (cards, tokens, pieces) and zones are *references* (a seat, a uid, a zone
key), never the records themselves: a reference stays valid in a cloned or reloaded state,
so flow frames can hold them as plain data.
"""

from __future__ import annotations

# characters of a text, items of a list, items of a stored value written out: the one size cap
# of the language's values (engine.dsl.runtime, engine.dsl.nesting)
MAX_LEN = 1_000_000


class _Table(dict):
    """One kind's interned references by number. A reference not made yet is made on first
    lookup, so `table[i]` (and `map(table.__getitem__, uids)`) makes lists of references
    without running Python code for the ones that exist."""

    __slots__ = ("kind",)
    kind: type  # the reference class it interns (set once, by `_Ref.__init_subclass__`)

    def __missing__(self, i):
        ref: _Ref = object.__new__(self.kind)
        object.__setattr__(ref, "i", i)
        if type(i) is int:
            self[i] = ref
        return ref


class _Ref:
    """A player or an entity, by number: interned, so `Kind(i)` is always the same object
    for the same `i` and two references are equal exactly when they are the same object.
    Equality is then Python's own identity test, done in C — `x in list`, the commonest
    question effects ask of references, calls no Python code. Hashes stay what they were
    (set order with them), and pickling or copying goes through the constructor, so
    interning survives."""

    __slots__ = ("i",)
    i: int  # the seat or uid (set once, by `_Table`)
    _tag = ""
    _interned: _Table

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._interned = _Table()
        cls._interned.kind = cls

    def __new__(cls, i: int):
        return cls._interned[i]

    def __reduce__(self):
        return (type(self), (self.i,))

    def __hash__(self):
        return hash((self._tag, self.i))

    def __lt__(self, other):
        return self.i < other.i

    def __repr__(self):
        return f"{self._tag}{self.i}"


class P(_Ref):
    """A player, by seat (0-based)."""

    __slots__ = ()
    _tag = "P"


class E(_Ref):
    """An entity (card, token or piece), by uid (at most a game's entities: small numbers)."""

    __slots__ = ()
    _tag = "E"


class Z:
    """A zone: a global one (`owner` -1) or one player's copy of a per-player zone."""

    __slots__ = ("name", "owner", "key")

    def __init__(self, name: str, owner: int = -1):
        self.name = name
        self.owner = owner
        # the key of the zone in `State.zones`, looked up on every zone access
        self.key = name if owner < 0 else f"{name}#{owner}"

    def __eq__(self, other):
        return type(other) is Z and other.name == self.name and other.owner == self.owner

    def __hash__(self):
        return hash(("Z", self.name, self.owner))

    def __lt__(self, other):
        return (self.name, self.owner) < (other.name, other.owner)

    def __repr__(self):
        return f"Z({self.key})"


class Face:
    """One face of a die with icons (`{hit: 2}`); numeric dice roll plain ints instead.

    Faces are shared, immutable and interned per die, so a roll result is cheap to copy.
    """

    __slots__ = ("die", "idx", "icons", "name", "text")

    def __init__(self, die: str, idx: int, icons: dict[str, int], name: str | None):
        self.die, self.idx, self.icons, self.name = die, idx, dict(icons), name
        self.text = self.name or "+".join(f"{k}" if v == 1 else f"{k}x{v}" for k, v in self.icons.items())

    def __eq__(self, other):
        return type(other) is Face and other.die == self.die and other.idx == self.idx

    def __hash__(self):
        return hash(("F", self.die, self.idx))

    def __lt__(self, other):
        return (self.die, self.idx) < (other.die, other.idx)

    def __repr__(self):
        return self.text  # as logs and labels show it


E_OF = E._interned.__getitem__  # uid -> E(uid), for lists of references made in bulk
REF_TYPES = (P, E, Z, Face)
