"""Copies of a state's stored values: what `State.clone` and a new game's deal copy.

A state holds plain lists, dicts and immutable values (engine.dsl.values' references,
ints, strings), so a copy needs to copy only the lists and dicts. Clones are made at every
decision of a search, so the common case — records that hold no list or dict — is one
C-level scan and one C-level copy.
"""

from __future__ import annotations

from itertools import chain


def copy_value(v):
    """Copy what is mutable in a stored value (lists, dicts); references are immutable."""
    t = type(v)
    if t is list:
        # most lists and records hold no list or dict: one C-level scan, one C-level copy
        return v.copy() if _flat(map(type, v)) else [copy_value(x) for x in v]
    if t is dict:
        c = v.copy()
        if not _flat(map(type, c.values())):  # copy only the lists and dicts again
            for k, x in c.items():
                tx = type(x)
                if tx is list or tx is dict:
                    c[k] = copy_value(x)
        return c
    return v


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
