"""Facts about zones: the zones each card can ever be in, and a look for it elsewhere.

A card starts in its zone and goes to its discard zone when discarded; `draw(a, b)` takes
what is in `a` to `b`, a zone's `refill` brings its refill zone's cards back; a rule that
moves or copies an entity into a zone (`move`, `copy`, a board's words) may put any card
there. So, by a fixpoint over those moves read from the snippets' trees, each card gets
the zones it can enter, and `has(me.hand, 'key')` where the key card never enters a hand is
never true. A zone named through anything but its name (a procedure's parameter, a
computed value) in a draw, a move or a call of a building block makes every zone open to
every card: unknown stays unknown.
"""

from __future__ import annotations

from engine.dsl import ast
from engine.dsl.builtins import BUILTINS
from engine.errors import Problem

ANY = "*"  # a zone any card may enter


def _zone(e: ast.Node, zones: dict) -> str | None:
    """The zone an expression names: `deck`, or `p.hand` for a zone of each player."""
    if isinstance(e, ast.Name) and e.id in zones and not zones[e.id]:
        return e.id
    if isinstance(e, ast.Attr) and e.name in zones and zones[e.name]:
        return e.name
    return None


def card_zones(game) -> dict[str, set[str]] | None:
    """card id -> the zones it can enter; None when a move no analysis follows exists."""
    zones = game.env.zones
    draws: set[tuple[str, str]] = set()
    open_: set[str] = set()
    for tree, _ in game.env.snippets:
        for node, _ in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = [_zone(a, zones) for a in node.args]
            if node.func == "draw" and len(node.args) >= 2:
                if args[1] is None:
                    return None
                if args[0] is None:
                    open_.add(args[1])
                else:
                    draws.add((args[0], args[1]))
            elif node.func in ("move", "copy") and len(node.args) >= 2:
                if args[1] is None:
                    return None
                open_.add(args[1])
            elif node.func not in BUILTINS and node.func not in game.effect_procs:
                # a building block's word (a board's spawn): what it gets may go anywhere
                named = zip(node.args, args, strict=True)
                if any(isinstance(a, ast.Name | ast.Attr) and z is None for a, z in named):
                    return None
                open_.update(z for z in args if z is not None)
    for z in game.zones.values():
        if z.refill:
            draws.add((z.refill, z.name))
    out = {}
    for cid, c in game.cards.items():
        inside = {c.zone, c.discard} - {None} | open_
        changed = True
        while changed:
            more = {b for a, b in draws if a in inside} - inside
            inside |= more
            changed = bool(more)
        out[cid] = inside
    return out


def zone_problems(game) -> list[Problem]:
    """Each `has(zone, 'card')` where that card never enters that zone."""
    found = card_zones(game)
    if found is None:
        return []
    zones = game.env.zones
    out = []
    for tree, locate in game.env.snippets:
        for node, _ in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.func == "has" and len(node.args) == 2):
                continue
            z, what = _zone(node.args[0], zones), node.args[1]
            if z is None or not isinstance(what, ast.Const) or what.value not in found:
                continue
            if z not in found[what.value]:
                c = game.cards[what.value]
                out.append(Problem(
                    f"this test is never true: card '{what.value}' never enters zone '{z}' (it "
                    f"can be in {', '.join(sorted(found[what.value]))})", locate(node.pos),
                    f"draw or move it into {z} somewhere, or look for it where it goes"
                    + (f" (it starts in {c.zone})" if c.zone else "")))
    return out
