"""Overlays: how a mode or a house rule changes a pack without copying it.

An overlay is written as a small YAML file with only the changes, so the merge rules must be
few and predictable:

- mappings merge key by key, recursively;
- lists whose items all are mappings with an `id` merge by id: an item with a known id
  merges into that item, an item with a new id is appended (in the overlay's order);
- anything else, including an empty list, replaces what was there;
- the top-level key `remove: {section: [ids]}` deletes list items by id (or keys of a
  mapping section, e.g. a zone) before the rest of the overlay is merged, so an overlay can
  remove an item and define a new one with the same id.

`remove` is recognised at the top level only: deeper down, `remove` is an ordinary name a
pack may use (a procedure or a parameter), and guessing would change such a pack silently.

Merging never changes its inputs; untouched subtrees are shared. Every value keeps the
`Node` it was read as, so an error in a merged value points into the file that wrote it.
"""

from __future__ import annotations

import json
from typing import Any

from engine.errors import PackError, Problem, did_you_mean
from engine.pack.yamlspan import Node

REMOVE = "remove"


def merge(base: Node, over: Node, problems: list[Problem] | None = None) -> Node:
    """`over` laid on top of `base`.

    Problems (a `remove` naming something that does not exist) are appended to `problems`
    when given, so a loader can collect them across files; otherwise they raise PackError.
    """
    found: list[Problem] = []
    if isinstance(base.value, dict) and isinstance(over.value, dict) and REMOVE in over.value:
        base = _apply_remove(base, over.value[REMOVE], found)
        over = without(over, REMOVE)
    result = _merge(base, over)
    if problems is None:
        if found:
            raise PackError(found)
    else:
        problems.extend(found)
    return result


def without(node: Node, *keys: str) -> Node:
    """A copy of mapping `node` lacking `keys` (the same node if it has none of them)."""
    if not isinstance(node.value, dict) or not any(k in node.value for k in keys):
        return node
    value = {k: v for k, v in node.value.items() if k not in keys}
    spans = {k: s for k, s in (node.key_spans or {}).items() if k not in keys}
    return Node(value, node.span, key_spans=spans)


def item_id(node: Node) -> Any:
    """The `id` of a list item, or None when it has no usable one."""
    if isinstance(node.value, dict) and "id" in node.value:
        ident = node.value["id"].value
        if _is_id(ident):
            return ident
    return None


def _is_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


def is_id_list(items: list[Node]) -> bool:
    return all(item_id(item) is not None for item in items)


def _merge(base: Node, over: Node) -> Node:
    old, new = base.value, over.value
    if isinstance(old, dict) and isinstance(new, dict):
        value = dict(old)
        spans = dict(base.key_spans or {})
        for key, child in new.items():
            value[key] = _merge(old[key], child) if key in old else child
            # The key now stands where the overlay wrote it.
            spans[key] = over.key_span(key)
        return Node(value, base.span, key_spans=spans)
    if isinstance(old, list) and isinstance(new, list) and new and is_id_list(old) \
            and is_id_list(new):
        return Node(_merge_by_id(old, new), base.span)
    return over


def _merge_by_id(old: list[Node], new: list[Node]) -> list[Node]:
    items = list(old)
    where: dict[Any, int] = {}
    for index, item in enumerate(items):
        where.setdefault(item_id(item), index)
    for item in new:
        ident = item_id(item)
        if ident in where:
            items[where[ident]] = _merge(items[where[ident]], item)
        else:
            where[ident] = len(items)
            items.append(item)
    return items


