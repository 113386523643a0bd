"""Every flow node as a function that runs it from its frame: the machine's steppers.

The frame stack is the machine's state (see `nodes.py`): `[node, next child, vars, data,
boundary]`, so states clone, save and reload as plain data, and a state saved anywhere
resumes at the same place. What runs a frame is a *stepper* `step(S, fr)`, made once per
node and game (`FlowProgram.stepper`); `machine.run` only calls the stepper of the top
frame until a decision is pending or the game is over.

A stepper runs its node until it is done (its frame popped), a decision is pending
(`S._decision` set, its frame on top), or the interpreter must take over (another frame
on top: a call pushed by an effect, the end of a turn; or the end of the game). Sequences
are compiled to Python: one generated function per `seq` node runs its children in
straight-line code from the position its frame holds, and a child that has a frame of its
own (a nested sequence, a loop, a window, an ask, a procedure's body) gets it pushed and
its stepper called in place. So a whole turn runs as nested calls, and the stack of frames
is what the interpreter would have built, frame for frame: everything a child does is what
its own frame would have done — the same effect with the same locals, the same step
charges, the same error locations.
"""

from __future__ import annotations

from operator import itemgetter

from engine.dsl import pysource
from engine.dsl.facts import reached
from engine.dsl.nesting import kept
from engine.dsl.runtime import zone_refs
from engine.flow.decision import decision
from engine.flow.effects import (
    CATCH,
    NO_LOCALS,
    after_effect,
    evaluate,
    flow_locals,
    listens_turn_over,
    locals_for,
    located,
    may_end,
    push,
    push_proc,
    reach_point,
    run_effect,
    start_turn,
    turn_over,
)
from engine.flow.labels import legal_bindings, needs_locals
from engine.flow.nodes import ASK, CALL, DO, FOR_EACH, IF, REPEAT, SEQ, WINDOW
from engine.pack.events import point_event

# a call runs its procedure's body in place only while the stack is this shallow; deeper
# (a procedure that calls itself), the interpreter's loop runs it, and Python's stack stays small
INLINE_DEPTH = 64


def make(game, nid: int):
    """The stepper of node `nid` (`FlowProgram.stepper` keeps it)."""
    return _MAKERS[game.nodes[nid].kind](game, nid)


class _Orders(dict):
    """players -> the seats a window of one kind (`who`) asks, by current seat: in turn
    order from the current player, made once per player count."""

    def __init__(self, who: str):
        super().__init__()
        self.who = who

    def __missing__(self, n: int) -> list[tuple[int, ...]]:
        table = []
        for cur in range(n):
            order = (cur,) if self.who == "current" else tuple((cur + k) % n for k in range(n))
            table.append(order[1:] if self.who == "others" else order)
        self[n] = table
        return table


ORDERS = {who: _Orders(who) for who in ("any", "others", "current")}


class _Hands(dict):
    """players -> by current seat, what a window of one kind (`who`) passes over when it is
    empty (see `Window.skip`): a function giving the lists of `State.zones` that
    the seats it asks need a card in (the current seat's zones `zones[0]`, the others'
    `zones[1]`), or None when no seat needs any. Made once per player count."""

    def __init__(self, who: str, zones: tuple[set, set]):
        super().__init__()
        self.who, self.zones = who, zones

    def __missing__(self, n: int) -> list:
        table = []
        for cur, order in enumerate(ORDERS[self.who][n]):
            keys = [zone_refs(zone)[i].key for i in order for zone in sorted(self.zones[i != cur])]
            # one key would give that list itself, not a tuple of lists
            table.append(None if not keys else itemgetter(*keys) if len(keys) > 1 else itemgetter(keys[0], keys[0]))
        self[n] = table
        return table


def _namespace(game) -> dict:
    return {"after_effect": after_effect, "flow_locals": flow_locals, "located": located,
            "push": push, "evaluate": evaluate, "CATCH": CATCH, "len": len, "NO_LOCALS": NO_LOCALS,
            "_steppers": game.program.steppers, "_stepper": game.program.stepper}


# ---- sequences, compiled ----

