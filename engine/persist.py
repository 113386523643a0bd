"""States as JSON-ready dicts: saving, loading (validated), and per-player views.

References (players, entities, zones, die faces) are written as one-key objects
(`{"$p": 2}`); so are the value types building blocks add (a board's cells), through
`register_codec`. Loading checks the shape of every
part and that the save belongs to this exact pack (by hash), so a corrupt or foreign save
is one clear `StateError`, never a half-built state. `hash_version` says how the hash was
computed (see `engine.model.pack_hash`); a save without it has a version 1 hash.
"""

from __future__ import annotations

from engine.dsl.values import E, Face, P, Z
from engine.errors import StateError
from engine.journal import Journal
from engine.model import HASH_VERSION, pack_hash

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


def state_to_dict(S) -> dict:
    g = S.game
    return {
        "format": FORMAT, "pack": g.pack_id, "mode": g.mode, "hash": g.hash,
        "hash_version": HASH_VERSION,
        "players": len(S.pl), "seed": S.seed,
        "pl": encode(S.pl),
        "ents": {str(u): encode(e) for u, e in S.ents.items()},
        "zones": {k: list(v) for k, v in S.zones.items()},
        "vars": encode(S.vars), "turn": encode(S.turn),
        "stack": [[f[0], f[1], encode(f[2]), encode(f[3]), f[4]] for f in S.stack],
        "rng": S.rng, "cur": S.cur, "turns": S.turns, "steps": S.steps,
        "over": S.over, "winners": list(S.winners), "losers": list(S.losers),
        "limit_hit": S.limit_hit, "next_uid": S.next_uid, "forced": encode(S.forced),
        "log": list(S.log), "history": list(S.history),
    }


_KEYS = {"pl": list, "ents": dict, "zones": dict, "vars": dict, "turn": dict, "stack": list,
         "rng": int, "cur": int, "turns": int, "steps": int, "over": bool, "winners": list,
         "losers": list, "next_uid": int, "log": list, "players": int, "seed": int}


def state_from_dict(game, data) -> object:
    from engine.state import State, holds_containers

    if not isinstance(data, dict):
        raise StateError("corrupt save: expected a JSON object")
    if data.get("format") != FORMAT:
        raise StateError(f"corrupt save: unknown format {data.get('format')!r} (expected {FORMAT})")
    if data.get("pack") != game.pack_id or data.get("mode") != game.mode:
        raise StateError(f"this save is for pack {data.get('pack')!r} mode {data.get('mode')!r}, "
                         f"not {game.pack_id!r} mode {game.mode!r}")
    if data.get("hash") != _pack_hash(game, data.get("hash_version", 1)):
        raise StateError("this save was made with a different version of the pack's rules",
                         hint="replay it with the pack it was made with")
    for key, typ in _KEYS.items():
        if not isinstance(data.get(key), typ) or (typ is int and isinstance(data.get(key), bool)):
            raise StateError(f"corrupt save: '{key}' is missing or not a {typ.__name__}")
    try:
        S = State(game, data["players"], data["seed"])
        S.pl = decode(data["pl"], game)
        S.ents = {int(u): decode(e, game) for u, e in data["ents"].items()}
        S.own = set(S.ents)
        S.deep = {u for u, e in S.ents.items() if holds_containers(e)}
        S.zones = {k: [int(u) for u in v] for k, v in data["zones"].items()}
        S.vars = decode(data["vars"], game)
        S.turn = decode(data["turn"], game)
        S.stack = [[int(f[0]), int(f[1]), decode(f[2], game), decode(f[3], game), bool(f[4])]
                   for f in data["stack"]]
        for key in ("rng", "cur", "turns", "steps", "over", "next_uid", "limit_hit"):
            setattr(S, key, data.get(key, False) if key == "limit_hit" else data[key])
        S.winners = [int(x) for x in data["winners"]]
        S.losers = [int(x) for x in data["losers"]]
        S.forced = decode(data.get("forced", []), game)
        S.log = Journal(data["log"])
        S.history = Journal(str(x) for x in data.get("history", []))
        _check(S, game)
        S.decision()
    except StateError:
        raise
    except Exception as exc:  # any malformed part: one clear error, no half state escapes
        raise StateError(f"corrupt save: {type(exc).__name__}: {exc}") from None
    return S


def _pack_hash(game, version) -> str | None:
    """The game's hash computed the way a save says it was; None for an unknown way."""
    if version == HASH_VERSION:
        return game.hash
    if version == 1:
        return pack_hash(game.raw, game.params, game.mode, 1)
    return None


def _check(S, game) -> None:
    if len(S.pl) != len(S.players):
        raise StateError("corrupt save: player records do not match the player count")
    for f in S.stack:
        if not 0 <= f[0] < len(game.nodes):
            raise StateError(f"corrupt save: flow frame points at node {f[0]}, which does not exist")
    for key, uids in S.zones.items():
        if key.partition("#")[0] not in game.zones:
            raise StateError(f"corrupt save: unknown zone {key!r}")
        for u in uids:
            if u not in S.ents or S.ents[u].get("@z") != key:
                raise StateError(f"corrupt save: entity {u} is not where zone {key!r} says")
    for u, e in S.ents.items():
        if not isinstance(e, dict) or "id" not in e:
            raise StateError(f"corrupt save: entity {u} has no id")
    if not 0 <= S.cur < len(S.pl):
        raise StateError("corrupt save: current player out of range")


def state_view(S, player: int | None) -> dict:
    """The state as `player` may see it: hidden zones reduced to their sizes, no RNG.

    The seed goes too: with the seed and the public history a player could replay the
    RNG and read the order of every shuffled stack."""
    d = state_to_dict(S)
    d.pop("rng")
    d.pop("forced")
    d.pop("seed")
    hidden_ents: set[int] = set()
    zones = {}
    for key, uids in S.zones.items():
        name, _, owner = key.partition("#")
        vis = S.game.zones[name].visible
        shown = vis == "all" or (vis == "owner" and player is not None and owner == str(player))
        if shown:
            zones[key] = list(uids)
        else:
            zones[key] = {"hidden": len(uids)}
            hidden_ents.update(uids)
    d["zones"] = zones
    d["ents"] = {u: e for u, e in d["ents"].items() if int(u) not in hidden_ents}
    d["log"], d["history"] = _masked_acts(d["log"], d["history"], hidden_ents, player)
    d["viewer"] = player
    return d


def _masked_acts(log: list, history: list, hidden: set[int], player: int | None):
    """The log and history with other players' actions that name an entity now hidden from
    `player` shortened to the action's id (`restack(tile=...)` becomes `restack(hidden)`):
    a card put back face down must not be readable in the record of how it got there."""
    out_log, out_hist, k = [], list(history), -1
    for entry in log:
        if entry.get("t") == "act":
            k += 1
            if entry.get("p") != player and hidden.intersection(entry.get("e", ())):
                short = str(entry["a"]).split("(", 1)[0] + "(hidden)"
                entry = {"t": "act", "p": entry["p"], "a": short}
                if k < len(out_hist):
                    out_hist[k] = short
        out_log.append(entry)
    return out_log, out_hist
