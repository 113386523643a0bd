"""Values and states as JSON-ready dicts: the writing side of saving, and a player's view.

References (players, entities, zones, die faces) are written as one-key objects
(`{"$p": 2}`); so are the value types building blocks add (a board's cells), through
`register_codec`. `decode` reads them back. This module knows no `State` class (it reads
a state's attributes), so the state can save and show itself with it; reading a whole
save back into a State, with its checks, is `engine.persist`, above both.
"""

from __future__ import annotations

from engine.dsl.values import E, Face, P, Z
from engine.journal import Journal
from engine.model import HASH_VERSION, may_see
from engine.private import masked_players

FORMAT = 1

# Value types added by building blocks: type -> (tag, to_json); tag -> from_json(x, game).
_ENCODERS: dict = {}
_DECODERS: dict = {}


def register_codec(cls: type, tag: str, to_json, from_json) -> None:
    """Save values of `cls` as `{tag: to_json(v)}` and load them back with `from_json`."""
    _ENCODERS[cls] = (tag, to_json)
    _DECODERS[tag] = from_json


def encode(v):
    t = type(v)
    if t is list:
        return [encode(x) for x in v]
    if t is dict:
        return {k: encode(x) for k, x in v.items()}
    if t is P:
        return {"$p": v.i}
    if t is E:
        return {"$e": v.i}
    if t is Z:
        return {"$z": [v.name, v.owner]}
    if t is Face:
        return {"$f": [v.die, v.idx]}
    if t is tuple:
        return {"$t": [encode(x) for x in v]}
    codec = _ENCODERS.get(t)
    if codec is not None:
        return {codec[0]: codec[1](v)}
    return v


def decode(v, game):
    t = type(v)
    if t is list:
        return [decode(x, game) for x in v]
    if t is dict:
        if len(v) == 1:
            (k, x), = v.items()
            if k == "$p":
                return P(int(x))
            if k == "$e":
                return E(int(x))
            if k == "$z":
                return Z(str(x[0]), int(x[1]))
            if k == "$f":
                return game.dice[x[0]][int(x[1])]
            if k == "$t":
                return tuple(decode(y, game) for y in x)
            if k in _DECODERS:
                return _DECODERS[k](x, game)
        return {k: decode(x, game) for k, x in v.items()}
    return v


def state_to_dict(S, encode_ents=None) -> dict:
    """The state as a JSON-ready dict; `encode_ents` writes the entity records, as
    `{str(uid): encode(record)}` (the laws pass one that reuses the encodings of unchanged
    records: `engine.snapshot`)."""
    g = S.game
    return {
        "format": FORMAT, "pack": g.pack_id, "mode": g.mode, "hash": g.hash,
        "hash_version": HASH_VERSION,
        "players": len(S.pl), "seed": S.seed,
        "pl": encode(S.pl),
        "ents": {str(u): encode(e) for u, e in S.ents.items()} if encode_ents is None
        else encode_ents(S.ents),
        "zones": {k: list(v) for k, v in S.zones.items()},
        "vars": encode(S.vars), "turn": encode(S.turn),
        "stack": [[f[0], f[1], encode(f[2]), encode(f[3]), f[4]] for f in S.stack],
        "rng": S.rng, "cur": S.cur, "turns": S.turns, "steps": S.steps,
        "over": S.over, "winners": list(S.winners), "losers": list(S.losers),
        "limit_hit": S.limit_hit, "next_uid": S.next_uid, "forced": encode(S.forced),
        "log": list(S.log), "history": list(S.history),
    }


def state_view(S, player: int | None, d: dict | None = None, logs: bool = True) -> dict:
    """The state as `player` may see it: hidden zones reduced to their sizes, no RNG.

    The seed goes too: with the seed and the public history a player could replay the
    RNG and read the order of every shuffled stack. `d` is the state's `state_to_dict`
    when it is at hand (it is left as it is); `logs=False` leaves the log and the history
    out of the view instead of masking them (the laws look for hidden entities elsewhere)."""
    d = state_to_dict(S) if d is None else dict(d)
    d.pop("rng")
    d.pop("forced")
    d.pop("seed")
    zones: dict[str, object] = {}
    hidden_ents = _hidden(S, player, zones)
    d["zones"] = zones
    d["ents"] = {u: e for u, e in d["ents"].items() if int(u) not in hidden_ents}
    d["pl"] = masked_players(S.game, d["pl"], player)
    if logs:
        d["log"], d["history"] = _masked_acts(d["log"], d["history"], hidden_ents, player)
    else:
        del d["log"], d["history"]
    d["viewer"] = player
    return d


def _hidden(S, player: int | None, shown: dict | None = None) -> set[int]:
    """The entities `player` may not see; `shown` gets each zone as `player` sees it."""
    hidden: set[int] = set()
    zones = S.game.zones
    for key, uids in S.zones.items():
        if may_see(zones, key, player):
            if shown is not None:
                shown[key] = list(uids)
        else:
            if shown is not None:
                shown[key] = {"hidden": len(uids)}
            hidden.update(uids)
    return hidden


def log_seen_by(S, player: int | None) -> list:
    """The game log as `player` may read it (other players' actions on now hidden entities
    shortened, as in `state_view`), without building the whole view."""
    return _masked_acts(S.log, [], _hidden(S, player), player)[0]


def past_seen_by(S, player: int | None) -> tuple[Journal, Journal]:
    """The log and the history as `player` may read them, masked as in `state_view`: what
    a determinization for `player` keeps of the past (`engine.hidden.determinize`)."""
    log, history = _masked_acts(S.log, S.history, _hidden(S, player), player)
    return Journal(log), Journal(history)


def _masked_acts(log: list, history: list, hidden: set[int], player: int | None):
    """The log and history with other players' actions that name an entity now hidden from
    `player` shortened to the action's id (`restack(tile=...)` becomes `restack(hidden)`):
    a card put back face down must not be readable in the record of how it got there.
    Another seat's private rolls (engine.private) lose their faces."""
    out_log, out_hist, k = [], list(history), -1
    for entry in log:
        if entry.get("t") == "act":
            k += 1
            if entry.get("p") != player and hidden.intersection(entry.get("e", ())):
                short = str(entry["a"]).split("(", 1)[0] + "(hidden)"
                entry = {"t": "act", "p": entry["p"], "a": short}
                if k < len(out_hist):
                    out_hist[k] = short
        elif entry.get("t") == "roll" and entry.get("s", player) != player:
            entry = {"t": "roll", "die": entry["die"], "s": entry["s"]}  # a private roll
        out_log.append(entry)
    return out_log, out_hist
