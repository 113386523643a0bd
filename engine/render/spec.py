"""A pack's `view:` section, checked and compiled once per game.

The schema (schemas/pack.schema.json, `view`) holds the section to these keys, so `horde
validate` places a misspelt one with a did-you-mean; this module checks the same shape again
for a game built without the schema check, and compiles it. Every value is compiled with
`Game.compile_expr` once, with `p` bound to the player a row is about:

    view:
      players:                 # one column each, one row per player
        - {label: Score, value: "p.score", max: "params.goal"}
        - {label: Hand, value: "p.hand"}           # a zone: its cards, if the viewer may see them
        - {label: Status, value: "p.out", text: "out"}   # a bool: the text when true
        - {label: Sc, value: "p.score", help: "score so far"}  # a short label's words
      turn:                    # the turn panel
        - {label: Roll, value: "turn.dice"}
      zones: [deck, discard]   # zone sizes
      goal:                    # the goal line, and each player's progress toward it
        text: "Reach the exit with {params.goal} points"
        progress: "{p.score}/{params.goal} points"
      hand:                    # the viewer's own cards (default: every per-player zone)
        zones: [hand, gear]
        tags: {forced: "played at the start of your turn"}      # marks by tag

Texts are templates (`engine.render.template`): `{expression}` in braces. An end rule's
`why:` (the reason a finished game gives) is compiled here too, with `p` bound to each
winner (or, with none, each loser).

Problems are reported with positions in the pack's files. When a game was loaded without
its node tree at hand, the tree is loaded again only if something is wrong, for the spans.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from engine.dsl.compiler import Compiled
from engine.errors import PackError, Problem, did_you_mean
from engine.pack.loader import reloaded_node
from engine.render.template import Template, compile_template

SECTIONS = ("players", "turn", "zones", "goal", "hand")
GOAL_KEYS = ("text", "progress")
HAND_KEYS = ("zones", "tags")
ITEM_KEYS = ("label", "value", "max", "text", "help")


@dataclass
class Column:
    label: str
    value: Compiled
    max: Compiled | None = None
    text: str | None = None
    help: str | None = None  # what a short label means, in words (the table's legend)


@dataclass
class ViewSpec:
    players: list[Column] = field(default_factory=list)
    turn: list[Column] = field(default_factory=list)
    zones: list[str] = field(default_factory=list)
    goal: Template | None = None
    progress: Template | None = None  # with `p`: one line per player
    hand_zones: list[str] | None = None  # None: every per-player zone
    hand_tags: dict[str, str] = field(default_factory=dict)  # tag -> its mark
    whys: list[Template | None] = field(default_factory=list)  # per end rule, in order


def compile_view(game, tree=None) -> ViewSpec:
    """The compiled view of `game`; a PackError (with file positions) if it is malformed.

    `tree` is the merged pack's root Node when the caller has it (validation does)."""
    view = game.view or {}
    nodes = _view_node(tree)
    spec, problems = _compile(game, view, nodes, tree)
    if problems and tree is None:
        reloaded = reloaded_node(game)
        if reloaded is not None:
            spec, problems = _compile(game, view, _view_node(reloaded), reloaded)
    if problems:
        raise PackError(problems)
    return spec


_SPECS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def spec_of(game) -> ViewSpec:
    """`compile_view(game)`, once per game (a finished game's reason is read from it)."""
    spec = _SPECS.get(game)
    if spec is None:
        spec = _SPECS[game] = compile_view(game)
    return spec


def _view_node(tree):
    if tree is None or not isinstance(tree.value, dict):
        return None
    return tree.value.get("view")


def _child(node, key):
    if node is None:
        return None
    v = node.value
    if isinstance(v, dict):
        return v.get(key)
    if isinstance(v, list) and isinstance(key, int) and key < len(v):
        return v[key]
    return None


def _span(node, key=None):
    if node is None:
        return None
    if key is not None and isinstance(node.value, dict):
        return node.key_span(key)
    return node.span


def _compile(game, view: Any, node, root=None) -> tuple[ViewSpec, list[Problem]]:
    problems: list[Problem] = []
    spec = ViewSpec()
    if not isinstance(view, dict):
        return spec, [Problem("view: expected a mapping with players, turn and zones",
                              _span(node))]
    for key in view:
        if key not in SECTIONS:
            problems.append(Problem(f"view: unknown section '{key}'", _span(node, key),
                                    did_you_mean(key, SECTIONS) or f"sections: {', '.join(SECTIONS)}"))
    spec.players = _columns(game, view, node, "players", {"p": "player"}, problems)
    spec.turn = _columns(game, view, node, "turn", {}, problems)
    spec.zones = _zones(game, view, node, problems)
    _goal(game, view, node, spec, problems)
    _hand(game, view, node, spec, problems)
    spec.whys = _whys(game, _child(root, "end"), problems)
    return spec, problems


