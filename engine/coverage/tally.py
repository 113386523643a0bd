"""What a run of games covered: a count per item and facet, over every variant played.

An item is known by where it is written (`Item.key`), so an item of the base pack played
in the base game and in three modes is one item, covered when any of those games covers
it. `never()` lists what none did, in the order of the pack's files.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.coverage.items import FACETS, KINDS, Item, Items
from engine.errors import Problem


@dataclass
class Played:
    """One batch: a variant (the base game, a mode) with one kind of bot at every seat."""

    variant: str
    bots: str
    games: int = 0


@dataclass
class Tally:
    items: dict[tuple, Item] = field(default_factory=dict)
    where: dict[tuple, set] = field(default_factory=dict)  # item key -> variants it is in
    events: Counter = field(default_factory=Counter)  # event -> times emitted
    unfinished: int = 0  # games ended by a limit (turns, decisions), not by an end rule
    hits: Counter = field(default_factory=Counter)  # (item key, facet) -> times
    batches: list[Played] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # rules that failed, laws broken
    interrupted: bool = False
    said: set = field(default_factory=set)  # the keys of `problems`

    @property
    def games(self) -> int:
        return sum(b.games for b in self.batches)

    def know(self, items: Items, variant: str) -> None:
        for item in items.all:
            self.items.setdefault(item.key, item)
            self.where.setdefault(item.key, set()).add(variant)

    def games_of(self, item: Item) -> int:
        """The games played where `item` could be covered (a rule's: by its policy)."""
        there = self.where.get(item.key, ())
        return sum(b.games for b in self.batches if b.variant in there
                   and (item.kind != "rule" or b.bots == item.detail))

    def hit(self, item: Item, facet: str) -> None:
        self.hits[item.key, facet] += 1

    def covered(self, item: Item, facet: str) -> bool:
        return self.hits[item.key, facet] > 0

    def problem(self, p: Problem, key=None) -> None:
        """Keep `p`, unless one with the same `key` (default: message and place) is kept."""
        key = (p.message, p.span) if key is None else key
        if key not in self.said:
            self.said.add(key)
            self.problems.append(p)

    def never(self, mine: set[str] | None = None) -> list[tuple[Item, str]]:
        """(item, facet) for each facet no game covered, `mine` the files whose items count
        (None: all). A card not drawn is not also reported not played, nor an action not
        offered as not chosen; invariants are reported only when broken (`problems`)."""
        out = []
        for item in self._ours(mine):
            for facet in FACETS[item.kind]:
                if item.kind == "invariant" or (facet == "played" and not item.plays):
                    continue
                if not self.covered(item, facet):
                    out.append((item, facet))
                    break
        return out

    def _ours(self, mine: set[str] | None) -> list[Item]:
        its = [i for i in self.items.values() if mine is None or i.files & mine]
        return sorted(its, key=lambda i: (KINDS.index(i.kind),) + (
            (i.span.file, i.span.line, i.span.col) if i.span else ("", 0, 0)))

    def counts(self, mine: set[str] | None = None) -> dict[str, dict[str, list[int]]]:
        """Per kind and facet: [items covered, items it applies to] (a card with no
        discard zone has no "played")."""
        out: dict[str, dict[str, list[int]]] = {}
        for item in self._ours(mine):
            row = out.setdefault(item.kind, {f: [0, 0] for f in FACETS[item.kind]})
            for facet in FACETS[item.kind]:
                if facet == "played" and not item.plays:
                    continue
                row[facet][1] += 1
                row[facet][0] += self.covered(item, facet)
        return out
