"""horde: a declarative rules engine for tabletop board games of the undead kind.

    game = engine.load(PACK_ID, params={"goal": 4})
    state = game.new_state(players=3, seed=7)
    while not state.is_terminal():
        state.apply(state.decision().actions[0])
"""

from engine.api import load
from engine.errors import HordeError, PackError, RuleRuntimeError, StateError

__all__ = ["load", "HordeError", "PackError", "RuleRuntimeError", "StateError"]
