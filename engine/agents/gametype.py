"""What a learning library asks of a game before playing it: how its returns are shared, whether
any seat holds information another lacks, and bounds on its length and on a chance node's outcomes.

OpenSpiel's algorithms pick themselves by these facts (a zero-sum solver, a perfect-information
search), and size their buffers by the bounds, so they must be true and as tight as the pack
allows. A pack states them (`returns:`, `agents:`, docs/pack-format.md) or they are worked
out from it: returns are win-loss, the information is perfect when every zone is `visible: all`
(horde's moves are never simultaneous), a chance node has at most as many outcomes as the
largest die has faces or the game has entities in its zones at setup (a shuffle or a draw is
among them), whichever is more. Everything here reads the merged pack (`raw`), so a game type
can be made without building the game.
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

# (min, max, sum of every seat's return or None) of each style
UTILITY = {"win-loss": (-1.0, 1.0, None), "zero-sum": (-1.0, 1.0, 0.0),
           "constant-sum": (0.0, 1.0, 1.0)}


class Meta(NamedTuple):
    """A pack's game metadata; `declared`: which of them the pack states."""

    returns: str
    perfect: bool
    max_game_length: int | None  # None: none declared (the adapter's own default)
    max_chance_outcomes: int | None  # None: none declared (worked out from a built game)
    declared: frozenset


def meta(raw: dict) -> Meta:
    agents = raw.get("agents") or {}
    declared = frozenset([*(["returns"] if "returns" in raw else []), *agents])
    info = agents.get("information")
    perfect = info == "perfect" if info is not None else all(
        (z or {}).get("visible", "all") == "all" for z in (raw.get("zones") or {}).values())
    style = raw.get("returns") or "win-loss"
    return Meta(style if isinstance(style, str) else EACH, perfect,
                agents.get("max_game_length"), agents.get("max_chance_outcomes"), declared)


EACH = "each"  # the style of `returns: {each: expr, min: a, max: b}`


def utility(raw: dict, style: str) -> tuple[float, float, float | None]:
    """(min, max, sum or None) of the returns of `style`; `each` declares its own."""
    if style == EACH:
        spec = raw["returns"]
        return float(spec["min"]), float(spec["max"]), None
    return UTILITY[style]


def compile_each(game):
    """The compiled `returns: {each: ...}` of `game` (`me` the seat), or None for a named
    style; a problem is a PackError at the expression's place in the pack."""
    spec = game.raw.get("returns")
    if not isinstance(spec, dict):
        return None
    from engine.errors import PackError
    from engine.pack.loader import load_tree
    try:
        return game.compile_expr(spec["each"], {"me": "player"})
    except PackError:
        if game.sources is None:
            raise
        root = load_tree(game.sources.ref, mode=game.mode, house=game.sources.house,
                         validate=False, sources=game.sources).node
        return game.compile_expr(spec["each"], {"me": "player"},
                                 where=root.value["returns"].value["each"])


def sides(S) -> tuple[list[int], list[int]]:
    """The winning and the losing seats of a finished game: the winners and everyone else,
    or, when nobody won, the seats that did not lose and those that did."""
    n = len(S.pl)
    won = set(S.winners) or {i for i in range(n) if i not in set(S.losers)}
    return sorted(won), [i for i in range(n) if i not in won]


def returns(S, style: str) -> list[float]:
    """Each seat's return of the finished game `S` under `style`: `win-loss` is horde's own
    (+1 each winner, -1 each loser); `zero-sum`: the winners share +1 and the losers -1
    (three-player Pig: [1, -0.5, -0.5]); `constant-sum`: the winners share 1. A game with no
    winning or no losing side gives 0 each (`constant-sum`: 1/n each)."""
    if style == "win-loss":
        return S.returns()
    if style == EACH:
        return each_returns(S)
    n = len(S.pl)
    win, lose = sides(S)
    if not win or not lose:
        return [0.0] * n if style == "zero-sum" else [1.0 / n] * n
    out = [0.0] * n
    for i in win:
        out[i] = 1.0 / len(win)
    if style == "zero-sum":
        for i in lose:
            out[i] = -1.0 / len(lose)
    return out


def each_returns(S) -> list[float]:
    """`returns: {each: expr, min, max}`: the expression for each seat as `me`, a whole
    number within the declared bounds (a HordeError at the expression's place if not)."""
    from engine.errors import HordeError
    from engine.flow.machine import evaluate
    c = compiled_each(S.game)
    spec = S.game.raw["returns"]
    out = []
    for p in S.players:
        v = evaluate(S, c, {"me": p})
        if type(v) is not int or not spec["min"] <= v <= spec["max"]:
            span = c.locate(None) if c.locate else None
            raise HordeError(f"returns: gave {v!r} for seat {p.i}, not a whole number from "
                             f"{spec['min']} to {spec['max']}", span,
                             hint="keep `each:` within the `min:` and `max:` beside it")
        out.append(float(v))
    return out


_EACH: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> its `each:`, compiled


def compiled_each(game):
    """`compile_each(game)`, made once per game."""
    if game not in _EACH:
        _EACH[game] = compile_each(game)
    return _EACH[game]


def returns_problems(game) -> list:
    """What is wrong with the pack's `returns: {each: ...}`, for `horde validate`."""
    from engine.errors import PackError, Problem
    spec = game.raw.get("returns")
    if isinstance(spec, dict) and spec["min"] > spec["max"]:
        return [Problem(f"returns: min {spec['min']} is above max {spec['max']}")]
    try:
        compiled_each(game)
    except PackError as exc:
        return list(exc.problems)
    return []


def chance_outcomes_bound(game, S) -> int:
    """The outcomes of a chance node of `game`, at most: a die's faces, or the entities of
    `S` (a game just set up) that lie in zones, for a shuffle or a draw among them."""
    in_zones = sum(1 for e in S.ents.values() if e.get("@z") is not None)
    return max(in_zones, *(len(f) for f in game.dice.values()), 2)
