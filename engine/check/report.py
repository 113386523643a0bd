"""A check's outcome for people: the broken law in plain words, and a scenario file.

The scenario file is the reproduction a designer keeps: `horde scenario FILE` replays the
smallest game found (seed, player count, decisions) and fails the same way while the law is
broken: the invariant's own expression as `expect:`, or an engine law by name as
`expect_law:`. Once the rules are fixed it passes, and can stay as a regression test.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from engine.check.driver import CheckResult
from engine.check.play import DENSE, Failure
from engine.errors import source_excerpt
from engine.laws import COSTLY, LAWS
from engine.pack.loader import resolve_ref, rulesets_dir

SHOWN_DECISIONS = 40  # a longer game shows its first and last decisions only


def scenario_spec(failure: Failure, *, pack: str, mode: str | None, house: list[str],
                  params: dict) -> dict:
    """The scenario (as plain data) that replays `failure`."""
    v = failure.violation
    spec: dict = {"scenario": f"horde check: {v.law}", "pack": pack}
    if mode:
        spec["mode"] = mode
    if house:
        spec["house"] = list(house)
    if params:
        spec["params"] = dict(params)
    spec["players"] = failure.players
    spec["seed"] = failure.seed
    spec["decisions"] = failure.decisions
    spec["play_on"] = True  # to the next decision, where the check found the law broken
    spec["expect"] = [v.expect] if v.expect else []
    if not v.expect and v.key in LAWS:
        spec["expect_law"] = [v.key]
    return spec


def _relative(path: Path, folder: Path) -> str:
    try:
        return os.path.relpath(path.resolve(), folder.resolve())
    except ValueError:  # another drive: only an absolute path will do
        return str(path.resolve())


def scenario_refs(pack: str, house: list[str], folder: Path) -> tuple[str, list[str]]:
    """The pack and house rules as a scenario file in `folder` names them: a bundled pack by
    its id, files by paths relative to that folder."""

    pack_file = resolve_ref(pack)
    bundled = pack_file.parent.parent == rulesets_dir().resolve() and pack == pack_file.parent.name
    ref = pack if bundled else _relative(pack_file, folder)
    files = []
    for h in house:
        p = Path(h).expanduser()
        if not p.is_file():  # a house rule named by its name: the pack's house/<name>.yaml
            p = pack_file.parent / "house" / f"{h}.yaml"
        files.append(_relative(p, folder))
    return ref, files


def write_scenario(failure: Failure, out: Path, *, pack: str, mode: str | None,
                   house: list[str], params: dict) -> Path:
    folder = out.parent
    ref, files = scenario_refs(pack, house, folder)
    spec = scenario_spec(failure, pack=ref, mode=mode, house=files, params=params)
    v = failure.violation
    head = ["Written by `horde check`: the smallest game it found that breaks a law.",
            f"Law: {v.law}" + (f" ({v.detail})" if v.detail else "")]
    if v.span:
        head.append(f"Declared at: {v.span}")
    head.append(f"`horde scenario {out.name}` fails while the law is broken and passes once "
                "it holds again.")
    body = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=None)
    folder.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"# {line}\n" for line in head) + body, encoding="utf-8")
    return out


def _excerpt(span) -> list[str]:
    text = source_excerpt(span) if span else ""
    return ["      " + line for line in text.splitlines()]


def failure_lines(failure: Failure) -> list[str]:
    """The broken law, where it is declared, the last action and the decisions, in words."""
    v = failure.violation
    lines = [f"  law:    {v.law}" + (f" ({v.detail})" if v.detail else "")]
    if v.span:
        lines.append(f"  where:  {v.span}")
        lines += _excerpt(v.span)
    if failure.last_action:
        label, span = failure.last_action
        lines.append(f"  last action: {label}" + (f", written at {span}" if span else ""))
    steps = failure.steps
    lines.append(f"  smallest game found: {failure.players} player"
                 f"{'s' if failure.players != 1 else ''}, seed {failure.seed}, "
                 f"{len(steps)} decision{'s' if len(steps) != 1 else ''}")
    lines += _step_lines(steps)
    if failure.state:
        lines.append("  state after the last decision:")
        lines += ["  " + line for line in failure.state.splitlines()]
    return lines


def _step_lines(steps) -> list[str]:
    """One line per decision; a run of the same decision is one line (`3-40 ... ×38`), and a
    long game shows its beginning and its end."""
    runs: list[list] = []  # [first number, last number, step]
    for k, s in enumerate(steps, 1):
        if runs and (runs[-1][2].player, runs[-1][2].point, runs[-1][2].label) == \
                (s.player, s.point, s.label):
            runs[-1][1] = k
        else:
            runs.append([k, k, s])
    shown: list[list | None] = list(runs)
    if len(runs) > SHOWN_DECISIONS:
        shown = [*runs[:SHOWN_DECISIONS - 5], None, *runs[-5:]]
    out = []
    for run in shown:
        if run is None:
            out.append("     …")
            continue
        a, b, s = run
        num = f"{a}" if a == b else f"{a}-{b}"
        times = f"  (×{b - a + 1})" if b > a else ""
        out.append(f"  {num:>6}. P{s.player} at {s.point}: {s.label}{times}")
    return out


def law_lines(game, laws: list[str]) -> list[str]:
    """The laws a check watched, one line each."""
    bounds = [f for f in game.player_fields.values() if f.min is not None or f.max is not None]
    out = []
    for key in laws:
        if key == "invariants":
            out.append(f"  - the pack's {len(game.invariants)} invariant"
                       f"{'s' if len(game.invariants) != 1 else ''} and the bounds of "
                       f"{len(bounds)} player field{'s' if len(bounds) != 1 else ''}")
        else:
            out.append(f"  - {key}: {LAWS[key]}")
    out.append("  - every legal action and every rule runs without error")
    costly = [k for k in laws if k in COSTLY or k == "legal-actions"]
    if costly:
        out.append(f"  ({', '.join(costly)}: after each of a game's first {DENSE} decisions, "
                   "then ever more sparsely)")
    return out


def summary_line(result: CheckResult) -> str:
    return (f"{result.games:,} game{'s' if result.games != 1 else ''}, "
            f"{result.steps:,} decisions, {result.seconds:.1f} s")
