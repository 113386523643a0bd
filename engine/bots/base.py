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

from engine.errors import HordeError, did_you_mean, printable

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
# name -> check(arg): raises HordeError for an argument the factory would refuse, without a game
CHECKS: dict[str, Callable[[str | None], object]] = {}
_discovered = False

# Budgets a spec may ask for, per decision (docs/limits.md): a spec comes from the command
# line, but also from a record or a save anyone can hand over, and `resume` then runs it.
MAX_ITERATIONS = 100_000
MAX_SECONDS = 60.0
MAX_SPEC = 200  # characters of a whole spec


def register_bot(name: str, check: Callable[[str | None], object] | None = None):
    """Decorator: `@register_bot("greedy")` on a factory(arg, seed, game); `check(arg)`
    refuses a bad argument without a game (a spec read from a record is checked so)."""
    def deco(factory: Factory) -> Factory:
        BOTS[name] = factory
        if check is not None:
            CHECKS[name] = check
        return factory
    return deco


def iterations_of(text: str, low: int = 1) -> int:
    """A whole number of iterations in low..MAX_ITERATIONS; ValueError otherwise."""
    if not text.isascii() or not text.strip().isdigit():  # int() reads '৪' as 4, and '1_0'
        raise ValueError(text)
    n = int(text)
    if not low <= n <= MAX_ITERATIONS:
        raise ValueError(text)
    return n


def seconds_of(text: str) -> float:
    """A time budget, `0.5` or `0.5s`, above 0 and at most MAX_SECONDS; ValueError otherwise."""
    if not text.isascii():
        raise ValueError(text)
    x = float(text[:-1] if text.endswith("s") else text)
    if not 0 < x <= MAX_SECONDS:  # NaN fails too
        raise ValueError(text)
    return x


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


def _factory(spec: str) -> tuple[str, str | None, Factory]:
    if len(spec) > MAX_SPEC:
        raise HordeError(f"a bot spec of {len(spec):,} characters",
                         hint=f"a spec is a name and its budget, at most {MAX_SPEC} characters")
    name, _, arg = spec.strip().partition(":")
    if name not in BOTS:
        _discover()
    factory = BOTS.get(name)
    if factory is None:
        known = sorted(BOTS)
        raise HordeError(f"unknown bot '{printable(spec)}'",
                         hint=did_you_mean(name, known) or f"bots: {', '.join(known)}")
    return name, arg or None, factory


def check_spec(spec: str) -> None:
    """Refuse a spec `make_bot` would refuse (an unknown name, a budget over the caps),
    without making the bot or needing its game."""
    name, arg, _ = _factory(spec)
    check = CHECKS.get(name)
    if check is not None:
        check(arg)


def make_bot(spec: str, seed: int, game: Game | None = None):
    """The bot a spec names: `name` or `name:arg` (e.g. `mcts:200`)."""
    name, arg, factory = _factory(spec)
    return factory(arg, seed, game)


BOTS["human"] = lambda arg, seed, game: Human()
