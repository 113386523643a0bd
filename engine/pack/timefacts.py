"""Facts about time: which turn variables a turn may have set at each place of the flow.

Turn variables start each turn at their declared value (a `for_each` with `turn: true`
begins a turn). A condition that reads `turn.roll` at an ask before anything in the turn
sets it reads that start value every time; a `turn.bonus = 2` after which nothing reads
the bonus before the turn ends is lost; a variable nothing reads is a slip or dead
weight. Each is a warning (engine.pack.lint), found by two passes over the flow program
(engine.flow.nodes), with each snippet's reads taken from its tree (engine.dsl.ast) and
its writes from the facts the compiler recorded (engine.dsl.footprint):

- forward, the turn variables that may have been written since the turn began, at every
  node: a condition (of an `if`, a `repeat`, an action offered at an ask or window) that
  reads one none may have written is reported;
- backward, the turn variables that may be read before the turn ends: a `turn.x = ...`
  none may read is reported.

Both are "may" analyses, so a report is sure: loops run any number of times, both
branches of an `if` may be taken, every trigger may run at any effect (its writes may
happen anywhere, its reads count everywhere), and so do what the end rules, invariants,
policies, views and metrics read. A write through something no analysis follows
(footprint ANY) may write every variable.
"""

from __future__ import annotations

from pathlib import Path

from engine.dsl import ast, footprint
from engine.errors import Problem
from engine.flow.nodes import ASK, CALL, DO, FOR_EACH, IF, REPEAT, SEQ, WINDOW

_DEPTH = 64  # flow procedure calls followed, at most (a procedure may call itself)


def _own_reads(tree: ast.Node | None) -> tuple[set[str] | None, set[str]]:
    """(the turn variables `tree` itself reads, None when unknown; the calls it makes)."""
    if tree is None:
        return set(), set()
    calls = {n.func for n, _ in ast.walk(tree) if isinstance(n, ast.Call)}
    if _whole(tree, "turn"):
        return None, calls  # the namespace handed on whole: anything may be read
    return {name for ns, name in ast.variables_read(tree) if ns == "turn"}, calls


def _whole(tree: ast.Node, *spaces: str) -> bool:
    """Whether `tree` uses namespace `turn` or `game` otherwise than as `turn.x`."""
    nodes = [n for n, _ in ast.walk(tree)]
    held = {id(n.obj) for n in nodes if isinstance(n, ast.Attr)}
    return any(isinstance(n, ast.Name) and n.id in spaces and id(n) not in held for n in nodes)


