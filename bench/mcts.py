"""MCTS iterations per second, once `engine.bots` offers an `mcts` bot.

Search bots clone and play out thousands of states per decision, so their speed is the
hot path's speed multiplied. The bot is made through the bot registry with a time budget
per decision and asked how many iterations it managed (`last_iterations`). When no such
bot is registered, or it fails, the harness says why and carries on.
"""

from __future__ import annotations

import time

ITERATIONS = 20


def available() -> bool:
    from engine.bots import bot_names
    return "mcts" in bot_names()


def _bot(game, seconds: float):
    """A bot with a time budget per decision when the spec allows one (`mcts:0.2s`), so a
    slow pack cannot hold the harness up; else a small fixed number of iterations."""
    from engine.bots import make_bot
    from engine.errors import HordeError

    try:
        return make_bot(f"mcts:{seconds:.3f}s", 0, game)
    except HordeError:
        return make_bot(f"mcts:{ITERATIONS}", 0, game)


def measure(game, players: int, states: list, seconds: float) -> dict | None:
    """Iterations per second of the `mcts` bot deciding at the given mid-game states, for
    about `seconds` in all (at least one decision)."""
    if not available():
        return None
    choices = [s for s in states if s.decision() is not None and len(s.decision().actions) > 1]
    if not choices:
        return {"error": "no mid-game state with a real choice"}
    try:
        bot = _bot(game, seconds / len(choices))
        clock = time.process_time
        iterations = 0
        deadline = time.perf_counter() + seconds
        start = clock()
        for s in choices:
            bot.choose(s.clone(), s.decision())
            iterations += getattr(bot, "last_iterations", ITERATIONS)
            if time.perf_counter() >= deadline:
                break
        elapsed = clock() - start
    except Exception as exc:  # a bot under construction must not stop the harness
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"mcts_iterations_per_s": iterations / elapsed}