def _make_seq(game, nid: int):
    node = game.nodes[nid]
    ns = _namespace(game)
    lines = [f"def _seq_{nid}(S, fr):",
             "    stack = S.stack",
             "    i = fr[1]"]
    for k, cid in enumerate(node.children):
        child = game.nodes[cid]
        lines.append(f"    if i <= {k}:")
        lines.append(f"        fr[1] = {k + 1}")
        lines += ["        " + line for line in _child(game, nid, cid, child, ns, "fr")]
    lines += ["    stack.pop()"]
    return _define(ns, lines, f"<horde:flow seq {nid}>")


def _define(ns: dict, lines: list[str], filename: str):
    """The function whose source is `lines` (a `def` first), run with no builtins but the
    names in `ns`."""
    ns["__builtins__"] = {}
    pysource.run("\n".join(lines) + "\n", filename, ns)
    return ns[lines[0][len("def "):lines[0].index("(")]]


def _inner(fr: str) -> str:
    """The variable of the frame of a sequence run in place inside the one whose frame is
    in variable `fr` (the stepper's own `fr`, then `f1`, `f2`...)."""
    return f"f{1 if fr == 'fr' else int(fr[1:]) + 1}"


def _back(fr: str) -> list[str]:
    """Hand over to the interpreter when the frame on top is not ours (`fr`) any more."""
    return [f"if S.over or not stack or stack[-1] is not {fr}:",
            "    return"]


# a sequence's code is written into the code that pushes its frame while it is at most this
# long, and while the nested sequences are at most this deep
INLINE_LINES = 400
INLINE_NESTING = 6


def _in_place(game, nid: int, ns: dict, fr: str) -> list[str] | None:
    """The code that pushes the frame of sequence `nid` and runs it from its start right
    there, as its stepper would: no call, and none of the stepper's tests of where to
    resume (a fresh frame starts at its first child). When it is done its frame is popped
    and ours (in variable `fr`) is on top again: every path through it that leaves another
    frame on top or ends the game returns first (each child's hand-over test), so the
    sequence pushing it need not test again. None when it is too long or too deeply
    nested. (A procedure's body is not run in place: it is made when first called, as
    a pack's procedures are many and a game calls few of them.)"""
    node = game.nodes[nid]
    mine = _inner(fr)
    if node.kind != SEQ or int(mine[1:]) > INLINE_NESTING:
        return None
    lines = _push(game, nid, into=mine)
    for k, cid in enumerate(node.children):
        lines.append(f"{mine}[1] = {k + 1}")
        lines += _child(game, nid, cid, game.nodes[cid], ns, mine)
        if len(lines) > INLINE_LINES:
            return None
    return [*lines, "stack.pop()"]


def _push(game, nid: int, vars: str = "None", boundary: bool = False, into: str | None = None) -> list[str]:
    """`push(S, nid, ...)`, written out: its depth check (push raises the error), its frame
    (also in variable `into`, when given)."""
    frame = f"[{nid}, 0, {vars}, None, {boundary}]"
    check = [f"if len(stack) > {pysource.whole(game.limits['depth'] * 8)}:",
             f"    push(S, {nid}, {vars}, {boundary})"]
    if into is None:
        return [*check, f"stack.append({frame})"]
    return [*check, f"{into} = {frame}", f"stack.append({into})"]


def _locals(game, nid: int, c) -> str:
    """The code that gives snippet `c`, run with node `nid`'s frame on top, its locals."""
    if c.uses == ():
        return "NO_LOCALS"
    k = frame_of(game, nid, c.uses) if c.uses is not None else None
    return "flow_locals(S)" if k is None else f"stack[-{k}][2]"


def frame_of(game, nid: int, names) -> int | None:
    """Where the values of `names` are while node `nid`'s frame is on top: k when they are
    all the variables of one `for_each`, whose frame is then `stack[-k]`; None when they
    come from elsewhere (the arguments of a call, several loops).

    Scopes are static (see `engine.pack.flowbuild`), and so is the stack between a node
    and the procedure body (or flow root) it is in: a node's frame is pushed right on top
    of its parent's, a branch's on top of the frame under its `if` (which has no frame
    while the branch runs). So the frames `flow_locals` would walk are known in advance,
    and a snippet that reads only a loop's variable can be handed that loop's own dict
    (a snippet reads its locals, and never changes them)."""
    parents, boundary = game.program.parents, game.program.boundary
    names = set(names)
    nodes = game.nodes
    k = 1
    while nid not in boundary:  # a procedure's body: its frame holds the call's arguments
        node = nodes[nid]
        if node.kind == FOR_EACH and k > 1 and node.var in names:
            return k if names == {node.var} else None
        nid = parents.get(nid)
        while nid is not None and nodes[nid].kind == IF:
            nid = parents.get(nid)
        if nid is None:
            return None
        k += 1
    return None


