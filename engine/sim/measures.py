"""What a batch says about a game's balance, each number with its 95% interval.

- outcomes: each seat's win rate, games with no winner (split into team losses — every seat
  lost, a co-operative defeat, which is no draw —, draws by the rules and turn-limit draws),
  team wins (every seat won together: a co-operative victory);
- length: turns and decisions per game, as a distribution (mean, median, p10/p90, histogram);
- actions: how often each action was chosen per game, and each seat's win rate in the games
  where it chose that action at least once, next to its win rate in the other games;
- metrics: the pack's own `metrics:` evaluated at the end of every game;
- Ludii-style summary measures (after the Ludii general game system's "concepts"):
  balance (1 − the spread of seat win rates), completion (games with a result: a winner or
  a team loss), drawishness (draws by the rules), timeouts (turn limit), advantage (seat 0's
  win rate), duration.

`scalar` and `per_game` name the measures a comparison or a sweep can target:
`win_rate` (seat 0), `win_rate:S`, `no_winner`, `draws`, `timeouts`, `team_win`, `team_loss`,
`completion`, `balance`, `turns`, `decisions` and `metric:NAME`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import HordeError, did_you_mean
from engine.sim.result import SimResult
from engine.sim.stats import Estimate, histogram, mean_ci_of, median, quantile, wilson
from engine.sim.tally import Moments

BINARY = ("win_rate", "no_winner", "draws", "timeouts", "team_win", "team_loss", "completion")
MEANS = ("turns", "decisions")
MEASURES = (*BINARY, "balance", *MEANS)


def seat_wins(result: SimResult) -> list[Estimate]:
    return [wilson(result.wins[s], result.games) for s in range(result.players)]


def length(counts: Mapping[int, int]) -> dict:
    """A game length's distribution from its counts (length -> games that long)."""
    m = mean_ci_of(moments(counts))
    keys = [v for v, c in counts.items() if c]
    return {"mean": round(m.value, 4), "lo": round(m.lo, 4), "hi": round(m.hi, 4),
            "median": median(counts), "p10": quantile(counts, 0.1),
            "p90": quantile(counts, 0.9),
            "min": min(keys) if keys else 0, "max": max(keys) if keys else 0,
            "histogram": [[lo, hi, c] for lo, hi, c in histogram(counts)]}


def moments(counts: Mapping[int, int]) -> Moments:
    """The count and exact sums of whole numbers kept as counts."""
    return Moments(sum(counts.values()), sum(v * c for v, c in counts.items()),
                   sum(v * v * c for v, c in counts.items()))


def action_rows(result: SimResult) -> list[dict]:
    """One row per action id: uses per game, and win rates of seats that used it or not."""
    t = result.tally
    n = result.games
    rows = []
    for aid in t.actions():
        total = sum(t.uses[aid])
        used_pairs = used_won = other_pairs = other_won = 0
        per_seat = []
        for s in range(result.players):
            k_used, k_won = t.used[aid][s], t.used_won[aid][s]
            used_pairs += k_used
            used_won += k_won
            other_pairs += n - k_used
            other_won += t.wins[s] - k_won
            per_seat.append({"seat": s, "games": k_used,
                             "win_rate": wilson(k_won, k_used).to_dict()})
        rows.append({"action": aid, "per_game": round(total / n, 4) if n else 0.0,
                     "games": t.any_used[aid],
                     "win_rate_used": wilson(used_won, used_pairs).to_dict(),
                     "win_rate_not_used": wilson(other_won, other_pairs).to_dict(),
                     "seats": per_seat})
    return rows


def metric_rows(result: SimResult) -> list[dict]:
    return [{"metric": name, **metric_estimate(result, name).to_dict()}
            for name in result.metric_names]


def metric_estimate(result: SimResult, name: str) -> Estimate:
    """The mean of a metric over the games that have it, with its interval."""
    return mean_ci_of(result.tally.metrics.get(name, Moments()))


def ludii(result: SimResult) -> dict:
    n = result.games
    rates = [result.win_rate(s) for s in range(result.players)]
    spread = max(rates) - min(rates) if rates else 0.0
    decided = n - result.no_winner + result.team_losses
    return {
        "balance": round(1 - spread, 4) if result.players > 1 else 1.0,
        "completion": round(decided / n, 4) if n else 0.0,
        "drawishness": round(result.draws / n, 4) if n else 0.0,
        "timeouts": round(result.limit_hits / n, 4) if n else 0.0,
        "advantage": round(rates[0], 4) if rates else 0.0,
        "duration": round(moments(result.tally.turns).mean(), 4) if n else 0.0,
    }


