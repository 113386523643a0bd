"""Pieces on the squares of a tile board: spawn, remove, move, and find them by square.

A piece is an entity of a declared kind (`kinds:`) with a `cell` field, so labels read
`kind@x,y`. Finding "the piece on this square" is the commonest question a turn asks, so
the board keeps an index square -> piece uids in the state (`S.vars['@tiles']['at']`,
plain data; the uids of a square are a tuple, so cloning a state does not copy them) and
every change goes through these methods, which keep the index and the pieces' `cell` fields
in step. Each lookup is then a dictionary access instead of a scan of every entity.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from operator import attrgetter

from engine.board.tilemap import Map
from engine.dsl.values import E_OF, E
from engine.errors import RuleRuntimeError

KEY = "@tiles"  # the reserved game-variable key holding the board's state
_UID = attrgetter("i")


def is_cell(v) -> bool:
    return type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is int


# square -> its name: the same few hundred squares are named over and over. Hot paths
# write `_KEYS.get(sq) or sq_key(sq)`: the usual answer without a call.
_KEYS: dict = {}


def sq_key(sq) -> str:
    """"x,y": how a square is named in the piece index and in labels."""
    k = _KEYS.get(sq)
    if k is None:
        k = f"{sq[0]},{sq[1]}"
        if len(_KEYS) < 100_000:
            _KEYS[sq] = k
    return k


def _kinds(S, kinds) -> set | frozenset:
    if isinstance(kinds, str):  # one kind: the commonest question, its set made once
        got = _ONE_KIND.get(kinds)
        if got is None:
            got = _ONE_KIND[kinds] = frozenset((kinds,))
        return got
    if isinstance(kinds, list):
        return set(kinds)
    raise RuleRuntimeError(f"expected a piece kind or a list of kinds, got {S.describe(kinds)}")


_ONE_KIND: dict[str, frozenset] = {}


class _Listing:
    """What a board remembers about one piece index (and entity table): its pieces of a kind
    by age, the squares holding a piece of some kinds, and which pieces have a step to a
    square holding none of them (`movable`)."""

    __slots__ = ("index", "ents", "lists", "taken", "free")

    def __init__(self, index, ents):
        self.index, self.ents = index, ents
        self.lists: dict = {}  # kind (or None: all) -> its pieces (references) by uid
        self.taken: dict = {}  # frozenset of kinds -> names of the squares holding one
        self.free: dict = {}  # frozenset of kinds -> their `Steps` on the current map

    def free_of(self, want: frozenset, near) -> Steps:
        """Which pieces have a step off the squares `want` takes, as far as known, on the
        map whose neighbours `near` names (a new map: known afresh)."""
        got = self.free.get(want)
        if got is None or got.near is not near:
            got = self.free[want] = Steps(near)
        return got

    def added(self, kind: str, uid: int, sq, k: str) -> None:
        """A new piece `uid` of `kind` stands on square `sq` (`k` in the index)."""
        for key, refs in self.lists.items():
            if key is None or key == kind:
                insort(refs, E_OF(uid), key=_UID)
                for steps in self.free.values():
                    if steps.refs is refs:
                        steps.members.add(uid)
                        steps.unsure.add(uid)
        for want, taken in self.taken.items():
            if kind in want:
                taken.add(k)
        self._unsettle(kind, uid, (sq,))

    def removed(self, kind: str, uid: int, sq, k: str) -> None:
        """Piece `uid` of `kind` left square `sq` (`k` in the index) and the board."""
        for key, refs in self.lists.items():
            if key is None or key == kind:
                refs.remove(E_OF(uid))
                for steps in self.free.values():
                    if steps.refs is refs:
                        steps.drop(uid)
        for want, taken in self.taken.items():
            if kind in want:
                taken.discard(k)
                _take(taken, self.index, self.ents, want, k)
        self._unsettle(kind, uid, (sq,))

    def moved(self, kind: str, uid: int, old, new, k_old: str, k_new: str) -> None:
        """Piece `uid` of `kind` went from square `old` to `new` (`k_old`, `k_new` in the index)."""
        for want, taken in self.taken.items():
            if kind in want:
                taken.add(k_new)
                taken.discard(k_old)
                _take(taken, self.index, self.ents, want, k_old)
        self._unsettle(kind, uid, (old, new))

    def _unsettle(self, kind: str, uid: int, squares: tuple) -> None:
        """Forget whether piece `uid` may step, and, when the squares its kind takes changed,
        whether the pieces next to `squares` may: theirs are the only answers that can
        change (maps link squares both ways)."""
        index = self.index
        for want, steps in self.free.items():
            known, unsure = steps.known, steps.unsure
            if known.pop(uid, None) is not None:
                unsure.add(uid)
            if kind in want:
                near = steps.near
                for sq in squares:
                    for k in near[sq]:
                        for u in index.get(k, ()):
                            if known.pop(u, None) is not None:
                                unsure.add(u)


class Steps:
    """Which pieces have a step off the squares some kinds take, on one map.

    `known`: uid -> whether the piece has one, for pieces the index holds where they
    stand; forgotten (`_Listing._unsettle`) for the pieces a change can concern. A chase
    asks this of the same list of pieces at every step (all the pieces of the one kind
    it moves), so the answer for that list (`refs`, the listing's own list) is kept too,
    in step as pieces come, go and move: `free` holds the uids of the pieces with a step
    in order (`free_refs` their references), and only the pieces of `refs` in `unsure`
    (forgotten since, new, or not held where they stand) are worked out again."""

    __slots__ = ("near", "known", "refs", "members", "free", "free_refs", "unsure")

    def __init__(self, near):
        self.near = near  # the map's square -> names of its neighbours in the index
        self.known: dict = {}
        self.refs: list | None = None
        self.members: set = set()  # the uids of refs
        self.free: list = []  # uids of the pieces of refs with a step, in order
        self.free_refs: list = []  # their references
        self.unsure: set = set()  # uids of refs whose answer may have changed

    def follow(self, refs: list) -> None:
        """Keep the answer for the listing's list `refs` (sorted by uid, no uid twice),
        all to be worked out."""
        self.refs = refs
        self.free, self.free_refs = [], []
        self.members = {x.i for x in refs}
        self.unsure = set(self.members)

    def drop(self, u: int) -> None:
        """Piece `u` is no longer in `refs`."""
        pos = bisect_left(self.free, u)
        if pos < len(self.free) and self.free[pos] == u:
            del self.free[pos], self.free_refs[pos]
        self.members.discard(u)

    def has_step(self, ents: dict, index: dict, u: int, taken: set) -> bool:
        """Whether piece `u` has a neighbouring square that `taken` does not hold;
        remembered in `known` when the index holds the piece where it stands."""
        ent = ents.get(u)
        sq = ent.get("cell") if ent is not None else None
        if sq is None:
            return False
        free = False
        for k in self.near[sq]:
            if k not in taken:
                free = True
                break
        if is_cell(sq) and u in index.get(_KEYS.get(sq) or sq_key(sq), ()):
            self.known[u] = free
        return free

    def settle(self, ents: dict, index: dict, taken: set, gone) -> None:
        """Work out again whether the unsure pieces not in `gone` have a step (see
        `has_step`). A piece in `gone` stays unsure: `answer` leaves it out anyway."""
        known, members, free_uids, free_refs = self.known, self.members, self.free, self.free_refs
        done = []
        for u in self.unsure:
            if u not in members:  # forgotten, but not one of refs (or no longer)
                done.append(u)
                continue
            if u in gone:
                continue
            free = known.get(u)
            if free is None:
                free = self.has_step(ents, index, u, taken)
                if u in known:
                    done.append(u)
            else:
                done.append(u)
            pos = bisect_left(free_uids, u)
            listed = pos < len(free_uids) and free_uids[pos] == u
            if free and not listed:
                free_uids.insert(pos, u)
                free_refs.insert(pos, E_OF(u))
            elif listed and not free:
                del free_uids[pos], free_refs[pos]
        self.unsure.difference_update(done)

    def answer(self, gone) -> list:
        """The pieces of `refs` with a step, less those in `gone` (after `settle`)."""
        out = self.free_refs.copy()
        if gone:
            free_uids = self.free
            for u in sorted(gone, reverse=True):  # from the back: the places before stay put
                pos = bisect_left(free_uids, u)
                if pos < len(free_uids) and free_uids[pos] == u:
                    del out[pos]
        return out


_NOTHING = _Listing(None, None)


def _take(taken: set, index: dict, ents: dict, want: frozenset, k: str) -> None:
    """Add square `k` to `taken` when it holds a piece of the kinds `want`."""
    for u in index.get(k, ()):
        if ents[u]["id"] in want:
            taken.add(k)
            return


class PiecesOnSquares:
    """Mixed into a board that has `map(S)` (for the squares that exist).

    A chase lists the pieces of a kind and asks which squares they block at every step,
    while pieces mostly move and are seldom added or taken away: so the board remembers
    what it worked out for one piece index (and entity table) at a time and keeps it in
    step as pieces come, go and move there. A clone or a loaded state has its own index,
    so it never reads another's.
    """

    _listing: _Listing = _NOTHING

    def _index(self, S) -> dict:
        return S.vars[KEY]["at"]

    def map(self, S) -> Map:
        raise NotImplementedError  # the board this is mixed into has one

    def _listing_of(self, S) -> _Listing:
        """What is remembered about S's index: the last listing when it is S's, else a new one."""
        listing, index = self._listing, self._index(S)
        if listing.index is index and listing.ents is S.ents:
            return listing
        listing = self._listing = _Listing(index, S.ents)
        return listing

    def _known_listing(self, S) -> _Listing | None:
        """The last listing when it is of S's index, else None (nothing to keep in step)."""
        listing = self._listing
        return listing if listing.index is self._index(S) and listing.ents is S.ents else None

    def _piece(self, S, e, fn: str) -> dict:
        if type(e) is not E or e.i not in S.ents:
            raise RuleRuntimeError(f"{fn}: expected a piece, got {S.describe(e)}")
        return S.ents[e.i]

    def _square(self, S, sq, fn: str):
        if not is_cell(sq) or sq not in self.map(S).kind:
            raise RuleRuntimeError(f"{fn}: {S.describe(sq)} is not a square of the map")
        return sq

    def spawn(self, S, kind, sq):
        """A new piece of `kind` on square `sq`."""
        self._square(S, sq, "spawn")
        kd = S.game.kinds.get(kind)
        if kd is None:
            raise RuleRuntimeError(f"spawn: '{kind}' is not a piece kind of this pack")
        uid = S.new_entity(kind, kd.fields)
        S.ent_w(uid)["cell"] = sq
        self._add(S, uid, sq)
        listing = self._known_listing(S)
        if listing is not None:
            listing.added(S.ents[uid]["id"], uid, sq, sq_key(sq))
        return E_OF(uid)

    def remove(self, S, e) -> None:
        """Take a piece off the board for good."""
        ent = self._piece(S, e, "remove")
        if ent.get("@z") is not None:
            raise RuleRuntimeError(f"remove: {S.describe(e)} is in a zone, not on the board")
        old = ent.get("cell")
        listed = self._unindex(S, e.i, old)
        listing = self._known_listing(S)
        if listing is not None:
            if listed == 1:
                listing.removed(ent["id"], e.i, old, sq_key(old))
            else:  # it was not listed once: work it all out again
                self._listing = _NOTHING
        del S.ents[e.i]

    def move_to(self, S, e, sq) -> None:
        """Move a piece to square `sq` (no rule is checked: the pack decides what is legal).
        A chase moves a piece at every step, so `_unindex`, `_add` and `_listing_of` are
        written out here, each square named once."""
        ents = S.ents
        if type(e) is not E or e.i not in ents:
            raise RuleRuntimeError(f"move_to: expected a piece, got {S.describe(e)}")
        if not is_cell(sq) or sq not in self.map(S).kind:
            self._square(S, sq, "move_to")  # which says what is wrong
        u = e.i
        old = ents[u].get("cell")
        idx = S.vars[KEY]["at"]
        listed, k_old = 0, ""  # (k_old is read only when the piece was listed)
        if old is not None:
            k_old = _KEYS.get(old) or sq_key(old)
            here = idx.get(k_old)
            if here and u in here:
                if len(here) == 1:
                    del idx[k_old]
                    listed = 1
                else:
                    rest = tuple(x for x in here if x != u)
                    if rest:
                        idx[k_old] = rest
                    else:
                        del idx[k_old]
                    listed = len(here) - len(rest)
        ent = S.ent_w(u)
        ent["cell"] = sq
        k_new = _KEYS.get(sq) or sq_key(sq)
        idx[k_new] = (*idx.get(k_new, ()), u)
        if listed != 1:  # it was not listed once: now it is
            self._listing = _NOTHING
            return
        listing = self._listing
        if listing.index is idx and listing.ents is ents and (listing.taken or listing.free):
            listing.moved(ent["id"], u, old, sq, k_old, k_new)

    def _add(self, S, uid: int, sq) -> None:
        idx = self._index(S)
        k = sq_key(sq)
        idx[k] = (*idx.get(k, ()), uid)

    def _unindex(self, S, uid: int, sq) -> int:
        """Take `uid` off square `sq` in the index; how many times it was listed there."""
        if sq is None:
            return 0
        idx = self._index(S)
        k = sq_key(sq)
        here = idx.get(k)
        if here and uid in here:
            rest = tuple(u for u in here if u != uid)
            if rest:
                idx[k] = rest
            else:
                del idx[k]
            return len(here) - len(rest)
        return 0

    def pieces_at(self, S, sq, kinds=None) -> list:
        """The pieces on a square (optionally only of some kinds), oldest first."""
        if not is_cell(sq):
            return []
        uids = S.vars[KEY]["at"].get(_KEYS.get(sq) or sq_key(sq), ())
        if kinds is None:
            return list(map(E_OF, uids))
        want = _kinds(S, kinds)
        ents = S.ents
        return [E_OF(u) for u in uids if ents[u]["id"] in want]

    def piece_at(self, S, sq, kinds):
        """The first piece of the kind(s) on a square, or none."""
        if not is_cell(sq):
            return None
        want = _kinds(S, kinds)
        uids = S.vars[KEY]["at"].get(_KEYS.get(sq) or sq_key(sq))
        if uids:
            ents = S.ents
            for u in uids:
                if ents[u]["id"] in want:
                    return E_OF(u)
        return None

    def pieces(self, S, kinds=None) -> list:
        """Every piece on the board (optionally only of some kinds), by age. A chase lists
        them at every step: the list of a kind is kept as pieces come and go, and copied."""
        index, ents = self._index(S), S.ents
        listing = self._listing_of(S)
        known = kinds is None or type(kinds) is str
        out = listing.lists.get(kinds) if known else None
        if out is None:
            if kinds is None:
                uids = [u for lst in index.values() for u in lst]
            else:
                want = _kinds(S, kinds)
                uids = [u for lst in index.values() for u in lst if ents[u]["id"] in want]
            uids.sort()
            out = list(map(E_OF, uids))
            if known:
                listing.lists[kinds] = out
        return out.copy()

    def taken(self, S, want: frozenset) -> set:
        """The names (in the index) of the squares holding a piece of the kinds `want`."""
        index, ents = self._index(S), S.ents
        listing = self._listing_of(S)
        got = listing.taken.get(want)
        if got is None:
            got = listing.taken[want] = set()
            for k, uids in index.items():
                for u in uids:
                    if ents[u]["id"] in want:
                        got.add(k)
                        break
        return got

    def stacked(self, S, kinds) -> list:
        """Squares holding more than one piece of the kind(s) (for invariants)."""
        want = _kinds(S, kinds)
        ents = S.ents
        out = []
        for k, lst in self._index(S).items():
            if sum(1 for u in lst if ents[u]["id"] in want) > 1:
                x, y = k.split(",")
                out.append((int(x), int(y)))
        return sorted(out)
