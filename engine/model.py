"""The plain definitions a compiled pack is made of, below everything that uses them.

A `Game` holds these (its cards, zones, player fields and invariants); `engine.pack.build`
makes them. They are data with no behaviour, so they live apart from both: the builder
needs no part of the Game it builds to describe its pieces. `pack_hash` is the pack's
identity, which saves and records are checked against.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import Span

if TYPE_CHECKING:
    from engine.dsl.compiler import Compiled

HASH_VERSION = 2  # how `pack_hash` is computed; records and saves say which one they used


# pack keys that never decide play: scenarios' words for turns, the search bot's
# evaluation (a bot's opinion; records hold the actions it chose, so they replay without it),
# and what learning agents are told of the game (its returns, information and bounds)
NOT_PLAY = ("turn_names", "value", "returns", "agents")


def pack_hash(raw: dict, params: dict, mode: str | None, version: int = HASH_VERSION) -> str:
    """The digest that records and saves are checked against: all that decides play.

    Version 2 covers the merged pack in its own key order (the order of zones, actions and
    dice decides play), the mode, the params and the version. Version 1 sorted the keys, so
    a pack with its zones reordered kept its hash; it stays to check games saved with it.
    Both leave out keys only scenarios read (`NOT_PLAY`), the words an ask or window gives
    players (its `text:`), the `id` of a flow node or policy rule (a name for overlays to
    hook), the `domains:` of actions (what agents' action spaces are made of) and the words
    for players that came after the hash (`_without_words`): they decide nothing, and a game
    recorded before a pack gained them still replays."""
    if any(k in raw for k in NOT_PLAY):
        raw = {k: v for k, v in raw.items() if k not in NOT_PLAY}
    raw = _without_words(_without_hook_ids(_without_point_texts(raw)))
    if any(isinstance(a, dict) and "domains" in a for a in raw.get("actions") or ()):
        raw = {**raw, "actions": [{k: v for k, v in a.items() if k != "domains"}
                                  if isinstance(a, dict) else a for a in raw["actions"]]}
    blob = [raw, params] if version == 1 else [version, mode, raw, params]
    text = json.dumps(blob, sort_keys=version == 1, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# Words for players only, left out of the hash: (section, key) of list items or mappings.
WORDS = {"end": ("why",), "kinds": ("name", "text"), "view": ("goal", "hand")}


def _without_words(raw: dict) -> dict:
    """`raw` without an end rule's `why:`, a kind's `name:`/`text:`, a die face's `text:`
    and the view's `goal:`/`hand:` (what the table shows besides the rules)."""
    if not any(k in raw for k in (*WORDS, "dice")):
        return raw
    raw = dict(raw)
    for section, keys in WORDS.items():
        v = raw.get(section)
        if isinstance(v, list):
            raw[section] = [{k: x for k, x in item.items() if k not in keys}
                            if isinstance(item, dict) else item for item in v]
        elif isinstance(v, dict) and any(k in v for k in keys):
            raw[section] = {k: x for k, x in v.items() if k not in keys}
    dice = raw.get("dice")
    if isinstance(dice, dict):
        raw["dice"] = {
            name: {**die, "faces": [{k: x for k, x in f.items() if k != "text"}
                                    if isinstance(f, dict) else f for f in die["faces"]]}
            if isinstance(die, dict) and isinstance(die.get("faces"), list) else die
            for name, die in dice.items()}
    return raw


def _without_point_texts(node):
    """`node` with the `text:` of every flow node that asks or opens a window taken out
    (every other key in its own order)."""
    if isinstance(node, dict):
        point = "ask" in node or "window" in node
        return {k: _without_point_texts(v) for k, v in node.items() if not (point and k == "text")}
    if isinstance(node, list):
        return [_without_point_texts(v) for v in node]
    return node


def _without_hook_ids(raw: dict) -> dict:
    """`raw` with the `id` of every setup step, flow node (in `flow:`, flow procedures and
    nested flows) and policy rule taken out."""
    raw = dict(raw)
    if isinstance(raw.get("setup"), list):
        raw["setup"] = [_no_id(step) for step in raw["setup"]]
    if isinstance(raw.get("flow"), list):
        raw["flow"] = _flow_without_ids(raw["flow"])
    if isinstance(raw.get("procedures"), dict):
        raw["procedures"] = {
            name: {**p, "flow": _flow_without_ids(p["flow"])}
            if isinstance(p, dict) and isinstance(p.get("flow"), list) else p
            for name, p in raw["procedures"].items()}
    if isinstance(raw.get("policies"), dict):
        raw["policies"] = {
            name: {**p, "rules": [_no_id(r) for r in p["rules"]]}
            if isinstance(p, dict) and isinstance(p.get("rules"), list) else p
            for name, p in raw["policies"].items()}
    return raw


def _no_id(item):
    return {k: v for k, v in item.items() if k != "id"} if isinstance(item, dict) else item


def _flow_without_ids(nodes: list) -> list:
    out = []
    for node in nodes:
        node = _no_id(node)
        if isinstance(node, dict):
            node = {k: _flow_without_ids(v) if k in ("then", "else", "do") and isinstance(v, list)
                    else v for k, v in node.items()}
        out.append(node)
    return out


@dataclass
class CardDef:
    id: str
    count: int
    zone: str | None
    discard: str | None
    tags: frozenset[str]
    fields: dict[str, Any]
    name: str
    text: str
    span: Span | None = None


@dataclass
class ZoneDef:
    name: str
    per_player: bool
    shuffle: bool
    capacity: int | None
    visible: str  # all | owner | none
    refill: str | None


def may_see(zones: dict[str, ZoneDef], key: str, player: int | None) -> bool:
    """Whether `player` (None: a spectator) may look in zone `key` of a state, `zones` the
    game's: `visible: all`, or `owner` and the zone is the player's own (`hand#1` is player
    1's hand). The one rule for views, determinizations and agents' observations."""
    name, _, owner = key.partition("#")
    vis = zones[name].visible
    return vis == "all" or (vis == "owner" and player is not None and owner == str(player))


@dataclass
class FieldDef:
    name: str
    type: str
    init: Any  # a value or a Compiled expression
    min: Any = None
    max: Any = None
    span: Span | None = None
    visible: str = "all"  # or "owner": only the field's player sees it (a private roll)
    die: str | None = None  # a private field's faces are of this die (rolled anew by determinize)


@dataclass
class Invariant:
    name: str
    check: Compiled
    span: Span | None
