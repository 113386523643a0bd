"""Loading rule packs: YAML with positions, includes, overlays, and schema checks.

The pipeline's first stage. `load_tree` turns a pack id (plus a mode and house rules) into
one merged tree of `Node`s, every value knowing its `file:line:col`, or raises one
`PackError` listing everything wrong. Semantic checks and compilation come after this.
"""

from engine.pack.changes import diff
from engine.pack.loader import LoadedTree, PackInfo, list_packs, load_tree, resolve_ref
from engine.pack.overlay import merge
from engine.pack.schema import validate, validate_scenario
from engine.pack.yamlspan import Node, compose_file, compose_text, node_at, plain

__all__ = [
    "LoadedTree",
    "Node",
    "PackInfo",
    "compose_file",
    "compose_text",
    "diff",
    "list_packs",
    "load_tree",
    "merge",
    "node_at",
    "plain",
    "resolve_ref",
    "validate",
    "validate_scenario",
]
