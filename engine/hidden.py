"""Hidden information: what one seat cannot see, and a state consistent with what it can.

A bot must decide as a player at the table would: from `state.view(seat)`. A bot that needs
a whole state to think with (a search bot, a policy evaluating conditions) asks for a
*determinization*: a copy in which every entity the seat cannot see is re-dealt at random
among the hidden places, and the dice are reseeded. Because the re-deal starts from the
hidden contents (and the hidden entity numbers) in a canonical order, two states that differ
only in where the hidden cards lie give the same determinization for the same bot RNG — the
bot cannot tell them apart, and so decides the same way.

Only entities of one *family* trade places: cards that start in the same zone (a deck and
the hands dealt from it), or things a building block makes for one zone (a board's tiles
for its face-down stack). A hidden map tile never lands in a hidden hand of cards, and each
hidden zone keeps its size and its mix of families. Another seat's private rolls
(engine.private) are rolled anew. See docs/hidden-information.md.

An agent's determinization may also keep what the seat remembers where it truly is
(`known`, engine.agents.memory: a tile it peeked at and put back) and the log and history
as the seat may read them (`past`). horde's own bots pass neither: they keep no memory,
never read the past, and masking the log on every determinization cost the search bot
about 10% of its rollouts on the longest bundled game (`bench.search`).

A bot whose rules may not look at what is hidden at all can decide on the state itself,
`sealed` for the time of its decision: every zone the seat cannot see and every record in
one is replaced by a seal that raises `Peeked` when anything touches it, and so are the
dice and the log; the rest is what a determinization would show. It draws from the bot's
RNG exactly what `determinize` draws (a shuffle's draws depend only on its length), after
the rules, so a bot that never breaks the seal decides as it would have on a
determinization, and one that does breaks it with `Peeked` and starts again on a real one
with its RNG untouched. No copy is made: the memos a building block keeps of a state (a
board's index of cells) stay warm, and they may keep what they work out, which the seals
prove was worked out from what everyone sees (a memo must be stored only once complete).
"""

from __future__ import annotations

import random
from collections import Counter
from contextlib import contextmanager
from operator import itemgetter

from engine.codec import past_seen_by
from engine.model import may_see
from engine.private import draw_like_reroll, hidden_sizes, reroll


def hidden_zone_keys(state, seat: int | None) -> list[str]:
    """The zones whose contents `seat` cannot see, sorted."""
    zones = state.game.zones
    return sorted(key for key in state.zones if not may_see(zones, key, seat))


def family(game, entity_id: str) -> str:
    """Which hidden entities may stand in for each other: their home zone (or their id)."""
    card = game.cards.get(entity_id)
    if card is not None and card.zone is not None:
        return "zone:" + card.zone
    for ext in game.extensions.values():
        home = getattr(ext, "home_zone", None)
        zone = home(entity_id) if callable(home) else None
        if zone is not None:
            return "zone:" + zone
    return "id:" + entity_id


def _canon(rec: dict) -> str:
    # keys are unique strings, so sorting the pairs never compares two values
    return repr(sorted((k, v) for k, v in rec.items() if k != "@z"))


class Peeked(BaseException):
    """Something touched a sealed zone or record (`sealed`). A BaseException, so that
    no `except Exception` on the way (a plan's fall-back to the careful way) swallows it."""


class _Seal:
    """What a sealed copy holds in place of a hidden zone's uids or a hidden record."""

    __slots__ = ()

    def _peek(self, *args, **kwargs):
        raise Peeked

    __getitem__ = __setitem__ = __delitem__ = __iter__ = __len__ = __contains__ = _peek
    __bool__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _peek
    __copy__ = __deepcopy__ = __reduce__ = __reduce_ex__ = __repr__ = _peek
    # a private roll's face (engine.private) is a number: reckoning with it peeks too
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __floordiv__ = _peek
    __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __abs__ = __int__ = __index__ = _peek
    __str__ = __format__ = __float__ = __truediv__ = __rtruediv__ = __pow__ = _peek

    def __getattr__(self, name):  # .get, .items, .copy, .append, ...
        if name.startswith("__"):  # what introspection asks (copy, pickle, pytest) is no content
            raise AttributeError(name)
        raise Peeked


SEAL = _Seal()


