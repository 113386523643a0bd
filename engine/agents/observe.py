"""What one seat observes, as a string and as a flat tensor of declared shape.

Agents read a state many times per move, so neither form re-renders the game's log or
history: both are made from the current state as the seat may see it (hidden zones show
only their size, as in `State.view`), at a cost that does not grow with the game's length.
The tensor's layout is declared from the pack alone (`Layout`), so every state of a game
(pack, mode, player count) has the same shape:

- `players`: per seat, each int and bool field (true 1, false 0; others 0; another seat's
  private field, engine.private, 0);
- `zones`: per zone (per seat for per-player zones), its size, then how many of each card
  kind it holds when the seat may look inside (else 0);
- `board`: per cell, how many pieces of each piece kind stand there;
- `values`: each int and bool game and turn variable;
- `seats`: who decides now, one-hot, then who observes, one-hot.
"""

from __future__ import annotations

import weakref

from engine.agents.domains import board_cells, entity_kinds, per_table
from engine.model import may_see
from engine.private import masked_players, private_fields

_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _plain(v) -> bool:
    return type(v) in (int, bool)


class Layout:
    """The blocks of a game's observation tensor for `players` seats."""

    def __init__(self, game, players: int):
        self.players = players
        self.fields = [k for k, f in game.player_fields.items() if f.type in ("int", "bool")]
        self.private = frozenset(name for name, _ in private_fields(game))  # 0 for other seats
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
    return per_table(_LAYOUTS, game, players, Layout)


def can_see(S, key: str | None, player: int | None) -> bool:
    """Whether `player` may look in zone `key` (None: no zone, as a board's pieces)."""
    return key is None or may_see(S.game.zones, key, player)


def entries(S, player: int) -> list[tuple[int, float]]:
    """The seat's observation tensor as (index, value) pairs, its zeros left out: most of
    a board's cells are empty, and a consumer fills a zeroed buffer faster than it copies
    a whole list."""
    lay = layout(S.game, len(S.pl))
    out: list[tuple[int, float]] = []
    at = 0
    nf = len(lay.fields)
    for seat, rec in enumerate(S.pl):
        for k, f in enumerate(lay.fields):
            v = rec.get(f)
            if v and _plain(v) and (seat == player or f not in lay.private):
                out.append((at + k, float(v)))
        at += nf
    nk = len(lay.kinds)
    for key in lay.zone_keys:
        uids = S.zones.get(key, ())
        if uids:
            out.append((at, float(len(uids))))
            if can_see(S, key, player):
                counts: dict[int, int] = {}
                for u in uids:
                    kind = lay.kind_at.get(S.ents[u]["id"])
                    if kind is not None:
                        counts[kind] = counts.get(kind, 0) + 1
                out += [(at + 1 + k, float(c)) for k, c in sorted(counts.items())]
        at += 1 + nk
    if lay.cells:
        npk = len(lay.piece_kinds)
        kinds = {k: i for i, k in enumerate(lay.piece_kinds)}
        board: dict[int, int] = {}
        for e in S.ents.values():
            cell = e.get("cell")
            if cell is not None and e["id"] in kinds:
                c = lay.cell_at.get(cell)
                if c is not None:
                    i = at + c * npk + kinds[e["id"]]
                    board[i] = board.get(i, 0) + 1
        out += [(i, float(n)) for i, n in sorted(board.items())]
        at += len(lay.cells) * npk
    for k, (where, name) in enumerate(lay.values):
        v = (S.vars if where == "vars" else S.turn).get(name)
        if v and _plain(v):
            out.append((at + k, float(v)))
    at += len(lay.values)
    d = S.decision() if not S.over and not S.is_chance_node() else None
    if d is not None:
        out.append((at + d.player, 1.0))
    out.append((at + lay.players + player, 1.0))
    return out


def tensor(S, player: int) -> list[float]:
    """The seat's observation as a flat list of numbers (see the module docstring)."""
    out = [0.0] * layout(S.game, len(S.pl)).size
    for i, v in entries(S, player):
        out[i] = v
    return out


def seen_by(S, player: int | None) -> dict:
    """What the seat sees now: player records, zones (hidden ones by their size), the
    entities it may see, game and turn variables, whose decision it is."""
    zones, hidden = {}, set()
    for key, uids in S.zones.items():
        if can_see(S, key, player):
            zones[key] = uids
        else:
            zones[key] = len(uids)
            hidden.update(uids)
    seen = {u: e for u, e in S.ents.items() if u not in hidden} if hidden else S.ents
    d = S.decision() if not S.over and not S.is_chance_node() else None
    return {"viewer": player, "pl": masked_players(S.game, S.pl, player), "zones": zones,
            "ents": seen, "vars": S.vars, "turn": S.turn, "turns": S.turns, "over": S.over,
            "winners": S.winners, "deciding": None if d is None else (d.player, d.point)}


def observation(S, player: int | None) -> str:
    """`seen_by` as one string, written by `repr` (in C: agents ask at every move)."""
    return repr(seen_by(S, player))
