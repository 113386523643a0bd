"""A twin of a state that a seat cannot tell from it: the `view` law's test of observations.

Entity uids are the engine's names for things, seen by no player: which copy of a red
tile a player drew from a shared face-down bag is no one's to know. So renaming every
entity (a permutation of the uids, applied to every reference) and shuffling the zones a
seat may not look in must leave that seat's observation unchanged — its string, its
tensor, and so its information state, which chains observations and action ids (action
ids name cards by kind, engine.agents.actions). `twin` makes such a copy (`shuffled`
puts its zones in another order) for looking at only: it is never played (the engine's
own indexes, `@`-named game variables, keep the old uids).
"""

from __future__ import annotations

from engine.agents.observe import map_refs
from engine.dsl.values import E


def derangement(uids: list[int], rng) -> dict[int, int]:
    """A renaming that moves every uid: one cycle through them in a random order."""
    order = list(uids)
    rng.shuffle(order)
    return dict(zip(order, order[1:] + order[:1], strict=True))


def _renamed(v, perm: dict[int, int]):
    return map_refs(v, lambda e: E(perm.get(e.i, e.i)))


_PLAIN = frozenset({int, str, bool, float, type(None)})


def _record(e: dict, perm: dict[int, int]) -> dict:
    return {k: v if type(v) in _PLAIN else _renamed(v, perm) for k, v in e.items()}


def twin(S, perm: dict[int, int]):
    """A copy of `S` with every entity renamed by `perm`. Its decision is `S`'s (worked
    out before copying)."""
    if not S.over and not S.is_chance_node():
        S.decision()
    c = S.clone(record=False)
    c.ents = {perm.get(u, u): _record(e, perm) for u, e in sorted(
        S.ents.items(), key=lambda ue: perm.get(ue[0], ue[0]))}
    c.own_all()  # the renamed records are the copy's alone
    c.zones = {k: [perm.get(u, u) for u in uids] for k, uids in S.zones.items()}
    c.pl = [_record(r, perm) for r in S.pl]
    c.vars = {k: v if k.startswith("@") else _renamed(v, perm) for k, v in S.vars.items()}
    c.turn = _renamed(S.turn, perm)
    return c


def shuffled(T, zones: dict[str, list[int]], keys, rng) -> None:
    """`T` (a `twin`) given `zones` with those of `keys` in a random order by `rng`."""
    T.zones = {k: rng.sample(uids, len(uids)) if k in keys else uids for k, uids in zones.items()}
