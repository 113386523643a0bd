"""The flow machine: runs a state's frame stack until a player must decide.

The stack is plain data (see `nodes.py`). `run` hands the top frame to its node's stepper
(`steppers.py`), which pops and pushes frames, running effects atomically, until an `ask`
or a `window` has someone to ask, or the game is over. `apply_action` resumes it. Windows
where nobody can act are skipped without asking anyone, so "any time" rules cost nothing
when no card could be played.
"""

from __future__ import annotations

from typing import Any, cast

from engine.dsl import footprint, pysource
from engine.dsl.compiler import Compiled, error_pos, runtime_message
from engine.dsl.values import E, P
from engine.errors import HordeError, RuleRuntimeError, Span
from engine.flow.decision import Decision
from engine.flow.labels import legal_bindings
from engine.flow.nodes import ASK, FOR_EACH, WINDOW

# what a failing snippet may raise: each becomes a RuleRuntimeError at the snippet's place
CATCH = (HordeError, ArithmeticError, LookupError, TypeError, AttributeError, ValueError,
         RecursionError, MemoryError)


def push(S, nid: int, vars: dict | None = None, boundary: bool = False) -> None:
    if len(S.stack) > S.game.limits["depth"] * 8:
        raise RuleRuntimeError(f"the flow nested deeper than {S.game.limits['depth'] * 8} frames")
    S.stack.append([nid, 0, vars, None, boundary])


def locals_for(S, c: Compiled) -> dict:
    """The flow locals, built only for a snippet that reads some (most read none)."""
    return flow_locals(S) if c.uses != () else NO_LOCALS


# the locals given to a snippet that reads none: it never looks at them, so one empty
# dict serves them all (a snippet's code only ever reads the locals it names)
NO_LOCALS: dict = {}


def push_proc(S, name: str, args: dict) -> None:
    nid = S.game.flow_procs[name]
    push(S, nid, dict(args), boundary=True)


def flow_locals(S) -> dict:
    """Variables visible to an effect: frame vars from the innermost procedure outwards
    (an inner frame's variable hides an outer one's of the same name)."""
    first = out = None  # mostly one frame holds variables: its own are copied in one go
    for fr in reversed(S.stack):
        vars = fr[2]
        if vars:
            if first is None:
                first = vars
            else:
                if out is None:
                    out = dict(first)
                for k, v in vars.items():
                    if k not in out:
                        out[k] = v
        if fr[4]:
            break
    if out is not None:
        return out
    return {} if first is None else dict(first)


def evaluate(S, c: Compiled, L: dict):
    """Run a compiled snippet; any failure becomes a RuleRuntimeError at its pack location."""
    try:
        return c.fn(S, L)
    except CATCH as exc:
        raise located(exc, c) from None


def located(exc: Exception, c: Compiled) -> HordeError:
    """The error a failed snippet raises, pointing at its place in the pack. Called while the
    exception is being handled, so the failing line can still be read off the traceback."""
    if isinstance(exc, HordeError):
        if isinstance(exc, RuleRuntimeError) and exc.problem.span is None:
            exc.problem.span = _span(c)
        return exc
    span = _span(c)
    if isinstance(exc, RecursionError | MemoryError):
        return too_deep(exc, span)
    return RuleRuntimeError(runtime_message(exc), span)


def _span(c: Compiled) -> Span | None:
    """Where in the pack snippet `c` failed (read off the traceback being handled)."""
    return cast("Span | None", c.locate(error_pos(c))) if c.locate else None


def too_deep(exc: RecursionError | MemoryError, span=None) -> RuleRuntimeError:
    """What Python running out of stack or memory says in the pack's words. The caps should
    stop a rule first (limits.depth, the caps on values); this is for what they miss."""
    if isinstance(exc, MemoryError):
        return RuleRuntimeError("out of memory: a value here grew too large", span)
    return RuleRuntimeError("the rules nested deeper than Python can follow", span,
                            hint="procedures and triggers nest up to limits.depth deep (lower "
                                 "it, or look for a rule that calls itself), and lists within "
                                 "lists nest as deep as the rules made them")


def run_effect(S, c: Compiled, L: dict) -> None:
    S.fx_steps = 1  # S.fx_steps = 0; S.charge(1), written out
    S.steps += 1
    if S.steps > S.step_cap or S.fx_cap < 1:
        S.charge(0)
    try:  # evaluate(S, c, L), minus a call: this runs for every effect
        c.fn(S, L)
    except CATCH as exc:
        raise located(exc, c) from None
    after_effect(S, c)


