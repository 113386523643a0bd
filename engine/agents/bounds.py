"""Whether a pack's declared agent bounds hold: `horde check` plays games as an agent
library sees them and reports one that outgrows `agents: {max_game_length, max_chance_outcomes}`.

A learning library sizes its buffers by those bounds and trusts them: a game longer than
`max_game_length` is cut off as a draw, a chance node with more outcomes than
`max_chance_outcomes` breaks the library's own arrays. Neither can be read off every pack's
rules (a loop may run as long as the dice say), so a pack that declares them has them
checked here the way an agent meets them: in explicit-chance mode (engine.agents.chance),
a move being a decision or a chance draw, from the first draw of the setup on. Decisions
and draws are picked at random from the seed, so a run is repeatable.
"""

from __future__ import annotations

import random

from engine.agents.gametype import meta


def bound_problems(game, players: list[int], games: int, seed: int = 0) -> list[str]:
    """What broke a declared bound in `games` random games at each table size of `players`
    (the first break of each bound), or nothing when the pack declares none."""
    about = meta(game.raw)
    length, outcomes = about.max_game_length, about.max_chance_outcomes
    if length is None and outcomes is None:
        return []
    found: dict[str, str] = {}
    for n in players:
        for k in range(games):
            rng = random.Random(f"{seed}:{n}:{k}")
            S = game.new_state(players=n, seed=rng.randrange(1 << 30), explicit_chance=True)
            moves = 0
            while not S.is_terminal():
                if S.is_chance_node():
                    m = len(S.chance_outcomes())
                    if outcomes is not None and m > outcomes and "outcomes" not in found:
                        found["outcomes"] = (
                            f"a chance node had {m:,} outcomes, more than agents: "
                            f"max_chance_outcomes = {outcomes:,} ({n} players, move {moves + 1:,})")
                    S.apply_chance(rng.randrange(m))
                else:
                    S.apply(rng.choice(S.legal_action_ids()))
                moves += 1
                if length is not None and moves > length:
                    found.setdefault("length", f"a game went on past agents: max_game_length = "
                                               f"{length:,} moves ({n} players)")
                    break
    return list(found.values())