def _columns(game, view: dict, node, section: str, scope: dict, problems) -> list[Column]:
    items = view.get(section) or []
    where = _child(node, section)
    if not isinstance(items, list):
        problems.append(Problem(f"view.{section}: expected a list of {{label, value}}",
                                _span(where)))
        return []
    out = []
    for k, item in enumerate(items):
        at = _child(where, k)
        if not isinstance(item, dict):
            problems.append(Problem(f"view.{section}: expected {{label, value}}", _span(at)))
            continue
        for key in item:
            if key not in ITEM_KEYS:
                problems.append(Problem(f"view.{section}: unknown key '{key}'", _span(at, key),
                                        did_you_mean(key, ITEM_KEYS)))
        if "value" not in item:
            problems.append(Problem(f"view.{section}: an item needs a value", _span(at)))
            continue
        label = item.get("label", item["value"])
        text = item.get("text")
        about = item.get("help")
        if about is not None and not isinstance(about, str):
            problems.append(Problem(f"view.{section}: help must be words (a string)",
                                    _span(_child(at, "help"))))
            about = None
        value = _expr(game, item["value"], scope, _child(at, "value"), problems)
        high = _expr(game, item["max"], scope, _child(at, "max"), problems) \
            if "max" in item else None
        if value is not None and ("max" not in item or high is not None):
            out.append(Column(str(label), value, high, None if text is None else str(text),
                              about))
    return out


def _expr(game, text, scope: dict, where, problems) -> Compiled | None:
    if isinstance(text, bool):
        text = "true" if text else "false"
    elif isinstance(text, int):
        text = str(text)
    if not isinstance(text, str):
        problems.append(Problem("view: expected an expression here", _span(where)))
        return None
    try:
        return game.compile_expr(text, scope, where=where)
    except PackError as exc:
        problems.extend(exc.problems)
        return None


def _zones(game, view: dict, node, problems) -> list[str]:
    names = view.get("zones") or []
    where = _child(node, "zones")
    if not isinstance(names, list):
        problems.append(Problem("view.zones: expected a list of zone names", _span(where)))
        return []
    out = []
    for k, name in enumerate(names):
        if name in game.zones:
            out.append(name)
        else:
            problems.append(Problem(f"view.zones: unknown zone '{name}'",
                                    _span(_child(where, k)),
                                    did_you_mean(name, game.zones) or None))
    return out


def _template(game, text, scope: dict, where, what: str, problems) -> Template | None:
    try:
        return compile_template(game, text, scope, where, what)
    except PackError as exc:
        problems.extend(exc.problems)
        return None


def _goal(game, view: dict, node, spec: ViewSpec, problems) -> None:
    goal = view.get("goal")
    if goal is None:
        return
    where = _child(node, "goal")
    if isinstance(goal, str):
        goal = {"text": goal}
    if not isinstance(goal, dict):
        problems.append(Problem("view.goal: expected {text, progress}", _span(where)))
        return
    for key in goal:
        if key not in GOAL_KEYS:
            problems.append(Problem(f"view.goal: unknown key '{key}'", _span(where, key),
                                    did_you_mean(key, GOAL_KEYS)))
    if "text" in goal:
        spec.goal = _template(game, goal["text"], {}, _child(where, "text"), "view.goal.text",
                              problems)
    if "progress" in goal:
        spec.progress = _template(game, goal["progress"], {"p": "player"},
                                  _child(where, "progress"), "view.goal.progress", problems)


def _hand(game, view: dict, node, spec: ViewSpec, problems) -> None:
    hand = view.get("hand")
    if hand is None:
        return
    where = _child(node, "hand")
    if not isinstance(hand, dict):
        problems.append(Problem("view.hand: expected {zones, tags}", _span(where)))
        return
    for key in hand:
        if key not in HAND_KEYS:
            problems.append(Problem(f"view.hand: unknown key '{key}'", _span(where, key),
                                    did_you_mean(key, HAND_KEYS)))
    if "zones" in hand:
        names = hand["zones"]
        spec.hand_zones = []
        for k, name in enumerate(names if isinstance(names, list) else []):
            z = game.zones.get(name)
            if z is None or not z.per_player:
                known = [n for n, d in game.zones.items() if d.per_player]
                problems.append(Problem(f"view.hand.zones: '{name}' is no per-player zone",
                                        _span(_child(_child(where, "zones"), k)),
                                        did_you_mean(name, known) or None))
            else:
                spec.hand_zones.append(name)
        if not isinstance(names, list):
            problems.append(Problem("view.hand.zones: expected a list of zone names",
                                    _span(_child(where, "zones"))))
    tags = hand.get("tags") or {}
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        problems.append(Problem("view.hand.tags: expected tag: words", _span(_child(where, "tags"))))
    else:
        spec.hand_tags = {str(k): v for k, v in tags.items()}


def _whys(game, node, problems) -> list[Template | None]:
    """Each end rule's `why:`, compiled, in the order of `game.end`."""
    out: list[Template | None] = []
    for k, rule in enumerate(game.raw.get("end") or []):
        if not isinstance(rule, dict):
            continue
        why = rule.get("why")
        out.append(None if why is None else
                   _template(game, why, {"p": "player"}, _child(_child(node, k), "why"),
                             f"end.{rule.get('id', k)}.why", problems))
    return out