def may_end(g, c: Compiled) -> bool:
    """Whether effect `c` may make an end condition true: what it writes meets what they
    read (see engine.dsl.footprint). Worked out once per effect and game."""
    program = g.program
    answer = program.may_end.get(c)
    if answer is None:
        if program.end_watch is None:
            program.end_watch = frozenset().union(*(footprint.reads(g, end.when) for end in g.end))
        answer = program.may_end[c] = footprint.meet(program.end_watch, footprint.writes(g, c))
    return answer


def after_effect(S, c: Compiled | None = None) -> None:
    """Triggers for the events an effect emitted, then the end conditions — unless effect
    `c` cannot have changed what they read: they were false after the last effect, and
    still are — then the end of the turn it asked for. (Callers that know the effect may
    end the game pass no `c`.)"""
    g = S.game
    events = S.events
    while events:
        event, fields = events.pop(0)
        S.log.append({"t": "event", "e": event})
        for trig in g.triggers.get(event, ()):
            L = {"event": fields}
            cond = trig.cond
            if cond is not None:
                try:  # evaluate(S, cond, L), minus a call: this runs for every event
                    if not cond.fn(S, L):
                        continue
                except CATCH as exc:
                    raise located(exc, cond) from None
            # a trigger's effect runs inside the effect that emitted its event, so triggers
            # that set each other off nest: as deep as procedure calls may
            if S.depth >= g.limits["depth"]:
                raise RuleRuntimeError(
                    f"triggers set each other off more than {g.limits['depth']} deep "
                    f"(limits.depth), here the trigger on '{event}'", trig.span,
                    hint="an event a trigger emits runs its triggers at once: does this "
                         "trigger emit its own event, or one that leads back to it?")
            S.depth += 1
            try:
                run_effect(S, trig.fx, L)
            except RecursionError as exc:  # limits.depth set past what Python can nest
                raise too_deep(exc, trig.span) from None
            finally:
                S.depth -= 1
    if not S.over and (c is None or may_end(g, c)):
        g.program.end_check(S)
    if S.end_turn_requested:
        S.end_turn_requested = False
        nodes = g.nodes
        while S.stack and not (nodes[S.stack[-1][0]].kind == FOR_EACH and nodes[S.stack[-1][0]].turn):
            S.stack.pop()


def check_ends(S) -> None:
    """End the game if one of its end conditions holds.

    Like asking what is legal, asking whether the game is over is not playing: the steps
    its conditions take count against the budgets while they run (a runaway condition
    still stops), then are given back. So a game's step count does not depend on how
    often its end was checked, and the checks an effect can skip (see `may_end`) leave
    no trace."""
    S.game.program.end_check(S)


def _check_ends_carefully(S) -> None:
    """`check_ends`, condition by condition through `evaluate`: what ends the game, and
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
    """The game's `check_ends` as one generated function (`FlowProgram.end_check` keeps it):
    it asks every end condition in turn, and only when one holds or fails (once a game at
    most) does the careful way run them again, to end the game or report the error.
    Conditions cannot change the game, and their steps are given back, so running one
    twice leaves no trace. A condition that is one expression of no locals is written into
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
    from engine.dsl.procs import direct_proc

    if c.facts is None or c.facts.binds:
        return None
    space = c.fn.__globals__
    found = {name: space[name] for name in c.facts.globals}
    for proc in c.facts.procs:
        found[pysource.name("_pc_", proc)] = direct_proc(g, proc)
    return found


def start_turn(S, player) -> None:
    g = S.game
    stop = S.stop_turns
    if stop is not None and S.turns >= stop and not (S.stop_scripted and S.forced):
        S.log.append({"t": "msg", "text": f"stopped after {S.turns} turn(s)"})
        S.finish(winners=[], limit=True)
        return
    limit = g.limits["turns"]
    if limit and S.turns >= limit:
        S.log.append({"t": "msg", "text": f"turn limit {limit} reached"})
        S.finish(winners=[], limit=True)
        return
    S.cur = i = player.i
    S.turn = turn = g.turn_init.copy()
    for k in g.program.turn_lists:  # each turn starts with fresh lists
        turn[k] = list(turn[k])
    S.turns = n = S.turns + 1
    S.log.append({"t": "turn", "p": i, "n": n})
    if "turn_start" in g.triggers:
        S.emit("turn_start", {"player": player})
        after_effect(S)


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


def decision(player: int, point: str, kind: str, binds: dict) -> Decision:
    return Decision(player, point, kind, sorted(binds), binds)


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
        check_ends(S)  # from now on an effect need not check what it cannot have changed
        run(S)
    except RecursionError as exc:  # what the caps missed, in the pack's words
        raise too_deep(exc) from None
