"""What `horde validate --strict` says about one file, in its pack context, from the
editor's text.

The file is read from the editor's buffer and every other file from the disk
(`yamlspan.unsaved`), through the same loader, so the same folder rules and budgets hold.
A pack file is checked as validate checks it (base, every mode, every house rule); a file
a pack includes, as its pack; a mode, against its pack; a house rule, against its pack
alone and with each of the pack's modes; a scenario file, as validate checks one. Beside
the problems, the load keeps the merged tree and the compiled game (for names, hover and
definitions), and for an overlay the tree of the pack it extends (what it patches).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import HordeError, PackError, Problem
from engine.lsp.names import Names
from engine.pack.yamlspan import Node, compose_text, unsaved


@dataclass
class Analysis:
    path: Path
    kind: str  # pack, fragment, overlay, scenario or file
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    doc: Node | None = None  # this file's own tree
    names: Names = field(default_factory=lambda: Names(None))
    base: Names | None = None  # an overlay's base pack
    pack_file: Path | None = None
    mode: str | None = None  # the mode an overlay brings (one that extends a mode file)
    texts: dict[str, bytes] = field(default_factory=dict)  # real path -> what the load read


def _kind(path: Path, doc: Node) -> str:
    value = doc.value
    items = value if isinstance(value, list) else [doc]
    if items and all(isinstance(n.value, dict) and "scenario" in n.value for n in items):
        return "scenario"
    if isinstance(value, dict) and "extends" in value:
        return "overlay"
    if isinstance(value, dict) and "pack" in value and path.name == "pack.yaml":
        return "pack"
    return "fragment" if _including_pack(path) is not None else "file"


def _including_pack(path: Path) -> Path | None:
    """The pack.yaml of a folder above `path` (the nearest) that includes it."""
    from engine.pack.confine import PACK_FILE
    from engine.pack.loader import load_tree
    for folder in list(path.parents)[:3]:
        if (folder / PACK_FILE).is_file():
            try:
                files = load_tree(folder / PACK_FILE, validate=False).files
            except HordeError:
                return None
            return folder / PACK_FILE if path in files else None
    return None


def _context(ref: Path, **kw) -> tuple[Names, Path | None, dict[str, bytes], str | None]:
    """The names of one load (its game's too when it compiles), its pack file, its files
    and its mode."""
    from engine.api import load
    from engine.pack.loader import load_tree
    try:
        tree = load_tree(ref, validate=False, **kw)
    except HordeError:
        return Names(None), None, {}, None
    try:
        game = load(ref, **kw)
    except HordeError:
        game = None
    files = dict(tree.sources.files if tree.sources else ())
    return Names(tree.node, game), tree.root / "pack.yaml", files, tree.mode


def analyse(path: Path, text: str, others: dict[str, str] | None = None) -> Analysis:
    """Check file `path` as the editor holds it (`text`); `others`: other unsaved files."""
    real = os.path.realpath(path)
    held = {os.path.realpath(p): t.encode("utf-8") for p, t in (others or {}).items()}
    held[real] = text.encode("utf-8")
    with unsaved(held):
        return _analyse(Path(real), text)


def _analyse(path: Path, text: str) -> Analysis:
    from engine.cli import validate
    from engine.pack.yamlspan import span_name
    try:
        doc = compose_text(text, span_name(path))
    except PackError as exc:
        return Analysis(path, "file", exc.problems[:1])
    kind = _kind(path, doc)
    out = Analysis(path, kind, doc=doc)
    if kind == "scenario":
        verdict = validate.check_scenarios(path, [])
    elif kind in ("pack", "fragment"):
        pack = path if kind == "pack" else _including_pack(path)
        assert pack is not None
        verdict = validate.check_pack(pack)
        out.names, out.pack_file, out.texts, out.mode = _context(pack)
    elif kind == "overlay":
        verdict = validate.check_file(path)
        out.names, out.pack_file, out.texts, out.mode = _context(path)
        _with_modes(path, out, verdict)
        if out.pack_file is not None:
            out.base = _context(out.pack_file)[0]
    else:
        verdict = validate.check_file(path)
        out.names, out.pack_file, out.texts, out.mode = _context(path)
    out.problems, out.warnings = verdict.problems, verdict.warnings
    return out


def _with_modes(path: Path, out: Analysis, verdict) -> None:
    """A house rule of a pack with modes is played with any of them: check each (unless it
    brings its mode, extending a mode file)."""
    if out.pack_file is None or out.mode is not None:
        return
    from engine.cli import validate
    from engine.pack.confine import stems
    modes = stems(out.pack_file.parent / "modes")[:validate.MAX_OVERLAYS]
    problems, warned = list(verdict.problems), list(verdict.warnings)
    for mode in modes:
        validate._warn(validate._load(out.pack_file, problems, mode=mode, house=[path]),
                       warned, path)
    verdict.problems, verdict.warnings = validate._unique(problems), validate._unique(warned)
