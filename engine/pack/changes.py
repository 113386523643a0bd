"""What an overlay changes in a pack, item by item: `horde diff`.

A house rule is read against its base, so the answer is said the way the files are written:
each item added, removed or changed in every list, named by its id (`actions[id=aim]`),
each changed field with its old and new value when both are short, and where the change
was written (the overlay's line for what it adds or changes, the base's for what it
removes). Lists are matched the way the overlay merge matches them: items with an id by id,
the items without one by their order among themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.errors import Span
from engine.pack.overlay import item_id
from engine.pack.yamlspan import Node, plain

_SHORT = 40  # longest value shown in full; longer ones are "changed"


@dataclass(frozen=True)
class Change:
    """One line of a diff: `sign` is +, - or ~ (changed)."""

    sign: str
    path: str
    detail: str | None
    span: Span | None

    def text(self) -> str:
        head = f"{self.sign} {self.path}" + (f": {self.detail}" if self.detail else "")
        return head if self.span is None else f"{head}  ({self.span.file}:{self.span.line})"


def changes(base: Node, merged: Node) -> list[Change]:
    """Every effective change from tree `base` to tree `merged`."""
    out: list[Change] = []
    _diff(base, merged, "", out)
    return out


def diff(base: Node, merged: Node) -> list[str]:
    """`changes` as lines: `~ params.blocks: 16 -> 24  (house.yaml:3)`."""
    return [c.text() for c in changes(base, merged)]


def _diff(old: Node, new: Node, path: str, out: list[Change]) -> None:
    a, b = old.value, new.value
    if isinstance(a, dict) and isinstance(b, dict):
        for key, child in a.items():
            sub = f"{path}.{key}" if path else str(key)
            if key in b:
                _diff(child, b[key], sub, out)
            else:
                out.append(Change("-", sub, None, old.key_span(key)))
        for key, child in b.items():
            if key not in a:
                sub = f"{path}.{key}" if path else str(key)
                out.append(Change("+", sub, _short(plain(child)), new.key_span(key)))
        return
    if isinstance(a, list) and isinstance(b, list) and _keyed(a) and _keyed(b):
        _diff_items(a, b, path, out)
        return
    before, after = plain(old), plain(new)
    if before == after and type(before) is type(after):
        return
    shown = (_short(before), _short(after))
    detail = f"{shown[0]} -> {shown[1]}" if None not in shown else "changed"
    out.append(Change("~", path or "(whole file)", detail, new.span))


def _keyed(items: list[Node]) -> bool:
    """A list whose items are matched one by one (some have ids)."""
    return any(item_id(i) is not None for i in items)


def _keys(items: list[Node]) -> dict[Any, Node]:
    keyed: dict[Any, Node] = {}
    plain_items = 0
    for item in items:
        ident = item_id(item)
        if ident is None or ("id", ident) in keyed:
            keyed[("at", plain_items)] = item
            plain_items += 1
        else:
            keyed[("id", ident)] = item
    return keyed


def _name(key: tuple) -> str:
    return f"[id={key[1]}]" if key[0] == "id" else f"[{key[1]}]"


def _diff_items(old: list[Node], new: list[Node], path: str, out: list[Change]) -> None:
    olds, news = _keys(old), _keys(new)
    for key, item in olds.items():
        if key in news:
            _diff(item, news[key], path + _name(key), out)
        else:
            out.append(Change("-", path + _name(key), None, item.span))
    out.extend(Change("+", path + _name(key), None, item.span)
               for key, item in news.items() if key not in olds)


def _short(value: Any) -> str | None:
    """A one-line rendering of `value`, or None when it would not be short and readable."""
    if isinstance(value, str) and "\n" in value.strip():
        return None
    text = json.dumps(value.strip() if isinstance(value, str) else value, ensure_ascii=False)
    return text if len(text) <= _SHORT else None
