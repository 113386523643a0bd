"""Overlays: how a mode or a house rule changes a pack without copying it.

An overlay is written as a small YAML file with only the changes, so the merge rules must be
few and predictable:

- mappings merge key by key, recursively;
- the lists of items (cards, kinds, actions, triggers, end rules, invariants, setup steps,
  flow nodes at every depth, a policy's rules) merge by id: an item with a known id is patched (merged
  into it), `remove: true` takes it out, `before: ID` / `after: ID` puts it next to another,
  and an item with a new id is added (at the end, or where before/after say). A new item
  must be complete (NEW_ITEM): one that is not was meant as a patch, and its id is a slip.
  Where the base's items have ids, an overlay item without one is an error: it would say
  nothing about which item it means. `{replace: true, items: [...]}` replaces a list whole;
- any other list whose items all have ids merges by id as well; a list a variable starts
  with (`vars:`, `turn:`) is extended by the overlay's items; anything else, including an
  empty list, replaces what was there;
- the top-level key `remove: {section: [ids]}` deletes list items by id (or keys of a
  mapping section, e.g. a zone) before the rest of the overlay is merged, so an overlay can
  remove an item and define a new one with the same id.

Within one file, an id appears once per list (`duplicate_ids`, checked as each file is
read): two items with one id could not be told apart by the merge.

`remove` is recognised at the top level and in list items with an id only: elsewhere it is
an ordinary name a pack may use (a procedure or a parameter), and guessing would change such
a pack silently.

Merging never changes its inputs; untouched subtrees are shared. Every value keeps the
`Node` it was read as, so an error in a merged value points into the file that wrote it.
"""

from __future__ import annotations

from typing import Any

from engine.errors import PackError, Problem, did_you_mean
from engine.pack.yamlspan import Node

REMOVE = "remove"
REPLACE = "replace"
# What a new item of each list needs; an item lacking it was meant to change an existing
# one, so an id that is not there is a slip (a misspelling), not a new item.
NEW_ITEM = {"cards": ("zone",), "kinds": ("glyph",), "actions": ("at", "do"),
            "triggers": ("on", "do"), "end": ("when",), "invariants": ("check",),
            "rules": ("play",), "setup": ("do",)}
# Sections whose lists (a variable's initial value) are extended by an overlay, not replaced.
VAR_SECTIONS = ("vars", "turn")
FLOW_KEYS = ("do", "if", "repeat", "for_each", "ask", "window", "call")


def merge(base: Node, over: Node, problems: list[Problem] | None = None) -> Node:
    """`over` laid on top of `base`.

    Problems (a `remove` naming something that does not exist, an item that cannot be
    merged) are appended to `problems` when given, so a loader can collect them across
    files; otherwise they raise PackError.
    """
    found: list[Problem] = []
    if isinstance(base.value, dict) and isinstance(over.value, dict) and REMOVE in over.value:
        base = _apply_remove(base, over.value[REMOVE], found)
        over = without(over, REMOVE)
    result = _merge(base, over, (), False, found)
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


def list_kind(keys: tuple[str, ...], key: str, in_flow_node: bool) -> str | None:
    """What the list under `key` holds (a key of NEW_ITEM), at mapping keys `keys`, or None
    for a list the merge knows nothing about."""
    if (key == "flow" and (not keys or keys[0] == "procedures")) or \
            (in_flow_node and key in ("then", "else", "do")):
        return "flow"
    if len(keys) == 2 and keys[0] == "policies" and key == "rules":
        return "rules"
    return key if not keys and key in NEW_ITEM else None


def duplicate_ids(node: Node) -> list[Problem]:
    """Two items with one id in one list, anywhere in one file's tree (a flow at any
    nesting included): each a problem naming both places.

    The merge cannot tell such items apart: in an overlay the second replaced the first,
    and in a base a patch hit the first. Lists merge by id per file, so ids repeated in two
    files (a house rule patching the pack's card) are what overlays are for."""
    problems: list[Problem] = []
    _find_duplicates(node, (), "", False, problems)
    return problems


