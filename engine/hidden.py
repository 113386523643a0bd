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
hidden zone keeps its size and its mix of families. See docs/hidden-information.md.
"""

from __future__ import annotations

import random


def hidden_zone_keys(state, seat: int | None) -> list[str]:
    """The zones whose contents `seat` cannot see, sorted."""
    out = []
    for key in state.zones:
        name, _, owner = key.partition("#")
        vis = state.game.zones[name].visible
        if vis == "none" or (vis == "owner" and (seat is None or owner != str(seat))):
            out.append(key)
    return sorted(out)


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


def determinize(state, seat: int, rng: random.Random):
    """A copy of `state` that `seat` cannot tell from it: hidden contents re-dealt, new dice."""
    c = state.clone(record=False)
    groups: dict[str, list[tuple[str, int]]] = {}
    for k in hidden_zone_keys(c, seat):
        for i, uid in enumerate(c.zones[k]):
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
    c.rng = rng.getrandbits(64)
    c._decision = None
    return c
