"""Copies of a state's stored values: what `State.clone` and a new game's deal copy.

A state holds plain lists, dicts and immutable values (engine.dsl.values' references,
ints, strings), so a copy needs to copy only the lists and dicts. Clones are made at every
decision of a search, so the common case — records that hold no list or dict — is one
C-level scan and one C-level copy.
"""

from __future__ import annotations

from itertools import chain


def copy_value(v, memo: dict | None = None):
    """Copy what is mutable in a stored value (lists, dicts); references are immutable.
    Inside a list that holds lists, a list that occurs more than once is copied once and
    its copy shared as the list is (`memo`: id of a list -> its copy), so a copy costs
    what `v` holds in memory, not what it is written out (a list of one list a thousand
    times over is two copies, not a thousand and one), and changing the copy in place
    does what changing `v` would."""
    t = type(v)
    if t is list:
        # most lists and records hold no list or dict: one C-level scan, one C-level copy
        if _flat(map(type, v)):
            return v.copy()
        return _shared(v, {} if memo is None else memo)
    if t is dict:
        c = v.copy()
        if not _flat(map(type, c.values())):  # copy only the lists and dicts again
            if memo is None:
                memo = {}
            for k, x in c.items():
                tx = type(x)
                if tx is list:
                    c[k] = _shared(x, memo)
                elif tx is dict:
                    c[k] = copy_value(x, memo)
        return c
    return v


def _shared(v: list, memo: dict) -> list:
    """`v` copied once per copy of a value (`memo`), whatever number of times it occurs."""
    c = memo.get(id(v))
    if c is None:
        if _flat(map(type, v)):
            c = memo[id(v)] = v.copy()
        else:
            c = memo[id(v)] = [_shared(x, memo) if type(x) is list else
                               copy_value(x, memo) if type(x) is dict else x for x in v]
    return c


def copy_records(recs: dict) -> dict:
    """`copy_value` of a dict of records (entities), with one C-level copy of each record
    when no record holds a list or a dict, as is usual."""
    if _all_hashable(_values(map(dict.values, recs.values()))):
        return dict(zip(recs, map(dict.copy, recs.values()), strict=False))
    return {u: copy_value(e) for u, e in recs.items()}


def copy_zones(zones: dict) -> dict:
    """A copy of a state's zones: each list of uids copied in C."""
    return dict(zip(zones, map(list.copy, zones.values()), strict=False))


def holds_containers(record: dict) -> bool:
    """Whether a record holds a list or a dict, which an effect can change in place (such
    records are copied with their state: see `State.clone`)."""
    return not _flat(map(type, record.values()))


def copy_record_list(recs: list) -> list:
    """`copy_value` of a list of records (players), the same way."""
    if _all_hashable(_values(map(dict.values, recs))):
        return list(map(dict.copy, recs))
    return [copy_value(e) for e in recs]


def _all_hashable(values) -> bool:
    """True when every value is hashable, so none is a list or a dict. Records hold a dozen
    values each; hashing them in C (strings keep their hash) is about twice as fast as
    asking each one's type. Any doubt (an unhashable value) answers False."""
    try:
        return _not_sentinel(values)
    except Exception:
        return False


_flat = frozenset({list, dict}).isdisjoint  # _flat(types): none of them is list or dict
_not_sentinel = frozenset({object()}).isdisjoint  # hashes each value; a list or dict raises
_values = chain.from_iterable
