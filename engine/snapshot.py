"""Encodings of states for the laws, with each unchanged entity record encoded once;
fingerprints of states, and the quick `situation` that says which two could be equal.

`horde check` compares a state with its clone and its saved-and-loaded copy, before and
after every decision, and fingerprints every state it passes through: a dozen encodings
(`state_to_dict`) a step, nearly all of them of records that did not change since the
last one. `RecordMemo` keeps the encoding of a record it met (and, for fingerprints, its
JSON text) and hands it out again while the record is still the same: the same dict
object, the same keys in the same order, the very same value objects. Holding only
values that cannot change in place (strings, numbers, references, tuples of those), such
a record has exactly the content it had, so the answer is exactly `encode(record)` — no
matter how the record came to be unchanged, so a bug that writes a record behind the
engine's copy-on-write is still seen. Records holding a list or a dict are encoded anew
every time.

The encodings handed out are shared between the answers: read them, never change them.
A clone and the state it was copied from share most records; at one moment, a record
both hold has one encoding, so a twin's encoding takes the state's (`to_dict(twin_of=)`).
"""

from __future__ import annotations

import hashlib
import json
from itertools import chain

from engine import codec, rng
from engine.dsl.values import E, Face, P, Z
from engine.flow.nodes import REPEAT

# Records kept at most: past it the memo starts again empty (a check of a long game meets
# every record of every saved-and-loaded copy once; a few thousand are enough for a step).
MEMO_MAX = 20_000

_SELF = frozenset({str, int, bool, float, type(None)})  # what `codec.encode` leaves as it is
_IMMUTABLE = _SELF | {P, E, Z, Face}


class RecordMemo:
    """`memo(record)` is `codec.encode(record)`, reused while the record is unchanged."""

    __slots__ = ("memo", "atomic")

    def __init__(self):
        # id(record) -> [(record, its keys, its values), their ids, encoding, JSON text]
        self.memo: dict[int, list] = {}
        # the building blocks' value types (cells, regions) are immutable values like references
        self.atomic = _IMMUTABLE | frozenset(codec._ENCODERS)

    def _entry(self, rec: dict) -> list | None:
        # the record's keys and values by identity (the memo keeps them alive): one C pass
        hit = self.memo.get(id(rec))
        if hit is not None and hit[1] == tuple(map(id, chain(rec, rec.values()))):
            return hit
        return self._miss(rec)

    def _miss(self, rec: dict) -> list | None:
        enc = self._settled(rec)
        if enc is None:
            return None
        if len(self.memo) >= MEMO_MAX:
            self.memo.clear()
        held = (rec, *rec, *rec.values())
        hit = self.memo[id(rec)] = [held, tuple(map(id, held[1:])), enc, None]
        return hit

    def _settled(self, rec: dict) -> dict | None:
        """`encode(rec)` when every value of `rec` is immutable all the way down, else None.
        (Strings, numbers and None encode as themselves, a tuple of them as `{"$t": [...]}`.)"""
        atomic, encode = self.atomic, codec.encode
        out = {}
        for k, v in rec.items():
            t = type(v)
            if t in _SELF:
                out[k] = v
            elif t is tuple:
                types = set(map(type, v))
                if not atomic.issuperset(types):
                    return None
                out[k] = {"$t": list(v) if _SELF.issuperset(types) else encode(list(v))}
            elif t in atomic:
                out[k] = encode(v)
            else:
                return None
        return out

    def __call__(self, rec: dict):
        hit = self._entry(rec)
        return codec.encode(rec) if hit is None else hit[2]

    def ents(self, ents: dict, known: dict | None = None) -> dict:
        """`{str(uid): encode(record)}`, as `state_to_dict` writes the records (`__call__`
        for each, written out: this is the check's hottest loop). `known`: id(record) ->
        encoding, for the records of a twin (see `to_dict`)."""
        get, chain_, id_, map_, tuple_ = self.memo.get, chain, id, map, tuple
        known_get = known.get if known is not None else {}.get
        out = {}
        for u, rec in ents.items():
            enc = known_get(id_(rec))
            if enc is None:
                hit = get(id_(rec))
                if hit is None or hit[1] != tuple_(map_(id_, chain_(rec, rec.values()))):
                    hit = self._miss(rec)
                enc = codec.encode(rec) if hit is None else hit[2]
            out[str(u)] = enc
        return out

    def text(self, rec: dict) -> bytes:
        """The record's encoding as JSON with sorted keys (what a fingerprint hashes)."""
        hit = self._entry(rec)
        if hit is None:
            return json.dumps(codec.encode(rec), sort_keys=True).encode()
        if hit[3] is None:
            hit[3] = json.dumps(hit[2], sort_keys=True).encode()
        return hit[3]

    def to_dict(self, S, twin_of: tuple | None = None) -> dict:
        """`S.to_dict()`, its records' encodings shared with earlier answers. `twin_of` is
        `(T, T's to_dict())` for a state `T` that `S` was copied from (or that was copied
        from `S`), both unchanged since that answer: a record the two share (the same
        object, at the same moment) has the encoding it has there, with nothing to look at."""
        if twin_of is None:
            return codec.state_to_dict(S, self.ents)
        T, d = twin_of
        known = dict(zip(map(id, T.ents.values()), d["ents"].values(), strict=True))
        return codec.state_to_dict(S, lambda ents: self.ents(ents, known))


_UNFINGERPRINTED = frozenset({"log", "history", "steps", "ents", "stack"})


def fingerprint(S, d: dict | None = None, memo: RecordMemo | None = None) -> bytes:
    """What decides a state's future: the saved state without its log, its history, its
    step count, and the iteration counters of `repeat: {until}` loops that have no `max`.
    `d` is the state's `to_dict()` when it is at hand; `memo` keeps the records' texts."""
    memo = RecordMemo() if memo is None else memo
    d = memo.to_dict(S) if d is None else d
    rest = {k: x for k, x in d.items() if k not in _UNFINGERPRINTED}
    nodes = S.game.nodes
    stack = rest["stack"] = []
    for f in d["stack"]:
        n = nodes[f[0]]
        stack.append([f[0], 0, *f[2:]] if n.kind == REPEAT and n.cond is not None
                     and n.max is None else f)
    h = hashlib.blake2b(json.dumps(rest, sort_keys=True).encode(), digest_size=16)
    ents = S.ents
    for u in sorted(ents):  # each record's JSON is one balanced {...}: the text parses one way
        h.update(b"%d:" % u)
        h.update(memo.text(ents[u]))
    return h.digest()


def situation(S, uncounted: frozenset[int]) -> tuple:
    """Parts of what `fingerprint` covers, quick to read: states with the same fingerprint
    are in the same situation. The turn, the RNG word, the player, the entity count, the
    flow's frames and counters (those the fingerprint leaves out left out), and the turn's
    plain values: within one turn without a roll, they still tell the decisions apart."""
    return (S.turns, S.rng, S.cur, S.next_uid, len(S.ents),
            tuple([(f[0], 0 if f[0] in uncounted else f[1]) for f in S.stack]),
            tuple(sorted([(k, v) for k, v in S.turn.items() if type(v) in _PLAIN])))


_PLAIN = frozenset({int, str, bool})
UNSTEP = pow(rng.STEP, -1, 1 << 64)  # draws = (word - origin) * UNSTEP mod 2**64