def report(result: SimResult) -> dict:
    """Everything `horde sim` shows, as plain data (its JSON output)."""
    n = result.games
    d = result.to_dict()
    d["requested"] = result.requested
    d["win_rates"] = [{"seat": s, "bot": result.bots[s], **e.to_dict()}
                      for s, e in enumerate(seat_wins(result))]
    d["outcomes"] = {
        "no_winner": wilson(result.no_winner, n).to_dict(),
        "draws": wilson(result.draws, n).to_dict(),
        "timeouts": wilson(result.limit_hits, n).to_dict(),
        "team_win": wilson(result.team_wins, n).to_dict(),
        "team_loss": wilson(result.team_losses, n).to_dict(),
    }
    d["length"] = {"turns": length(result.tally.turns),
                   "decisions": length(result.tally.decisions)}
    d["actions"] = action_rows(result)
    d["metrics"] = metric_rows(result)
    d["measures"] = ludii(result)
    return d


# ---------- named measures, for comparisons and sweeps ----------

def parse_measure(name: str, result: SimResult) -> tuple[str, int | str | None]:
    """`win_rate:1` -> ('win_rate', 1); `metric:x` -> ('metric', 'x'); checks the name."""
    base, _, arg = name.strip().partition(":")
    if base == "metric":
        if arg not in result.metric_names:
            raise HordeError(f"no metric '{arg}'", hint=did_you_mean(arg, result.metric_names)
                             or f"metrics: {', '.join(result.metric_names) or 'none'}")
        return base, arg
    if base not in MEASURES:
        raise HordeError(f"unknown measure '{name}'", hint=did_you_mean(base, MEASURES) or
                         f"measures: {', '.join(MEASURES)}, win_rate:SEAT, metric:NAME")
    if base == "win_rate":
        seat = int(arg) if arg.isascii() and arg.isdigit() else 0 if not arg else -1
        if not 0 <= seat < result.players:
            raise HordeError(f"'{name}': no seat {arg} in a {result.players}-player game")
        return base, seat
    if arg:
        raise HordeError(f"measure '{base}' takes no ':{arg}'")
    return base, None


def per_game(result: SimResult, name: str) -> list[float] | None:
    """The measure's value in each game kept (None for a measure of the whole batch): a
    batch played with `keep_records`."""
    base, arg = parse_measure(name, result)
    recs, p = result.records, result.players
    if base == "win_rate":
        return [1.0 if arg in r.winners else 0.0 for r in recs]
    if base == "no_winner":
        return [0.0 if r.winners else 1.0 for r in recs]
    if base == "draws":
        return [1.0 if not r.winners and not r.limit and not r.all_lost else 0.0 for r in recs]
    if base == "timeouts":
        return [1.0 if r.limit else 0.0 for r in recs]
    if base == "team_win":
        return [1.0 if r.team_win(p) else 0.0 for r in recs]
    if base == "team_loss":
        return [1.0 if r.all_lost else 0.0 for r in recs]
    if base == "completion":
        return [1.0 if r.winners or r.all_lost else 0.0 for r in recs]
    if base in MEANS:
        return [float(getattr(r, base)) for r in recs]
    if base == "metric":
        return [float(r.metrics[arg]) for r in recs if arg in r.metrics]
    return None


def scalar(result: SimResult, name: str) -> Estimate:
    """The measure over the batch with its 95% interval (balance: no interval), from the
    batch's totals."""
    base, arg = parse_measure(name, result)
    n = result.games
    if base == "balance":
        b = ludii(result)["balance"]
        return Estimate(b, b, b, n)
    if base in MEANS:
        return mean_ci_of(moments(getattr(result.tally, base)))
    if base == "metric":
        return metric_estimate(result, str(arg))
    count = {"win_rate": lambda: result.wins[int(arg or 0)],
             "no_winner": lambda: result.no_winner, "draws": lambda: result.draws,
             "timeouts": lambda: result.limit_hits, "team_win": lambda: result.team_wins,
             "team_loss": lambda: result.team_losses,
             "completion": lambda: n - result.no_winner + result.team_losses}[base]()
    return wilson(count, n)


def measure_label(name: str) -> str:
    """How a measure is named in sentences and table headers."""
    base, _, arg = name.partition(":")
    return {"win_rate": f"P{arg or 0} win rate", "no_winner": "no winner",
            "draws": "draws by the rules", "timeouts": "turn-limit draws",
            "team_win": "team win", "team_loss": "team loss", "completion": "completion",
            "balance": "balance",
            "turns": "turns", "decisions": "decisions", "metric": arg}.get(base, name)


def is_rate(name: str) -> bool:
    return name.partition(":")[0] in (*BINARY, "balance")
