"""What one seat observes as a flat tensor of declared shape: every value the seat can see.

Agents read a state many times per move, so the tensor is made from the current state as
the seat may see it (hidden zones show only their size, as in `State.view`), at a cost that
does not grow with the game's length. Its layout is declared from the pack alone
(`Layout`), so every state of a game (pack, mode, player count) has the same shape:

- `players`: per seat, each int and bool field (true 1, false 0), each text field one-hot
  over the texts the pack gives it (engine.agents.valuekeys);
- `zones`: per zone (per seat for per-player zones), its size, then how many of each card
  kind it holds when the seat may look inside (else 0);
- `board`: per cell, how many pieces of each piece kind stand there;
- `values`: each game and turn variable: an int or bool as it is, a text one-hot over its
  texts, a list of die faces one-hot per place (as many places as it may hold);
- `game`: the turn count, whether the game is over, who won (per seat);
- `seats`: who decides now (one-hot), who observes (one-hot), at which decision point.

A variable holding anything else (an entity, a player, a list of cells) has no slot:
`Layout.left_out` names them, and docs/agents.md shows each bundled pack's.
"""

from __future__ import annotations

import weakref

from engine.agents.domains import board_cells, entity_kinds, per_table
from engine.agents.valuekeys import Faces, assignments, texts
from engine.model import may_see
from engine.private import private_fields

_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLAIN = (int, bool)


class Slot:
    """Where one value goes: `at` (from its block's start) and how it is written: 'n' a
    number, 'one' one-hot over `keys`, 'faces' one-hot over `keys` in each of `places`."""

    __slots__ = ("name", "kind", "at", "keys", "places", "size")

    def __init__(self, name: str, kind: str, at: int, keys: tuple = (), places: int = 1):
        self.name, self.kind, self.at, self.places = name, kind, at, places
        self.size = 1 if kind == "n" else len(keys) * places
        self.keys: dict = {k: i for i, k in enumerate(keys)}

    def put(self, v, at: int, out: list) -> None:
        if self.kind == "n":
            if v and type(v) in _PLAIN:
                out.append((at + self.at, float(v)))
        elif self.kind == "one":
            k = self.keys.get(v)
            if k is not None:
                out.append((at + self.at + k, 1.0))
        elif type(v) is list:
            n = len(self.keys)
            for place, face in enumerate(v[:self.places]):
                k = self.keys.get(repr(face))
                if k is not None:
                    out.append((at + self.at + place * n + k, 1.0))


def _slots(items, known) -> tuple[list[Slot], list[str], int]:
    """Slots for (name, initial value, key) items; `known(key, init)` -> a Slot's
    (kind, keys, places) or None. Returns (slots, names left out, size)."""
    slots, left, at = [], [], 0
    for name, init, key in items:
        got = ("n", (), 1) if type(init) in _PLAIN else known(key, init)
        if got is None:
            left.append(name)
            continue
        s = Slot(name, got[0], at, got[1], got[2])
        slots.append(s)
        at += s.size
    return slots, left, at


class Layout:
    """The blocks of a game's observation tensor for `players` seats."""

    def __init__(self, game, players: int):
        self.players = players
        assigned = assignments(game)
        faces = Faces(game, assigned)

        def known(key, init):  # a slot's (kind, keys, places), or None
            if type(init) is str:
                t = texts(init, assigned.get(key, []))
                return None if t is None else ("one", t, 1)
            got = faces.of(key) if key[0] != "field" else None
            return None if got is None or not got[0] else ("faces", got[1], got[0])

        fields = [(k, 0 if f.type in ("int", "bool") else f.init, ("field", k))
                  for k, f in game.player_fields.items()]
        self.fields, _, self.per_seat = _slots(fields, known)
        self.private = frozenset(name for name, _ in private_fields(game))  # 0 for other seats
        self.left_out = [f"player.{k}" for k in game.player_fields
                         if k not in {s.name for s in self.fields}]
        self.zone_keys = []
        for name, z in game.zones.items():
            self.zone_keys += [f"{name}#{i}" for i in range(players)] if z.per_player else [name]
        self.kinds = entity_kinds(game)
        self.kind_at = {k: i for i, k in enumerate(self.kinds)}
        self.piece_kinds = sorted(game.kinds)
        self.cells = board_cells(game) if self.piece_kinds else []
        self.cell_at = {c: i for i, c in enumerate(self.cells)}
        items = [(f"game.{k}", v, ("game", k)) for k, v in game.vars_init.items()
                 if not k.startswith("@")]
        items += [(f"turn.{k}", v, ("turn", k)) for k, v in game.turn_init.items()]
        self.values, left_v, nv = _slots(items, known)
        self.left_out += left_v
        self.points = sorted({n.point for n in game.nodes if n.point})
        self.point_at = {p: i for i, p in enumerate(self.points)}
        self.blocks = [("players", players * self.per_seat),
                       ("zones", len(self.zone_keys) * (1 + len(self.kinds))),
                       ("board", len(self.cells) * len(self.piece_kinds)),
                       ("values", nv),
                       ("game", 2 + players),
                       ("seats", 2 * players + len(self.points))]
        self.size = sum(n for _, n in self.blocks)

    def shape(self) -> list[int]:
        return [self.size]


