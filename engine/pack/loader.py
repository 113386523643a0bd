"""Find packs, and load one with its includes, mode and house rules into one Node tree.

A game is assembled from several files: the pack's `pack.yaml` and the files it includes,
then at most one mode (`modes/<mode>.yaml`), then any house rules, each an overlay naming
what it `extends`. This module decides which files those are, reads each once, checks the
links between them (an include cannot leave the pack folder, nothing may include or extend
itself in a loop, a house rule must extend the pack being played), and merges them in order.
Every problem in every file is collected and raised once, as one PackError.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from engine import resources
from engine.errors import PackError, Problem, Span, did_you_mean
from engine.pack.overlay import merge, without
from engine.pack.schema import validate as validate_schema
from engine.pack.yamlspan import Node, compose_file, span_name

PACK_FILE = "pack.yaml"
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
# How far above an overlay file to look for the pack folder it belongs to (modes/x.yaml).
_PACK_SEARCH_DEPTH = 3


@dataclass
class PackInfo:
    """What `horde list` shows about one pack; `problems` instead of an exception, so one
    broken pack does not hide the others."""

    id: str
    title: str | None
    path: Path
    modes: list[str]
    house: list[str]
    players_min: int | None = None
    players_max: int | None = None
    problems: list[Problem] = field(default_factory=list)


@dataclass
class LoadedTree:
    """A pack merged with its mode and house rules, before compilation."""

    node: Node
    files: list[Path]
    pack_id: str
    mode: str | None
    root: Path


def rulesets_dir() -> Path:
    return resources.data_dir("rulesets")


def list_packs() -> list[PackInfo]:
    """Every bundled pack, sorted by folder name."""
    folder = rulesets_dir()
    if not folder.is_dir():
        return []
    return [_pack_info(d) for d in sorted(folder.iterdir()) if (d / PACK_FILE).is_file()]


def resolve_ref(ref: str | Path) -> Path:
    """The YAML file `ref` names: a bundled pack id, a folder with a pack.yaml, or a .yaml
    file (a pack or an overlay). Raises PackError naming the closest pack id otherwise."""
    text = str(ref)
    if isinstance(ref, str) and _ID.fullmatch(ref):
        bundled = rulesets_dir() / ref / PACK_FILE
        if bundled.is_file():
            return bundled.resolve()
    path = Path(text).expanduser()
    if path.is_dir():
        if (path / PACK_FILE).is_file():
            return (path / PACK_FILE).resolve()
        raise PackError([Problem(f"{text}: this folder has no {PACK_FILE}")])
    if path.is_file():
        if path.suffix in (".yaml", ".yml"):
            return path.resolve()
        raise PackError([Problem(f"{text}: not a .yaml file")])
    ids = _pack_ids()
    hint = did_you_mean(text, ids) or (f"known packs: {', '.join(ids)}" if ids else None)
    raise PackError([Problem(f"no pack or file named '{text}'", hint=hint)])


def load_tree(
    ref: str | Path,
    mode: str | None = None,
    house: Sequence[str | Path] = (),
    *,
    validate: bool = True,
) -> LoadedTree:
    """Load pack `ref` with `mode` and `house` rules applied, as one merged Node tree.

    With `validate` (the default) each overlay file is checked against the overlay schema
    and the merged tree against the full one; all problems are raised together.
    """
    loader = _Loader(validate)
    tree = loader.run(ref, mode, house)
    if loader.problems or tree is None:
        raise PackError(_unique(loader.problems))
    return tree


def _pack_info(folder: Path) -> PackInfo:
    info = PackInfo(folder.name, None, folder, _stems(folder / "modes"), _stems(folder / "house"))
    try:
        node = compose_file(folder / PACK_FILE)
    except PackError as e:
        info.problems = e.problems
        return info
    if not isinstance(node.value, dict):
        info.problems = [Problem(f"{PACK_FILE} must be a mapping of sections", node.span)]
        return info
    data = node.value
    if isinstance(_value(data, "pack"), str):
        info.id = data["pack"].value
    if isinstance(_value(data, "title"), str):
        info.title = data["title"].value
    players = data.get("players")
    if players is not None and isinstance(players.value, dict):
        info.players_min = _int(_value(players.value, "min"))
        info.players_max = _int(_value(players.value, "max"))
    return info


def _value(mapping: dict, key: str):
    node = mapping.get(key)
    return node.value if node is not None else None


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _stems(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file()) if folder.is_dir() else []


def _pack_ids() -> list[str]:
    folder = rulesets_dir()
    if not folder.is_dir():
        return []
    return sorted(d.name for d in folder.iterdir() if (d / PACK_FILE).is_file())


def _child(node: Node | None, key: str) -> Node | None:
    return node.value.get(key) if node is not None and isinstance(node.value, dict) else None


def _include_root(path: Path) -> Path:
    """The folder includes of `path` must stay in: its pack's folder, else its own."""
    for folder in list(path.parents)[:_PACK_SEARCH_DEPTH]:
        if (folder / PACK_FILE).is_file():
            return folder
    return path.parent


