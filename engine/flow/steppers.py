"""Sequences of the flow compiled to Python: one generated function per `seq` node.

The machine in `machine.py` interprets the flow one node at a time: it pushes a frame for
every child of a sequence, pops it on the next round and dispatches on its kind. Most
children are an effect, a test or a window nobody can act in, so most of that work only
moves a frame on and off the stack. A *stepper* runs the children of one sequence in
straight-line code instead, from the position its frame holds, and stops where the
interpreter would have to take over: a child that needs a frame of its own (a window
someone may act in, an ask, a loop, a call, a nested sequence), an effect that pushed or
popped frames, or the end of the game.

The frame stays the interpreter's: `[node, next child, vars, data, boundary]`, so states
clone, save and reload exactly as before, and a state saved mid-sequence resumes at the
same child. Everything a child does is what its own frame would have done — the same
effect runs with the same locals, the same step charges, the same error locations —
with the sequence's frame on top instead of the child's. That frame holds no variables
and is no procedure boundary, so no effect can tell the difference.
"""

from __future__ import annotations

from engine.flow.labels import needs_locals, window_check
from engine.flow.nodes import CALL, DO, FOR_EACH, IF, REPEAT, SEQ, WINDOW


def stepper(game, nid: int):
    """The stepper of node `nid` (a sequence or a loop), made on first use; None for the
    kinds the interpreter runs itself (asks, windows, calls)."""
    steppers = game.plans.setdefault("steppers", {})
    if nid not in steppers:
        kind = game.nodes[nid].kind
        make = _MAKERS.get(kind)
        steppers[nid] = make(game, nid) if make is not None else None
    return steppers[nid]


def _namespace(game) -> dict:
    from engine.flow import machine

    return {"after_effect": machine.after_effect, "flow_locals": machine.flow_locals,
            "located": machine.located, "push": machine.push, "window_order": machine.window_order,
            "push_proc": machine.push_proc,
            "evaluate": machine.evaluate, "CATCH": machine.CATCH, "len": len}


def _make_seq(game, nid: int):
    node = game.nodes[nid]
    ns = _namespace(game)
    lines = [f"def _seq_{nid}(S, fr):",
             "    stack = S.stack",
             "    i = fr[1]"]
    for k, cid in enumerate(node.children):
        child = game.nodes[cid]
        lines.append(f"    if i == {k}:")
        lines.append(f"        fr[1] = i = {k + 1}")
        lines += ["        " + line for line in _child(game, cid, child, ns)]
    lines += ["    stack.pop()"]
    code = "\n".join(lines) + "\n"
    ns["__builtins__"] = {}
    exec(compile(code, f"<horde:flow seq {nid}>", "exec"), ns)  # noqa: S102
    return ns[f"_seq_{nid}"]


def _body_runner(game, body: int):
    """`run_body(S, fr)` for a loop: push the body's frame and, when it has a stepper, run
    it straight away; True when the body is done and loop `fr` goes on, False when the
    interpreter must take over (a decision, a call, the end of the turn or the game)."""
    from engine.flow.machine import push

    body_step = stepper(game, body)

    def run_body(S, fr) -> bool:
        push(S, body)
        if body_step is None:
            return False
        stack = S.stack
        body_step(S, stack[-1])
        return not S.over and bool(stack) and stack[-1] is fr

    return run_body


def _make_for_each(game, nid: int):
    """A `for_each` loop: each value's body runs straight away, and the next value comes
    as soon as it is done, until a decision (or a call) hands over to the interpreter."""
    from engine.flow.machine import evaluate, locals_for, start_turn

    node = game.nodes[nid]
    domain, var, turn = node.domain, node.var, node.turn
    run_body = _body_runner(game, node.body)

    def _for_each(S, fr):
        while True:
            if fr[3] is None:
                fr[3] = list(evaluate(S, domain, locals_for(S, domain)))
            if fr[1] >= len(fr[3]):
                S.stack.pop()
                return
            v = fr[3][fr[1]]
            fr[1] += 1
            fr[2] = {var: v}
            if turn:
                start_turn(S, v)
                if S.over:
                    return
            if not run_body(S, fr):
                return

    return _for_each