def _apply_remove(base: Node, spec: Node, problems: list[Problem]) -> Node:
    """`base` with the items named by a `remove: {section: [ids]}` node taken out."""
    if not isinstance(spec.value, dict):
        problems.append(Problem("remove: expected a mapping of section: [ids to remove]",
                                spec.span))
        return base
    sections = dict(base.value)
    for section, ids in spec.value.items():
        where = spec.key_span(section)
        if section not in sections:
            problems.append(Problem(f"remove: there is no section '{section}' to remove from",
                                    where, hint=did_you_mean(section, sections)))
            continue
        if not isinstance(ids.value, list):
            problems.append(Problem(f"remove.{section}: expected a list of ids", ids.span))
            continue
        problems.extend(Problem(f"remove.{section}: an id is a name or a number", i.span)
                        for i in ids.value if not _is_id(i.value))
        named = [i for i in ids.value if _is_id(i.value)]
        target = sections[section]
        if isinstance(target.value, dict):
            sections[section] = _remove_keys(target, section, named, problems)
        elif isinstance(target.value, list) and is_id_list(target.value):
            sections[section] = _remove_items(target, section, named, problems)
        else:
            problems.append(Problem(
                f"remove: '{section}' is neither a list of items with ids nor a mapping", where))
    return Node(sections, base.span, key_spans=base.key_spans)


def _remove_items(target: Node, section: str, ids: list[Node], problems: list[Problem]) -> Node:
    present = [item_id(item) for item in target.value]
    known = set(present)  # a list would make removing n of n items cost n*n
    gone = set()
    for ident in ids:
        if ident.value in known:
            gone.add(ident.value)
        else:
            problems.append(Problem(f"remove: {section} has no item with id '{ident.value}'",
                                    ident.span, hint=did_you_mean(ident.value, present)))
    return Node([item for item in target.value if item_id(item) not in gone], target.span)


def _remove_keys(target: Node, section: str, ids: list[Node], problems: list[Problem]) -> Node:
    gone = []
    for ident in ids:
        if ident.value in target.value:
            gone.append(ident.value)
        else:
            problems.append(Problem(f"remove: {section} has no '{ident.value}'", ident.span,
                                    hint=did_you_mean(ident.value, target.value)))
    return without(target, *gone)


def diff(base: Any, merged: Any) -> list[str]:
    """The effective changes from plain value `base` to plain value `merged`, one per line:
    `params.blocks: 16 -> 24`, `actions[id=attack].do: changed`, `+ cards[id=foo]`,
    `- cards[id=bar]`."""
    lines: list[str] = []
    _diff(base, merged, "", lines)
    return lines


def _diff(old: Any, new: Any, path: str, lines: list[str]) -> None:
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            sub = f"{path}.{key}" if path else str(key)
            if key in new:
                _diff(value, new[key], sub, lines)
            else:
                lines.append(f"- {sub}")
        for key, value in new.items():
            if key not in old:
                sub = f"{path}.{key}" if path else str(key)
                shown = _short(value)
                lines.append(f"+ {sub}: {shown}" if shown is not None else f"+ {sub}")
        return
    if _plain_id_list(old) and _plain_id_list(new):
        _diff_by_id(old, new, path, lines)
        return
    before, after = _short(old), _short(new)
    where = path or "(whole file)"
    if before is not None and after is not None:
        lines.append(f"{where}: {before} -> {after}")
    else:
        lines.append(f"{where}: changed")


def _diff_by_id(old: list, new: list, path: str, lines: list[str]) -> None:
    olds = {item["id"]: item for item in old}
    news = {item["id"]: item for item in new}
    for ident, item in olds.items():
        if ident in news:
            _diff(item, news[ident], f"{path}[id={ident}]", lines)
        else:
            lines.append(f"- {path}[id={ident}]")
    lines.extend(f"+ {path}[id={ident}]" for ident in news if ident not in olds)


def _plain_id_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and isinstance(item.get("id"), str | int) for item in value)


def _short(value: Any) -> str | None:
    """A one-line rendering of `value`, or None when it would not be short and readable."""
    if isinstance(value, str) and "\n" in value.strip():
        return None
    text = json.dumps(value.strip() if isinstance(value, str) else value, ensure_ascii=False)
    return text if len(text) <= 40 else None
