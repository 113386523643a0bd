"""Building blocks a pack can switch on with a section of its own (e.g. `board:`).

An extension is built from its section at compile time, may add names to the language's
environment and builtins to its vocabulary, prepares its part of a new state, and answers
field reads on values it owns (`cell.row`). The core engine knows extensions only through
this interface, so a new kind of board needs no change outside its own module.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dsl.runtime import MISSING

# section name -> factory(section_plain, section_node, build_context) -> Extension
FACTORIES: dict[str, Callable] = {}


def register(section: str):
    def deco(factory):
        FACTORIES[section] = factory
        return factory
    return deco


class Extension:
    """Defaults for every hook; subclasses override what they need."""

    name = "extension"

    def env_names(self) -> dict[str, tuple[object, str]]:
        """Extra bare names: name -> (python value, language type)."""
        return {}

    def words(self) -> dict[str, object]:
        """Builtins this extension answers for its own pack: name -> `fn(S, ...)`. A
        pack's snippets call these directly instead of the registered builtin of the same
        name, which has to find the extension first on every call."""
        return {}

    def events(self) -> dict[str, tuple[object, tuple[str, ...]]]:
        """Events this extension announces: name -> (the Span naming it, its fields)."""
        return {}

    def setup(self, S) -> None:
        pass

    def ent_attr(self, S, e, name: str):
        return MISSING

    def value_attr(self, S, v, name: str):
        return MISSING

    def describe(self, v) -> str | None:
        return None
