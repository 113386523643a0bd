"""Every bundled pack, mode and house-rule example, loaded once per test session."""

from __future__ import annotations

import functools

import engine
from engine.pack.loader import list_packs


def all_variants() -> list[tuple[str, str | None, str | None]]:
    """(pack, mode, house file) for the base pack, each mode and each house example."""
    out: list[tuple[str, str | None, str | None]] = []
    for info in list_packs():
        out.append((info.id, None, None))
        out += [(info.id, mode, None) for mode in info.modes]
        out += [(info.id, None, str(info.path / "house" / f"{h}.yaml")) for h in info.house]
    return out


def pack_modes() -> list[tuple[str, str | None]]:
    """(pack, mode) for the base game and each mode of every bundled pack that loads."""
    out: list[tuple[str, str | None]] = []
    for info in list_packs():
        if not info.problems:
            out += [(info.id, mode) for mode in [None, *info.modes]]
    return out


def variant_id(v) -> str:
    pack, mode, house = v
    return pack + (f"/{mode}" if mode else "") + (f"+{house.rsplit('/', 1)[-1][:-5]}" if house else "")


@functools.cache
def game(pack: str, mode: str | None, house: str | None):
    return engine.load(pack, mode=mode, house=[house] if house else [])