def _child(game, nid: int, cid: int, child, ns: dict, fr: str) -> list[str]:
    """The code that runs child `cid` of sequence `nid` in place, the sequence's frame in
    variable `fr`; it returns when the interpreter must go on. An ask or a window a trigger
    listens to (`point:<name>`) is announced first; one nobody listens to costs nothing."""
    if child.kind in (ASK, WINDOW) and point_event(child.point) in game.triggers:
        ns["reach_point"] = reach_point
        return [f"reach_point(S, {child.point!r})", *_back(fr), *_run_child(game, nid, cid, child, ns, fr)]
    return _run_child(game, nid, cid, child, ns, fr)


def _run_child(game, nid: int, cid: int, child, ns: dict, fr: str) -> list[str]:
    if child.kind == DO:
        fx = child.fx
        ns[f"_fx{cid}"] = fx
        ns[f"_fxfn{cid}"] = fx.fn
        # run_effect(S, fx, L), written out, with after_effect called only when it has
        # something to do; then frames pushed or popped (a call, the end of a turn) or the
        # end of the game hand over to the interpreter
        out = [*pysource.charge_lines(1, fresh=True, effect_steps=game.limits["effect_steps"]),
               "try:",
               f"    _fxfn{cid}(S, {_locals(game, nid, fx)})",
               "except CATCH as exc:",
               f"    raise located(exc, _fx{cid}) from None"]
        if may_end(game, fx):  # known here: after_effect need not ask again
            return [*out, "after_effect(S)", *_back(fr)]
        out += ["if S.events or S.end_turn_requested:", f"    after_effect(S, _fx{cid})"]
        if not contained(game, fx):
            return [*out, *_back(fr)]
        # an effect that can neither push nor pop frames nor end the game: only what
        # after_effect does (triggers, the end of the turn) can
        return [*out, *("    " + line for line in _back(fr))]
    if child.kind == IF:
        ns[f"_if{cid}"] = child.cond
        ns[f"_iffn{cid}"] = child.cond.fn
        out = ["try:",
               f"    test = _iffn{cid}(S, {_locals(game, nid, child.cond)})",
               "except CATCH as exc:",
               f"    raise located(exc, _if{cid}) from None"]
        for branch, word in ((child.then, "if test:"), (child.orelse, "else:")):
            if branch is None:
                continue
            out += [word] + ["    " + line for line in _nested(game, branch, ns, fr)]
        return out
    if child.kind == CALL:
        # the call's frame would be popped before its arguments are evaluated: they see the
        # same locals with the sequence's frame on top; then the procedure's body runs
        body = game.flow_procs[child.proc]
        out = []
        args = "{}"
        if child.args:
            ns[f"_args{cid}"] = tuple(child.args.items())
            out += ["L = flow_locals(S)",
                    f"args = {{name: evaluate(S, c, L) for name, c in _args{cid}}}",
                    "if S.over:",
                    "    return"]
            args = "args"
        return [*out, *_push(game, body, args, True),
                f"if len(stack) > {INLINE_DEPTH}:",
                "    return",
                # the body's stepper, looked up when the call runs: a procedure may call itself
                f"(_steppers.get({body}) or _stepper({body}))(S, stack[-1])",
                *_back(fr)]
    if child.kind == WINDOW:
        point = child.point
        if not game.actions_at.get(point):
            return []  # nobody can ever act in it
        ns[f"_step{cid}"] = game.program.stepper(cid)
        if needs_locals(game, point):  # its frame gathers the locals
            return [*_push(game, cid), f"_step{cid}(S, stack[-1])", *_back(fr)]
        window = game.program.window(point)
        ns[f"_win{cid}"] = window.check
        ns[f"_ord{cid}"] = ORDERS[child.who or "any"]
        # the seats that surely cannot act are passed over before the window has a frame;
        # its stepper starts at the first seat that may act
        out = ["order = " + ("(S.cur,)" if child.who == "current" else f"_ord{cid}[len(S.pl)][S.cur]"),
               f"first, hand = _win{cid}(S, order)",
               "if first < len(order):",
               *("    " + line for line in _push(game, cid)),
               f"    _step{cid}(S, stack[-1], order, first, hand)",
               *("    " + line for line in _back(fr))]
        skip = window.skip
        if skip is None:
            return out
        # nobody holds a card in the zones the window's actions first need one in: it is
        # passed over without a call, as its check would answer
        room, zones = skip
        ns[f"_hands{cid}"] = _Hands(child.who or "any", zones)
        ns.update(_any=any, LookupError=LookupError)
        return ["try:",
                f"    hands = _hands{cid}[len(S.pl)][S.cur]",
                f"    skip = (hands is None or not _any(hands(S.zones))) and {room}",
                "except LookupError:",
                "    skip = False  # the check says what is wrong",
                "if not skip:",
                *("    " + line for line in out)]
    return _nested(game, cid, ns, fr)


