"""The terminal report of a batch: tables a designer can read at a glance.

Built from `measures.report(result)` (the same data `--json` prints), as Rich renderables,
so the CLI only prints them.
"""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.errors import printable
from engine.render.panels import singular
from engine.sim.result import SimResult


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(e: dict, rate: bool = True) -> str:
    if e.get("n", 1) == 0:
        return "—"
    if rate:
        return f"{100 * e['lo']:.1f}–{100 * e['hi']:.1f}%"
    return f"{e['lo']:.2f}–{e['hi']:.2f}"


def _table(title: str | None = None) -> Table:
    return Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title, title_justify="left")


def describe(result: SimResult) -> str:
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    mode = f", mode {result.mode}" if result.mode else ""
    mode += "".join(f" + {h}" for h in result.house)
    head = singular(f"{result.games} games, {result.players} players, seed {result.seed}")
    if result.interrupted:
        head += f" (interrupted: {result.games} of {result.requested} played)"
    return f"{head} — {result.pack}{mode} ({params})" if params else head


def outcomes(rep: dict, result: SimResult) -> Table:
    t = _table(describe(result))
    for name in ("Seat", "Bot", "Wins", "Win rate", "95% interval"):
        t.add_column(name, justify="left" if name in ("Seat", "Bot") else "right")
    for row in rep["win_rates"]:
        t.add_row(f"P{row['seat']}", Text(printable(row["bot"])), str(result.wins[row["seat"]]),
                  pct(row["value"]), interval(row))
    t.add_section()
    o = rep["outcomes"]
    t.add_row("No winner", "", str(result.no_winner), pct(o["no_winner"]["value"]),
              interval(o["no_winner"]))
    if result.team_losses:
        t.add_row("  All seats lost", "", str(result.team_losses),
                  pct(o["team_loss"]["value"]), interval(o["team_loss"]))
    t.add_row("  Draw by the rules", "", str(result.draws),
              pct(o["draws"]["value"]), interval(o["draws"]))
    t.add_row("  Turn limit", "", str(result.limit_hits), pct(o["timeouts"]["value"]),
              interval(o["timeouts"]))
    if result.team_wins:
        t.add_row("Team win (all seats)", "", str(result.team_wins),
                  pct(o["team_win"]["value"]), interval(o["team_win"]))
    return t


def lengths(rep: dict) -> Table:
    t = _table()
    for name in ("Game length", "mean", "95% interval", "median", "p10", "p90", "min", "max"):
        t.add_column(name, justify="left" if name == "Game length" else "right")
    for key in ("turns", "decisions"):
        s = rep["length"][key]
        t.add_row(key, f"{s['mean']:.1f}", f"{s['lo']:.1f}–{s['hi']:.1f}", f"{s['median']:g}",
                  f"{s['p10']:g}", f"{s['p90']:g}", f"{s['min']:g}", f"{s['max']:g}")
    return t


def histogram_text(hist: list, width: int = 32, title: str = "Turns per game") -> Text:
    if not hist:
        return Text("")
    top = max(c for _, _, c in hist) or 1
    total = sum(c for _, _, c in hist) or 1
    labels = [f"{lo:g}" if hi - lo <= 1 else f"{lo:g}–{hi - 1:g}" for lo, hi, _ in hist]
    pad = max(len(x) for x in labels)
    lines = [title]
    for label, (_, _, c) in zip(labels, hist, strict=True):
        bar = "█" * round(width * c / top)
        lines.append(f"  {label:>{pad}} │{bar:<{width}} {c} ({100 * c / total:.0f}%)")
    return Text("\n".join(lines))


def actions(rep: dict) -> Table | None:
    rows = [r for r in rep["actions"] if r["action"] != "pass"]
    if not rows:
        return None
    t = _table()
    t.add_column("Action", no_wrap=True)
    for name in ("per game", "in games", "won if used", "95% interval", "won if not"):
        t.add_column(name, justify="right", no_wrap=True)
    n = rep["games"] or 1
    for r in rows:
        used, other = r["win_rate_used"], r["win_rate_not_used"]
        t.add_row(r["action"], f"{r['per_game']:.2f}", pct(r["games"] / n),
                  pct(used["value"]) if used["n"] else "—", interval(used),
                  pct(other["value"]) if other["n"] else "—")
    return t


def metrics(rep: dict) -> Table | None:
    if not rep["metrics"]:
        return None
    t = _table()
    for name in ("Metric", "mean", "95% interval"):
        t.add_column(name, justify="left" if name == "Metric" else "right")
    for m in rep["metrics"]:
        t.add_row(Text(printable(m["metric"])), f"{m['value']:.2f}", interval(m, rate=False))
    return t


def measures_line(rep: dict) -> Text:
    m = rep["measures"]
    return Text(f"Balance {m['balance']:.2f} (1 − spread of seat win rates) · completion "
                f"{pct(m['completion'])} · drawishness {pct(m['drawishness'])} · timeouts "
                f"{pct(m['timeouts'])} · advantage of P0 {pct(m['advantage'])} · duration "
                f"{m['duration']:.1f} turns")


def speed_line(result: SimResult) -> Text:
    rate = result.games / result.seconds if result.seconds > 0 else 0.0
    return Text(f"{result.seconds:.2f} s, {rate:,.0f} games/s", style="dim")


def sim_report(rep: dict, result: SimResult) -> Group:
    parts: list = [outcomes(rep, result), lengths(rep),
                   histogram_text(rep["length"]["turns"]["histogram"]), Text("")]
    for extra in (actions(rep), metrics(rep)):
        if extra is not None:
            parts.append(extra)
    parts += [measures_line(rep), speed_line(result)]
    return Group(*parts)