# what `State.clone(record=False)` starts afresh, as `sealed` shows it (the rest is shared)
_AFRESH = {"rng": SEAL, "_ahead": SEAL, "log": SEAL, "history": SEAL, "_decision": None,
           "fx_steps": 0, "depth": 0, "events": None, "end_turn_requested": False}
_KEPT = ("zones", "steps", *_AFRESH)  # what `sealed` puts back (a pure rule changes no more)
_ID = itemgetter("id")


@contextmanager
def sealed(state, seat: int, families=None, keys=None):
    """`with sealed(state, seat) as draw:` the state as a determinization for `seat` would
    show it, with what that re-deals (and the dice, and the log) sealed: touching it raises
    `Peeked`. `draw(rng)` then draws from the bot's RNG what `determinize` would have drawn.

    Only for rules that change nothing (engine.dsl.facts `pure`): the zones, the step count
    and what a copy starts afresh are put back on the way out, the records in place.
    `families` may stand in for `family` (`Families`), `keys` for `hidden_zone_keys`."""
    fam = families if families is not None else Families(state.game)
    ents = state.ents
    saved = [getattr(state, name) for name in _KEPT]
    zones = dict(state.zones)
    uids: list[int] = []
    for k in hidden_zone_keys(state, seat) if keys is None else keys:
        uids += zones[k]
        zones[k] = SEAL
    records = list(map(ents.__getitem__, uids))  # (a record's "id" never changes: its
    # family can wait until the draws are made, which a policy bot may never need)

    private = hidden_sizes(state.game, state.pl, seat)
    kept = [(q, name, state.pl[q][name]) for q, name, _, n in private if n]

    def draw(rng: random.Random) -> None:
        sizes = Counter(map(fam.__getitem__, map(_ID, records)))
        for f in sorted(sizes):
            rng.shuffle([None] * sizes[f])  # determinize's shuffle of this family, drawn alike
        draw_like_reroll(private, state.game, rng)  # its private rolls
        rng.getrandbits(64)  # and its new dice

    try:
        for q, name, _ in kept:  # another seat's private rolls (engine.private)
            state.pl[q][name] = SEAL
        ents.update(dict.fromkeys(uids, SEAL))  # in place: the memos found by this table
        state.zones = zones
        for name, value in _AFRESH.items():
            setattr(state, name, [] if name == "events" else value)
        yield draw
    finally:
        for q, name, value in kept:
            state.pl[q][name] = value
        ents.update(zip(uids, records, strict=True))
        for name, value in zip(_KEPT, saved, strict=True):
            setattr(state, name, value)


class Families(dict):
    """entity id -> `family(game, id)`, worked out once per id."""

    def __init__(self, game):
        super().__init__()
        self.game = game

    def __missing__(self, entity_id: str) -> str:
        f = self[entity_id] = family(self.game, entity_id)
        return f


def determinize(state, seat: int, rng: random.Random, known=frozenset(), past: bool = False):
    """A copy of `state` that `seat` cannot tell from it: hidden contents re-dealt, new dice.

    `known`: uids of hidden entities the seat remembers (engine.agents.memory), kept where
    they are; only the rest is re-dealt. `past`: the copy keeps the log and the history as
    the seat may read them (`engine.codec.past_seen_by`); without it they start empty, as
    horde's bots want (they never read them, and the masking costs a pass over the log)."""
    c = state.clone(record=False)
    if past:
        c.log, c.history = past_seen_by(state, seat)
    groups: dict[str, list[tuple[str, int]]] = {}
    for k in hidden_zone_keys(c, seat):
        for i, uid in enumerate(c.zones[k]):
            if known and uid in known:
                continue
            groups.setdefault(family(c.game, c.ents[uid]["id"]), []).append((k, i))
    for fam in sorted(groups):
        slots = groups[fam]
        # which uid sits where is hidden too: hand the sorted uids out in slot order
        uids = sorted(c.zones[k][i] for k, i in slots)
        contents = sorted((c.ents[c.zones[k][i]] for k, i in slots), key=_canon)
        rng.shuffle(contents)
        for (k, i), uid, rec in zip(slots, uids, contents, strict=True):
            c.zones[k][i] = uid
            new = dict(rec)
            new["@z"] = k
            c.ents[uid] = new
    sizes = hidden_sizes(c.game, c.pl, seat)
    if sizes:  # another seat's private rolls (engine.private): rolled anew
        reroll(c.game, c.pl, sizes, rng)
    c.rng = rng.getrandbits(64)
    c._decision = None
    return c
