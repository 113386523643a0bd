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

from typing import NamedTuple

RETURNS = ("win-loss", "zero-sum", "constant-sum")
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
    return Meta(raw.get("returns") or "win-loss", perfect, agents.get("max_game_length"),
                agents.get("max_chance_outcomes"), declared)


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


def chance_outcomes_bound(game, S) -> int:
    """The outcomes of a chance node of `game`, at most: a die's faces, or the entities of
    `S` (a game just set up) that lie in zones, for a shuffle or a draw among them."""
    in_zones = sum(1 for e in S.ents.values() if e.get("@z") is not None)
    return max(in_zones, *(len(f) for f in game.dice.values()), 2)
