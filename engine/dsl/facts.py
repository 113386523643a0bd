"""What a snippet does, recorded from the language's own tree while it is compiled.

Analyses that skip work which cannot matter (engine.dsl.footprint: end checks after an
effect; engine.flow.steppers: effects that cannot push a frame) need to know what a
snippet reads, writes and calls. As in Jinja's `idtracking` or Starlark's resolver, they
learn it from the language's own nodes, never from the Python made of them: the compiler
(engine.dsl.compiler) records, for each node it resolves, what it touches, and hands
the snippet's `Facts` over with its code (`Compiled.facts`).

The state a snippet touches is named by keys:

- a field, turn or game variable, or an event's field named by a constant key is its
  key; keys are not told apart by owner, which can only make answers more cautious;
- `OTHER` stands for zones and the places of entities, which only some builtins touch;
- `RESULT` for who won or lost;
- `ANY` for everything: what is not understood (a write through a computed key, the
  current player or turn, which change between effects, a builtin that does not say).

Builtins say what they touch where they are registered (engine.dsl.builtins `builtin`).
A snippet's facts are its own; the procedures it calls have theirs (`reached`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ANY = "*"
OTHER = "@other"
RESULT = "@result"
EVERYTHING = frozenset({ANY})


@dataclass(frozen=True, slots=True)
class Facts:
    """What one snippet's own code does; what the procedures it calls do is theirs."""

    reads: frozenset[str]  # keys of the state it may read
    writes: frozenset[str]  # keys of the state it may change
    procs: frozenset[str]  # effect procedures it calls directly
    # (procedure, keys): `count` or `empty` of a procedure's value reads `keys` (a zone)
    # unless that value is a list the procedure makes (`makes_list`)
    sized: tuple[tuple[str, frozenset[str]], ...]
    makes_list: bool  # it is an expression making a list (a list display or comprehension)
    flows: frozenset[str]  # flow procedures it starts (`call`)
    builtins: frozenset[str]  # builtins it calls
    # it may push or pop the flow's frames (`call`, a builtin not known not to), or does
    # what no analysis follows: calls a procedure with its arguments by name (through
    # Game.call_effect_proc), or a builtin the pack answers with a word of its own
    frames: bool
    ends: bool  # it may end the game (win, end_game)
    capped: bool  # it computes through the capped operators (engine.dsl.runtime mul, add, mod)
    pure: bool  # it changes nothing: no effect, no write of the state
    binds: frozenset[str]  # names of its own variables (assigned, looped over, in comprehensions)
    globals: frozenset[str]  # names of its namespace its generated code reads


@dataclass
class Tally:
    """The facts of one snippet while the compiler walks its tree."""

    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)
    procs: set[str] = field(default_factory=set)
    sized: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    flows: set[str] = field(default_factory=set)
    builtins: set[str] = field(default_factory=set)
    binds: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    frames: bool = False
    ends: bool = False
    capped: bool = False
    effects: bool = False  # it calls a builtin that changes the game (a roll, a log line)

    def use(self, *names: str) -> None:
        """The generated code reads these names of its namespace."""
        self.globals.update(names)

    def unknown(self) -> None:
        """Something no analysis follows: it may read and change anything."""
        self.reads.add(ANY)
        self.writes.add(ANY)
        self.frames = True

    def freeze(self, makes_list: bool) -> Facts:
        return Facts(frozenset(self.reads), frozenset(self.writes), frozenset(self.procs),
                     tuple(self.sized), makes_list, frozenset(self.flows), frozenset(self.builtins),
                     self.frames, self.ends, self.capped,
                     not (self.writes or self.effects), frozenset(self.binds),
                     frozenset(self.globals))


def reached(procs: dict, facts: Facts | None) -> list[Facts] | None:
    """`facts` and those of every procedure they call, directly or not (`procs`: a game's
    `effect_procs`, name -> (params, Compiled)); None when that is not all: a procedure
    is missing or has no facts, or some call themselves (through others or not), which
    no analysis follows."""
    if facts is None:
        return None
    calls: dict[str, frozenset[str]] = {}
    todo = list(facts.procs)
    while todo:
        name = todo.pop()
        if name in calls:
            continue
        entry = procs.get(name)
        if entry is None or entry[1].facts is None:
            return None
        calls[name] = entry[1].facts.procs
        todo.extend(calls[name])
    waiting = dict.fromkeys(calls, 0)  # callers not yet taken away, by procedure
    for callees in calls.values():
        for name in callees:
            waiting[name] += 1
    free = [name for name, n in waiting.items() if n == 0]
    taken = 0
    while free:  # take away procedures nobody left calls: only a cycle stays
        taken += 1
        for name in calls[free.pop()]:
            waiting[name] -= 1
            if waiting[name] == 0:
                free.append(name)
    if taken < len(calls):
        return None
    return [facts, *(procs[name][1].facts for name in calls)]