def _unique(problems: list[Problem]) -> list[Problem]:
    """Problems without repeats: a file reached by two routes is reported once."""
    seen: set = set()
    out = []
    for p in problems:
        key = (p.message, p.span)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


class _Loader:
    """One load: the files read so far and every problem found in them."""

    def __init__(self, validate: bool):
        self.validate = validate
        self.problems: list[Problem] = []
        self.files: list[Path] = []
        self._read: dict[Path, Node | None] = {}

    def run(self, ref, mode, house) -> LoadedTree | None:
        main = self.chain(resolve_ref(ref))
        base_path = main[0][0] if main else None
        base = main[0][1] if main else None
        root = base_path.parent if base_path else None
        layers = main[:1] if main else []
        if mode is not None and root is not None:
            layers += self._mode_layers(root, mode, base_path)
        layers += main[1:] if main else []
        for entry in house:
            layers += self._house_layers(entry, root, base_path)
        if base is None or root is None:
            return None
        layers = list(dict(layers).items())  # each file once, first place kept
        modes = [p.stem for p, _ in layers if p.parent == root / "modes"]
        if len(modes) > 1:
            self.problems.append(Problem(
                f"more than one mode applies ({', '.join(modes)}); a game has one mode",
                hint="a house rule that extends a mode file brings that mode with it"))
        tree = self._base_tree(base)
        for _, node in layers[1:]:
            if self.validate:
                self.problems.extend(validate_schema(node, overlay=True))
            tree = merge(tree, without(node, "extends"), self.problems)
        if self.validate:
            self.problems.extend(validate_schema(tree))
        pack = _child(base, "pack")
        pack_id = pack.value if pack is not None and isinstance(pack.value, str) else root.name
        return LoadedTree(tree, self.files, pack_id, mode or (modes[0] if modes else None), root)

    def chain(self, path: Path) -> list[tuple[Path, Node]] | None:
        """`path` and the files it extends, base pack first; None if a link is broken."""
        layers: list[tuple[Path, Node]] = []
        current: Path | None = path.resolve()
        while current is not None:
            if any(current == p for p, _ in layers):
                names = [span_name(p) for p in (*(p for p, _ in layers), current)]
                self.problems.append(Problem(f"extends cycle: {' -> '.join(names)}"))
                return None
            node = self.read(current)
            if node is None:
                return None
            layers.append((current, node))
            extends = _child(node, "extends")
            if extends is None:
                break
            if _child(node, "pack") is not None:
                self.problems.append(Problem(
                    "a file has either pack (a base pack) or extends (an overlay), not both",
                    node.key_span("pack")))
            current = self._extends_target(extends, current)
            if current is None:
                return None
        layers.reverse()
        return layers

    def read(self, path: Path) -> Node | None:
        """One top-level file with its includes merged in, read once per load."""
        if path not in self._read:
            self._read[path] = self._read_file(path, _include_root(path).resolve(), (path,))
        return self._read[path]

    def _read_file(self, path: Path, root: Path, stack: tuple[Path, ...]) -> Node | None:
        if path not in self.files:
            self.files.append(path)
        try:
            node = compose_file(path)
        except PackError as e:
            self.problems.extend(e.problems)
            return None
        return self._expand_includes(node, path, root, stack)

    def _expand_includes(self, node: Node, path: Path, root: Path, stack) -> Node:
        """`node` with its `include:` files merged in order and its own keys on top."""
        include = _child(node, "include")
        if include is None:
            return node
        own = without(node, "include")
        if not isinstance(include.value, list):
            self.problems.append(Problem("include: expected a list of file paths", include.span))
            return own
        merged: Node | None = None
        for item in include.value:
            target = self._include_target(item, path, root, stack)
            part = self._read_file(target, root, (*stack, target)) if target else None
            if part is None:
                continue
            if not isinstance(part.value, dict):
                self.problems.append(Problem("an included file must be a mapping of sections",
                                             part.span))
                continue
            for key in ("pack", "extends", "remove"):
                if key in part.value:
                    self.problems.append(Problem(f"an included file cannot have '{key}'",
                                                 part.key_span(key)))
            part = without(part, "pack", "extends", "remove")
            merged = part if merged is None else merge(merged, part, self.problems)
        if merged is None:
            return own
        # An overlay's `remove` is meant for the pack it extends, not for its own includes.
        result = merge(merged, without(own, "remove"), self.problems)
        remove = _child(own, "remove")
        if remove is not None:
            result.value["remove"] = remove
            result.key_spans["remove"] = own.key_span("remove")
        return result

    def _include_target(self, item: Node, path: Path, root: Path, stack) -> Path | None:
        text = item.value
        if not isinstance(text, str) or not text:
            self.problems.append(Problem("include: expected a file path", item.span))
            return None
        if text.startswith(("/", "\\")) or PureWindowsPath(text).drive:
            self.problems.append(Problem(f"include '{text}': absolute paths are not allowed",
                                         item.span, hint="write a path relative to this file"))
            return None
        target = (path.parent / text).resolve()
        if not target.is_relative_to(root):
            self.problems.append(Problem(f"include '{text}' leaves the pack folder", item.span,
                                         hint=f"included files must be inside {span_name(root)}"))
            return None
        if target in stack:
            names = " -> ".join(p.relative_to(root).as_posix() for p in (*stack, target))
            self.problems.append(Problem(f"include cycle: {names}", item.span))
            return None
        if target.suffix not in (".yaml", ".yml") or not target.is_file():
            siblings = _stems(target.parent)
            hint = did_you_mean(Path(text).stem, siblings)
            self.problems.append(Problem(f"include '{text}': no such .yaml file", item.span,
                                         hint=hint))
            return None
        return target

    def _extends_target(self, extends: Node, path: Path) -> Path | None:
        """The file an overlay's `extends:` names: a pack id or a path relative to it."""
        value = extends.value
        if not isinstance(value, str) or not value:
            self.problems.append(Problem("extends: expected a pack id or a relative path",
                                         extends.span))
            return None
        if _ID.fullmatch(value):
            found = self._pack_by_id(value, path)
            if found is not None:
                return found
        target = path.parent / value
        if target.is_dir():
            target = target / PACK_FILE
        if target.is_file():
            return target.resolve()
        self.problems.append(Problem(f"extends '{value}': no pack with this id and no such file",
                                     extends.span, hint=did_you_mean(value, _pack_ids())))
        return None

    def _pack_by_id(self, pack_id: str, path: Path) -> Path | None:
        """The pack `pack_id`: the one the file sits in if its id matches, else a bundled one."""
        for folder in list(path.parents)[:_PACK_SEARCH_DEPTH]:
            candidate = (folder / PACK_FILE).resolve()
            if candidate != path and candidate.is_file() \
                    and self._declared_id(candidate) == pack_id:
                return candidate
        bundled = rulesets_dir() / pack_id / PACK_FILE
        return bundled.resolve() if bundled.is_file() else None

    def _declared_id(self, path: Path) -> str | None:
        """The `pack:` id of a pack file, read quietly: it may be some unrelated pack."""
        node = self._read.get(path)
        if node is None:
            try:
                node = compose_file(path)
            except PackError:
                return None
        pack = _child(node, "pack")
        return pack.value if pack is not None else None

    def _mode_layers(self, root: Path, mode: str, base_path: Path):
        modes = _stems(root / "modes")
        if not _ID.fullmatch(mode) or mode not in modes:
            hint = did_you_mean(mode, modes) or (
                f"modes of this pack: {', '.join(modes)}" if modes else "this pack has no modes")
            self.problems.append(Problem(f"unknown mode '{mode}'", hint=hint))
            return []
        return self._overlay_layers(root / "modes" / f"{mode}.yaml", base_path, f"mode '{mode}'")

    def _house_layers(self, entry: str | Path, root: Path | None, base_path: Path | None):
        text = str(entry)
        path = Path(text).expanduser()
        if not path.is_file() and root is not None and isinstance(entry, str) \
                and _ID.fullmatch(text):
            path = root / "house" / f"{text}.yaml"
        if not path.is_file():
            names = _stems(root / "house") if root is not None else []
            self.problems.append(Problem(f"house rule '{text}': no such file or house rule",
                                         hint=did_you_mean(text, names)))
            return []
        return self._overlay_layers(path, base_path, "house rule")

    def _overlay_layers(self, path: Path, base_path: Path | None, what: str):
        """The overlays from `path` down to the base pack, which must be `base_path`."""
        chain = self.chain(path)
        if chain is None or base_path is None:
            return []
        name = span_name(path)
        if len(chain) == 1:
            self.problems.append(Problem(
                f"{name} is a base pack, not an overlay: a {what} needs 'extends'",
                Span(name, 1, 1)))
            return []
        if chain[0][0] != base_path:
            extends = _child(chain[1][1], "extends")
            self.problems.append(Problem(
                f"{what} extends {span_name(chain[0][0])}, not the pack being loaded "
                f"({span_name(base_path)})", extends.span if extends else None))
            return []
        return chain[1:]

    def _base_tree(self, base: Node) -> Node:
        remove = _child(base, "remove")
        if remove is not None:
            self.problems.append(Problem(
                "remove is for overlays (files with extends); a base pack has nothing to remove",
                base.key_span("remove")))
        return without(base, "remove")
