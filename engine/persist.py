"""Loading saved states (written by `engine.codec`), validated.

Loading checks the shape of every part and that the save belongs to this exact pack (by
hash), so a corrupt or foreign save is one clear `StateError`, never a half-built state.
`hash_version` says how the hash was computed (see `engine.model.pack_hash`); a save
without it has a version 1 hash.
"""

from __future__ import annotations

from engine.codec import FORMAT, decode
from engine.errors import StateError
from engine.journal import Journal
from engine.model import HASH_VERSION, pack_hash
from engine.state import State

_KEYS = {"pl": list, "ents": dict, "zones": dict, "vars": dict, "turn": dict, "stack": list,
         "rng": int, "cur": int, "turns": int, "steps": int, "over": bool, "winners": list,
         "losers": list, "next_uid": int, "log": list, "players": int, "seed": int}


def state_from_dict(game, data) -> State:
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
        S.own_all()
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


