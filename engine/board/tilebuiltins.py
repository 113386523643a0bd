"""The effect language's words for tile boards, squares and the pieces on them.

Words every board answers (`cell`, `neighbors`, `distance`, `shortest_path`, `step_toward`,
`closest`, `spawn`, `remove`, `move_to`, `pieces`, `pieces_at`, `piece_at`, `stacked`) are
registered through `board_builtin`, which calls the pack's board; the words below them only
make sense for tiles and check that the board is one. Conditions and domains may use every
word here that does not change the game.
"""

from __future__ import annotations

from engine.board.registry import board_builtin, board_of
from engine.board.tiles import TileBoard, need_cell
from engine.dsl.builtins import builtin
from engine.dsl.values import E, Z
from engine.errors import RuleRuntimeError

_SHARED = [
    # name, args, returns, effect, doc
    ("cell", "int int", "any", False, "The square at column x, row y."),
    ("neighbors", "any", "list", False, "The squares one move away from a square."),
    ("distance", "any any", "any", False, "Moves between two squares along the board, or none."),
    ("shortest_path", "any any", "list", False,
     "The squares of one shortest way from a to b (a excluded), or none."),
    ("step_toward", "any any", "list", False, "The neighbours of a that are one move closer to b."),
    ("closest", "any list", "list", False,
     "The squares, pieces or players of a list nearest to a square (ties all kept)."),
    ("open_steps", "any card any?", "list", False,
     "The neighbours of a square or piece that hold no piece of some kinds (with a third "
     "argument, a list of targets: only those one move closer to the nearest target)."),
    ("approach", "any list", "list", False,
     "The neighbours of a square or piece one move closer to the nearest of some targets."),
    ("spawn", "card any", "ent", True, "A new piece of a kind on a square."),
    ("remove", "ent", "none", True, "Take a piece off the board for good."),
    ("move_to", "ent any", "none", True, "Move a piece to a square."),
    ("pieces", "card?", "list:ent", False, "The pieces on the board, optionally of some kinds."),
    ("pieces_at", "any card?", "list:ent", False,
     "The pieces on a square, optionally of some kinds."),
    ("piece_at", "any card", "ent", False, "The first piece of some kinds on a square, or none."),
    ("stacked", "card", "list", False, "Squares holding more than one piece of some kinds."),
]

# What two words touch, so that the end checks after an effect can be skipped when they
# cannot have changed (engine.dsl.footprint): the tile under a square (`tile_at`, below)
# depends on the map alone, which only `place_tile` changes (its footprint is
# everything); moving a piece changes its `cell` field and the board's index of cells,
# which every word that reads them declares (or reads everything). Only tile boards
# answer `move_to`.
_TOUCHES: dict[str, dict] = {"move_to": {"writes": {"cell"}},
                             # words given a list of targets look through it: charged its
                             # items (engine.dsl.work)
                             **{name: {"charges": "items"} for name in ("closest", "approach", "open_steps")}}
# What the lists of words hold, for agents' action spaces (`Builtin.domain`)
_DOMAINS = {"neighbors": "step", "shortest_path": "cell", "step_toward": "step", "closest": "arg1",
            "open_steps": "step", "approach": "step", "pieces": "piece", "pieces_at": "piece",
            "stacked": "cell"}

for _name, _args, _ret, _fx, _doc in _SHARED:
    board_builtin(_name, _args, _ret, _fx, _doc, **_TOUCHES.get(_name, {}),
                  **({"domain": _DOMAINS[_name]} if _name in _DOMAINS else {}))


def _tiles(S, fn: str) -> TileBoard:
    b = board_of(S)
    if not isinstance(b, TileBoard):
        raise RuleRuntimeError(f"{fn}: this pack's board is not made of tiles")
    return b


@builtin("movable", "list card any? list?", "list", domain="arg0", charges="items")
def _movable(S, xs, kinds, toward=None, skip=None):
    """The pieces of a list that have an open step (a neighbouring square without a piece
    of the kind(s); with a list of targets, one move closer to the nearest of them),
    leaving out those in a fourth list (say, the pieces that moved already)."""
    return _tiles(S, "movable").movable(S, xs, kinds, toward, skip)


@builtin("nearest_distance", "any list", "any", charges="items")
def _nearest_distance(S, sq, xs):
    """Moves from a square to the nearest of some squares, pieces or players, or none."""
    return _tiles(S, "nearest_distance").nearest_distance(S, sq, xs)


@builtin("placements", "ent", "list")
def _placements(S, t):
    """Every (position, rotation) pair where tile `t` fits next to the map."""
    b = _tiles(S, "placements")
    return b.map(S).placements(b.tile_def(S, t))


@builtin("spots", "ent", "list", domain="spot")
def _spots(S, t):
    """The tile positions where tile `t` fits in some rotation."""
    b = _tiles(S, "spots")
    return sorted({at for at, _ in b.map(S).placements(b.tile_def(S, t))})


@builtin("rotations", "ent any", "list:int", domain="rotation")
def _rotations(S, t, at):
    """The rotations (0, 90, 180, 270; clockwise) in which tile `t` fits at position `at`."""
    b = _tiles(S, "rotations")
    return [rot for pos, rot in b.map(S).placements(b.tile_def(S, t)) if pos == at]


@builtin("joins", "ent any int", "int")
def _joins(S, t, at, rot):
    """How many roads of tile `t`, put at position `at` turned `rot`, would meet a road of
    the map: 0 leaves it cut off for now."""
    b = _tiles(S, "joins")
    td = b.tile_def(S, t)
    if rot not in td.canon:
        raise RuleRuntimeError(f"joins: bad rotation {rot}")
    return b.map(S).joins(td.shapes[td.canon[rot]], need_cell(S, at, "joins"))


@builtin("place_tile", "ent any int", effect=True)
def _place_tile(S, t, at, rot):
    """Put tile `t` on the table at position `at`, turned `rot` degrees clockwise."""
    _tiles(S, "place_tile").place(S, t, at, rot)


@builtin("tile_at", "any", "ent", reads={"@tile map"})
def _tile_at(S, sq):
    """The placed tile a square belongs to, or none."""
    return _tiles(S, "tile_at").tile_at(S, sq)


@builtin("squares", "ent str?", "list", domain="cell")
def _squares(S, t, kind=None):
    """The squares of a placed tile that pieces may enter, or all its squares of one kind."""
    return _tiles(S, "squares").squares(S, t, kind)


@builtin("exits", "ent", "list", domain="cell")
def _exits(S, t):
    """The outer square of each road leaving a placed tile."""
    return _tiles(S, "exits").exits(S, t)


@builtin("middle", "ent", "any")
def _middle(S, t):
    """The centre square of a placed tile."""
    return _tiles(S, "middle").middle(S, t)


@builtin("edges_match", "", "bool")
def _edges_match(S):
    """True when every two neighbouring tiles agree on their roads (for invariants)."""
    return _tiles(S, "edges_match").map(S).edges_match()


@builtin("peek", "zone int", "list:ent", domain="card", charges="items")
def _peek(S, z, n):
    """The top `n` entities of a zone, top first (fewer if it holds fewer)."""
    if type(z) is not Z:
        raise RuleRuntimeError(f"peek: expected a zone, got {S.describe(z)}")
    lst = S.zone(z)
    return [E(u) for u in reversed(lst[max(len(lst) - n, 0):])]
