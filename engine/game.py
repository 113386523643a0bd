"""`Game`: a compiled pack — frozen, shared by every state played from it.

`engine.load(...)` builds one (load → validate → compile, see `engine.pack.build`); a Game
then makes states (`new_state`) and restores saved ones (`state_from_dict`). The small
lookups effects need at play time (a card's tags, a zone's capacity, a forced die face)
live here, on data compiled once. What the engine makes of a Game to play it (steppers,
legality plans, the end check...) is its `program` (engine.flow.program), the one part
that fills as games are played; a Game changed in code is a new one
(`dataclasses.replace`), with a program of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dsl.compiler import Compiled
from engine.dsl.env import Env
from engine.dsl.runtime import MISSING
from engine.dsl.values import Face, Z
from engine.errors import RuleRuntimeError
from engine.flow import machine
from engine.flow.nodes import ActionDef, EndDef, FlowNode, TriggerDef
from engine.flow.program import FlowProgram
from engine.model import CardDef, FieldDef, Invariant, ZoneDef  # re-exported: they were defined here


@dataclass(frozen=True, eq=False)
class Game:
    pack_id: str
    mode: str | None
    title: str
    params: dict[str, Any]
    env: Env
    players_min: int
    players_max: int
    players_default: int
    dice: dict[str, list]
    cards: dict[str, CardDef]
    kinds: dict[str, CardDef]
    zones: dict[str, ZoneDef]
    player_fields: dict[str, FieldDef]
    vars_init: dict[str, Any]
    turn_init: dict[str, Any]
    nodes: list[FlowNode]
    root: int
    actions: list[ActionDef]
    actions_at: dict[str, list[ActionDef]]
    triggers: dict[str, list[TriggerDef]]
    effect_procs: dict[str, tuple[list[str], Compiled]]
    flow_procs: dict[str, int]
    end: list[EndDef]
    invariants: list[Invariant]
    setup: tuple[Compiled, ...]  # the setup's steps, in order
    limits: dict[str, int]
    view: dict = field(default_factory=dict)
    policies: dict = field(default_factory=dict)
    metrics: dict = field(default_factory=dict)
    raw: dict = field(default_factory=dict)  # the merged pack, plain
    hash: str = ""
    files: list[str] = field(default_factory=list)
    house: list[str] = field(default_factory=list)
    sources: Any = None  # the files it was loaded from, by content (`engine.pack.sources`)
    extensions: dict = field(default_factory=dict)  # name -> building block (a board, ...)
    score: Compiled | None = None  # a finished game's score (`score:`), for high-score tables
    # how well player `me` stands, -100..100 (`value:`): the search bot's evaluation (bots only)
    value: Compiled | None = None
    highscores: bool = False  # finished games' scores go to the local high-score table
    # what the pack calls a number of turns (`waves`, `rounds`) -> how many turns one is,
    # an expression: scenarios may count their `turns:` in these words
    turn_names: dict = field(default_factory=dict)
    # card or kind id -> its tags (`tags_of`): `tagged` is asked thousands of times a game,
    # one look-up instead of two
    tag_sets: dict = field(init=False, repr=False)
    program: FlowProgram = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "tag_sets", _TagSets({**{k: d.tags for k, d in self.kinds.items()},
                                                       **{k: d.tags for k, d in self.cards.items()}}))
        object.__setattr__(self, "program", FlowProgram(self))

    # ---------- states ----------
    def new_state(self, players: int | None = None, seed: int = 0, prepare=None,
                  explicit_chance: bool = False):
        """A fresh game: setup done, flow run up to the first decision.

        `prepare(state)` runs after setup and before the flow starts (scenarios use it).
        `explicit_chance`: every random draw is a chance node the caller picks an outcome
        of (engine.agents.chance), the setup's first."""
        from engine.errors import StateError
        from engine.setup import setup_state
        n = self.players_default if players is None else players
        if not self.players_min <= n <= self.players_max:
            raise StateError(f"{self.title} is for {self.players_min} to {self.players_max} "
                             f"players, not {n}")
        if explicit_chance:
            from engine.agents import chance
            from engine.state import State
            if prepare is not None:
                raise StateError("explicit chance cannot prepare a state")
            return chance.new_state(State(self, n, seed),
                                    lambda feed: setup_state(self, n, seed, chance=feed))
        return setup_state(self, n, seed, prepare)

    def state_from_dict(self, data: dict):
        from engine.persist import state_from_dict
        return state_from_dict(self, data)

    def __reduce__(self):  # pickles as what it was loaded from (engine.agents.pickling)
        from engine.agents.pickling import reduce_game
        return reduce_game(self)

    # ---------- the fixed action space of agents (engine.agents.actions) ----------
    def action_space(self, players: int | None = None):
        from engine.agents.actions import space
        return space(self, self.players_default if players is None else players)

    def num_distinct_actions(self, players: int | None = None) -> int:
        return self.action_space(players).size

    def action_label(self, i: int, players: int | None = None) -> str:
        """What action id `i` stands for, as a label (`move(to=3,4)`)."""
        return self.action_space(players).label(i)

    # ---------- lookups used while playing ----------
    def tags_of(self, card_id: str) -> frozenset[str]:
        return self.tag_sets[card_id]

    def discard_zone(self, card_id: str, S) -> Z:
        d = self.cards.get(card_id) or self.kinds.get(card_id)
        if d is None or d.discard is None:
            raise RuleRuntimeError(f"'{card_id}' declares no discard zone")
        return Z(d.discard)

    def zone_capacity(self, name: str) -> int | None:
        z = self.zones.get(name)
        return z.capacity if z else None

    def zone_refill(self, name: str) -> str | None:
        z = self.zones.get(name)
        return z.refill if z else None

    def forced_face(self, die: str, value):
        """The face a scenario's forced roll names: a number, a face name, or icons."""
        faces = self.dice[die]
        for f in faces:
            if f == value and type(f) is type(value):
                return f
            if type(f) is Face and (f.name == value or f.icons == value or
                                    (isinstance(value, str) and repr(f) == value)):
                return f
        raise RuleRuntimeError(f"forced roll {value!r} is not a face of die '{die}' "
                               f"(faces: {', '.join(map(repr, faces))})")

    def call_effect_proc(self, S, name: str, args: dict):
        params, compiled = self.effect_procs[name]
        if S.depth >= self.limits["depth"]:
            raise RuleRuntimeError(f"procedure calls nested deeper than {self.limits['depth']} "
                                   f"(calling '{name}')")
        S.depth += 1
        S.charge(1)
        try:
            return machine.evaluate(S, compiled, args)
        finally:
            S.depth -= 1

    def ent_attr(self, S, e, name: str):
        for ext in self.extensions.values():
            v = ext.ent_attr(S, e, name)
            if v is not MISSING:
                return v
        return MISSING

    def value_attr(self, S, v, name: str):
        for ext in self.extensions.values():
            r = ext.value_attr(S, v, name)
            if r is not MISSING:
                return r
        return MISSING

    def compile_expr(self, text: str, scope: dict[str, str] | None = None, *,
                     effect: bool = False, where=None):
        """Compile an expression (or, with `effect`, statements) against this pack's names.

        For text that is not part of the pack: scenario expectations, views, metrics.
        `where` is the YAML node the text came from, for error positions."""
        from engine.dsl import ast
        from engine.dsl.compiler import compile_snippet
        from engine.dsl.parser import parse_expr, parse_program
        from engine.errors import DSLSyntaxError, PackError, Problem, locator
        locate = locator(where)
        try:
            tree = parse_program(text) if effect else parse_expr(text)
        except DSLSyntaxError as exc:
            raise PackError([Problem(exc.problem.message, locate(getattr(exc, "pos", None)),
                                     exc.problem.hint)]) from None
        c, probs = compile_snippet(tree, self.env, scope or {}, expr=not effect, pure=not effect)
        if probs:
            raise PackError([Problem(p.message, locate(p.pos), p.hint) for p in probs])
        assert c is not None
        c.locate = locate
        self.env.vars_read.update(ast.variables_read(tree))  # a view's, a metric's: reads too
        return c

    def ext(self, name: str):
        """The building block `name` (e.g. 'board'); a clear error if the pack has none."""
        try:
            return self.extensions[name]
        except KeyError:
            raise RuleRuntimeError(f"this pack declares no {name}") from None

    def describe_extra(self, v) -> str:
        for ext in self.extensions.values():
            text = ext.describe(v)
            if text is not None:
                return text
        return str(v)


class _TagSets(dict):
    """`Game.tag_sets`: a card's or kind's tags by id; none for any other id."""

    def __missing__(self, card_id: str) -> frozenset[str]:
        return frozenset()
