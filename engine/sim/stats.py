"""What a batch of games says: win counts per seat, draws, game lengths.

`SimResult` keeps one small record per game (its seed, winners, length) so later analyses
(comparisons, sweeps, plots) can ask new questions of a batch without replaying it. Its
JSON form is the machine-readable output of `horde sim --json`: everything in it except
`seconds` depends only on the inputs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class GameRecord:
    index: int
    seed: int
    winners: tuple[int, ...]
    turns: int
    limit: bool  # ended by the turn limit
    decisions: int


def summary(values: list[int | float]) -> dict[str, float]:
    """mean, median and 90th percentile (nearest rank), 0 for an empty list."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0}
    xs = sorted(values)
    n = len(xs)
    mid = n // 2
    median = float(xs[mid]) if n % 2 else (xs[mid - 1] + xs[mid]) / 2
    p90 = float(xs[max(math.ceil(0.9 * n) - 1, 0)])
    return {"mean": round(sum(xs) / n, 4), "median": median, "p90": p90}


@dataclass
class SimResult:
    pack: str
    mode: str | None
    params: dict
    players: int
    bots: list[str]  # one spec per seat
    seed: int
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> dict[int, int]:
        """seat -> games that seat won (a shared win counts for each winner)."""
        out = dict.fromkeys(range(self.players), 0)
        for r in self.records:
            for w in r.winners:
                out[w] += 1
        return out

    @property
    def no_winner(self) -> int:
        """Games nobody won, turn-limit draws included."""
        return sum(1 for r in self.records if not r.winners)

    @property
    def limit_hits(self) -> int:
        return sum(1 for r in self.records if r.limit)

    @property
    def turns(self) -> dict[str, float]:
        return summary([r.turns for r in self.records])

    def win_rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def to_dict(self) -> dict:
        return {
            "pack": self.pack, "mode": self.mode, "params": self.params,
            "players": self.players, "bots": self.bots, "seed": self.seed,
            "games": self.games, "seconds": round(self.seconds, 3),
            "wins": {str(k): v for k, v in self.wins.items()},
            "no_winner": self.no_winner, "limit_hits": self.limit_hits,
            "turns": self.turns,
            "decisions": summary([r.decisions for r in self.records]),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)