def layout(game, players: int) -> Layout:
    return per_table(_LAYOUTS, game, players, Layout)


def entries(S, player: int) -> list[tuple[int, float]]:
    """The seat's observation tensor as (index, value) pairs, its zeros left out: most of
    a board's cells are empty, and a consumer fills a zeroed buffer faster than it copies
    a whole list."""
    lay = layout(S.game, len(S.pl))
    out: list[tuple[int, float]] = []
    at = 0
    for seat, rec in enumerate(S.pl):
        for s in lay.fields:
            if seat == player or s.name not in lay.private:  # another seat's private field: 0
                s.put(rec.get(s.name), at, out)
        at += lay.per_seat
    nk = len(lay.kinds)
    zones = S.game.zones
    for key in lay.zone_keys:
        uids = S.zones.get(key, ())
        if uids:
            out.append((at, float(len(uids))))
            if may_see(zones, key, player):
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
    for s in lay.values:
        ns, _, name = s.name.partition(".")
        s.put((S.vars if ns == "game" else S.turn).get(name), at, out)
    at += lay.blocks[3][1]
    if S.turns:
        out.append((at, float(S.turns)))
    if S.over:
        out.append((at + 1, 1.0))
    out += [(at + 2 + w, 1.0) for w in sorted(set(S.winners)) if 0 <= w < lay.players]
    at += 2 + lay.players
    d = S.decision() if not S.over and not S.is_chance_node() else None
    if d is not None:
        out.append((at + d.player, 1.0))
    out.append((at + lay.players + player, 1.0))
    if d is not None and d.point in lay.point_at:
        out.append((at + 2 * lay.players + lay.point_at[d.point], 1.0))
    return out


def tensor(S, player: int) -> list[float]:
    """The seat's observation as a flat list of numbers (see the module docstring)."""
    out = [0.0] * layout(S.game, len(S.pl)).size
    for i, v in entries(S, player):
        out[i] = v
    return out


def _slot_text(s: Slot) -> str:
    keys = ", ".join(repr(k) for k in s.keys)
    if s.kind == "one":
        return f"{s.name} (one of {keys})"
    if s.kind == "faces":
        return f"{s.name} ({s.places} places × faces {keys})"
    return s.name


def describe(lay: Layout) -> str:
    """The layout as a Markdown table (docs/agents.md shows each bundled pack's)."""
    n = lay.players
    rows = [("players", ", ".join(_slot_text(s) for s in lay.fields) + f", per seat ({n})"),
            ("zones", f"{len(lay.zone_keys)} zones × (size + {len(lay.kinds)} kinds)"),
            ("board", f"{len(lay.cells):,} cells × {len(lay.piece_kinds)} piece kinds"
             if lay.cells else "no board"),
            ("values", ", ".join(_slot_text(s) for s in lay.values) or "none"),
            ("game", f"turns, over, winner per seat ({n})"),
            ("seats", f"deciding seat ({n}), observing seat ({n}), decision point "
                      f"({len(lay.points)}: {', '.join(lay.points)})")]
    size = dict(lay.blocks)
    out = ["| block | size | holds |", "|---|---|---|"]
    out += [f"| {b} | {size[b]:,} | {text} |" for b, text in rows]
    out.append(f"| all | {lay.size:,} | left out: {', '.join(lay.left_out) or 'nothing'} |")
    return "\n".join(out)