def _find_duplicates(node: Node, keys: tuple[str, ...], where: str, in_flow_node: bool,
                     problems: list[Problem]) -> None:
    if not isinstance(node.value, dict):
        return
    for key, child in node.value.items():
        here = f"{where}.{key}" if where else str(key)
        if not isinstance(child.value, list):
            _find_duplicates(child, (*keys, key), here, False, problems)
            continue
        first: dict[Any, Node] = {}
        for item in child.value:
            ident = item_id(item)
            if ident is None:
                continue
            if ident in first:
                problems.append(_twice(here, ident, first[ident], item))
            else:
                first[ident] = item
        kind = list_kind(keys, key, in_flow_node)
        for k, item in enumerate(child.value):
            _find_duplicates(item, (*keys, key), f"{here}[{k}]", kind == "flow", problems)


def _twice(where: str, ident: Any, first: Node, second: Node) -> Problem:
    return Problem(
        f"{where}: id '{ident}' is given twice in this list (first at "
        f"{first.value['id'].span})", second.value["id"].span,
        hint="give each item its own id: an overlay names an item by its id, and could not "
             "tell these apart")


def _merge(base: Node, over: Node, keys: tuple[str, ...], in_flow_node: bool,
           problems: list[Problem]) -> Node:
    old, new = base.value, over.value
    if isinstance(old, dict) and isinstance(new, dict):
        value = dict(old)
        spans = dict(base.key_spans or {})
        for key, child in new.items():
            if key in old:
                kind = list_kind(keys, key, in_flow_node) if isinstance(old[key].value, list) \
                    else None
                value[key] = _merge_child(old[key], child, (*keys, key), kind, problems)
            else:
                value[key] = child
            # The key now stands where the overlay wrote it.
            spans[key] = over.key_span(key)
        return Node(value, base.span, key_spans=spans)
    return over


def _merge_child(old: Node, new: Node, keys: tuple[str, ...], kind: str | None,
                 problems: list[Problem]) -> Node:
    if isinstance(old.value, list) and isinstance(new.value, dict) and REPLACE in new.value:
        return _replaced(new, keys, problems)
    if isinstance(old.value, list) and isinstance(new.value, list) and new.value:
        if kind is not None:
            if any(item_id(i) is not None for i in (*old.value, *new.value)):
                return _ByIdMerge(old, keys, kind, problems).run(new.value)
        elif is_id_list(old.value) and is_id_list(new.value):
            return _ByIdMerge(old, keys, None, problems).run(new.value)
        if len(keys) == 2 and keys[0] in VAR_SECTIONS:
            # a variable's list grows: two house rules that each add a kind keep both
            return Node([*old.value, *new.value], new.span)
        return new
    return _merge(old, new, keys, False, problems)


def _replaced(new: Node, keys: tuple[str, ...], problems: list[Problem]) -> Node:
    """The list of `{replace: true, items: [...]}`."""
    flag, items = new.value.get(REPLACE), new.value.get("items")
    if flag is None or flag.value is not True or items is None \
            or not isinstance(items.value, list) or set(new.value) != {REPLACE, "items"}:
        problems.append(Problem(
            f"{_dotted(keys)}: a list is replaced whole as {{replace: true, items: [...]}}",
            new.span))
        return Node([], new.span)
    return items


def _dotted(keys: tuple[str, ...]) -> str:
    return ".".join(str(k) for k in keys)


