"""The names of a loaded pack, each with what it is and where it is written: what hover,
completion, go-to-definition and the outline read.

Everything here comes from the loader's merged tree (every node keeps the file, line and
column it was written at, whichever file of the pack, mode or house rule that was) and the
compiled game (the events, from the same table `horde doc` and the trigger check read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import Span
from engine.pack.yamlspan import Node, plain

# Sections whose entries are named, and what one entry is called.
SECTIONS = {"params": "param", "zones": "zone", "cards": "card", "kinds": "kind",
            "actions": "action", "triggers": "trigger", "procedures": "procedure",
            "policies": "policy", "dice": "die", "player": "player field", "vars": "game var",
            "turn": "turn field", "metrics": "metric", "invariants": "invariant", "end": "end rule"}
_BRANCHES = ("then", "else", "do")


@dataclass
class Name:
    kind: str  # card, action, point, event, ...
    name: str
    span: Span | None
    text: str  # one line about it
    fields: dict[str, Any] = field(default_factory=dict)


def _line(value: Any) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= 100 else text[:97] + "..."


def _entry(kind: str, name: str, node: Node, span: Span | None) -> Name:
    value = plain(node)
    if isinstance(value, dict):
        text = str(value.get("text") or value.get("help") or value.get("description") or "")
        fields = {k: v for k, v in value.items() if k not in ("id", "text", "help", "description")
                  and not isinstance(v, (dict, list)) and not (isinstance(v, str) and "\n" in v)}
    else:
        text, fields = "", {"value": value}
    return Name(kind, name, span, _line(text), fields)


class Names:
    """Every named thing of one load, by name (a name may be several things)."""

    def __init__(self, tree: Node | None, game=None):
        self.by_name: dict[str, list[Name]] = {}
        self.raw: dict = plain(tree) if tree is not None and isinstance(tree.value, dict) else {}
        if tree is not None and isinstance(tree.value, dict):
            self._sections(tree)
            self._flow(tree.value.get("setup"), "setup")  # steps a `before:` may name too
            self._flow(tree.value.get("flow"), "flow")
            procs = tree.value.get("procedures")
            if procs is not None and isinstance(procs.value, dict):
                for pname, proc in procs.value.items():
                    if isinstance(proc.value, dict):
                        self._flow(proc.value.get("flow"), f"procedures.{pname}.flow")
            self._faces(tree.value.get("dice"))
        if game is not None:
            self._events(game)

    def add(self, entry: Name) -> None:
        self.by_name.setdefault(entry.name, []).append(entry)

    def of_kind(self, *kinds: str) -> list[Name]:
        return [n for ns in self.by_name.values() for n in ns if n.kind in kinds]

    def _sections(self, tree: Node) -> None:
        for section, kind in SECTIONS.items():
            node = tree.value.get(section)
            if node is None:
                continue
            if isinstance(node.value, dict):
                for key, child in node.value.items():
                    self.add(_entry(kind, key, child, node.key_span(key)))
                    if section == "policies" and isinstance(child.value, dict):
                        self._ids(child.value.get("rules"), "policy rule")
            elif isinstance(node.value, list):
                self._ids(node, kind)

    def _ids(self, node: Node | None, kind: str) -> None:
        for item in node.value if node is not None and isinstance(node.value, list) else []:
            if isinstance(item.value, dict) and "id" in item.value:
                ident = item.value["id"]
                self.add(_entry(kind, str(ident.value), item, ident.span))

    def _flow(self, node: Node | None, where: str) -> None:
        for item in node.value if node is not None and isinstance(node.value, list) else []:
            if not isinstance(item.value, dict):
                continue
            v = item.value
            if "id" in v:
                self.add(Name("flow step", str(v["id"].value), v["id"].span, where))
            for kind in ("ask", "window"):
                if kind in v and isinstance(v[kind].value, str):
                    text = plain(v["text"]) if "text" in v else ""
                    self.add(Name("point", v[kind].value, v[kind].span, _line(f"{kind} — {text}"),
                                  {"who": plain(v["who"]) if "who" in v else None}))
            for key in _BRANCHES:
                if key in v and isinstance(v[key].value, list):
                    self._flow(v[key], where)

    def _faces(self, dice: Node | None) -> None:
        for die, spec in dice.value.items() if dice is not None and isinstance(dice.value, dict) else []:
            faces = spec.value.get("faces") if isinstance(spec.value, dict) else None
            for face in faces.value if faces is not None and isinstance(faces.value, list) else []:
                if isinstance(face.value, dict) and "name" in face.value:
                    name = str(face.value["name"].value)
                    if any(n.kind == "face" for n in self.by_name.get(name, [])):
                        continue
                    entry = _entry("face", name, face, face.span)
                    entry.fields["die"] = die
                    self.add(entry)

    def _events(self, game) -> None:
        from engine.pack.events import ENGINE_EVENTS, emitters
        for name, sources in sorted(emitters(game).items()):
            fields = sorted({f for s in sources for f in s.fields})
            engine = ENGINE_EVENTS.get(name) or (ENGINE_EVENTS["point:<name>"]
                                                 if name.startswith("point:") else None)
            text = engine.text if engine is not None else ""
            self.add(Name("event", name, None, _line(text), {
                "emitted by": ", ".join(sorted({str(s) for s in sources})),
                "fields": ", ".join(f"event.{f}" for f in fields) or "none"}))