def contained(game, c) -> bool:
    """Whether effect `c` surely neither pushes nor pops a frame nor ends the game by itself
    (what `after_effect` does afterwards aside): by its facts and those of the procedures
    it calls (engine.dsl.facts), none starts a flow procedure or calls a builtin other
    than the core vocabulary's, `win` and `end_game` aside. A procedure that calls itself
    is not known to be contained; nor, for now, is code using the capped operators."""
    found = reached(game.effect_procs, c.facts)
    return found is not None and not any(f.frames or f.ends or f.capped for f in found)


def _nested(game, nid: int, ns: dict, fr: str) -> list[str]:
    """Push node `nid`'s frame and run it, in place when it is a sequence, else by its
    stepper: when it is done (its frame gone, ours on top again) the sequence goes on."""
    here = _in_place(game, nid, ns, fr)
    if here is not None:
        return here
    ns[f"_step{nid}"] = game.program.stepper(nid)
    return [*_push(game, nid), f"_step{nid}(S, stack[-1])", *_back(fr)]


# ---- loops ----

def _make_for_each(game, nid: int):
    """A `for_each` loop, compiled like a sequence: each value's body runs straight away
    (written in place when it is a sequence, as in `_in_place`), and the next value comes
    as soon as it is done, until a decision (or a call) hands over to the interpreter. A
    loop over turns starts each one (`start_turn`) before its body."""
    node = game.nodes[nid]
    ns = _namespace(game)
    # the values are kept in the frame, which the state's copies and saves hold
    ns.update(_dom=node.domain, _domfn=node.domain.fn, _list=list, _kept=kept)
    lines = [f"def _for_each_{nid}(S, fr):",
             "    stack = S.stack",
             "    while True:",
             "        values = fr[3]",
             "        if values is None:",
             "            try:",
             f"                values = fr[3] = _kept(S, _list(_domfn(S, {_locals(game, nid, node.domain)})))",
             "            except CATCH as exc:",
             "                raise located(exc, _dom) from None",
             "        k = fr[1]"]
    if node.turn and listens_turn_over(game):
        # back with the body done: the turn of the value before is over (once: fr[2] is
        # cleared until the next value's turn starts)
        ns["turn_over"] = turn_over
        lines += ["        if k and fr[2] is not None:",
                  f"            done = fr[2][{node.var!r}]",
                  "            fr[2] = None",
                  "            turn_over(S, done)",
                  "            if S.over or not stack or stack[-1] is not fr:",
                  "                return"]
    lines += ["        if k >= len(values):",
              "            stack.pop()",
              "            return",
              "        v = values[k]",
              "        fr[1] = k + 1",
              f"        fr[2] = {{{node.var!r}: v}}"]
    if node.turn:
        ns["start_turn"] = start_turn
        lines += ["        start_turn(S, v)",
                  "        if S.over:",
                  "            return"]
    lines += ["        " + line for line in _nested(game, node.body, ns, "fr")]
    return _define(ns, lines, f"<horde:flow for_each {nid}>")


