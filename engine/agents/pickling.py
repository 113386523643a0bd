"""Pickling games and states, for libraries that ship them between processes (Ray, OpenSpiel).

A `Game` holds generated functions, which do not pickle: it pickles as what it was loaded
from (pack path, mode, params, house rules, and its limits when code changed them) and is
loaded again on the other side, once per process (`_GAMES`). A `State` pickles through
`to_dict`, which saves and loads already check; a chance node also keeps the action it
waits on and the draws chosen so far, and is brought back by replaying them.
"""

from __future__ import annotations

from pathlib import Path

_GAMES: dict = {}  # spec -> Game: one load per process, shared by every state unpickled


def game_spec(game) -> tuple:
    pack = str(Path(game.files[0]).parent) if game.files else game.pack_id
    return (pack, game.mode, tuple(sorted(game.params.items())), tuple(game.house),
            tuple(sorted(game.limits.items())))


def load_game(spec: tuple):
    got = _GAMES.get(spec)
    if got is None:
        import dataclasses

        import engine
        pack, mode, params, house, limits = spec
        got = engine.load(pack, mode=mode, params=dict(params), house=list(house))
        if dict(limits) != got.limits:
            got = dataclasses.replace(got, limits=dict(limits))
        _GAMES[spec] = got
    return got


def reduce_game(game):
    spec = game_spec(game)
    _GAMES.setdefault(spec, game)
    return (load_game, (spec,))


def reduce_state(S):
    from engine.agents.chance import SETUP
    feed = S.chance
    if feed is None:
        return (load_state, (S.game, S.to_dict(), None, None))
    if feed.pending is not None and feed.action == SETUP:
        return (load_state, (S.game, None, (len(S.pl), S.seed), list(feed.outcomes)))
    pending = None if feed.pending is None else (feed.action, list(feed.outcomes))
    return (load_state, (S.game, S.to_dict(), pending, "chance"))


def load_state(game, data, pending, chance):
    """A state back from `reduce_state`'s parts."""
    if data is None:  # a new explicit-chance game, its setup still drawing
        players, seed = pending
        S = game.new_state(players=players, seed=seed, explicit_chance=True)
        for k in chance:
            S.apply_chance(k)
        return S
    S = game.state_from_dict(data)
    if chance is None:
        return S
    from engine.agents.chance import Feed
    S.chance = Feed()
    if pending is not None:
        action, outcomes = pending
        S.apply(action)
        for k in outcomes:
            S.apply_chance(k)
    return S