class _ByIdMerge:
    """One list merged by id: items patched, removed, appended or placed before/after another.

    Each id has one home: the base list's order, or the items placed before or after another
    id. The result is read out in one pass, so a thousand insertions cost what one does.
    """

    def __init__(self, base: Node, keys: tuple[str, ...], kind: str | None,
                 problems: list[Problem]):
        self.base, self.keys, self.kind, self.problems = base, keys, kind, problems
        self.where = _dotted(keys)
        self.entries: dict[Any, Node] = {}
        self.order: list[Any] = []  # ids, or ("node", Node) for an item without one
        self.home: dict[Any, tuple] = {}
        self.near: dict[tuple, list[Any]] = {}  # (id, "before"|"after") -> ids placed there
        self.gone: set[Any] = set()
        for item in base.value:
            ident = item_id(item)
            if ident is None or ident in self.entries:  # a repeated id stays where it was
                self.order.append(("node", item))
            else:
                self.entries[ident] = item
                self.order.append(ident)
                self.home[ident] = ("order",)

    def run(self, items: list[Node]) -> Node:
        told = False
        for k, item in enumerate(items):
            ident = item_id(item)
            if ident is None:
                if not told:
                    self.problems.append(self._no_id(k, item))
                    told = True
                continue
            self._one(ident, item)
        return Node(self._read_out(), self.base.span)

    def _live(self) -> list[Any]:
        return [i for i in self.entries if i not in self.gone]

    def _no_id(self, k: int, item: Node) -> Problem:
        ids = [i for i in self._live()][:6]
        shown = ", ".join(str(i) for i in ids) + (", ..." if len(self._live()) > 6 else "")
        section = self.keys[-1]
        return Problem(
            f"{self.where}[{k}]: this item has no id, but the items of {self.where} are "
            f"merged by id ({shown})", item.span,
            hint=f"give it a new id to add it, or an existing id to change that item "
                 f"(`- {{id: {ids[0] if ids else 'x'}, ...}}`); to replace the whole list "
                 f"write `{section}: {{replace: true, items: [...]}}`")

    def _one(self, ident: Any, item: Node) -> None:
        spec = item.value
        before, after, remove = spec.get("before"), spec.get("after"), spec.get(REMOVE)
        body = without(item, "before", "after", REMOVE)
        known = ident in self.entries and ident not in self.gone
        if remove is not None and remove.value is True:
            if known:
                self.gone.add(ident)
            else:
                self.problems.append(Problem(
                    f"{self.where}: no item with id '{ident}' to remove", item.span,
                    hint=did_you_mean(ident, self._live())))
            return
        if before is not None and after is not None:
            self.problems.append(Problem(
                f"{self.where}[id={ident}]: give before or after, not both", after.span))
            return
        anchor = before or after
        if anchor is not None and not self._anchor_ok(ident, anchor):
            return
        if known:
            self.entries[ident] = _merge(self.entries[ident], body, self.keys,
                                         self.kind == "flow", self.problems)
        else:
            missing = self._missing(body)
            if missing:
                close = did_you_mean(ident, self._live())
                self.problems.append(Problem(
                    f"{self.where}: no item with id '{ident}' to change", item.value["id"].span,
                    hint=(f"{close} " if close else "") + f"A new item here needs {missing}."))
                return
            self.entries[ident] = body
            self.gone.discard(ident)
            if anchor is None:
                self.order.append(ident)
                self.home[ident] = ("order",)
        if anchor is not None:
            place = (anchor.value, "before" if before is not None else "after")
            self.home[ident] = place
            self.near.setdefault(place, []).append(ident)

    def _anchor_ok(self, ident: Any, anchor: Node) -> bool:
        target = anchor.value
        if not _is_id(target) or target not in self.entries or target in self.gone:
            self.problems.append(Problem(
                f"{self.where}[id={ident}]: no item with id '{target}' to place it next to",
                anchor.span, hint=did_you_mean(target, self._live())))
            return False
        if target == ident:
            self.problems.append(Problem(
                f"{self.where}[id={ident}]: an item cannot be placed next to itself", anchor.span))
            return False
        return True

    def _missing(self, body: Node) -> str | None:
        """What a new item lacks to be complete (None if complete, or nothing is known)."""
        if self.kind is None:
            return None
        if self.kind == "flow":
            return None if any(k in body.value for k in FLOW_KEYS) \
                else f"one of {', '.join(FLOW_KEYS)}"
        lacking = [k for k in NEW_ITEM[self.kind] if k not in body.value]
        return " and ".join(lacking) or None

    def _read_out(self) -> list[Node]:
        out: list[Node] = []
        todo: list[Any] = [("slot", s) for s in reversed(self.order)]
        while todo:
            step, what = todo.pop()
            if step == "node":
                out.append(what)
                continue
            if isinstance(what, tuple):  # an item without an id
                out.append(what[1])
                continue
            if self.home.get(what) != ("order",) and step == "slot":
                continue  # moved: it is read out where it went
            around = [("placed", i) for i in self.near.get((what, "before"), ())
                      if self.home.get(i) == (what, "before")]
            around.append(("node", self.entries[what]) if what not in self.gone else ("skip", 0))
            around += [("placed", i) for i in self.near.get((what, "after"), ())
                       if self.home.get(i) == (what, "after")]
            todo.extend(reversed([a for a in around if a[0] != "skip"]))
        placed = len(out) - sum(1 for s in self.order if isinstance(s, tuple))
        if placed != len(self._live()):
            self.problems.append(Problem(
                f"{self.where}: items are placed before or after each other in a circle",
                self.base.span))
        return out


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
