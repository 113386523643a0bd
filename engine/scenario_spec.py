"""A scenario read and checked against its pack before it runs (engine.scenario runs it).

The JSON Schema (schemas/scenario.schema.json) checks a scenario's shape; this module
checks what only the pack can say: that a die, a face, an action, a point or a turn word
exists. Each mistake is a Problem at the file:line:col it was written, with a hint, all
of them found at once: a scenario that names a face the die lacks or a point the pack
never asks must fail with that name, not with an expectation that happens to be false.

Everything a scenario checks at one moment (the end, or one of its `at:` moments) is a
`Checks`; `Script` is the whole scenario, compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import PackError, Problem, RuleRuntimeError, did_you_mean
from engine.flow.machine import evaluate

if TYPE_CHECKING:
    from engine.dsl.compiler import Compiled


@dataclass
class Checks:
    """What must hold at one moment: expressions, and labels (not) offered."""

    when: str  # for messages: "at the end", "after decision 2", ...
    expect: list = field(default_factory=list)  # (text, Compiled)
    offered: list[str] = field(default_factory=list)
    not_offered: list[str] = field(default_factory=list)

    def failures(self, S) -> list[str]:
        """What does not hold in state S, worded for the scenario's author."""
        out = [f"expectation failed: {text}" for text, c in self.expect if not evaluate(S, c, {})]
        d = S.decision() if self.offered or self.not_offered else None
        actions = d.actions if d is not None else []
        asked = (f"P{d.player} at {d.point} is offered: {', '.join(actions)}" if d is not None
                 else "nobody is deciding: the game is over or stopped")
        for pattern in self.offered:
            if not any(matches(pattern, a) for a in actions):
                out.append(f"not offered: {pattern} ({asked})")
        for pattern in self.not_offered:
            hits = [a for a in actions if matches(pattern, a)]
            if hits:
                out.append(f"offered, but must not be: {', '.join(hits)} (not_offered: {pattern})")
        return out


def matches(pattern: str, label: str) -> bool:
    """A label pattern: exact, or a prefix when it ends in `*` (`buy(*` is any buy)."""
    if pattern.endswith("*"):
        return label.startswith(pattern[:-1])
    return label == pattern


@dataclass
class Moment:
    kind: str  # 'decision', 'point' or 'turn'
    value: object  # decisions taken; a point name; a turn count (an int or {word: n})
    nth: int
    checks: Checks
    span: object

    def name(self) -> str:
        return self.checks.when


@dataclass
class Script:
    """A scenario compiled against its game."""

    setup: Compiled | None  # the setup statements
    rolls: list | dict
    decisions: list[str]
    turns: object  # None, an int, or {word: n}
    play_on: bool
    end: Checks
    moments: list[Moment]
    turn_names: dict  # word -> Compiled (turns one of them is)
    players: int | None = None
    seed: int = 0

    def turn_count(self, S, turns) -> int:
        """`turns` (an int or {word: n}) in engine turns, with state S's params."""
        if isinstance(turns, int):
            return turns
        (word, n), = turns.items()
        return n * int(evaluate(S, self.turn_names[word], {}))


