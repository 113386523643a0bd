"""What running a snippet in the flow takes, below the run loop (`machine.py`): its locals,
its errors in the pack's words, an effect's step and aftermath (triggers, end checks, the
end of the turn), the frames calls push, the start of a turn. The loop, the steppers and
the legality checks (`labels.py`) all use it, so it imports none of them.
"""

from __future__ import annotations

from typing import cast

from engine.dsl import footprint
from engine.dsl.compiler import Compiled, error_pos, runtime_message
from engine.errors import HordeError, RuleRuntimeError, Span
from engine.flow.nodes import FOR_EACH
from engine.pack.events import ROUNDS, point_event

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
    S.fx_steps = 0
    S.charge(1)
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
        triggers = g.triggers.get(event)
        if not triggers:  # nobody listens: a pack may announce at every hinge for free
            continue
        S.log.append({"t": "event", "e": event})
        for trig in triggers:
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


def listens_turn_over(g) -> bool:
    """Whether a trigger of `g` listens to what `turn_over` announces: the flow's code
    calls it only then (engine.pack.events)."""
    return "turn_end" in g.triggers or "round_end" in g.triggers and ROUNDS in g.turn_names


def turn_over(S, player) -> None:
    """The turn of `player` is over: `turn_end`, then `round_end` when it was the last turn
    of a round (the pack's `turn_names` say how many turns a round is), and their triggers."""
    g = S.game
    if "turn_end" in g.triggers:
        S.emit("turn_end", {"player": player})
    if "round_end" in g.triggers and ROUNDS in g.turn_names:
        n = evaluate(S, g.turn_names[ROUNDS], NO_LOCALS)
        if isinstance(n, int) and n > 0 and S.turns % n == 0:
            S.emit("round_end", {"round": S.turns // n})
    after_effect(S)


def reach_point(S, point: str) -> None:
    """The flow reaches ask or window `point`: its event and the triggers on it (called
    only when some trigger listens, engine.flow.steppers)."""
    S.emit(point_event(point), {"point": point, "player": S.players[S.cur]})
    after_effect(S)