def _make_repeat(game, nid: int):
    """A `repeat` loop, run like `for_each`: round after round while nothing needs the
    interpreter."""
    node = game.nodes[nid]
    cond, times, most = node.cond, node.times, node.max
    body = node.body
    body_step = game.program.stepper(body)
    limit = game.limits["depth"] * 8
    # where the condition's locals are (see frame_of): 0 for none, None for anywhere
    at = None if cond is None or cond.uses is None else 0 if cond.uses == () else frame_of(game, nid, cond.uses)

    def _repeat(S, fr):
        stack = S.stack
        while True:
            if cond is not None:
                L = NO_LOCALS if at == 0 else flow_locals(S) if at is None else stack[-at][2]
                done = evaluate(S, cond, L) or (most is not None and fr[1] >= most)
            else:
                if fr[3] is None:
                    fr[3] = evaluate(S, times, locals_for(S, times))
                done = fr[1] >= fr[3]
            if done:
                stack.pop()
                return
            fr[1] += 1
            S.charge(1)
            # the body's frame, pushed and run in place, as in a for_each
            if len(stack) > limit:
                push(S, body)  # which raises
            stack.append([body, 0, None, None, False])
            body_step(S, stack[-1])
            if S.over or not stack or stack[-1] is not fr:
                return

    return _repeat


# ---- the other nodes ----

def _make_do(game, nid: int):
    """An effect with a frame of its own (a sequence runs its effects in place, and a
    flow's bodies are sequences): `run_effect`."""
    fx = game.nodes[nid].fx

    def _do(S, fr):
        S.stack.pop()
        run_effect(S, fx, locals_for(S, fx))

    return _do


def _make_if(game, nid: int):
    node = game.nodes[nid]
    cond, then, orelse = node.cond, node.then, node.orelse

    def _if(S, fr):
        S.stack.pop()
        branch = then if evaluate(S, cond, locals_for(S, cond)) else orelse
        if branch is not None:
            push(S, branch)

    return _if


def _make_call(game, nid: int):
    node = game.nodes[nid]
    proc, args = node.proc, tuple(node.args.items())

    def _call(S, fr):
        S.stack.pop()
        L = flow_locals(S)
        push_proc(S, proc, {name: evaluate(S, c, L) for name, c in args})

    return _call


def _make_ask(game, nid: int):
    """An ask: the locals are gathered only when `who` or an action at its point reads one."""
    node = game.nodes[nid]
    point, who, can_pass = node.point, node.who, node.can_pass
    gather = needs_locals(game, point)

    def _ask(S, fr):
        L = flow_locals(S) if gather else NO_LOCALS  # legal_bindings copies them
        if who is None:
            p = S.players[S.cur]
        else:
            p = evaluate(S, who, L if gather else locals_for(S, who))
        binds = legal_bindings(S, point, p.i, L)
        if not binds:
            S.stack.pop()
            return
        if can_pass:
            binds["pass"] = (None, {})
        S._decision = decision(p.i, point, "ask", binds)

    return _ask


def _make_window(game, nid: int):
    """A window: its seats are asked in turn from `w['k']`, the seats that surely cannot act
    passed over in one call, until someone has a legal action (a decision) or everyone
    passed in a row (the window is done). A sequence that found the first seat that may act
    gives it (`first`, in the window's `order`), so it is not looked for twice; and what the
    check found out about that seat (`hand`, see `Window.check`) is not worked out twice
    either."""
    node = game.nodes[nid]
    point, who = node.point, node.who or "any"
    gather = needs_locals(game, point)
    check = game.program.window(point).check
    orders = ORDERS[who]

    def _window(S, fr, order=None, first=None, hand=None):
        w = fr[3]
        if w is None:
            if order is None:
                order = orders[len(S.pl)][S.cur]
            w = fr[3] = {"order": list(order), "k": 0, "passed": 0}
        order = w["order"]
        size = len(order)
        L = flow_locals(S) if gather else NO_LOCALS  # legal_bindings copies them
        passed, i = w["passed"], w["k"]
        while passed < size:
            if first is None:
                start = i % size  # the seats not passed yet, from seat i on
                j, hand = check(S, (order + order)[start:start + size - passed])
            else:
                j, first = first, None
            passed += j
            i += j
            if passed >= size:
                break
            seat = order[i % size]
            binds = legal_bindings(S, point, seat, L, hand)  # the check just answered this seat
            if binds:
                w["passed"], w["k"] = passed, i
                binds["pass"] = (None, {})
                S._decision = decision(seat, point, "window", binds)
                return
            passed += 1
            i += 1
        S.stack.pop()

    return _window


_MAKERS = {SEQ: _make_seq, FOR_EACH: _make_for_each, REPEAT: _make_repeat, DO: _make_do,
           IF: _make_if, CALL: _make_call, ASK: _make_ask, WINDOW: _make_window}
