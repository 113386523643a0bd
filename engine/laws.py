"""What must hold in every reachable state of a pack: its invariants and its field bounds.

Packs declare `invariants:`; every `min:`/`max:` of a player field is one more. The property
tests and `horde check` call `violations(state)` after every step.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dsl.compiler import Compiled
from engine.errors import Span
from engine.flow.machine import evaluate


@dataclass
class Violation:
    law: str
    span: Span | None
    detail: str = ""

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.law}" + (f" ({self.detail})" if self.detail else "")


def _bound(S, b, player) -> object:
    if isinstance(b, Compiled):
        return evaluate(S, b, {"p": player})
    return b


def violations(S) -> list[Violation]:
    """Every invariant or field bound that does not hold in `S` (empty when all is well)."""
    g = S.game
    out: list[Violation] = []
    for inv in g.invariants:
        if not evaluate(S, inv.check, {}):
            out.append(Violation(inv.name, inv.span))
    for name, f in g.player_fields.items():
        if f.min is None and f.max is None:
            continue
        for i, rec in enumerate(S.pl):
            v = rec.get(name)
            lo = _bound(S, f.min, S.players[i])
            hi = _bound(S, f.max, S.players[i])
            if lo is not None and v < lo or hi is not None and v > hi:
                out.append(Violation(f"player field '{name}' stays within {lo}..{hi}", f.span,
                                     f"P{i}.{name} = {v}"))
    if len(set(S.winners)) != len(S.winners):
        out.append(Violation("a player wins at most once", None, f"winners {S.winners}"))
    return out
