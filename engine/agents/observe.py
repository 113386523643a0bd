"""What one seat observes, as a string: the seat's view of the state now, every entity
told as the seat can tell it, never by its engine uid.

Agents read a state many times per move, so the string is made from the current state as
the seat may see it (hidden zones show only their size, as in `State.view`), with no log
or history, at a cost that does not grow with the game's length. The tensor of the same
view is engine.agents.encode's (`layout`, `entries`, `tensor`, re-exported here).
"""

from __future__ import annotations

from engine.agents.encode import Layout, entries, layout, tensor
from engine.dsl.values import E
from engine.model import may_see
from engine.private import masked_players

__all__ = ["Layout", "can_see", "entries", "layout", "observation", "seen_by", "tensor"]


def can_see(S, key: str | None, player: int | None) -> bool:
    """Whether `player` may look in zone `key` (None: no zone, as a board's pieces)."""
    return key is None or may_see(S.game.zones, key, player)


def _names(S, player: int | None) -> dict[int, tuple]:
    """uid -> how the seat tells that entity: by its zone and place in it when it may look
    in the zone, by the zone alone when it may not, by what it is and where it stands (its
    record) when it is on no zone. Never by its uid: which copy of a card a player drew
    from a shared face-down bag is no one's to know, and the uid says it."""
    names: dict[int, tuple] = {}
    for key, uids in S.zones.items():
        if can_see(S, key, player):
            for i, u in enumerate(uids):
                names[u] = (key, i)
        else:
            for u in uids:
                names[u] = (key,)
    if len(names) < len(S.ents):
        for u, e in S.ents.items():
            if u not in names:
                names[u] = ("@", repr(_record(e, names)))
    return names


_PLAIN = frozenset({int, str, bool, float, type(None)})


def _record(e: dict, names: dict[int, tuple]) -> dict:
    """A record as the seat tells it: itself when it holds plain values only (most do)."""
    if _PLAIN.issuperset(map(type, e.values())):
        return e
    return {k: v if type(v) in _PLAIN else _renamed(v, names) for k, v in e.items()}


def map_refs(v, ref, sets=None):
    """`v` with every entity reference `e` in it replaced by `ref(e)`, through lists,
    tuples, dicts and sets; a set is rebuilt by `sets` (by default as its own type)."""
    t = type(v)
    if t is E:
        return ref(v)
    if t is list:
        return [map_refs(x, ref, sets) for x in v]
    if t is tuple:
        return tuple(map_refs(x, ref, sets) for x in v)
    if t is dict:
        return {map_refs(k, ref, sets): map_refs(x, ref, sets) for k, x in v.items()}
    if t is set or t is frozenset:
        items = (map_refs(x, ref, sets) for x in v)
        return sets(items) if sets else t(items)
    return v


def _renamed(v, names: dict[int, tuple]):
    """`v` with every entity reference written as the seat tells it (`_names`): an entity
    gone, or on no zone while those are named, is `("?",)`; a set is its sorted texts."""
    return map_refs(v, lambda e: names.get(e.i, ("?",)),
                    lambda items: sorted(repr(x) for x in items))


def seen_by(S, player: int | None) -> dict:
    """What the seat sees now, every entity told as the seat tells it (`_names`), never by
    its uid: player records; each zone, as the records it holds in order when the seat may
    look in it, else its size; the entities on no zone (a board's pieces), sorted; game
    variables (not the engine's own, `@`-named: derived indexes) and turn variables; whose
    decision it is."""
    names = _names(S, player)
    zones: dict[str, object] = {}
    for key, uids in S.zones.items():
        if can_see(S, key, player):
            ents = S.ents
            zones[key] = [_record(ents[u], names) for u in uids]
        else:
            zones[key] = len(uids)
    loose = sorted(n[1] for n in names.values() if n[0] == "@")
    d = S.decision() if not S.over and not S.is_chance_node() else None
    pl = [_record(r, names) for r in masked_players(S.game, S.pl, player)]
    return {"viewer": player, "pl": pl, "zones": zones, "loose": loose,
            "vars": _renamed({k: v for k, v in S.vars.items() if not k.startswith("@")}, names),
            "turn": _renamed(S.turn, names), "turns": S.turns, "over": S.over,
            "winners": S.winners, "deciding": None if d is None else (d.player, d.point)}


def observation(S, player: int | None) -> str:
    """`seen_by` as one string, written by `repr` (in C: agents ask at every move)."""
    return repr(seen_by(S, player))