def read(game, spec: dict, node) -> Script:
    """The scenario `spec` (read from `node`) compiled against `game`; a PackError lists
    every problem found."""
    problems: list[Problem] = []

    def compiled(text, where, effect=False):
        try:
            return game.compile_expr(text, effect=effect, where=where)
        except PackError as exc:
            problems.extend(exc.problems)
            return None

    actions = {a.id for a in game.actions} | {"pass"}
    points = sorted({n.point for n in game.nodes if n.point} | set(game.actions_at))

    def labels(key, where_node):
        out = []
        for k, pattern in enumerate(spec_of(where_node).get(key) or []):
            head = pattern.split("(", 1)[0]
            known = (any(a.startswith(head[:-1]) for a in actions) if head.endswith("*")
                     else head in actions)
            if not known:
                problems.append(Problem(f"{key}: no action '{head.rstrip('*')}' in this pack",
                                        _span(where_node, key, k), did_you_mean(head, actions)))
            out.append(pattern)
        return out

    def checks(when, where_node):
        s = spec_of(where_node)
        expect = [(text, compiled(text, _child(where_node, "expect", k)))
                  for k, text in enumerate(s.get("expect") or [])]
        return Checks(when, expect, labels("offered", where_node), labels("not_offered", where_node))

    def turns(value, where):
        if isinstance(value, dict):
            for word in value:
                if word not in game.turn_names:
                    named = (f"it names {', '.join(game.turn_names)}" if game.turn_names
                             else "it names none in turn_names")
                    problems.append(Problem(
                        f"turns: this pack has no word '{word}' for turns ({named})",
                        _key_span(where, word),
                        did_you_mean(word, game.turn_names) or "or give a number of turns"))
            if len(value) != 1:
                problems.append(Problem("turns: give one word and its count, e.g. {rounds: 2}",
                                        where.span))
        return value

    setup = compiled(spec["setup"], _child(node, "setup"), effect=True) if spec.get("setup") else None
    rolls = _rolls(game, spec.get("rolls") or [], _child(node, "rolls"), problems)
    decisions = list(spec.get("decisions") or [])
    for k, label in enumerate(decisions):
        head = label.split("(", 1)[0]
        if head not in actions:
            problems.append(Problem(f"decision {k + 1}: no action '{head}' in this pack",
                                    _span(node, "decisions", k), did_you_mean(head, actions)))
    end = checks("at the end", node)
    moments = []
    for k, m in enumerate(spec.get("at") or []):
        mnode = _child(node, "at", k)
        kinds = [key for key in ("decision", "point", "turn") if key in m]
        if len(kinds) != 1:
            problems.append(Problem("at: each moment names one of decision, point or turn"
                                    + (f", not {' and '.join(kinds)}" if kinds else ""),
                                    mnode.span, "write one `- decision: 2` (or point:, turn:) "
                                    "per moment"))
            continue
        kind = kinds[0]
        value = m[kind]
        if kind == "decision" and value > len(decisions):
            problems.append(Problem(f"at: decision {value} is never reached: the scenario "
                                    f"takes {len(decisions)} decision(s)", _span(mnode, "decision")))
        if kind == "point" and value not in points:
            problems.append(Problem(f"at: this pack asks no decision at point '{value}'",
                                    _span(mnode, "point"),
                                    did_you_mean(value, points) or f"points: {', '.join(points)}"))
        if "nth" in m and kind != "point":
            problems.append(Problem("at: nth counts the times a point is reached; it goes with "
                                    "point:", _key_span(mnode, "nth")))
        if kind == "turn":
            value = turns(value, _child(mnode, "turn"))
        if not any(m.get(key) for key in ("expect", "offered", "not_offered")):
            problems.append(Problem("at: this moment checks nothing", mnode.span,
                                    "give it expect:, offered: or not_offered:"))
        when = f"at {kind} {value}" if kind != "turn" else f"after {_turn_text(value)}"
        if kind == "decision":
            when = f"after decision {value}" if value else "at the first decision"
        if kind == "point":
            when = f"at point {value}" + (f" (time {m['nth']})" if m.get("nth", 1) > 1 else "")
        moments.append(Moment(kind, value, m.get("nth", 1), checks(when, mnode), mnode.span))
    if "turns" in spec:
        turns(spec["turns"], _child(node, "turns"))
    # (an empty `expect: []` says: the decisions are legal and the game runs without error)
    if not any(key in spec for key in ("expect", "offered", "not_offered", "at", "expect_error",
                                       "expect_law")):
        problems.append(Problem("this scenario checks nothing", node.span,
                                "give it expect:, offered:, not_offered:, at:, expect_error: "
                                "or expect_law:"))
    if problems:
        raise PackError(problems)
    return Script(setup, rolls, decisions, spec.get("turns"), bool(spec.get("play_on")), end,
                  moments, game.turn_names, spec.get("players"), spec.get("seed", 0))


def _rolls(game, rolls, where, problems: list[Problem]):
    """The forced rolls, each checked to be a face of its die (or, in a plain list, of some
    die: which die a roll lands on is known only in play)."""
    if isinstance(rolls, list):
        for k, value in enumerate(rolls):
            if not any(_is_face(game, die, value) for die in game.dice):
                problems.append(Problem(f"rolls: {value!r} is not a face of any die",
                                        _span(where, k), _faces_hint(game, game.dice)))
        return list(rolls)
    for die, values in rolls.items():
        if die not in game.dice:
            problems.append(Problem(f"rolls: this pack has no die '{die}'", _key_span(where, die),
                                    did_you_mean(die, game.dice) or f"dice: {', '.join(game.dice)}"))
            continue
        for k, value in enumerate(values):
            if not _is_face(game, die, value):
                problems.append(Problem(f"rolls: {value!r} is not a face of die '{die}'",
                                        _span(_child(where, die), k), _faces_hint(game, [die])))
    return {die: list(v) for die, v in rolls.items() if v}


def _is_face(game, die: str, value) -> bool:
    try:
        game.forced_face(die, value)
    except RuleRuntimeError:
        return False
    return True


def _faces_hint(game, dice) -> str:
    return "; ".join(f"{die}: {', '.join(dict.fromkeys(map(repr, game.dice[die])))}"
                     for die in dice)


def _turn_text(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{n} {word}" for word, n in value.items())
    return f"turn {value}"


def spec_of(node) -> dict:
    from engine.pack.yamlspan import plain
    return plain(node) if node is not None else {}


def _child(node, *path):
    for key in path:
        v = node.value
        if isinstance(v, dict) and key in v:
            node = v[key]
        elif isinstance(v, list) and isinstance(key, int) and key < len(v):
            node = v[key]
    return node


def _span(node, *path):
    return _child(node, *path).span


def _key_span(node, key):
    return (node.key_spans or {}).get(key, node.span)
