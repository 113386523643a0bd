"""A pack's `view:` section, checked and compiled once per game.

The section is free-form in the schema (the renderer is its only reader), so this module
is where its shape is checked. Every value is compiled with `Game.compile_expr` once, with
`p` bound to the player a row is about:

    view:
      players:                 # one column each, one row per player
        - {label: Score, value: "p.score", max: "params.goal"}
        - {label: Hand, value: "p.hand"}           # a zone: its cards, if the viewer may see them
        - {label: Status, value: "p.out", text: "out"}   # a bool: the text when true
        - {label: Sc, value: "p.score", help: "score so far"}  # a short label's words
      turn:                    # the turn panel
        - {label: Roll, value: "turn.dice"}
      zones: [deck, discard]   # zone sizes

Problems are reported with positions in the pack's files. When a game was loaded without
its node tree at hand, the tree is loaded again only if something is wrong, for the spans.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dsl.compiler import Compiled
from engine.errors import PackError, Problem, did_you_mean
from engine.pack.loader import load_tree

SECTIONS = ("players", "turn", "zones")
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


def compile_view(game, tree=None) -> ViewSpec:
    """The compiled view of `game`; a PackError (with file positions) if it is malformed.

    `tree` is the merged pack's root Node when the caller has it (validation does)."""
    view = game.view or {}
    nodes = _view_node(tree)
    spec, problems = _compile(game, view, nodes)
    if problems and tree is None:
        reloaded = _reload_tree(game)
        if reloaded is not None:
            spec, problems = _compile(game, view, _view_node(reloaded))
    if problems:
        raise PackError(problems)
    return spec


def _view_node(tree):
    if tree is None or not isinstance(tree.value, dict):
        return None
    return tree.value.get("view")


def _reload_tree(game):
    if game.sources is None:
        return None
    try:
        return load_tree(game.sources.ref, mode=game.mode, house=game.sources.house,
                         validate=False, sources=game.sources).node
    except PackError:
        return None


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


def _compile(game, view: Any, node) -> tuple[ViewSpec, list[Problem]]:
    problems: list[Problem] = []
    spec = ViewSpec()
    if not isinstance(view, dict):
        return spec, [Problem("view: expected a mapping with players, turn and zones",
                              _span(node))]
    for key in view:
        if key not in SECTIONS:
            close = did_you_mean(key, SECTIONS)
            if close:  # other keys may belong to building blocks; near-misses are typos
                problems.append(Problem(f"view: unknown section '{key}'", _span(node, key),
                                        close))
    spec.players = _columns(game, view, node, "players", {"p": "player"}, problems)
    spec.turn = _columns(game, view, node, "turn", {}, problems)
    spec.zones = _zones(game, view, node, problems)
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
