"""Every bundled pack and mode: what the agent APIs are checked on."""

from __future__ import annotations

import functools
from pathlib import Path

import engine

RULESETS = Path(engine.__file__).parent.parent / "rulesets"


def pack_modes() -> list[tuple[str, str | None]]:
    out = []
    for pack in sorted(p for p in RULESETS.iterdir() if (p / "pack.yaml").exists()):
        out.append((pack.name, None))
        out += [(pack.name, m.stem) for m in sorted((pack / "modes").glob("*.yaml"))]
    return out


CASES = pack_modes()
IDS = [f"{p}-{m or 'base'}" for p, m in CASES]


@functools.cache
def game(pack: str, mode: str | None):
    return engine.load(pack, mode=mode)
