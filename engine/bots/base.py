"""The bot interface and the registry that turns a spec such as `random` or `mcts:200` into one.

A bot is anything with `choose(state, decision) -> label`. It is handed the whole state only
because the engine has one state type; it must decide from what its seat may see, which is
`state.view(decision.player)`, exactly as a player at the table would.

The registry is a plain dict, name -> factory(arg, seed, game), so a module that defines a
new kind of bot adds itself with one line (`BOTS["greedy"] = make_greedy`) or the
`register_bot` decorator. Every module of the `engine.bots` package is imported the first
time an unknown name is looked up, so a new bot module needs no change here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import HordeError, did_you_mean

if TYPE_CHECKING:
    from engine.flow.decision import Decision
    from engine.game import Game


class Bot(Protocol):
    def choose(self, state: Any, decision: Decision) -> str:
        """The label of one of `decision.actions`."""
        ...


# name -> factory(arg: str | None, seed: int, game: Game | None) -> Bot
Factory = Callable[[str | None, int, "Game | None"], Any]
BOTS: dict[str, Factory] = {}
_discovered = False


def register_bot(name: str):
    """Decorator: `@register_bot("greedy")` on a factory(arg, seed, game)."""
    def deco(factory: Factory) -> Factory:
        BOTS[name] = factory
        return factory
    return deco


class Human:
    """A seat played by a person. Only an interactive front end (the CLI) can ask them."""

    human = True

    def choose(self, state, decision) -> str:
        raise HordeError(f"P{decision.player} is a human seat: only `horde play` can ask them")


def is_human(bot) -> bool:
    return bool(getattr(bot, "human", False))


def _discover() -> None:
    """Import every module of this package once, so their bots register themselves."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import engine.bots as package
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")


def bot_names() -> list[str]:
    _discover()
    return sorted(BOTS)


def make_bot(spec: str, seed: int, game: Game | None = None):
    """The bot a spec names: `name` or `name:arg` (e.g. `mcts:200`)."""
    name, _, arg = spec.strip().partition(":")
    if name not in BOTS:
        _discover()
    factory = BOTS.get(name)
    if factory is None:
        known = sorted(BOTS)
        raise HordeError(f"unknown bot '{spec}'",
                         hint=did_you_mean(name, known) or f"bots: {', '.join(known)}")
    return factory(arg or None, seed, game)


BOTS["human"] = lambda arg, seed, game: Human()
