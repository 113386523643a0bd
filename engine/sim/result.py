"""What a batch of games leaves behind: its running totals, and on request a record per game.

A game's record is small (seed, winners, whether every seat lost, length, the actions each
seat chose, the pack's metrics at the end), but a million of them are a gigabyte: so a
`SimResult` keeps the totals every report needs (`engine.sim.tally`), which do not grow with
the games, and keeps the records themselves only when asked (`keep_records`: the per-game
CSV, and comparisons, which pair game i of one variant with game i of another). Kept
records are in game-index order whatever order the games were played in; the totals do not
depend on that order. Either way a batch's numbers are the same with one worker process or
many.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine.sim.stats import summary
from engine.sim.tally import Tally


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

    keep_records: bool = False  # also keep each game's record (in `records`)
    tally: Tally = field(init=False)

    def __post_init__(self) -> None:
        self.tally = Tally(self.players)

    def add(self, record: GameRecord) -> None:
        """Count one game (and keep its record when records are kept)."""
        self.tally.add(record)
        if self.keep_records:
            self.records.append(record)

    def merge(self, tally: Tally) -> None:
        """Count the games of another tally of this batch (played elsewhere)."""
        self.tally.merge(tally)

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def interrupted(self) -> bool:
        return self.games < self.requested

    @property
    def wins(self) -> dict[int, int]:
        """seat -> games that seat won (a shared win counts for each winner)."""
        return dict(enumerate(self.tally.wins))

    @property
    def no_winner(self) -> int:
        """Games nobody won: team losses, draws by the rules and turn-limit draws."""
        return self.tally.no_winner

    @property
    def team_losses(self) -> int:
        """Games every seat lost (a co-operative defeat; alone, simply a loss): no draw."""
        return self.tally.team_losses

    @property
    def draws(self) -> int:
        """Games that ended by the rules with nobody winning and not everybody losing."""
        return self.no_winner - self.limit_hits - self.team_losses

    @property
    def limit_hits(self) -> int:
        return self.tally.limit_hits

    @property
    def team_wins(self) -> int:
        return self.tally.team_wins

    @property
    def turns(self) -> dict[str, float]:
        return summary(self.tally.turns)

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
            "decisions": summary(self.tally.decisions),
            "interrupted": self.interrupted,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)
