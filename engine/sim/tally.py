"""A batch's numbers as running totals: what every report of it needs, in memory that does
not grow with the number of games.

A run of a million games cannot keep a record per game in its driver (about 1 KB each), and
needs not: every number `horde sim` and `sweep` print is a count, a sum or a quantile of a
small integer (turns, decisions), so a `Tally` keeps counts per seat and per action, the
distinct lengths with how often each came, and exact sums of each metric and of its square.
Workers tally their own games and send the tally; tallies merge by adding. Sums are exact
(integers, or fractions for a metric that is not whole), so the result is the same in any
order: one process or many, a local pool or a cluster, give the same numbers to the digit.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction


def exact(v):
    """A metric's value as an exact number: ints as they are, finite floats as fractions
    (their sums then do not depend on the order games finish in)."""
    if isinstance(v, int) or not math.isfinite(v):
        return v
    return Fraction(v)


@dataclass
class Moments:
    """How many values, their sum and the sum of their squares, exactly."""

    n: int = 0
    sum: int | Fraction | float = 0
    squares: int | Fraction | float = 0

    def add(self, v) -> None:
        v = exact(v)
        self.n += 1
        self.sum += v
        self.squares += v * v

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.sum += other.sum
        self.squares += other.squares

    def mean(self) -> float:
        return float(self.sum / self.n) if self.n else 0.0

    def sd(self) -> float:
        """The sample standard deviation (0 for fewer than two values)."""
        if self.n < 2:
            return 0.0
        if isinstance(self.sum, float) or isinstance(self.squares, float):  # inf or nan
            return math.sqrt(max((self.squares - self.sum * self.sum / self.n) / (self.n - 1), 0))
        var = Fraction(self.n * self.squares - self.sum * self.sum, self.n * (self.n - 1))
        return math.sqrt(var) if var > 0 else 0.0


@dataclass
class Tally:
    """Running totals of a batch's games (`add` one record, `merge` another tally)."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # per seat
    no_winner: int = 0
    team_losses: int = 0
    limit_hits: int = 0
    team_wins: int = 0
    turns: Counter = field(default_factory=Counter)  # turns -> games that long
    decisions: Counter = field(default_factory=Counter)
    uses: dict = field(default_factory=dict)  # action -> per seat: times chosen
    used: dict = field(default_factory=dict)  # action -> per seat: games it chose it in
    used_won: dict = field(default_factory=dict)  # action -> per seat: ... and won
    any_used: Counter = field(default_factory=Counter)  # action -> games any seat chose it
    metrics: dict = field(default_factory=dict)  # name -> Moments

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players

    def add(self, rec) -> None:
        """Count one `GameRecord`."""
        self.games += 1
        for w in rec.winners:
            self.wins[w] += 1
        self.no_winner += not rec.winners
        self.team_losses += rec.all_lost
        self.limit_hits += rec.limit
        self.team_wins += rec.team_win(self.players)
        self.turns[rec.turns] += 1
        self.decisions[rec.decisions] += 1
        seen = set()
        for s, counts in enumerate(rec.uses[:self.players]):
            won = s in rec.winners
            for aid, c in counts.items():
                if not c:
                    continue
                self._seats(self.uses, aid)[s] += c
                self._seats(self.used, aid)[s] += 1
                self._seats(self.used_won, aid)[s] += won
                seen.add(aid)
        self.any_used.update(seen)
        for name, v in rec.metrics.items():
            self.metrics.setdefault(name, Moments()).add(v)

    def merge(self, other: Tally) -> None:
        """Add another tally of the same batch (other games) to this one."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.no_winner += other.no_winner
        self.team_losses += other.team_losses
        self.limit_hits += other.limit_hits
        self.team_wins += other.team_wins
        self.turns.update(other.turns)
        self.decisions.update(other.decisions)
        for mine, theirs in ((self.uses, other.uses), (self.used, other.used),
                             (self.used_won, other.used_won)):
            for aid, per_seat in theirs.items():
                seats = self._seats(mine, aid)
                for s, c in enumerate(per_seat):
                    seats[s] += c
        self.any_used.update(other.any_used)
        for name, m in other.metrics.items():
            self.metrics.setdefault(name, Moments()).merge(m)

    def _seats(self, table: dict, aid: str) -> list[int]:
        if aid not in table:
            table[aid] = [0] * self.players
        return table[aid]

    def actions(self) -> list[str]:
        """Every action id some seat chose, sorted."""
        return sorted(self.any_used)
