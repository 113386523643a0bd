"""Sweep params over a grid: every combination played on the same seeds, then ranked.

    --param goal=10:24:2          10, 12, ..., 24 (LO:HI[:STEP], both ends included)
    --param lives=2:5             2, 3, 4, 5
    --param rule=easy,hard        a list of values (any param type)
    --target "win_rate=0.5"       rank combinations by how close a measure comes to a value

Measures a target can name are those of `engine.sim.measures` (`win_rate`, `win_rate:S`,
`no_winner`, `turns`, `balance`, `metric:NAME`, ...); rates may be written as fractions or
percentages (`no_winner=10%`). Every combination plays games 0..n-1 of the same master
seed, so neighbouring cells differ by their rules, not by their luck.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from engine.errors import HordeError
from engine.sim.measures import is_rate, measure_label, parse_measure, scalar
from engine.sim.result import SimResult

MAX_CELLS = 400


@dataclass
class ParamRange:
    name: str
    values: list


def parse_param(text: str) -> ParamRange:
    name, eq, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq or not name or not spec:
        raise HordeError(f"--param expects NAME=LO:HI[:STEP] or NAME=A,B,..., got '{text}'",
                         hint="for example --param goal=10:24:2")
    if ":" in spec:
        parts = spec.split(":")
        try:
            if not spec.isascii():  # int() reads '৪' as 4
                raise ValueError(spec)
            nums = [int(p) for p in parts]
        except ValueError:
            raise HordeError(f"--param {text}: LO, HI and STEP must be whole numbers "
                             "(digits 0-9)") from None
        if len(nums) not in (2, 3):
            raise HordeError(f"--param {text}: write LO:HI or LO:HI:STEP")
        lo, hi, step = nums[0], nums[1], nums[2] if len(nums) == 3 else 1
        if step <= 0 or hi < lo:
            raise HordeError(f"--param {text}: needs LO <= HI and a positive STEP")
        count = (hi - lo) // step + 1  # counted, not len(range): LO:HI may pass 2**63
        if count > MAX_CELLS:  # before the values are made
            raise HordeError(f"--param {_cut(text)}: {_many(count)} values is more than the "
                             f"{MAX_CELLS} combinations a sweep may play",
                             hint="use a larger STEP or a narrower range")
        values: list = list(range(lo, hi + 1, step))
    else:
        values = [_value(v.strip()) for v in spec.split(",") if v.strip()]
    if not values:
        raise HordeError(f"--param {text}: no values")
    return ParamRange(name, values)


def _many(count: int) -> str:
    """A count for a message: `1,000,001`, or `about 10^30` past what anyone reads."""
    return f"{count:,}" if count < 10**15 else f"about 10^{len(str(count)) - 1}"


def _cut(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most] + "..."


def _value(text: str):
    try:
        if not text.isascii():  # int() reads '৪' as 4
            raise ValueError(text)
        return int(text)
    except ValueError:
        return {"true": True, "false": False}.get(text.lower(), text)


def parse_target(text: str) -> tuple[str, float]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise HordeError(f"--target expects MEASURE=VALUE, got '{text}'",
                         hint='for example --target "win_rate=0.5" or --target "turns=20"')
    value = value.strip()
    try:
        if not value.isascii():  # float() reads '৪' as 4
            raise ValueError(value)
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        raise HordeError(f"--target {text}: '{value}' is not a number (digits 0-9)") from None
    return name.strip(), number


def combinations(ranges: list[ParamRange]) -> list[dict]:
    names = [r.name for r in ranges]
    if len(set(names)) < len(names):
        raise HordeError("a param is swept twice")
    cells = math.prod(len(r.values) for r in ranges)
    if cells > MAX_CELLS:  # counted before the grid is made
        raise HordeError(f"{cells:,} combinations is more than {MAX_CELLS}",
                         hint="use a larger STEP or fewer params")
    return [dict(zip(names, vals, strict=True))
            for vals in itertools.product(*(r.values for r in ranges))]


def label_of(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def sweep(ranges: list[ParamRange], combos: list[dict], results: list[SimResult],
          measure: str, target: float | None) -> dict:
    """The grid as plain data: each cell's measures, and the ranking against the target."""
    parse_measure(measure, results[0])
    cells: list[dict[str, Any]] = []
    for params, r in zip(combos, results, strict=True):
        e = scalar(r, measure)
        cell = {"params": params, "label": label_of(params), "games": r.games,
                "measure": e.to_dict(),
                "win_rates": [scalar(r, f"win_rate:{s}").to_dict() for s in range(r.players)],
                "no_winner": scalar(r, "no_winner").to_dict(),
                "team_loss": scalar(r, "team_loss").to_dict(),
                "turns": scalar(r, "turns").to_dict(),
                "balance": scalar(r, "balance").value,
                "distance": None if target is None else abs(e.value - target),
                "fits": None if target is None else e.lo <= target <= e.hi,
                "rank": None}
        cells.append(cell)
    if target is not None:
        order = sorted(range(len(cells)), key=lambda k: (cells[k]["distance"], k))
        for rank, k in enumerate(order):
            cells[k]["rank"] = rank
    return {"params": [{"name": r.name, "values": r.values} for r in ranges],
            "measure": measure, "measure_label": measure_label(measure),
            "rate": is_rate(measure), "target": target, "cells": cells,
            "players": results[0].players, "bots": results[0].bots, "seed": results[0].seed,
            "closest": [c["label"] for c in sorted(cells, key=lambda c: c["rank"])[:3]]
            if target is not None else []}
