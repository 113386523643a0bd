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

from engine.flow.labels import first_may_act, needs_locals
from engine.flow.nodes import CALL, DO, IF, SEQ, WINDOW


def stepper(game, nid: int):
    """The stepper of sequence `nid`, made on first use (the first game that reaches it)."""
    steppers = game.plans.setdefault("steppers", {})
    fn = steppers.get(nid)
    if fn is None:
        fn = steppers[nid] = _make(game, nid)
    return fn


def _make(game, nid: int):
    from engine.flow import machine

    node = game.nodes[nid]
    assert node.kind == SEQ
    ns: dict = {"run_effect": machine.run_effect, "after_effect": machine.after_effect,
                "flow_locals": machine.flow_locals, "located": machine.located, "push": machine.push,
                "window_order": machine.window_order, "first_may_act": first_may_act,
                "push_proc": machine.push_proc, "evaluate": machine.evaluate,
                "CATCH": machine.CATCH, "len": len}
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


def _locals(c) -> str:
    return "{}" if c.uses == () else "flow_locals(S)"


def _child(game, cid: int, child, ns: dict) -> list[str]:
    """The code that runs one child in place; it returns when the interpreter must go on."""
    if child.kind == DO:
        ns[f"_fx{cid}"] = child.fx
        # run_effect(S, fx, L) then: frames pushed or popped (a call, the end of a turn)
        # or the end of the game hand over to the interpreter
        return [f"run_effect(S, _fx{cid}, {_locals(child.fx)})",
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
            out += [word, f"    push(S, {branch})"]
            if game.nodes[branch].kind == SEQ:  # the usual branch: run it straight away
                ns[f"_seq{branch}"] = stepper(game, branch)
                out.append(f"    _seq{branch}(S, stack[-1])")
            out.append("    return")
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
        return [f"order = window_order(S, {child.who or 'any'!r})",
                f"if first_may_act(S, {point!r}, order) < len(order):",
                f"    push(S, {cid})",
                "    return"]
    return [f"push(S, {cid})", "return"]
