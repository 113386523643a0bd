"""A pack's reference for an author: what `horde doc` shows.

An author writing a house rule needs to know the pack's names: its params and their
bounds, the points of its flow in the order a turn reaches them with the actions offered at
each and who may take them, the events a trigger may wait for (from `engine.pack.events`,
the same table the trigger check reads), the fields of players, kinds, cards, the game and
the turn, the cards, and the bots' rules. This module gathers them from a built game as
sections of plain lines; the CLI renders them as text or Markdown. It reads the compiled
game and its merged tree only, so a house rule's additions show like the base's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.pack.events import ENGINE_EVENTS, emitters

_BRANCHES = ("then", "else", "do")  # the lists of flow nodes a node holds


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)


def reference(game) -> list[Section]:
    raw = game.raw
    return [s for s in (
        _params(raw), _flow(game), _steps(raw), _events(game), _fields(game), _cards(game),
        _policies(raw)) if s.lines]


def _short(value: Any) -> str:
    text = " ".join((repr(value) if isinstance(value, str) and not value.strip()
                     else str(value)).split())
    return text if len(text) <= 70 else text[:67] + "..."


def _params(raw: dict) -> Section:
    out = Section("Params")
    for name, spec in (raw.get("params") or {}).items():
        spec = spec if isinstance(spec, dict) else {"default": spec}
        parts = [f"default {spec.get('default')!r}"]
        if "min" in spec or "max" in spec:
            parts.append(f"{spec.get('min', '')}..{spec.get('max', '')}")
        if "choices" in spec:
            parts.append("one of " + ", ".join(str(c) for c in spec["choices"]))
        help_ = f" — {spec['help']}" if spec.get("help") else ""
        out.lines.append(f"params.{name}: {'; '.join(parts)}{help_}")
    return out


def flow_points(raw: dict) -> list[dict]:
    """The asks and windows of the flow in the order a game reaches them (each flow
    procedure where it is first called, those only effects start at the end):
    `{point, kind, who, pass, text}`."""
    procs = {n: p["flow"] for n, p in (raw.get("procedures") or {}).items()
             if isinstance(p, dict) and isinstance(p.get("flow"), list)}
    found: list[dict] = []
    seen: set[str] = set()
    stack = [iter(list(raw.get("flow") or []) + [{"call": n} for n in procs])]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        if not isinstance(node, dict):
            continue
        for kind in ("ask", "window"):
            if kind in node:
                found.append({"point": node[kind], "kind": kind,
                              "who": node.get("who", "current" if kind == "ask" else "any"),
                              "pass": bool(node.get("pass")), "text": node.get("text", "")})
        inner = [x for key in _BRANCHES if isinstance(node.get(key), list)
                 for x in node[key]]
        call = node.get("call")
        if isinstance(call, str) and call in procs and call not in seen:
            seen.add(call)
            inner += procs[call]
        if inner:
            stack.append(iter(inner))
    return found


def _flow(game) -> Section:
    out = Section("Flow points (in the order a turn reaches them)")
    shown: set[str] = set()
    for point in flow_points(game.raw):
        name = point["point"]
        if name in shown:
            continue
        shown.add(name)
        who = point["who"]
        extra = ", may pass" if point["pass"] else ""
        out.lines.append(f"{point['kind']} {name} (who: {who}{extra})"
                         + (f" — {point['text']}" if point["text"] else ""))
        for action in game.actions:
            if name in action.at:
                text = f" — {action.text}" if action.text else ""
                params = "".join(f", {p}" for p, _ in action.params)
                out.lines.append(f"    action {action.id}(who: {action.who}{params}){text}")
    return out


def _steps(raw: dict) -> Section:
    """The setup's steps and the flow's nodes, nested as in the pack, each with its id: what
    an overlay names to patch, move, remove or insert beside one (docs/overlays.md)."""
    out = Section("Setup and flow steps (the ids an overlay names: `setup:`, `flow:` and "
                  "`procedures: NAME: flow:`)")
    procs = {n: p["flow"] for n, p in (raw.get("procedures") or {}).items()
             if isinstance(p, dict) and isinstance(p.get("flow"), list)}
    for where, nodes in [("setup", raw.get("setup")), ("flow", raw.get("flow")),
                         *((f"procedures.{n}.flow", f) for n, f in procs.items())]:
        if isinstance(nodes, list) and nodes:
            out.lines.append(f"{where}:")
            _step_lines(nodes, 1, out.lines)
    return out


def _step_lines(nodes: list, depth: int, lines: list[str]) -> None:
    pad = "    " * depth
    for node in nodes:
        if not isinstance(node, dict):
            continue
        ident = f"[{node['id']}] " if "id" in node else ""
        lines.append(f"{pad}{ident}{_step_summary(node)}")
        for key in _BRANCHES:  # a loop's body under it; an if's branches named
            inner = node.get(key)
            if isinstance(inner, list):
                if key == "do":
                    _step_lines(inner, depth + 1, lines)
                else:
                    lines.append(f"{pad}    {key}:")
                    _step_lines(inner, depth + 2, lines)


def _step_summary(node: dict) -> str:
    for kind in ("ask", "window", "call"):
        if kind in node:
            return f"{kind} {node[kind]}"
    if "if" in node:
        return f"if {_short(node['if'])}"
    if "repeat" in node:
        spec = node["repeat"]
        if not isinstance(spec, dict):
            return f"repeat {_short(spec)}"
        return " ".join(["repeat", *(f"{k} {_short(v)}" for k, v in spec.items())])
    if "for_each" in node:
        spec = node["for_each"]
        return f"for_each {spec.get('var')} in {_short(spec.get('in'))}" if isinstance(spec, dict) else "for_each"
    if isinstance(node.get("do"), str):
        first = next((ln.strip() for ln in node["do"].splitlines() if ln.strip()), "")
        return f"do: {_short(first)}" + (" ..." if node["do"].strip().count("\n") else "")
    return "do"


def _events(game) -> Section:
    out = Section("Events (what a trigger's `on:` may name)")
    for name, sources in sorted(emitters(game).items()):
        fields = sorted({f for s in sources for f in s.fields})
        where = ", ".join(sorted({str(s) for s in sources}))
        engine = ENGINE_EVENTS.get(name) or (ENGINE_EVENTS["point:<name>"]
                                             if name.startswith("point:") else None)
        text = f" — {engine.text}" if engine is not None else ""
        out.lines.append(f"{name}: emitted by {where}; event.{{{', '.join(fields)}}}{text}"
                         if fields else f"{name}: emitted by {where}{text}")
    return out


def _fields(game) -> Section:
    out = Section("Fields")
    written = game.raw.get("player") or {}
    for name, f in game.player_fields.items():
        spec = written.get(name)
        spec = spec if isinstance(spec, dict) else {"init": spec}
        bounds = "".join(f", {k} {_short(spec[k])}" for k in ("min", "max") if k in spec)
        out.lines.append(f"player.{name}: {f.type}, starts {_short(spec.get('init'))}{bounds}")
    for name, value in (game.raw.get("vars") or {}).items():
        out.lines.append(f"game.{name}: starts {_short(value)}")
    for name, value in (game.raw.get("turn") or {}).items():
        out.lines.append(f"turn.{name}: starts {_short(value)} (every turn)")
    for kind in game.kinds.values():
        fields = ", ".join(f"{k}={_short(v)}" for k, v in kind.fields.items())
        out.lines.append(f"kind {kind.id}: {fields or 'no fields'}")
    return out


def _cards(game) -> Section:
    out = Section("Cards")
    for card in game.cards.values():
        where = f" in {card.zone}" if card.zone else ""
        fields = ", ".join(f"{k}={_short(v)}" for k, v in card.fields.items())
        text = f" — {card.text}" if card.text else ""
        out.lines.append(f"{card.id} x{card.count}{where}"
                         + (f" [{', '.join(sorted(card.tags))}]" if card.tags else "")
                         + (f" {{{fields}}}" if fields else "") + text)
    return out


def _policies(raw: dict) -> Section:
    out = Section("Policies (bots: the first rule that applies is played)")
    for name, spec in (raw.get("policies") or {}).items():
        out.lines.append(f"{name}: {spec.get('text', '')}".rstrip(": "))
        for rule in spec.get("rules", []):
            ident = f"[{rule['id']}] " if "id" in rule else ""
            cond = f" if {_short(rule['if'])}" if "if" in rule else ""
            score = f" by {_short(rule['score'])}" if "score" in rule else ""
            out.lines.append(f"    {ident}play {rule['play']}{cond}{score}")
        out.lines.append(f"    otherwise {spec.get('otherwise', 'random')}")
    return out
