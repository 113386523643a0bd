"""A fixed, compact integer id for every action a game of one pack, mode and table size can offer.

Learning libraries need a set number of distinct actions and an id for each; horde's labels
are made at play time. Each action gets a block of ids, one per combination of its
parameters' declared domains (engine.agents.domains), laid out in mixed radix: action
`pass` is id 0 when the pack lets a player pass (a window, an ask with `pass: true`), then
the pack's actions sorted by id. Ids depend on nothing but the pack,
mode and player count, so they hold across games, saves and versions of the engine that
keep the pack.

Copies of a card that the rules cannot tell apart (same kind, same zone, same fields) share
their kind's id, and playing it plays the first of them, in the decision's order; copies
that differ are told apart by their labels, and an id of two actions that are not
interchangeable is a clear error naming both (give the parameter a finer domain).
"""

from __future__ import annotations

import weakref

from engine.agents.domains import Dom, action_domains, key_of, key_text, per_table
from engine.errors import StateError

_SPACES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class ActionSpace:
    """The action ids of `game` for `players` players."""

    def __init__(self, game, players: int):
        self.game = game
        self.players = players
        doms = action_domains(game, players)
        self.blocks: list[tuple[str, list[str], list[Dom], list[int]]] = []  # id, names, domains, strides
        self.offset: dict[str, int] = {}
        self.index: dict[str, list[dict]] = {}  # action -> per parameter, key -> its index
        n = 0
        if can_pass(game):
            self.offset["pass"] = 0
            self.blocks.append(("pass", [], [], []))
            n = 1
        params = {a.id: [name for name, _ in a.params] for a in game.actions}
        for aid in sorted(doms):
            ds = doms[aid]
            strides, size = [], 1
            for d in reversed(ds):
                strides.append(size)
                size *= len(d.keys)
            strides.reverse()
            self.offset[aid] = n
            self.blocks.append((aid, params[aid], ds, strides))
            self.index[aid] = [{k: i for i, k in enumerate(d.keys)} for d in ds]
            n += size
        self.size = n
        self._starts = [self.offset[b[0]] for b in self.blocks]

    @property
    def num_distinct_actions(self) -> int:
        return self.size

    def id_of(self, S, action: str, args: dict) -> int:
        """The id of action `action` (`pass` for passing) with arguments `args` in state `S`."""
        try:
            block = self.blocks[self._starts.index(self.offset[action])]
        except KeyError:
            raise StateError(f"'{action}' is not an action of {self.game.title}") from None
        _, names, doms, strides = block
        out = self.offset[action]
        index = self.index.get(action, [])
        for name, dom, stride, keys in zip(names, doms, strides, index, strict=True):
            v = args[name]
            key = key_of(S, v, args[dom.rel] if dom.rel is not None else None)
            k = keys.get(key)
            if k is None:
                raise StateError(f"action '{action}': {name}={S.describe(v)} is outside the domain "
                                 f"declared for it ({len(dom.keys):,} values)",
                                 hint=f"widen `domains: {{{name}: ...}}` of action '{action}' "
                                      "in the pack")
            out += k * stride
        return out

    def label(self, i: int) -> str:
        """The action id `i` stands for, written as a label is (`move(to=3,4)`)."""
        if type(i) is not int or not 0 <= i < self.size:
            raise StateError(f"{i!r} is not an action id of {self.game.title} "
                             f"(0 to {self.size - 1:,})")
        b = max(k for k, start in enumerate(self._starts) if start <= i)
        aid, names, doms, strides = self.blocks[b]
        if not names:
            return aid
        rest = i - self._starts[b]
        parts = []
        for name, dom, stride in zip(names, doms, strides, strict=True):
            k, rest = divmod(rest, stride)
            parts.append(f"{name}={key_text(self.game, dom.keys[k])}")
        return f"{aid}({', '.join(parts)})"

    def legal(self, S) -> dict[int, str]:
        """id -> label of every legal action of `S`, ids ascending: interchangeable copies
        share one id, the first one's label."""
        d = S.decision()
        if d is None:
            return {}
        got = getattr(d, "ids", None)
        if got is not None and got[0] is self:
            return got[1]
        out: dict[int, str] = {}
        for lab in d.actions:
            a, args = d.bindings[lab]
            aid = "pass" if a is None else a.id
            i = self.id_of(S, aid, args)
            first = out.get(i)
            if first is None:
                out[i] = lab
            elif not _interchangeable(S, d.bindings[first][1], args):
                raise StateError(f"actions '{first}' and '{lab}' have the same id {i} but differ",
                                 hint=f"give action '{aid}' a domain that tells them apart")
        out = dict(sorted(out.items()))
        d.ids = (self, out)  # a decision is made once per state and never changed
        return out


def _interchangeable(S, a: dict, b: dict) -> bool:
    """Whether two bindings of one action differ only by copies of a card that nothing tells
    apart: the same kind, in the same zone, with the same fields."""
    for name, v in a.items():
        w = b[name]
        if v == w:
            continue
        ea, eb = S.ents.get(getattr(v, "i", None)), S.ents.get(getattr(w, "i", None))
        if ea is None or eb is None or ea != eb:
            return False
    return True


def can_pass(game) -> bool:
    """Whether a player of `game` may ever pass: its flow has a window or an ask with
    `pass: true` (a procedure's sub-flow too)."""
    from engine.flow.nodes import ASK, WINDOW
    return any(n.kind == WINDOW or (n.kind == ASK and n.can_pass) for n in game.nodes)


def space(game, players: int) -> ActionSpace:
    """The action space of `game` for `players` players, made once."""
    return per_table(_SPACES, game, players, ActionSpace)


def legal_action_ids(S) -> list[int]:
    return list(space(S.game, len(S.pl)).legal(S))


def label_of_id(S, i: int) -> str:
    """The label of the legal action with id `i` in state `S`."""
    sp = space(S.game, len(S.pl))
    got = sp.legal(S).get(i) if type(i) is int else None
    if got is None:
        raise StateError(f"action id {i!r} ({sp.label(i) if type(i) is int and 0 <= i < sp.size else '?'}) "
                         "is not legal now", hint=f"legal ids: {list(sp.legal(S))[:12]}")
    return got