def _make_repeat(game, nid: int):
    """A `repeat` loop, run like `for_each`: round after round while nothing needs the
    interpreter."""
    from engine.flow.machine import evaluate, locals_for

    node = game.nodes[nid]
    cond, times, limit = node.cond, node.times, node.max
    run_body = _body_runner(game, node.body)

    def _repeat(S, fr):
        while True:
            if cond is not None:
                done = evaluate(S, cond, locals_for(S, cond)) or (limit is not None and fr[1] >= limit)
            else:
                if fr[3] is None:
                    fr[3] = evaluate(S, times, locals_for(S, times))
                done = fr[1] >= fr[3]
            if done:
                S.stack.pop()
                return
            fr[1] += 1
            S.charge(1)
            if not run_body(S, fr):
                return

    return _repeat


_MAKERS = {SEQ: _make_seq, FOR_EACH: _make_for_each, REPEAT: _make_repeat}


def _locals(c) -> str:
    return "{}" if c.uses == () else "flow_locals(S)"


def _child(game, cid: int, child, ns: dict) -> list[str]:
    """The code that runs one child in place; it returns when the interpreter must go on."""
    if child.kind == DO:
        from engine.flow.machine import may_end

        fx = child.fx
        ns[f"_fx{cid}"] = fx
        ns[f"_fxfn{cid}"] = fx.fn
        # run_effect(S, fx, L), written out, with after_effect called only when it has
        # something to do; then frames pushed or popped (a call, the end of a turn) or the
        # end of the game hand over to the interpreter
        return ["S.fx_steps = 1",
                "S.steps += 1",
                "if S.steps > S.step_cap or S.fx_cap < 1:",
                "    S.charge(0)",
                "try:",
                f"    _fxfn{cid}(S, {_locals(fx)})",
                "except CATCH as exc:",
                f"    raise located(exc, _fx{cid}) from None",
                *([f"after_effect(S, _fx{cid})"] if may_end(game, fx) else
                  ["if S.events or S.end_turn_requested:", f"    after_effect(S, _fx{cid})"]),
                "if S.over or not stack or stack[-1] is not fr:",
                "    return"]
    if child.kind == IF:
        ns[f"_if{cid}"] = child.cond
        ns[f"_iffn{cid}"] = child.cond.fn
        out = ["try:",
               f"    test = _iffn{cid}(S, {_locals(child.cond)})",
               "except CATCH as exc:",
               f"    raise located(exc, _if{cid}) from None"]
        for branch, word in ((child.then, "if test:"), (child.orelse, "else:")):
            if branch is None:
                continue
            out += [word] + ["    " + line for line in _nested(game, branch, ns)]
        return out
    if child.kind == CALL:
        # the call's frame would be popped before its arguments are evaluated: they see the
        # same locals with the sequence's frame on top
        ns[f"_args{cid}"] = tuple(child.args.items())
        return ["L = flow_locals(S)",
                f"push_proc(S, {child.proc!r}, {{name: evaluate(S, c, L) for name, c in _args{cid}}})",
                "return"]
    if child.kind == WINDOW:
        point = child.point
        if not game.actions_at.get(point):
            return []  # nobody can ever act in it
        if needs_locals(game, point):
            return [f"push(S, {cid})", "return"]  # its frame gathers the locals
        ns[f"_win{cid}"] = window_check(game, point)
        return [f"order = window_order(S, {child.who or 'any'!r})",
                f"if _win{cid}(S, order) < len(order):",
                f"    push(S, {cid})",
                "    return"]
    return _nested(game, cid, ns)


def _nested(game, nid: int, ns: dict) -> list[str]:
    """Push node `nid`'s frame and, for a sequence or a loop, run it straight away: when it
    is done (its frame gone, ours on top again) the sequence goes on."""
    step = stepper(game, nid)
    if step is None:
        return [f"push(S, {nid})", "return"]
    ns[f"_step{nid}"] = step
    return [f"push(S, {nid})",
            f"_step{nid}(S, stack[-1])",
            "if S.over or not stack or stack[-1] is not fr:",
            "    return"]