class _Flow:
    def __init__(self, game):
        self.g = game
        self.names = set(game.turn_init)
        self.procs = {n: c.tree for n, (_, c) in game.effect_procs.items()}
        self.memo: dict[int, set[str]] = {}  # id of a snippet -> reads
        self.proc_reads: dict[str, tuple] = {}
        self.unread: dict[tuple, tuple] = {}  # (site, var) -> (span, message)
        self.written_at: dict[tuple, set] = {}  # site -> vars written before it, on some visit
        self.dead: dict[tuple, tuple] = {}
        self.live_at: dict[tuple, set] = {}
        self.always = self._always()
        self.background = set()
        for ts in game.triggers.values():
            for t in ts:
                self.background |= self.writes(t.fx)

    # ---------- what snippets do ----------
    def reads(self, c) -> set[str]:
        """The turn variables snippet `c` and the procedures it calls may read."""
        if c is None:
            return set()
        key = id(c)
        if key not in self.memo:
            own, calls = _own_reads(c.tree)
            out = set(self.names) if own is None else own
            seen: set[str] = set()
            todo = [f for f in calls if f in self.procs]
            while todo and len(out) < len(self.names):
                name = todo.pop()
                if name in seen:
                    continue
                seen.add(name)
                if name not in self.proc_reads:
                    self.proc_reads[name] = _own_reads(self.procs[name])
                more, further = self.proc_reads[name]
                out |= set(self.names) if more is None else more
                todo.extend(f for f in further if f in self.procs)
            self.memo[key] = out
        return self.memo[key]

    def writes(self, c) -> set[str]:
        if c is None:
            return set()
        keys = footprint.writes(self.g, c)
        return set(self.names) if footprint.ANY in keys else set(keys & self.names)

    def _always(self) -> set[str]:
        """What is read at any time: by triggers, end rules, invariants, policies, the
        score, views and metrics."""
        g = self.g
        out = {name for ns, name in g.env.vars_read if ns == "turn"}
        cs = [c for ts in g.triggers.values() for t in ts for c in (t.cond, t.fx)]
        cs += [c for e in g.end for c in (e.when, e.winners)] + [i.check for i in g.invariants]
        cs += [c for p in g.policies.values() for r in p.rules for c in (r.cond, r.score)]
        cs += [g.score, g.value, *g.setup]
        for c in cs:
            out |= self.reads(c)
        return out

    # ---------- forward: what may have been written ----------
    def check_reads(self, site, c, state: set[str]) -> None:
        if c is None or c.locate is None or c.tree is None:
            return
        self.written_at.setdefault(site, set()).update(state)
        for node, _ in ast.walk(c.tree):
            if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == "turn" \
                    and node.name in self.names and node.name not in self.background:
                init = self.g.turn_init[node.name]
                self.unread.setdefault((site, node.name), (c.locate(node.pos), (
                    f"turn.{node.name} is read here before anything sets it this turn: it is "
                    f"always its start value ({init!r}) here")))

    def forward(self, nid: int, state: set[str] | None, calls: tuple = ()) -> set[str] | None:
        n = self.g.nodes[nid]
        k = n.kind
        if k == SEQ:
            for kid in n.children:
                state = self.forward(kid, state, calls)
            return state
        if k == DO:
            return None if state is None else state | self.writes(n.fx) | self.background
        if k == IF:
            if state is not None:
                self.check_reads(("if", nid), n.cond, state)
            a = self.forward(n.then, state, calls) if n.then is not None else state
            b = self.forward(n.orelse, state, calls) if n.orelse is not None else state
            return None if a is None or b is None else a | b
        if k in (REPEAT, FOR_EACH):
            if n.turn:  # each turn starts at the declared values
                self.forward(n.body, set(self.background), calls)
                return None
            out = state
            for _ in range(2):  # a second round sees what the first may have written
                out = self.forward(n.body, out, calls)
                if k == REPEAT and out is not None:
                    self.check_reads(("until", nid), n.cond, out)
            return None if out is None or state is None else out | state
        if k in (ASK, WINDOW):
            if state is None:
                return None
            acts = self.g.actions_at.get(n.point, [])
            after = state.union(*(self.writes(a.fx) for a in acts))
            for a in acts:  # a window stays open for more: what one action sets, the next sees
                for part in (a.guard, a.cond):
                    self.check_reads(("action", a.id, n.point), part, after if k == WINDOW else state)
            return after
        if k == CALL:
            if len(calls) >= _DEPTH or n.proc in calls:
                return None if state is None else set(self.names)
            return self.forward(self.g.flow_procs[n.proc], state, (*calls, n.proc))
        return state

    # ---------- backward: what may yet be read ----------
    def check_writes(self, site, c, live: set[str]) -> None:
        if c is None or c.locate is None or c.tree is None:
            return
        self.live_at.setdefault(site, set()).update(live)
        own = self.reads(c)
        for node, _ in ast.walk(c.tree):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Attr) \
                    and isinstance(node.target.obj, ast.Name) and node.target.obj.id == "turn" \
                    and node.target.name in self.names and node.target.name not in own:
                name = node.target.name
                self.dead.setdefault((site, name), (c.locate(node.pos), (
                    f"turn.{name} is set here but nothing reads it before the turn ends "
                    "and it is reset")))

    def backward(self, nid: int, live: set[str], calls: tuple = ()) -> set[str]:
        n = self.g.nodes[nid]
        k = n.kind
        if k == SEQ:
            for kid in reversed(n.children):
                live = self.backward(kid, live, calls)
            return live
        if k == DO:
            self.check_writes(("do", nid), n.fx, live)
            return live | self.reads(n.fx)
        if k == IF:
            a = self.backward(n.then, live, calls) if n.then is not None else live
            b = self.backward(n.orelse, live, calls) if n.orelse is not None else live
            return a | b | self.reads(n.cond)
        if k in (REPEAT, FOR_EACH):
            if n.turn:  # the next turn starts afresh; after the last, what follows reads
                self.backward(n.body, set(live), calls)
                return live | self.reads(n.domain)
            around = live | self.reads(n.cond) | self.reads(n.times) | self.reads(n.domain)
            inside = self.backward(n.body, around, calls)
            return around | self.backward(n.body, around | inside, calls)
        if k in (ASK, WINDOW):
            acts = self.g.actions_at.get(n.point, [])
            here = set().union(*(self.reads(c) for a in acts
                                 for c in (a.guard, a.cond, a.fx, *(d for _, d in a.params))))
            for a in acts:
                self.check_writes(("action", a.id, n.point), a.fx, live | here)
            return live | here
        if k == CALL:
            if len(calls) >= _DEPTH or n.proc in calls:
                return set(self.names)
            return self.backward(self.g.flow_procs[n.proc], live, (*calls, n.proc)) | \
                set().union(*(self.reads(c) for c in n.args.values()))
        return live


def time_warnings(game, overlay: Path | None = None) -> list[Problem]:
    """Reads before any write this turn, writes reset before any read, variables never
    read (only for a game with mode or house rule `overlay`, those it declares: a base
    pack may declare a variable its modes read)."""
    f = _Flow(game)
    out = []
    if f.names:
        f.forward(game.root, None)
        for (site, name), (span, msg) in f.unread.items():
            if name not in f.written_at.get(site, set()):
                out.append(Problem(msg, span, f"set turn.{name} earlier in the turn, or read it later"))
        f.backward(game.root, set(f.always))
        for (site, name), (span, msg) in f.dead.items():
            if name not in f.live_at.get(site, set()) and name not in f.always:
                out.append(Problem(msg, span, f"read turn.{name} after this, or drop the write"))
    return out + _never_read(game, overlay)


def _never_read(game, overlay: Path | None) -> list[Problem]:
    env = game.env
    if overlay is None:
        return []
    read = set(env.vars_read)
    for tree, _ in env.snippets:
        read |= ast.variables_read(tree, updates=False)
        if _whole(tree, "turn", "game"):
            return []  # a namespace handed on whole: anything may be read
    return [Problem(f"{'turn' if ns == 'turn' else 'game'} variable '{name}' is read by no rule",
                    span, f"read it as {ns}.{name}, or remove it")
            for (ns, name), span in env.var_spans.items() if (ns, name) not in read
            and span is not None and Path(span.file).resolve() == overlay.resolve()]
