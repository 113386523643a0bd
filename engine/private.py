"""Private player fields: what only the field's own player sees, as a die rolled under a cup.

A player field declared `visible: owner` holds faces of its `die:` (one face or a list),
rolled in private with `roll(die, seen_by=p)`: the roll's log entries name the seat that
saw them (`"s"`). Every view of the state for another seat shows the field as
`{"hidden": n}` (n faces, 1 for a single face; none stays none): `State.view`,
the log as the seat reads it (the faces of the roll left out), the agents' observations
and tensors. A determinization for another seat rolls the faces anew, from the bot's RNG
(engine.hidden), as it re-deals a hidden card: a world the seat cannot tell from the real one.
"""

from __future__ import annotations

import random
from typing import Any


def private_fields(game) -> list[tuple[str, str | None]]:
    """(name, die) of each player field only its player sees, in declared order."""
    return [(name, f.die) for name, f in game.player_fields.items() if f.visible == "owner"]


def hidden_mark(value: Any) -> Any:
    """What another seat sees of a private value: how many faces it holds."""
    if value is None:
        return None
    return {"hidden": len(value) if isinstance(value, list) else 1}


def masked_players(game, pl: list[dict], viewer: int | None) -> list[dict]:
    """The player records `pl` (plain or encoded) as `viewer` sees them: every other seat's
    private fields replaced by `hidden_mark`. `pl` itself when the pack has none."""
    fields = private_fields(game)
    if not fields:
        return pl
    out = []
    for seat, rec in enumerate(pl):
        if seat != viewer:
            rec = dict(rec)
            for name, _ in fields:
                if name in rec:
                    rec[name] = hidden_mark(rec[name])
        out.append(rec)
    return out


def hidden_sizes(game, pl: list[dict], seat: int | None) -> list[tuple[int, str, str | None, int]]:
    """(seat, field, die, faces) of each private value `seat` cannot see, in a fixed order:
    what a determinization for `seat` rolls anew (faces: 0 for none, -1 for one face)."""
    out = []
    for q, rec in enumerate(pl):
        if q == seat:
            continue
        for name, die in private_fields(game):
            v = rec.get(name)
            out.append((q, name, die, 0 if v is None else len(v) if isinstance(v, list) else -1))
    return out


def reroll(game, pl: list[dict], sizes, rng: random.Random) -> None:
    """Roll anew, from `rng`, each private value of `sizes` (`hidden_sizes`) in `pl`."""
    for q, name, die, n in sizes:
        faces = game.dice.get(die) if die is not None else None
        if not faces or n == 0:
            continue
        k = len(faces)
        if n < 0:
            pl[q][name] = faces[rng.randrange(k)]
        else:
            pl[q][name] = [faces[rng.randrange(k)] for _ in range(n)]


def draw_like_reroll(sizes, game, rng: random.Random) -> None:
    """Draw from `rng` exactly what `reroll` would draw for `sizes` (engine.hidden.sealed)."""
    for _, _, die, n in sizes:
        faces = game.dice.get(die) if die is not None else None
        if not faces or n == 0:
            continue
        for _ in range(1 if n < 0 else n):
            rng.randrange(len(faces))
