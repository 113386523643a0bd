"""What one seat observes, as a string and as a flat tensor of declared shape.

Agents read a state many times per move, so neither form re-renders the game's log or
history: both are made from the current state as the seat may see it (hidden zones show
only their size, as in `State.view`), at a cost that does not grow with the game's length.
The tensor's layout is declared from the pack alone (`Layout`), so every state of a game
(pack, mode, player count) has the same shape:

- `players`: per seat, each int and bool field (true 1, false 0; others 0);
- `zones`: per zone (per seat for per-player zones), its size, then how many of each card
  kind it holds when the seat may look inside (else 0);
- `board`: per cell, how many pieces of each piece kind stand there;
- `values`: each int and bool game and turn variable;
- `seats`: who decides now, one-hot, then who observes, one-hot.
"""

from __future__ import annotations

import json
import weakref

from engine.agents.domains import board_cells, entity_kinds
from engine.codec import encode

_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _plain(v) -> bool:
    return type(v) in (int, bool)


class Layout:
    """The blocks of a game's observation tensor for `players` seats."""

    def __init__(self, game, players: int):
        self.players = players
        self.fields = [k for k, f in game.player_fields.items() if f.type in ("int", "bool")]
        self.zone_keys = []
        for name, z in game.zones.items():
            self.zone_keys += [f"{name}#{i}" for i in range(players)] if z.per_player else [name]
        self.kinds = entity_kinds(game)
        self.kind_at = {k: i for i, k in enumerate(self.kinds)}
        self.piece_kinds = sorted(game.kinds)
        self.cells = board_cells(game) if self.piece_kinds else []
        self.cell_at = {c: i for i, c in enumerate(self.cells)}
        self.values = [("vars", k) for k, v in game.vars_init.items() if _plain(v)] + \
                      [("turn", k) for k, v in game.turn_init.items() if _plain(v)]
        self.blocks = [("players", players * len(self.fields)),
                       ("zones", len(self.zone_keys) * (1 + len(self.kinds))),
                       ("board", len(self.cells) * len(self.piece_kinds)),
                       ("values", len(self.values)),
                       ("seats", 2 * players)]
        self.size = sum(n for _, n in self.blocks)

    def shape(self) -> list[int]:
        return [self.size]


def layout(game, players: int) -> Layout:
    per_game = _LAYOUTS.get(game)
    if per_game is None:
        per_game = _LAYOUTS[game] = {}
    got = per_game.get(players)
    if got is None:
        got = per_game[players] = Layout(game, players)
    return got


def _can_see(S, key: str, player: int | None) -> bool:
    name, _, owner = key.partition("#")
    vis = S.game.zones[name].visible
    return vis == "all" or (vis == "owner" and player is not None and owner == str(player))


def tensor(S, player: int) -> list[float]:
    """The seat's observation as a flat list of numbers (see the module docstring)."""
    lay = layout(S.game, len(S.pl))
    out: list[float] = []
    for rec in S.pl:
        out += [float(rec.get(f) or 0) if _plain(rec.get(f)) else 0.0 for f in lay.fields]
    nk = len(lay.kinds)
    for key in lay.zone_keys:
        uids = S.zones.get(key, ())
        counts = [0.0] * nk
        if _can_see(S, key, player):
            for u in uids:
                k = lay.kind_at.get(S.ents[u]["id"])
                if k is not None:
                    counts[k] += 1
        out.append(float(len(uids)))
        out += counts
    if lay.cells:
        npk = len(lay.piece_kinds)
        board = [0.0] * (len(lay.cells) * npk)
        kinds = {k: i for i, k in enumerate(lay.piece_kinds)}
        for e in S.ents.values():
            cell = e.get("cell")
            if cell is not None and e["id"] in kinds:
                c = lay.cell_at.get(cell)
                if c is not None:
                    board[c * npk + kinds[e["id"]]] += 1
        out += board
    for where, k in lay.values:
        v = (S.vars if where == "vars" else S.turn).get(k)
        out.append(float(v) if _plain(v) else 0.0)
    seats = [0.0] * (2 * lay.players)
    d = S.decision() if not S.over and not S.is_chance_node() else None
    if d is not None:
        seats[d.player] = 1.0
    seats[lay.players + player] = 1.0
    out += seats
    return out


def observation(S, player: int | None) -> str:
    """What the seat sees now, as one string: player records, zones (hidden ones by size),
    the entities it may see, game and turn variables, whose decision it is."""
    zones, hidden = {}, set()
    for key, uids in S.zones.items():
        if _can_see(S, key, player):
            zones[key] = uids
        else:
            zones[key] = len(uids)
            hidden.update(uids)
    seen = {u: e for u, e in S.ents.items() if u not in hidden}
    d = S.decision() if not S.over and not S.is_chance_node() else None
    return json.dumps({"viewer": player, "pl": encode(S.pl), "zones": zones,
                       "ents": {str(u): encode(e) for u, e in seen.items()},
                       "vars": encode(S.vars), "turn": encode(S.turn), "turns": S.turns,
                       "over": S.over, "winners": S.winners,
                       "deciding": None if d is None else [d.player, d.point]},
                      sort_keys=True, separators=(",", ":"), default=str)
