"""Rules of the engine's shape that no review catches reliably, checked on its source.

- No import cycles among engine/ modules: a cycle makes the order modules load in matter,
  forces function-local imports, and hides which layer owns what.
- Python's `ast` is for the compiler only: code that parses the compiler's generated Python
  to learn what a snippet does breaks silently whenever the compiler's output changes.
- engine/ names no game: a pack id or a card id in engine code means a rule lives in the
  interpreter instead of in its pack.

The KNOWN lists are what is left to fix: a new entry fails, and so does an entry that is
fixed but still listed, so the lists can only shrink.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"

# Cycles left to break, each as the set of modules it runs through: none are left.
KNOWN_CYCLES: set[frozenset[str]] = set()
# Modules that may import Python's `ast`: the compiler, and the resolver that records a
# snippet's facts on the language's own tree (whatever its module is named).
AST_ALLOWED = re.compile(r"engine\.dsl\.(compiler|resolve\w*|facts\w*)$")
# Modules outside those that still read generated Python with `ast`.
KNOWN_AST_USERS: set[str] = set()
# Ids of bundled things that are also everyday words of code ("keys", "mine"...).
PLAIN_WORDS = {"keys", "mine", "quick", "runner"}


def modules(package: Path = ENGINE) -> dict[str, Path]:
    """Every module of `package`, by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside top-level `if TYPE_CHECKING:` blocks: those imports are
    for the type checker and never run."""
    skip: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _targets(name: str, node: ast.Import | ast.ImportFrom, mods: dict[str, Path]) -> set[str]:
    """The engine modules an import statement in module `name` loads."""
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".")
            if mods[name].name != "__init__.py":
                package = package[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join(package + ([node.module] if node.module else []))
        # `from pkg import sub` loads the submodule; `from mod import name` the module
        wanted = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
    out = set()
    for target in wanted:
        # importing a.b.c loads a.b first: the packages on the way count too, except
        # those the importer is inside of (they are loaded already)
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            mod = ".".join(parts[:i])
            if mod in mods and not (name == mod or name.startswith(mod + ".")):
                out.add(mod)
    return out


def import_graph(package: Path = ENGINE) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports, at module level or in functions."""
    mods = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skip = _type_checking_only(tree)
        graph[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                graph[name] |= _targets(name, node, mods)
        # a package handing on its own submodules is its face, not a cycle
        if path.name == "__init__.py":
            graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The groups of modules that import each other in a circle (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, successors = work[-1]
            for w in successors:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.add(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        groups.append(frozenset(group))
    return groups


def a_cycle(graph: dict[str, set[str]], group: frozenset[str]) -> list[str]:
    """One concrete circle of imports through the modules of `group`, for the message."""
    start = min(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    raise AssertionError(f"no circle through {sorted(group)}")


def describe(graph: dict[str, set[str]], groups) -> str:
    return "\n".join(f"{' -> '.join(a_cycle(graph, g))} (all in the circle: {', '.join(sorted(g))})"
                     for g in sorted(groups, key=sorted))


def test_the_graph_sees_every_kind_of_import(tmp_path):
    files = {
        "__init__.py": "from e.a import x\n",
        "a.py": "import e.sub.b\nx = 1\n",
        "sub/__init__.py": "from . import b\n",
        "sub/b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import e.c\n"
                     "def f():\n    from ..c import y\n"),
        "c.py": "from e import sub\nfrom e.sub import b\ny = 2\n",
    }
    for rel, text in files.items():
        (tmp_path / "e" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "e" / rel).write_text(text)
    assert import_graph(tmp_path / "e") == {
        "e": set(),  # a package's own submodules are its face
        "e.a": {"e.sub", "e.sub.b"},  # a package on the way is loaded too
        "e.sub": set(),
        "e.sub.b": {"e.c"},  # in a function, relative; not the TYPE_CHECKING one
        "e.c": {"e.sub", "e.sub.b"},  # `from package import submodule`
    }
    assert strongly_connected(import_graph(tmp_path / "e")) == [frozenset({"e.sub.b", "e.c"})]
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(g) == [frozenset("abc")]
    assert a_cycle(g, frozenset("abc")) == ["a", "b", "c", "a"]


def test_no_import_cycles_but_the_known_ones():
    graph = import_graph()
    found = set(strongly_connected(graph))
    new = found - KNOWN_CYCLES
    assert not new, f"import cycles in engine/:\n{describe(graph, new)}"
    gone = KNOWN_CYCLES - found
    assert not gone, ("these cycles are broken: take them off KNOWN_CYCLES in "
                      f"{Path(__file__).name}: {[sorted(g) for g in gone]}")


def python_ast_users() -> set[str]:
    out = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                if any(a.name == "ast" for a in node.names):
                    out.add(name)
            elif isinstance(node, ast.ImportFrom) and node.module == "ast" and not node.level:
                out.add(name)
    return {m for m in out if not AST_ALLOWED.match(m)}


def test_only_the_compiler_uses_python_ast():
    found = python_ast_users()
    new = found - KNOWN_AST_USERS
    assert not new, (f"{sorted(new)} import Python's ast: only the compiler reads Python; "
                     "learn what a snippet does from the facts the DSL records on its own tree")
    gone = KNOWN_AST_USERS - found
    assert not gone, ("these modules no longer use Python's ast: take them off "
                      f"KNOWN_AST_USERS in {Path(__file__).name}: {sorted(gone)}")


def bundled_ids() -> set[str]:
    """The ids of the bundled packs, their modes and house rules, cards and kinds."""
    ids = set()
    for pack in (ROOT / "rulesets").iterdir():
        if not pack.is_dir():
            continue
        ids.add(pack.name)
        for path in pack.rglob("*.yaml"):
            if path.parent.name in ("modes", "house"):
                ids.add(path.stem)
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            for section in ("cards", "kinds"):
                entries = data.get(section) if isinstance(data, dict) else None
                for entry in entries if isinstance(entries, list) else ():
                    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                        ids.add(entry["id"])
    return ids


def naming(ids: set[str]) -> re.Pattern:
    """A pattern finding any of `ids` as a word, in any case, plural, with - or _."""
    words = "|".join(re.escape(i).replace(r"\-", "[-_]") for i in sorted(ids - PLAIN_WORDS))
    return re.compile(rf"(?<![\w-])({words})s?(?![\w-])", re.IGNORECASE)


def test_engine_names_no_bundled_game():
    ids = bundled_ids()
    assert {"roll-them-bones", "theyre-coming", "defcon-z"} <= ids
    assert len(ids) > 40  # the cards were found too
    pattern = naming(ids)
    assert all(pattern.search(t) for t in ("if kind == 'Zombies':", "FIRST_AID_KIT", "defcon-z"))
    assert not pattern.search("mine = os.getuid()  # a long game")
    hits = []
    for path in sorted(ENGINE.rglob("*")):
        if path.suffix in (".py", ".lark", ".json"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for m in pattern.finditer(line):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: '{m.group(0)}': {line.strip()}")
    assert not hits, "engine/ names a bundled game's things:\n" + "\n".join(hits)
