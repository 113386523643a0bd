"""What a batch of games leaves behind: one small record per game, and the batch around them.

`SimResult` keeps every game's record (seed, winners, whether every seat lost, length, the
actions each seat chose,
the pack's metrics at the end) so later analyses — reports, comparisons, sweeps, plots —
can ask new questions of a batch without replaying it. Records are in game-index order
whatever order the games were played in, which is what makes a batch's numbers the same
with one worker process or many.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine.sim.stats import summary


@dataclass(frozen=True, slots=True)
class GameRecord:
    index: int
    seed: int
    winners: tuple[int, ...]
    turns: int
    limit: bool  # ended by the turn limit
    decisions: int
    uses: tuple[dict, ...] = ()  # per seat: action id -> times chosen ('pass' included)
    metrics: dict = field(default_factory=dict)  # metric name -> value at the end
    all_lost: bool = False  # nobody won and every seat lost (`State.returns()` all -1)

    def team_win(self, players: int) -> bool:
        """Every seat won together (a co-operative victory)."""
        return players > 1 and len(self.winners) == players


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
    requested: int = 0  # games asked for; more than `games` when the run was interrupted
    metric_names: list[str] = field(default_factory=list)
    label: str = ""  # how a comparison or a sweep names this batch
    house: list[str] = field(default_factory=list)  # the house rules played, as named

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def interrupted(self) -> bool:
        return self.games < self.requested

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
        """Games nobody won: team losses, draws by the rules and turn-limit draws."""
        return sum(1 for r in self.records if not r.winners)

    @property
    def team_losses(self) -> int:
        """Games every seat lost (a co-operative defeat; alone, simply a loss): no draw."""
        return sum(1 for r in self.records if r.all_lost)

    @property
    def draws(self) -> int:
        """Games that ended by the rules with nobody winning and not everybody losing."""
        return self.no_winner - self.limit_hits - self.team_losses

    @property
    def limit_hits(self) -> int:
        return sum(1 for r in self.records if r.limit)

    @property
    def team_wins(self) -> int:
        return sum(1 for r in self.records if r.team_win(self.players))

    @property
    def turns(self) -> dict[str, float]:
        return summary([r.turns for r in self.records])

    def win_rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def to_dict(self) -> dict:
        """The stable core of the JSON output (see `measures.report` for the rest)."""
        return {
            "pack": self.pack, "mode": self.mode, "house": self.house, "params": self.params,
            "players": self.players, "bots": self.bots, "seed": self.seed,
            "games": self.games, "seconds": round(self.seconds, 3),
            "wins": {str(k): v for k, v in self.wins.items()},
            "no_winner": self.no_winner, "limit_hits": self.limit_hits,
            "team_wins": self.team_wins, "team_losses": self.team_losses,
            "turns": self.turns,
            "decisions": summary([r.decisions for r in self.records]),
            "interrupted": self.interrupted,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)
