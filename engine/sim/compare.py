"""Compare rule variants of one pack on the same seeds, and say what changed.

A variant is written as parts joined by `+`:

    base                  the pack as it is
    mode:NAME             one of the pack's modes
    house:NAME_OR_FILE    a house rule (a file, or the name of one of the pack's house/*.yaml)
    NAME_OR_FILE          the same, when it is not one of the forms above
    lives=4               params (several: goal=20,lives=2)
    easy+lives=4          a combination: the easy house rule, then lives 4

The first variant is the reference; every other one is compared with it. All variants play
the same games: game i uses the same dice seed and the same bot seeds in every variant
(common random numbers), so per-game differences are paired and intervals are tighter than
for independent samples. Where a variant has games the reference lacks (an interrupted run),
only the shared games are paired; a comparison without shared games falls back to
independent-sample intervals (Newcombe for rates, Welch for means).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.api import load
from engine.errors import HordeError
from engine.sim.measures import is_rate, measure_label, per_game, scalar
from engine.sim.result import SimResult
from engine.sim.stats import Estimate, newcombe_diff, paired_diff, welch


@dataclass
class Variant:
    label: str
    mode: str | None = None
    house: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)


def parse_variant(text: str) -> Variant:
    """`easy+lives=4` -> Variant(house=['easy'], params={'lives': '4'})."""
    v = Variant(text.strip())
    if not v.label:
        raise HordeError("an empty variant",
                         hint="write base, mode:NAME, a house rule or NAME=VALUE")
    for part in v.label.split("+"):
        part = part.strip()
        if part in ("", "base"):
            continue
        if part.startswith("mode:"):
            if v.mode is not None:
                raise HordeError(f"variant '{text}' names two modes")
            v.mode = part[5:]
        elif part.startswith("house:"):
            v.house.append(part[6:])
        elif "=" in part:
            for item in part.split(","):
                name, eq, value = item.partition("=")
                if not eq or not name.strip():
                    raise HordeError(f"variant '{text}': '{item}' is not NAME=VALUE",
                                     hint="for example lives=4 or goal=20,lives=2")
                v.params[name.strip()] = value.strip()
        else:
            v.house.append(part)
    return v


def sets_variant(sets: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in sets.items())


def load_variant(pack: str, v: Variant):
    house = [str(Path(h).resolve()) if Path(h).is_file() else h for h in v.house]
    return load(pack, mode=v.mode, params=dict(v.params), house=house)


# ---------- the comparison ----------

def measures_of(results: list[SimResult]) -> list[str]:
    """What to compare: each seat's win rate, draws, team wins and losses, length, balance,
    metrics."""
    ref = results[0]
    names = [f"win_rate:{s}" for s in range(ref.players)] + ["no_winner"]
    if any(r.limit_hits for r in results):
        names.append("timeouts")
    if any(r.team_wins for r in results):
        names.append("team_win")
    if any(r.team_losses for r in results):
        names.append("team_loss")
    names += ["turns", "decisions", "balance"]
    shared = set(ref.metric_names)
    for r in results[1:]:
        shared &= set(r.metric_names)
    names += [f"metric:{m}" for m in ref.metric_names if m in shared]
    return names


def difference(ref: SimResult, other: SimResult, name: str) -> tuple[Estimate | None, str]:
    """other − ref for one measure, and the method used ('paired', 'newcombe', 'welch')."""
    if name == "balance":
        return None, "none"
    a, b = per_game(ref, name) or [], per_game(other, name) or []
    if not a or not b:
        return None, "none"
    pairs = _shared(ref, other)
    if pairs and len(a) == ref.games and len(b) == other.games:
        ia, ib = pairs
        return paired_diff([a[i] for i in ia], [b[j] for j in ib]), "paired"
    if is_rate(name):
        return newcombe_diff(int(sum(a)), len(a), int(sum(b)), len(b)), "newcombe"
    return welch(a, b), "welch"


def _shared(ref: SimResult, other: SimResult):
    """Positions of the games both batches played from the same seed, or None."""
    if ref.seed != other.seed or ref.players != other.players:
        return None
    pos = {r.index: k for k, r in enumerate(other.records)}
    ia = [k for k, r in enumerate(ref.records) if r.index in pos]
    if len(ia) < 2:
        return None
    return ia, [pos[ref.records[k].index] for k in ia]


def compare(results: list[SimResult]) -> dict:
    """The side-by-side table and the sentences, as plain data (the JSON output)."""
    ref = results[0]
    rows = []
    for name in measures_of(results):
        values = [scalar(r, name) for r in results]
        diffs = []
        for other in results[1:]:
            d, method = difference(ref, other, name)
            diffs.append(None if d is None else {**d.to_dict(), "method": method,
                                                 "significant": d.significant})
        rows.append({"measure": name, "label": measure_label(name), "rate": is_rate(name),
                     "values": [v.to_dict() for v in values], "diffs": diffs})
    return {"variants": [{"label": r.label, "games": r.games, "params": r.params,
                          "mode": r.mode, "interrupted": r.interrupted} for r in results],
            "players": ref.players, "bots": ref.bots, "seed": ref.seed,
            "rows": rows, "sentences": sentences(rows, results)}


def sentences(rows: list[dict], results: list[SimResult]) -> list[str]:
    """One plain sentence per variant: its significant changes to outcomes and length."""
    out = []
    for j, r in enumerate(results[1:]):
        parts = []
        for row in rows:
            d = row["diffs"][j]
            major = row["measure"].startswith(("win_rate", "no_winner", "team_", "timeouts"))
            if d is None or not d["significant"] or not (major or row["measure"] == "turns"):
                continue
            before, after = row["values"][0]["value"], row["values"][j + 1]["value"]
            if row["measure"] == "turns":
                more = "longer" if d["value"] > 0 else "shorter"
                parts.append(f"games {abs(d['value']):.1f} ± {(d['hi'] - d['lo']) / 2:.1f} "
                             f"turns {more} ({before:.1f} → {after:.1f})")
            else:
                parts.append(f"{row['label']} {100 * before:.1f}% → {100 * after:.1f}%, "
                             f"{100 * d['value']:+.1f} ± {50 * (d['hi'] - d['lo']):.1f} points")
        if parts:
            out.append(f"{r.label}: " + "; ".join(parts) + ".")
        else:
            out.append(f"{r.label}: no significant change in win rates, draws or length "
                       f"({r.games} games).")
    return out
