"""What a state asks for: one player choosing one of a sorted list of labelled actions."""

from __future__ import annotations

from dataclasses import dataclass, field


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


def decision(player: int, point: str, kind: str, binds: dict) -> Decision:
    """`player` to choose at `point` among the labels of `binds` (label -> binding)."""
    return Decision(player, point, kind, sorted(binds), binds)
