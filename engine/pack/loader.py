"""Find packs, and load one with its includes, mode and house rules into one Node tree.

A game is assembled from several files: the pack's `pack.yaml` and the files it includes,
then at most one mode (`modes/<mode>.yaml`), then any house rules, each an overlay naming
what it `extends`. This module decides which files those are, reads each once, checks the
links between them (nothing may include or extend itself in a loop, a house rule must
extend the pack being played), and merges them in order. Every problem in every file is
collected and raised once, as one PackError.

Every file is read only as `engine.pack.confine` allows: a pack's files stay in its
folder; a file the caller names (a house rule on the command line) may lie anywhere, and
its `extends:` may name a pack file anywhere, but nothing that is not one. One load reads
at most MAX_FILES files, includes nest at most MAX_INCLUDE_DEPTH deep, and all files
together are bounded by a `yamlspan.Budget` (bytes read, values read or merged in).

A load keeps what it read (`LoadedTree.sources`), and can load from that instead of the
disk (`sources=`): a worker on another machine builds the same game from it, with the
same confinement, reading nothing from its own disk (`engine.pack.sources`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from engine import resources
from engine.errors import HordeError, PackError, Problem, Span, did_you_mean
from engine.pack.confine import PACK_FILE, pack_home, real, stems, unreadable
from engine.pack.overlay import duplicate_ids, merge, without
from engine.pack.schema import validate as validate_schema
from engine.pack.sources import Disk, Sources
from engine.pack.yamlspan import Budget, Node, compose_bytes, compose_file, span_name

_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
# How far above an overlay file to look for the pack folder it belongs to (modes/x.yaml).
_PACK_SEARCH_DEPTH = 3
# The bundled packs have at most five files and one level of includes: a load of 256
# files, or includes 16 deep, is no pack anybody writes but can be a trap (a few files
# including each other many ways round). Each level of includes is two Python frames.
MAX_FILES = 256
MAX_INCLUDE_DEPTH = 16


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
    sources: Sources | None = None  # what was read, to load the same again elsewhere


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
    named = _locate(ref)
    problem = unreadable(named, real(named), pack_home(named), span_name(named))
    if problem is not None:
        raise PackError([problem])
    return real(named)


def load_tree(
    ref: str | Path,
    mode: str | None = None,
    house: Sequence[str | Path] = (),
    *,
    validate: bool = True,
    sources: Sources | None = None,
) -> LoadedTree:
    """Load pack `ref` with `mode` and `house` rules applied, as one merged Node tree.

    `ref` and the `house` paths are files the caller names (a user's command line): they
    may lie anywhere, unlike the files they lead to. With `validate` (the default) each
    overlay file is checked against the overlay schema and the merged tree against the
    full one; all problems are raised together. With `sources` (what an earlier load
    kept), every file is read from there and nothing from the disk.
    """
    loader = _Loader(validate, sources)
    tree = loader.run(ref, mode, house)
    if loader.problems or tree is None:
        raise PackError(_unique(loader.problems))
    return tree



def _locate(ref: str | Path, fs: Disk | Sources | None = None) -> Path:
    """The file `ref` names, as named (not resolved)."""
    fs = fs or Disk(rulesets=rulesets_dir)
    text = str(ref)
    if isinstance(ref, str) and _ID.fullmatch(ref):
        bundled = fs.rulesets() / ref / PACK_FILE
        if fs.kind(bundled) == "file":
            return bundled
    path = Path(text).expanduser()
    if fs.kind(path) == "dir":
        if fs.kind(path / PACK_FILE) is not None:
            return path / PACK_FILE
        raise PackError([Problem(f"{text}: this folder has no {PACK_FILE}")])
    if fs.kind(path) is not None:
        return path
    ids = _pack_ids(fs)
    hint = did_you_mean(text, ids) or (f"known packs: {', '.join(ids)}" if ids else None)
    raise PackError([Problem(f"no pack or file named '{text}'", hint=hint)])


def _pack_info(folder: Path) -> PackInfo:
    info = PackInfo(folder.name, None, folder, stems(folder / "modes"), stems(folder / "house"))
    named = folder / PACK_FILE
    problem = unreadable(named, real(named), real(folder), span_name(named))
    try:
        if problem is not None:
            raise PackError([problem])
        node = compose_file(named, budget=Budget())
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


def _pack_ids(fs: Disk | Sources | None = None) -> list[str]:
    fs = fs or Disk(rulesets=rulesets_dir)
    folder = fs.rulesets()
    return [name for name in fs.names(folder) if fs.kind(folder / name / PACK_FILE) == "file"]


def _child(node: Node | None, key: str) -> Node | None:
    return node.value.get(key) if node is not None and isinstance(node.value, dict) else None


def _include_root(path: Path, fs: Disk | Sources) -> Path:
    """The folder includes of a file the caller named must stay in: the pack folder it
    lies in, else its own."""
    for folder in list(path.parents)[:_PACK_SEARCH_DEPTH]:
        if fs.kind(folder / PACK_FILE) == "file":
            return folder
    return path.parent


def _size(node: Node) -> int:
    """How many values `node` stands for (shared subtrees counted each time)."""
    count, todo = 0, [node]
    while todo:
        value = todo.pop().value
        count += 1
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return count


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
    """One load: the files read so far, what is left of its budget, every problem found.

    A file is named by (path, home): `home` is the folder of the pack it belongs to, which
    it and what it includes or extends by path must stay in, or None for a file the caller
    named (its includes stay in its own folder, its `extends:` must name a pack file).
    """

    def __init__(self, validate: bool, sources: Sources | None = None):
        self.validate = validate
        self.links: dict[str, str] = {}
        self.fs: Disk | Sources = sources if sources is not None else Disk(self.links, rulesets_dir)
        self.texts: dict[Path, bytes] = {}
        self.problems: list[Problem] = []
        self.files: list[Path] = []
        self.budget = Budget()
        self._parsed: dict[Path, Node | None] = {}  # each file composed once per load
        self._expanded: dict[tuple[Path, Path], Node | None] = {}  # and its includes merged
        self._ids: dict[Path, str | None] = {}  # the `pack:` of files looked at for an id

    def run(self, ref, mode, house) -> LoadedTree | None:
        named = _locate(ref, self.fs)
        main = self.chain(named, pack_home(named, self.fs), span_name(named))
        base_path = main[0][0] if main else None
        base = main[0][1] if main else None
        root = base_path.parent if base_path else None
        layers = main[:1] if main else []
        if mode is not None and base_path is not None:
            layers += self._mode_layers(base_path.parent, mode, base_path)
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
        sources = Sources.of(named, house, self.texts, self.links, self.fs)
        return LoadedTree(tree, self.files, pack_id, mode or (modes[0] if modes else None), root,
                          sources)

    def chain(self, named: Path, home: Path | None, what: str,
              span: Span | None = None) -> list[tuple[Path, Node]] | None:
        """`named` and the files it extends, base pack first; None if a link is broken."""
        layers: list[tuple[Path, Node]] = []
        current = self.admit(named, home, what, span)
        while current is not None:
            if any(current == p for p, _ in layers):
                names = [span_name(p) for p in (*(p for p, _ in layers), current)]
                self.problems.append(Problem(f"extends cycle: {' -> '.join(names)}"))
                return None
            node = self.read(current, home if home is not None else _include_root(current, self.fs))
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
            target = self._extends_target(extends, current, home)
            if target is None:
                return None
            named, home = target
            current = self.admit(named, home, f"extends '{extends.value}'", extends.span)
        if current is None:
            return None
        layers.reverse()
        return layers

    def admit(self, named: Path, home: Path | None, what: str,
              span: Span | None = None) -> Path | None:
        """The real path of `named` if this load may read it (`confine.unreadable`), else
        None with the problem noted."""
        if self.budget.spent:  # told once already
            return None
        target = self.fs.real(named)
        problem = unreadable(named, target, home, what, span, self.fs)
        if problem is None and target not in self._parsed and len(self._parsed) >= MAX_FILES:
            problem = Problem(f"{what}: this load already read {MAX_FILES} files, the most "
                              "one load reads", span, hint="a pack includes each file once")
        if problem is not None:
            self.problems.append(problem)
            return None
        return target

    def read(self, path: Path, root: Path, stack: tuple[Path, ...] = ()) -> Node | None:
        """File `path` (admitted) with its includes merged in, each read once per load."""
        key = (path, root)
        if key not in self._expanded:
            node = self._compose(path)
            self._expanded[key] = None if node is None else \
                self._expand_includes(node, path, root, (*stack, path))
        return self._expanded[key]

    def _compose(self, path: Path) -> Node | None:
        if path not in self._parsed:
            self.files.append(path)
            try:
                data = self.texts[path] = self.fs.read(path, span_name(path))
                node = compose_bytes(data, span_name(path), self.budget)
                self.problems.extend(duplicate_ids(node))
                self._parsed[path] = node
            except PackError as e:
                self.problems.extend(e.problems)
                self._parsed[path] = None
        return self._parsed[path]

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
            part = self.read(target, root, stack) if target else None
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
            if self.budget.spent:  # told once already
                break
            self.budget.nodes -= _size(part)  # merging costs what the part holds, each time
            if self.budget.spent:
                self.problems.append(self.budget.too_many(item.span))
                break
            part = without(part, "pack", "extends", "remove")
            merged = part if merged is None else merge(merged, part, self.problems)
        if merged is None:
            return own
        # An overlay's `remove` is meant for the pack it extends, not for its own includes.
        result = merge(merged, without(own, "remove"), self.problems)
        remove = _child(own, "remove")
        if remove is not None:
            result.value["remove"] = remove
            result.key_spans = {**(result.key_spans or {}), "remove": own.key_span("remove")}
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
        if len(stack) > MAX_INCLUDE_DEPTH:
            self.problems.append(Problem(
                f"include '{text}': includes nest more than {MAX_INCLUDE_DEPTH} files deep",
                item.span, hint="include the files from pack.yaml instead"))
            return None
        target = self.admit(path.parent / text, root, f"include '{text}'", item.span)
        if target in stack:
            names = " -> ".join(p.relative_to(root).as_posix() for p in (*stack, target))
            self.problems.append(Problem(f"include cycle: {names}", item.span))
            return None
        return target

    def _extends_target(self, extends: Node, path: Path, home: Path | None):
        """(file, home) that an overlay's `extends:` names: a pack id, or a path relative
        to it, inside its pack folder for a pack file, a pack file for one the caller
        named. None if there is none (the problem noted)."""
        value = extends.value
        if not isinstance(value, str) or not value:
            self.problems.append(Problem("extends: expected a pack id or a relative path",
                                         extends.span))
            return None
        if _ID.fullmatch(value):
            found = self._pack_by_id(value, path, home)
            if found is not None:
                return found
        target = path.parent / value
        if self.fs.kind(target) == "dir":
            target = target / PACK_FILE
        if home is not None:
            if not self.fs.real(target).is_relative_to(home) or self.fs.kind(target) is not None:
                return target, home  # `admit` says what is wrong with it, if anything
        elif self.fs.kind(target) is not None:
            found_home = pack_home(target, self.fs)
            if found_home is not None:
                return target, found_home
            self.problems.append(Problem(
                f"extends '{value}': not a pack file", extends.span,
                hint="a house rule extends a pack (its id, folder or pack.yaml) or a .yaml in "
                     "a pack's modes/ or house/ folder"))
            return None
        self.problems.append(Problem(f"extends '{value}': no pack with this id and no such file",
                                     extends.span, hint=did_you_mean(value, _pack_ids(self.fs))))
        return None

    def _pack_by_id(self, pack_id: str, path: Path, home: Path | None):
        """The pack `pack_id` as (file, home): the one the file sits in if its id matches
        (never above the file's own pack folder), else a bundled one."""
        for folder in list(path.parents)[:_PACK_SEARCH_DEPTH]:
            if home is not None and not folder.is_relative_to(home):
                break
            candidate = folder / PACK_FILE
            found = self.fs.real(candidate)
            if found != path and unreadable(candidate, found, folder, "", None, self.fs) is None \
                    and self._declared_id(found) == pack_id:
                return candidate, folder
        bundled = self.fs.rulesets() / pack_id / PACK_FILE
        return (bundled, self.fs.real(bundled.parent)) if self.fs.kind(bundled) == "file" else None

    def _declared_id(self, path: Path) -> str | None:
        """The `pack:` id of a pack file, read quietly: it may be some unrelated pack."""
        if path not in self._ids:
            node = self._parsed.get(path)
            try:
                node = node or compose_bytes(self.fs.read(path, span_name(path)), span_name(path),
                                             self.budget)
            except PackError:
                node = None
            pack = _child(node, "pack")
            self._ids[path] = pack.value if pack is not None else None
        return self._ids[path]

    def _mode_layers(self, root: Path, mode: str, base_path: Path):
        modes = stems(root / "modes", self.fs)
        if not _ID.fullmatch(mode) or mode not in modes:
            hint = did_you_mean(mode, modes) or (
                f"modes of this pack: {', '.join(modes)}" if modes else "this pack has no modes")
            self.problems.append(Problem(f"unknown mode '{mode}'", hint=hint))
            return []
        return self._overlay_layers(root / "modes" / f"{mode}.yaml", root, base_path,
                                    f"mode '{mode}'")

    def _house_layers(self, entry: str | Path, root: Path | None, base_path: Path | None):
        text = str(entry)
        path = Path(text).expanduser()
        home = pack_home(path, self.fs)
        if self.fs.kind(path) is None and root is not None and isinstance(entry, str) \
                and _ID.fullmatch(text):
            path, home = root / "house" / f"{text}.yaml", root
        if self.fs.kind(path) is None:
            names = stems(root / "house", self.fs) if root is not None else []
            self.problems.append(Problem(f"house rule '{text}': no such file or house rule",
                                         hint=did_you_mean(text, names)))
            return []
        return self._overlay_layers(path, home, base_path, "house rule")

    def _overlay_layers(self, path: Path, home: Path | None, base_path: Path | None, what: str):
        """The overlays from `path` down to the base pack, which must be `base_path`."""
        name = span_name(path)
        chain = self.chain(path, home, f"{name} ({what})")
        if chain is None or base_path is None:
            return []
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


def reloaded_node(game):
    """The merged node tree `game` was compiled from, read again from its files, for a place
    to point at (None for a game made without files, or one whose files no longer load)."""
    if game.sources is None:
        return None
    try:
        return load_tree(game.sources.ref, mode=game.mode, house=game.sources.house,
                         validate=False, sources=game.sources).node
    except HordeError:
        return None
