"""The flow machine: runs a state's frame stack until a player must decide.

The stack is plain data (see `nodes.py`). `run` hands the top frame to its node's stepper
(`steppers.py`), which pops and pushes frames, running effects atomically, until an `ask`
or a `window` has someone to ask, or the game is over. `apply_action` resumes it. Windows
where nobody can act are skipped without asking anyone, so "any time" rules cost nothing
when no card could be played. What running a snippet takes (its locals, its errors, its
aftermath: triggers, end checks) is in `effects.py`, which the steppers and the legality
checks use too.
"""

from __future__ import annotations

from typing import Any

from engine.dsl import pysource
from engine.dsl.procs import direct_proc
from engine.dsl.values import E, P
from engine.flow.decision import Decision, decision
from engine.flow.effects import CATCH, NO_LOCALS, evaluate, flow_locals, push, run_effect, too_deep
from engine.flow.labels import legal_bindings
from engine.flow.nodes import ASK, WINDOW


def _check_ends_carefully(S) -> None:
    """The end check, condition by condition through `evaluate`: what ends the game, and
    every error with its place in the pack."""
    steps, fx_steps = S.steps, S.fx_steps
    try:
        for end in S.game.end:
            if evaluate(S, end.when, {}):
                winners = evaluate(S, end.winners, {}) if end.winners else []
                S.finish(winners=[winners] if isinstance(winners, P) else list(winners or []))
                break
    finally:
        S.steps, S.fx_steps = steps, fx_steps


def make_end_check(g):
    """The game's end check as one generated function (`FlowProgram.end_check` keeps it):
    it asks every end condition in turn, and only when one holds or fails (once a game at
    most) does the careful way run them again, to end the game or report the error.
    Like asking what is legal, asking whether the game is over is not playing: the steps
    of its conditions count while they run (a runaway one still stops), then are given
    back, so a game's step count does not depend on how often its end was checked (nor on
    the checks an effect skips: `effects.may_end`), and running a condition twice leaves
    no trace. A condition that is one expression of no locals is written into
    the function (its names are those every snippet of the game shares, procedures called
    directly)."""
    ns: dict[str, Any] = {"__builtins__": {}, "CATCH": CATCH, "NO_LOCALS": NO_LOCALS}
    tests = []
    for k, end in enumerate(g.end):
        c = end.when
        line = c.body[0].strip() if len(c.body) == 1 else ""
        expr = line[len("return "):] if line.startswith("return ") and c.uses == () else None
        names = _names_of(g, c) if expr is not None else None
        if names is not None and all(ns.get(name, value) is value for name, value in names.items()):
            ns.update(names)
            tests.append(f"({expr})")
        else:
            ns[f"_w{k}"] = c.fn
            tests.append(f"_w{k}(S, {'NO_LOCALS' if c.uses == () else '{}'})")
    lines = ["def _ends(S):",
             "    steps, fx_steps = S.steps, S.fx_steps",
             "    try:",
             f"        holds = {' or '.join(tests) or 'False'}",
             "    except CATCH:",
             "        holds = True",
             "    finally:",
             "        S.steps, S.fx_steps = steps, fx_steps",
             "    if holds:",
             "        _careful(S)"]
    ns["_careful"] = _check_ends_carefully
    pysource.run("\n".join(lines) + "\n", "<horde:end check>", ns)
    return ns["_ends"]


def _names_of(g, c) -> dict | None:
    """The global names expression snippet `c` reads (its facts say), with their values (a
    procedure as its direct function); None if it has variables of its own (a
    comprehension's), or no facts."""
    if c.facts is None or c.facts.binds:
        return None
    space = c.fn.__globals__
    found = {name: space[name] for name in c.facts.globals}
    for proc in c.facts.procs:
        found[pysource.name("_pc_", proc)] = direct_proc(g, proc)
    return found


def run(S) -> None:
    """Advance until a decision is pending or the game is over: the stepper of the top
    frame runs (see `steppers.py`) until it needs the interpreter to go on. A sequence
    whose counter is past its last child has nothing left to do but pop its frame (what
    its stepper would do): after a decision, the frames under the window mostly are."""
    program = S.game.program
    steppers, done = program.steppers, program.done_at
    S._decision = None
    while not S.over:
        stack = S.stack
        if not stack:
            S.finish(winners=[])
            return
        fr = stack[-1]
        if fr[1] == done[fr[0]]:
            stack.pop()
            continue
        (steppers.get(fr[0]) or program.stepper(fr[0]))(S, fr)
        if S._decision is not None:
            return


def current_decision(S) -> Decision | None:
    """Recompute the pending decision (after a load, the cached one is gone)."""
    if S.over or not S.stack:
        return None
    fr = S.stack[-1]
    node = S.game.nodes[fr[0]]
    L = flow_locals(S)
    if node.kind == ASK:
        steps = S.steps  # recomputing is not playing: a reloaded state keeps its step count
        try:
            who = evaluate(S, node.who, L) if node.who is not None else S.players[S.cur]
        finally:
            S.steps = steps
        binds = legal_bindings(S, node.point, who.i, L)
        if node.can_pass:
            binds["pass"] = (None, {})
        return decision(who.i, node.point, "ask", binds)
    if node.kind == WINDOW and fr[3] is not None:
        seat = fr[3]["order"][fr[3]["k"] % len(fr[3]["order"])]
        binds = legal_bindings(S, node.point, seat, L)
        binds["pass"] = (None, {})
        return decision(seat, node.point, "window", binds)
    return None


def apply_action(S, d: Decision, label: str) -> None:
    action, args = d.bindings[label]
    fr = S.stack[-1]
    node = S.game.nodes[fr[0]]
    entry = {"t": "act", "p": d.player, "a": label}
    if args:
        named = [v.i for v in args.values() if type(v) is E]
        if named:  # which entities the label names, so views can mask ones that become hidden
            entry["e"] = named
    S.log.append(entry)
    if node.kind == WINDOW:
        if action is None:
            fr[3]["passed"] += 1
            fr[3]["k"] += 1
        else:
            fr[3]["passed"] = 0
    else:
        S.stack.pop()
    S._decision = None
    if action is not None and action.fx is not None:
        L = flow_locals(S) if action.id in S.game.program.fx_reads_locals else {}
        L["me"] = S.players[d.player]
        L.update(args)
        run_effect(S, action.fx, L)
    run(S)


def start(S) -> None:
    """Run the pack's setup and start the flow."""
    g = S.game
    push(S, g.root, None, boundary=True)
    try:
        g.program.end_check(S)  # from now on an effect need not check what it cannot have changed
        run(S)
    except RecursionError as exc:  # what the caps missed, in the pack's words
        raise too_deep(exc) from None
