"""Walk the JSON Schema of packs and overlays along a YAML key path: which keys may be
written there (completion), what a key means (hover), and whether the value there is
effect-language text (where builtins complete)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

SNIPPETS = frozenset({"code", "expr", "condition", "value"})  # $defs that are snippets
_MAX_STEPS = 64  # a path deeper than any pack's; $refs resolved at most this often


@cache
def schema(name: str) -> dict:
    from engine.pack.schema import _schema_bytes
    return json.loads(_schema_bytes(name))


def _expand(root: dict, node: Any, seen: int = 0) -> list[tuple[dict, str | None]]:
    """`node` with its $refs, allOf/anyOf/oneOf and if/then/else opened: the schemas a
    value there may match, each with the $def it came through."""
    out: list[tuple[dict, str | None]] = []
    stack: list[tuple[Any, str | None]] = [(node, None)]
    while stack and seen < _MAX_STEPS:
        seen += 1
        s, via = stack.pop()
        if not isinstance(s, dict):
            continue
        ref = s.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.rsplit("/", 1)[1]
            stack.append((root.get("$defs", {}).get(name), name))
            continue
        out.append((s, via))
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend((x, via) for x in s.get(key, []))
        for key in ("then", "else"):
            if key in s:
                stack.append((s[key], via))
    return out


def at(name: str, path: list[str]) -> list[tuple[dict, str | None]]:
    """The schemas that may hold the value at `path` ('[]' for a list's item)."""
    root = schema(name)
    here = _expand(root, root)
    for key in path[:_MAX_STEPS]:
        nxt: list[Any] = []
        for s, _ in here:
            if key == "[]":
                if "items" in s:
                    nxt.append(s["items"])
            elif key in s.get("properties", {}):
                nxt.append(s["properties"][key])
            elif isinstance(s.get("additionalProperties"), dict):
                nxt.append(s["additionalProperties"])
        here = [x for n in nxt for x in _expand(root, n)]
    return here


def keys(name: str, path: list[str]) -> dict[str, str]:
    """The keys a mapping at `path` may have, each with its description."""
    out: dict[str, str] = {}
    root = schema(name)
    for s, _ in at(name, path):
        for key, sub in s.get("properties", {}).items():
            if key not in out or not out[key]:
                out[key] = describe(root, sub)
    return out


def describe(root: dict, node: Any) -> str:
    for s, via in _expand(root, node):
        if s.get("description"):
            return str(s["description"])
        if via and root.get("$defs", {}).get(via, {}).get("$comment"):
            return str(root["$defs"][via]["$comment"])
    return ""


def is_snippet(name: str, path: list[str]) -> bool:
    return any(via in SNIPPETS for _, via in at(name, path))
