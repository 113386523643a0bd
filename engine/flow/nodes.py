"""Compiled flow nodes and actions: the immutable program the flow machine runs.

A pack's `flow:` tree is flattened into a table of nodes addressed by index, so a frame on
the machine's stack is just `[node index, counter, vars, data, boundary]` — plain data that
clones, saves and reloads without pickling code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dsl.compiler import Compiled
from engine.errors import Span

SEQ, DO, IF, REPEAT, FOR_EACH, ASK, WINDOW, CALL = (
    "seq", "do", "if", "repeat", "for_each", "ask", "window", "call")


@dataclass
class FlowNode:
    kind: str
    span: Span | None = None
    children: list[int] = field(default_factory=list)  # seq
    fx: Compiled | None = None  # do
    cond: Compiled | None = None  # if, repeat-until
    then: int | None = None
    orelse: int | None = None
    times: Compiled | None = None  # repeat
    max: int | None = None
    body: int | None = None  # repeat, for_each
    var: str | None = None  # for_each
    domain: Compiled | None = None
    turn: bool = False
    point: str | None = None  # ask, window
    who: Any = None  # ask: Compiled (a player); window: 'current' | 'others' | 'any'
    can_pass: bool = False
    proc: str | None = None  # call
    args: dict[str, Compiled] = field(default_factory=dict)


@dataclass
class ActionDef:
    id: str
    at: tuple[str, ...]
    who: str  # current | others | any
    params: list[tuple[str, Compiled]]
    cond: Compiled | None
    fx: Compiled | None
    span: Span | None
    text: str = ""
    guard: Compiled | None = None  # the part of `if` that needs no param: checked first


@dataclass
class TriggerDef:
    on: str
    cond: Compiled | None
    fx: Compiled
    span: Span | None


@dataclass
class EndDef:
    when: Compiled
    winners: Compiled | None
    span: Span | None


@dataclass
class PolicyRule:
    """Prefer the actions `play` (ids; '*' for any) whose `cond` holds, the best `score` first."""

    play: tuple[str, ...]
    cond: Compiled | None
    score: Compiled | None
    span: Span | None


@dataclass
class PolicyDef:
    name: str
    rules: list[PolicyRule]
    otherwise: str  # random | pass | first
    text: str = ""
    shortcuts: Any = field(default=None, repr=False, compare=False)  # engine.bots.shortcuts
