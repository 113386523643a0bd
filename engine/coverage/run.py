"""`validate --play N`: which games a file is played in, and playing them.

A pack is played in its base game and in each of its modes; a mode in itself; a house
rule of the base pack in the base game and in each mode (the house rule of a mode, with
that mode). `--mode` keeps one mode, `--house` adds house rules to every game. In each,
N games with each of the pack's policies at every seat, then N with random bots: policy
bots play as a person would, random ones reach what no policy tries. For an overlay, only
the items it adds or changes are reported (`Coverage.mine`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.coverage.tally import Tally
from engine.errors import HordeError

# games per variant and bot: each is a whole game played by bots, and a pack with six
# modes and a policy plays 14 batches of them
MAX_PLAY = 1000


@dataclass
class Coverage:
    """What one argument's games covered."""

    name: str
    tally: Tally = field(default_factory=Tally)
    mine: set[str] | None = None  # the files whose items are reported (None: all)
    variants: list[str] = field(default_factory=list)


def _pack_file(ref) -> Path | None:
    from engine.pack.loader import PACK_FILE, resolve_ref
    p = Path(ref)
    if p.is_dir() and (p / PACK_FILE).is_file():
        return p / PACK_FILE
    if p.is_file():
        return p if p.name == PACK_FILE else None
    try:
        return resolve_ref(str(ref))
    except HordeError:
        return None


def _extended(path: Path, ref: str):
    """What overlay `path` extends: a file next to it, or a pack by id."""
    near = path.parent / ref
    return near if near.is_file() else _pack_file(ref)


def _modes(pack_file: Path) -> list[str]:
    folder = pack_file.parent / "modes"
    return [m.stem for m in sorted(folder.glob("*.yaml"))] if folder.is_dir() else []


def plan(arg: str, mode: str | None, house: list[str]) -> tuple[list[tuple[str, dict]], set[str] | None]:
    """The games to play for `arg`: (label, what `engine.load` takes) each, and the files
    whose items count (None: all of them)."""
    from engine.pack.yamlspan import compose_file
    pack = _pack_file(arg)
    path = Path(arg)
    if pack is None and path.is_file():
        root = compose_file(path)
        ext = root.value.get("extends") if isinstance(root.value, dict) else None
        if ext is None or not isinstance(ext.value, str):
            return ([("the game", {"ref": path, "mode": mode, "house": house})]
                    if isinstance(root.value, dict) and "pack" in root.value else []), None
        mine = {str(path.resolve())}
        base = _extended(path, ext.value)
        base_pack = _pack_file(base) if base is not None else None
        if base_pack is None:  # it extends a mode (or another overlay): played as that
            return [(path.name, {"ref": path, "house": house})], mine
        modes = _modes(base_pack)
        if path.parent.resolve() == (base_pack.parent / "modes").resolve() and path.stem in modes:
            return [(f"mode '{path.stem}'", {"ref": base_pack, "mode": path.stem,
                                             "house": house})], mine
        chosen = [mode] if mode else [None, *modes]
        return [(f"mode '{m}'" if m else "the base game",
                 {"ref": base_pack, "mode": m, "house": [path, *house]}) for m in chosen], mine
    if pack is None:
        return [], None
    chosen = [mode] if mode else [None, *_modes(pack)]
    return [(f"mode '{m}'" if m else "the base game", {"ref": pack, "mode": m, "house": house})
            for m in chosen], None


def bots_of(game) -> list[str]:
    return [*(f"policy:{name}" for name in game.policies), "random"]


def play(arg: str, n: int, *, mode: str | None = None, house: list[str] | None = None,
         seed: int = 0, on_game=None) -> Coverage | None:
    """Play `arg`'s games; None when it is nothing to play (a scenario file). Ctrl-C stops
    the games and returns what was played (`tally.interrupted`)."""
    from engine.api import load
    from engine.coverage.watch import Watch
    runs, mine = plan(arg, mode, list(house or []))
    if not runs:
        return None
    cov = Coverage(arg, mine=mine)
    try:
        for label, kw in runs:
            try:
                game = load(**kw)
            except HordeError as exc:
                for p in exc.problems:
                    cov.tally.problem(p)
                continue
            cov.variants.append(label)
            watch = Watch(game, label, cov.tally)
            for bots in bots_of(game):
                watch.play(bots, game.players_default, n, seed, on_game)
    except KeyboardInterrupt:
        cov.tally.interrupted = True
    return cov
