"""Reading a pack's `board: {type: tiles}` section into a `TileBoard` (engine.board.tiles).

Every problem of the section is reported with its place (a key that does not exist, a tile
drawn with the wrong number of squares, roads that do not match the squares, a count over
the limit...), and the board is built only when there were none.
"""

from __future__ import annotations

import re

from engine.board.registry import register_type
from engine.board.tilemap import Rules, TileDef, roads_from
from engine.board.tiles import TileBoard
from engine.errors import did_you_mean

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_SECTION_KEYS = {"type", "legend", "blocked", "across", "road", "stack", "placed", "start",
                 "player_square", "connect", "links", "tiles"}
MAX_TILE_COUNT = 1000  # copies of one tile, as of one card (docs/limits.md)
_TILE_KEYS = {"id", "name", "count", "squares", "roads", "fields"}


@register_type("tiles")
def build_tiles(section, node, ctx):
    def fail(msg, *path, hint=None):
        ctx.fail(msg, "board", *path, hint=hint)

    for k in section:
        if k not in _SECTION_KEYS:
            fail(f"board: unknown key '{k}'", k, hint=did_you_mean(k, _SECTION_KEYS))
    legend = section.get("legend") or {".": "street", "#": "building", "x": "blocked"}
    if not isinstance(legend, dict) or not all(isinstance(c, str) and len(c) == 1 and
                                               isinstance(v, str) for c, v in legend.items()):
        fail("board.legend maps single characters to square kinds", "legend")
        return None
    kinds = set(legend.values())
    blocked = frozenset(section.get("blocked", ["blocked"] if "blocked" in kinds else []))
    across = frozenset(section.get("across", ["street"] if "street" in kinds else []))
    road = section.get("road", "street")
    for key, values in (("blocked", blocked), ("across", across), ("road", [road])):
        for v in values:
            if v not in kinds:
                fail(f"board.{key}: '{v}' is not a square kind of the legend", key,
                     hint=did_you_mean(v, kinds))
    zones = ctx.env.zones
    for key in ("stack", "placed"):
        z = section.get(key)
        if not isinstance(z, str) or z not in zones:
            fail(f"board.{key} must name a zone, got {z!r}", key, hint=did_you_mean(str(z), zones))
        elif zones[z]:
            fail(f"board.{key}: zone '{z}' is per player; tiles need one shared zone", key)
    tiles: dict[str, TileDef] = {}
    for k, spec in enumerate(section.get("tiles") or []):
        td = _tile(spec, k, legend, road, fail)
        if td is None:
            continue
        if td.id in tiles:
            fail(f"tile id '{td.id}' is declared twice", "tiles", k, "id")
        tiles[td.id] = td
    if not tiles:
        fail("board.tiles: a tile board needs at least one tile", "tiles")
    start = section.get("start")
    if start not in tiles:
        fail(f"board.start must name a tile, got {start!r}", "start",
             hint=did_you_mean(str(start), tiles))
    psq = section.get("player_square")
    if psq is not None and psq not in ctx.env.player_fields:
        fail(f"board.player_square: players have no field '{psq}'", "player_square",
             hint=did_you_mean(psq, ctx.env.player_fields))
    ctx.env.cards |= set(tiles)
    ctx.env.ent_fields |= {"at", "rot", "name", *(f for t in tiles.values() for f in t.fields)}
    connect = section.get("connect", False)
    if not isinstance(connect, bool):
        fail(f"board.connect is true or false, got {connect!r}", "connect")
        connect = False
    roads_only = section.get("links") == "roads"  # the schema allows 'any' and 'roads'
    return TileBoard(tiles, Rules(blocked, across, connect, roads_only), section.get("stack"),
                     section.get("placed"), start, psq)


def _tile(spec, k, legend, road, fail) -> TileDef | None:
    if not isinstance(spec, dict):
        fail("a tile is a mapping {id, squares, ...}", "tiles", k)
        return None
    for key in spec:
        if key not in _TILE_KEYS:
            fail(f"tile: unknown key '{key}'", "tiles", k, key, hint=did_you_mean(key, _TILE_KEYS))
    tid = spec.get("id")
    if not isinstance(tid, str) or not _ID.match(tid):
        fail(f"tile id must be kebab-case, got {tid!r}", "tiles", k, "id")
        return None
    rows = spec.get("squares")
    if not (isinstance(rows, list) and len(rows) == 3 and
            all(isinstance(r, str) and len(r) == 3 for r in rows)):
        fail(f"tile {tid}: squares are three strings of three characters", "tiles", k, "squares")
        return None
    bad = sorted({ch for r in rows for ch in r if ch not in legend})
    if bad:
        fail(f"tile {tid}: characters {', '.join(map(repr, bad))} are not in the legend",
             "tiles", k, "squares")
        return None
    kinds = tuple(legend[ch] for r in rows for ch in r)
    roads = roads_from(kinds, road)
    given = spec.get("roads")
    if given is not None:
        named = frozenset("nesw".index(ch) for ch in str(given) if ch in "nesw")
        if not isinstance(given, str) or len(named) != len(given) or named != roads:
            fail(f"tile {tid}: roads {given!r} do not match its squares (a road leaves through "
                 f"the middle square of an edge; these squares give "
                 f"'{''.join('nesw'[e] for e in sorted(roads))}')", "tiles", k, "roads")
    count = spec.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_TILE_COUNT:
        fail(f"tile {tid}: count must be a whole number from 0 to {MAX_TILE_COUNT}", "tiles", k, "count")
        count = 1
    fields = spec.get("fields") or {}
    if not isinstance(fields, dict):
        fail(f"tile {tid}: fields must be a mapping", "tiles", k, "fields")
        fields = {}
    return TileDef(tid, str(spec.get("name", tid)), kinds, roads, count, dict(fields))
