"""Pictures of a batch, a comparison and a sweep, as PNG (or SVG/PDF by the file's suffix).

matplotlib is optional (`pip install 'horde[plot]'`) and imported only when a picture is
asked for, so the rest of horde works without it. Figures are made with the object API
(`matplotlib.figure.Figure`), never pyplot: no global state, no GUI backend, nothing shown.
Every interval drawn is the 95% interval the text report prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.atomic import write_atomic
from engine.errors import HordeError, printable
from engine.sim.stats import wilson

SEAT_COLOURS = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860",
                "#DA8BC3", "#8C8C8C"]
GREY = "#9A9A9A"
LOSS = "#4D4D4D"  # a team loss: darker than the draws' grey


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise HordeError("plots need matplotlib, which is not installed",
                         hint="pip install 'horde[plot]'") from None
    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def _save(fig, path: str | Path) -> None:
    """Write the figure in the format its file's suffix names (the temporary file written
    first has a suffix of its own, so the format is given)."""
    kind = Path(path).suffix[1:].lower()
    known = fig.canvas.get_supported_filetypes()
    if kind not in known:
        raise HordeError(f"--plot {printable(str(path))}: "
                         + (f"'.{printable(kind)}' is not a picture format" if kind
                            else "the file name has no suffix to say its format"),
                         hint=f"end it with one of: .{', .'.join(sorted(known))}")
    write_atomic(path, lambda tmp: fig.savefig(tmp, format=kind))


def _errbar(e: dict) -> tuple[float, float]:
    return max(e["value"] - e["lo"], 0.0), max(e["hi"] - e["value"], 0.0)


def _percent_axis(ax, top: float = 1.0) -> None:
    from matplotlib.ticker import PercentFormatter
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylim(0, min(1.0, max(top * 1.15, 0.05)))
    ax.grid(axis="y", alpha=0.3)


def _length_hist(ax, turns: Mapping[int, int], label: str | None = None,
                 colour: str = "#4C72B0", step: bool = False) -> None:
    """A histogram of game lengths given as counts (turns -> games that long)."""
    values = sorted(v for v, c in turns.items() if c)
    if not values:
        return
    lo, hi = values[0], values[-1]
    bins = [x - 0.5 for x in range(lo, hi + 2)] if hi - lo <= 60 else 40
    weights = [turns[v] for v in values]
    if step:
        ax.hist(values, bins=bins, weights=weights, histtype="step", linewidth=1.8,
                color=colour, label=label, density=True)
    else:
        ax.hist(values, bins=bins, weights=weights, color=colour, alpha=0.85,
                edgecolor="white", label=label)


def sim_plot(rep: dict, turns: Mapping[int, int], path: str | Path, title: str) -> None:
    """Game length histogram (left) and seat win rates with intervals (right)."""
    fig = _figure(11, 4.2)
    fig.suptitle(title)
    left, right = fig.subplots(1, 2, width_ratios=[1.3, 1])
    _length_hist(left, turns)
    s = rep["length"]["turns"]
    left.axvline(s["mean"], color="black", linestyle="--", linewidth=1,
                 label=f"mean {s['mean']:.1f}")
    left.axvline(s["median"], color="black", linestyle=":", linewidth=1,
                 label=f"median {s['median']:g}")
    left.set_xlabel("turns per game")
    left.set_ylabel("games")
    left.set_title("Game length")
    left.legend(frameon=False)
    rows = rep["win_rates"]
    ends = outcome_bars(rep)
    names = [f"P{r['seat']}\n{r['bot']}" for r in rows] + [e[0] for e in ends]
    vals = [r["value"] for r in rows] + [e[1]["value"] for e in ends]
    errs = [_errbar(r) for r in rows] + [_errbar(e[1]) for e in ends]
    colours = [SEAT_COLOURS[k % len(SEAT_COLOURS)] for k in range(len(rows))] + [e[2] for e in ends]
    x = range(len(vals))
    right.bar(x, vals, color=colours, yerr=list(zip(*errs, strict=True)), capsize=5)
    for k, v in enumerate(vals):
        right.text(k, v + errs[k][1] + 0.01, f"{100 * v:.1f}%", ha="center", fontsize=9)
    right.set_xticks(list(x), names)
    right.set_title("Win rate (95% interval)")
    _percent_axis(right, max(r["hi"] for r in rows + [e[1] for e in ends]))
    _save(fig, path)


def outcome_bars(rep: dict) -> list[tuple[str, dict, str]]:
    """The bars beside the seats' win rates: (name, estimate, colour). Games nobody won, or,
    when some were team losses, those apart from the draws (by the rules and at the turn
    limit): a team loss is no draw."""
    o = rep["outcomes"]
    if not rep["team_losses"]:
        return [("no\nwinner", o["no_winner"], GREY)]
    drawn = wilson(rep["no_winner"] - rep["team_losses"], rep["games"]).to_dict()
    return [("all\nlost", o["team_loss"], LOSS), ("draw", drawn, GREY)]


def compare_plot(cmp: dict, turns: list[Mapping[int, int]], path: str | Path, title: str) -> None:
    """Grouped seat win rates (and no-winner share) per variant, and their length curves."""
    fig = _figure(12, 4.5)
    fig.suptitle(title)
    left, right = fig.subplots(1, 2, width_ratios=[1.3, 1])
    variants = cmp["variants"]
    groups = [r for r in cmp["rows"] if r["measure"].startswith("win_rate")
              or r["measure"] in ("no_winner", "team_loss")]
    k = len(variants)
    width = 0.8 / max(k, 1)
    top = 0.0
    for j, v in enumerate(variants):
        xs = [g + (j - (k - 1) / 2) * width for g in range(len(groups))]
        vals = [row["values"][j]["value"] for row in groups]
        errs = [_errbar(row["values"][j]) for row in groups]
        top = max([top] + [row["values"][j]["hi"] for row in groups])
        left.bar(xs, vals, width * 0.95, yerr=list(zip(*errs, strict=True)), capsize=3,
                 label=v["label"], color=SEAT_COLOURS[j % len(SEAT_COLOURS)])
    left.set_xticks(range(len(groups)), [row["label"].replace(" win rate", "")
                                         for row in groups])
    left.set_title("Win rate by seat (95% interval)")
    left.legend(frameon=False)
    _percent_axis(left, top)
    for j, v in enumerate(variants):
        _length_hist(right, turns[j], v["label"], SEAT_COLOURS[j % len(SEAT_COLOURS)], step=True)
    right.set_xlabel("turns per game")
    right.set_ylabel("share of games")
    from matplotlib.ticker import PercentFormatter
    right.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    right.set_title("Game length")
    right.legend(frameon=False)
    _save(fig, path)


def sweep_plot(sweep: dict, path: str | Path, title: str) -> None:
    """Two params: a heatmap of the measure; one param: a line with its interval."""
    names = [p["name"] for p in sweep["params"]]
    if len(names) == 1:
        _sweep_line(sweep, path, title)
    elif len(names) == 2:
        _sweep_heatmap(sweep, path, title)
    else:
        raise HordeError(f"a sweep plot shows one or two params, not {len(names)}",
                         hint="sweep fewer params, or leave out --plot")


def _sweep_line(sweep: dict, path, title: str) -> None:
    fig = _figure(8, 4.5)
    ax = fig.subplots()
    name = sweep["params"][0]["name"]
    rate = sweep["rate"]
    values = [c["params"][name] for c in sweep["cells"]]
    numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    xs = values if numeric else list(range(len(values)))
    est = [c["measure"] for c in sweep["cells"]]
    ys = [e["value"] for e in est]
    ax.fill_between(xs, [e["lo"] for e in est], [e["hi"] for e in est], alpha=0.25,
                    color=SEAT_COLOURS[0], label="95% interval")
    ax.plot(xs, ys, marker="o", color=SEAT_COLOURS[0], label=sweep["measure_label"])
    if sweep.get("target") is not None:
        ax.axhline(sweep["target"], color="black", linestyle="--", linewidth=1,
                   label=f"target {_fmt(sweep['target'], rate)}")
        for x, c in zip(xs, sweep["cells"], strict=True):
            if c["rank"] is not None and c["rank"] < 3:
                ax.plot([x], [c["measure"]["value"]], marker="*",
                        markersize=16, color="gold", markeredgecolor="black", zorder=5)
    ax.set_xticks(xs, [str(v) for v in values])
    ax.set_xlabel(name)
    ax.set_ylabel(sweep["measure_label"])
    if rate:
        _percent_axis(ax, max(e["hi"] for e in est))
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title(title)
    _save(fig, path)


def _fmt(v: float, rate: bool) -> str:
    return f"{100 * v:.0f}%" if rate else f"{v:.1f}"


def _sweep_heatmap(sweep: dict, path, title: str) -> None:
    """The chosen measure (★ on the cells closest to the target) and, beside it, what a
    designer weighs it against: game length, or the no-winner share when length is chosen."""
    px, py = sweep["params"][0], sweep["params"][1]  # x: first param, y: second
    xs, ys = px["values"], py["values"]
    fig = _figure(max(9.0, 1.1 * len(xs) + 4.0), max(4.4, 0.6 * len(ys) + 2.4))
    fig.suptitle(f"{title}\ncells: value ± half its 95% interval", fontsize=11)
    main, side = fig.subplots(1, 2, width_ratios=[1.35, 1])
    cells = {(ys.index(c["params"][py["name"]]), xs.index(c["params"][px["name"]])): c
             for c in sweep["cells"]}
    target = sweep.get("target")
    note = f" (★ closest to {_fmt(target, sweep['rate'])})" if target is not None else ""
    _heat(fig, main, cells, xs, ys, lambda c: c["measure"], sweep["rate"], target,
          sweep["measure_label"] + note, stars=target is not None)
    if sweep["measure"] == "turns":
        _heat(fig, side, cells, xs, ys, lambda c: c["no_winner"], True, None, "no winner")
    else:
        _heat(fig, side, cells, xs, ys, lambda c: c["turns"], False, None, "turns per game")
    for ax in (main, side):
        ax.set_xlabel(px["name"])
        ax.set_ylabel(py["name"])
    _save(fig, path)


def _heat(fig, ax, cells: dict, xs, ys, pick, rate: bool, target, label: str,
          stars: bool = False) -> None:
    from matplotlib.colors import TwoSlopeNorm
    data = [[float("nan")] * len(xs) for _ in ys]
    for (i, j), c in cells.items():
        data[i][j] = pick(c)["value"]
    vals = [pick(c)["value"] for c in cells.values()]
    lo, hi = min(vals), max(vals)
    if target is not None and lo < target < hi:
        norm, cmap = TwoSlopeNorm(vcenter=target, vmin=lo, vmax=hi), "RdBu_r"
    else:
        norm, cmap = None, "viridis" if rate else "magma_r"
    im = ax.imshow(data, cmap=cmap, norm=norm, origin="lower", aspect="auto")
    bar = fig.colorbar(im, ax=ax)
    if rate:
        from matplotlib.ticker import PercentFormatter
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    for (i, j), c in cells.items():
        e = pick(c)
        v = e["value"]
        shade = im.cmap(im.norm(v))
        dark = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] < 0.5
        half = (e["hi"] - e["lo"]) / 2
        text = f"{100 * v:.0f}%\n±{100 * half:.0f}" if rate else f"{v:.1f}\n±{half:.1f}"
        star = stars and c["rank"] is not None and c["rank"] < 3
        ax.text(j, i, ("★ " if star else "") + text, ha="center", va="center", fontsize=8,
                color="white" if dark else "black", fontweight="bold" if star else "normal")
        if star:
            ax.add_patch(_box(j, i))
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    ax.set_title(label, fontsize=10)


def _box(j: int, i: int):
    from matplotlib.patches import Rectangle
    return Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, edgecolor="gold",
                     linewidth=2.5)
