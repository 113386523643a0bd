"""What play can cover in a compiled pack, each item with its place in the pack's files.

An item is an action (offered, chosen), a trigger (fired), an end rule (ended a game), an
invariant (held), a card (drawn, played) or a policy rule (taken). Its `key` is where it
is written, so the same item in the base game and in each mode is counted as one. Its
`files` are every file that wrote a part of it: an overlay's items are those it added or
changed, whose `files` hold the overlay (`mine`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import Span

# the kinds of item, and what covers each (the facets counted)
FACETS = {
    "action": ("offered", "chosen"),
    "trigger": ("fired",),
    "end": ("ended",),
    "invariant": ("held",),
    "card": ("drawn", "played"),
    "rule": ("taken",),
}
KINDS = tuple(FACETS)


@dataclass(frozen=True)
class Item:
    kind: str  # one of KINDS
    name: str  # how a report names it: "trigger 'crush' (on entered)"
    span: Span | None
    files: frozenset[str]  # every file that wrote part of it, resolved
    plays: bool = True  # a card: whether "played" means something (it has a discard zone)
    detail: str = ""  # a trigger's event, a card's first zone, a policy rule's bots

    @property
    def key(self) -> tuple:
        s = self.span
        return (self.kind, s.file, s.line, s.col) if s is not None else (self.kind, self.name)


def _files(node) -> frozenset[str]:
    out: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if n.span is not None:
            out.add(n.span.file)
        v = n.value
        if isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return frozenset(str(Path(f).resolve()) for f in out)


def _at(tree, *path):
    """The node at `path` (None when it is not there)."""
    node = tree
    for step in path:
        v = getattr(node, "value", None)
        if isinstance(v, dict) and isinstance(step, str) and step in v:
            node = v[step]
        elif isinstance(v, list) and isinstance(step, int) and 0 <= step < len(v):
            node = v[step]
        else:
            return None
    return node


def _named(what: str, raw: dict, k: int, extra: str = "") -> str:
    rid = raw.get("id") if isinstance(raw, dict) else None
    return f"{what} '{rid}'{extra}" if rid else f"{what} #{k + 1}{extra}"


class Items:
    """The items of one Game, and the look-ups from its compiled parts to them."""

    def __init__(self, game):
        self.game = game
        from engine.pack.loader import reloaded_node
        tree = reloaded_node(game)
        self.all: list[Item] = []
        self.action: dict[str, Item] = {}  # action id ->
        self.trigger: dict[int, Item] = {}  # id(TriggerDef) ->
        self.end: list[Item] = []  # as game.end
        self.invariant: dict[str, Item] = {}  # invariant name (its Violation's law) ->
        self.card: dict[str, Item] = {}  # card id ->
        self.rule: dict[int, Item] = {}  # id(PolicyRule) ->
        raw = game.raw

        def add(kind, name, path, fallback, plays=True, detail=""):
            node = _at(tree, *path) if tree is not None else None
            span = node.span if node is not None else fallback
            files = _files(node) if node is not None else frozenset(
                {str(Path(span.file).resolve())} if span is not None else ())
            item = Item(kind, name, span, files, plays, detail)
            self.all.append(item)
            return item

        for k, a in enumerate(game.actions):
            self.action[a.id] = add("action", f"action '{a.id}'", ("actions", k), a.span)
        by_event: dict[str, int] = {}
        for k, t in enumerate(raw.get("triggers") or ()):
            on = str(t.get("on")) if isinstance(t, dict) else ""
            listed = game.triggers.get(on, ())
            j = by_event.get(on, 0)
            if j < len(listed):
                by_event[on] = j + 1
                self.trigger[id(listed[j])] = add(
                    "trigger", _named("trigger", t, k, f" (on {on})"), ("triggers", k), listed[j].span,
                    detail=str(on))
        for k, e in enumerate(game.end):
            r = (raw.get("end") or [])[k] if k < len(raw.get("end") or []) else {}
            self.end.append(add("end", _named("end rule", r, k), ("end", k), e.span))
        for k, inv in enumerate(game.invariants):
            r = (raw.get("invariants") or [])[k] if k < len(raw.get("invariants") or []) else {}
            rid = r.get("id") if isinstance(r, dict) else None
            self.invariant[inv.name] = add("invariant", f"invariant '{rid or inv.name}'",
                                           ("invariants", k), inv.span)
        for k, (cid, c) in enumerate(game.cards.items()):
            self.card[cid] = add("card", f"card '{cid}'", ("cards", k), c.span,
                                 plays=c.discard is not None, detail=c.zone or "")
        for pname, policy in game.policies.items():
            rules = ((raw.get("policies") or {}).get(pname) or {}).get("rules") or []
            for j, rule in enumerate(policy.rules):
                r = rules[j] if j < len(rules) else {}
                self.rule[id(rule)] = add(
                    "rule", _named(f"policy '{pname}' rule", r, j,
                                   "" if isinstance(r, dict) and r.get("id") else
                                   f" (play: {', '.join(rule.play)})"),
                    ("policies", pname, "rules", j), rule.span, detail=f"policy:{pname}")


def items_of(game) -> Items:
    return Items(game)
