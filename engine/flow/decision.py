"""What a state asks for: one player choosing one of a sorted list of legal actions.

A legal action is a `Binding`: which action, with which arguments. That is what the engine
plays and what a bot or an agent reasons about. Its label (`move(to=1,0)`) is how people,
logs, records and scenarios name it; the decision's order is the labels' order, which is
what keeps a seeded game the same from one version to the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


class Binding(NamedTuple):
    """One legal action: the action's id (`pass` for passing in a window), its arguments in
    the action's parameter order, and its label."""

    action: str
    args: tuple[tuple[str, Any], ...]
    label: str


@dataclass
class Decision:
    player: int
    point: str  # the ask or window name, e.g. 'after_black'
    kind: str  # 'ask' or 'window'
    actions: list[str]  # sorted, unique labels
    bindings: dict[str, tuple] = field(default_factory=dict, repr=False)  # label -> (action, args)

    @property
    def index(self) -> dict[str, tuple]:
        return self.bindings

    def binding(self, label: str) -> Binding:
        """The legal action with this label (KeyError when there is none)."""
        action, args = self.bindings[label]
        return Binding("pass" if action is None else action.id, tuple(args.items()), label)

    @property
    def moves(self) -> list[Binding]:
        """Every legal action, in the order of `actions`."""
        return [self.binding(label) for label in self.actions]


def decision(player: int, point: str, kind: str, binds: dict) -> Decision:
    """`player` to choose at `point` among the labels of `binds` (label -> binding)."""
    return Decision(player, point, kind, sorted(binds), binds)
