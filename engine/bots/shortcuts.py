"""What a policy bot may skip without deciding differently, worked out once per policy.

A policy bot (engine.bots.policy) evaluates its rules on a determinization of the state
(engine.hidden), and a rule such as `gap(z.cell, bait(me))` is evaluated for each of
dozens of candidate pieces. Two costs of that are avoidable, and this module finds, from
the snippets' facts (engine.dsl.facts), where they may be avoided:

- **The re-deal.** A rule that cannot look at hidden cards decides the same on any
  determinization, so it needs none. The facts say which snippets are pure, known and
  name no face-down zone; they cannot say which card a field or a binding holds, so such
  a decision is taken on the state itself, `sealed` (engine.hidden) for its time: its
  hidden zones and records raise `Peeked` when touched. A decision that breaks the seal,
  or may evaluate a rule the facts do not clear, is taken on a real determinization, as
  always.
- **Repeated procedure calls.** A value procedure is pure: within one decision, on one
  state, the same arguments give the same value. Each rule gets private copies of its
  generated code and of the procedures it reaches, whose calls go through a memo per
  procedure that `Shortcuts.forget` empties when the decision ends. Keys are the
  arguments' identities: a rule passes the very same objects again and again
  (`bait(me)`'s list, a piece's cell), equal values in other objects come seldom (0.4% of
  calls in the longest bundled game), and a key of values was built element by element at every call.
  An entry holds its arguments, so no id is reused while it lives; a hit charges the
  steps the first call took, so the budgets count as before. A procedure that calls
  nothing (a few fields added up) is called as it is.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import replace

from engine.dsl.facts import reached
from engine.dsl.procs import direct_proc
from engine.hidden import Families, hidden_zone_keys


def _memoized(fn: Callable, memo: dict, arity: int) -> Callable:
    """`fn(S, *args)` answered from `memo` (its own) for arguments it was called with before:
    the very same objects, which cannot change meanwhile (pure procedures, one state).
    Procedures of one or two parameters, most of them, get a call of their own arity."""
    if arity == 1:
        def call1(S, a):
            got = memo.get(id(a))
            if got is None:
                fx, steps = S.fx_steps, S.steps
                value = fn(S, a)
                memo[id(a)] = (value, S.fx_steps - fx, S.steps - steps, a)  # (a: kept alive)
                return value
            S.fx_steps += got[1] - got[2]  # the same in a pure procedure; kept exact all the same
            S.charge(got[2])
            return got[0]
        return call1
    if arity == 2:
        def call2(S, a, b):
            ids = id(a), id(b)
            got = memo.get(ids)
            if got is None:
                fx, steps = S.fx_steps, S.steps
                value = fn(S, a, b)
                memo[ids] = (value, S.fx_steps - fx, S.steps - steps, a, b)
                return value
            S.fx_steps += got[1] - got[2]
            S.charge(got[2])
            return got[0]
        return call2

    def call(S, *args):
        ids = tuple(map(id, args))
        got = memo.get(ids)
        if got is None:
            fx, steps = S.fx_steps, S.steps
            value = fn(S, *args)
            memo[ids] = (value, S.fx_steps - fx, S.steps - steps, args)
            return value
        S.fx_steps += got[1] - got[2]
        S.charge(got[2])
        return got[0]
    return call


def _height(procs: dict, name: str, seen: dict) -> int:
    """How deep calls of procedure `name` nest (its call graph has no cycle: `reached`)."""
    if name not in seen:
        callees = procs[name][1].facts.procs
        seen[name] = 1 + max((_height(procs, c, seen) for c in callees), default=0)
    return seen[name]


class Shortcuts:
    """The shortcuts of one policy in one game (see the module docstring)."""

    def __init__(self, game, policy):
        self.game = game
        self.memos: list[dict] = []  # one per memoized procedure, emptied after a decision
        self._private: dict[str, Callable] = {}  # procedure -> its memoized private copy
        self._needs: dict[frozenset[str], bool] = {}  # action ids -> may need a re-deal
        self.families = Families(game)
        self._hidden: dict[tuple, list[str]] = {}
        face_down = {name for name, z in game.zones.items() if z.visible == "none"}
        procs = game.effect_procs
        self.rules = []  # per rule: (cond, score) to evaluate, and whether it needs a re-deal
        for rule in policy.rules:
            snippets = [c for c in (rule.cond, rule.score) if c is not None]
            facts = [reached(procs, c.facts) for c in snippets]
            known = all(f is not None for f in facts)
            flat = [x for f in facts if f is not None for x in f]
            needs = not known or any(not x.pure or
                                     any(g[4:] in face_down for g in x.globals
                                         if g.startswith("_zr_")) for x in flat)
            names = {n for x in flat for n in x.procs}
            height: dict = {}
            memo = known and names <= game.env.pure_procs and \
                max((_height(procs, n, height) for n in names), default=0) < game.limits["depth"]
            cond, score = rule.cond, rule.score
            if memo and names:
                cond = self._private_snippet(cond)
                score = self._private_snippet(score)
            self.rules.append((rule, cond, score, needs))
        self.any_needs = any(r[3] for r in self.rules)

    # ---- the re-deal ----
    def needs_redeal(self, decision) -> bool:
        """Whether a rule this decision may evaluate is not cleared by the facts."""
        if not self.any_needs:
            return False
        ids = frozenset("pass" if a is None else a.id for a, _ in decision.bindings.values())
        needs = self._needs.get(ids)
        if needs is None:
            needs = self._needs[ids] = any(
                needs for rule, _, _, needs in self.rules
                if "*" in rule.play or not ids.isdisjoint(rule.play))
        return needs

    def hidden_keys(self, state, seat: int) -> list[str]:
        """`hidden_zone_keys`, remembered for the zones a state has (setup makes them)."""
        key = (seat, tuple(state.zones))
        keys = self._hidden.get(key)
        if keys is None:
            keys = self._hidden[key] = hidden_zone_keys(state, seat)
        return keys

    # ---- the memo ----
    def forget(self) -> None:
        """The end of a decision: what the memos hold was true of its state only."""
        for memo in self.memos:
            memo.clear()

    def _private_snippet(self, c):
        if c is None:
            return None
        return replace(c, fn=self._rebound(c.fn))

    def _rebound(self, fn: Callable) -> Callable:
        """A copy of generated function `fn` whose procedure calls go through the memo."""
        g = fn.__globals__
        calls = [k for k in g if k.startswith("_pc_")]
        if not calls or fn.__closure__ is not None:  # not generated code: leave it be
            return fn
        ns = dict(g)
        for k in calls:
            ns[k] = self._proc(k[4:])
        return types.FunctionType(fn.__code__, ns, fn.__name__, fn.__defaults__)

    def _proc(self, name: str) -> Callable:
        fn = self._private.get(name)
        if fn is None:  # (no procedure reaches itself: `reached` said so)
            fn = direct_proc(self.game, name)
            facts = self.game.effect_procs[name][1].facts
            if facts.builtins or facts.procs:  # a sum of a few fields costs less than a look-up
                self.memos.append({})
                fn = _memoized(self._rebound(fn), self.memos[-1],
                                len(self.game.effect_procs[name][0]))
            self._private[name] = fn
        return fn
