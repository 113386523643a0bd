"""Flatten a pack's `flow:` (and flow procedures) into the flow machine's node table.

Scopes are static: a `for_each` variable is visible to the nodes inside it, a procedure's
parameters to its body. The builder passes each snippet the names in scope with their
inferred types, so `p.health` inside `for_each: {var: p, in: players}` is checked against
the player fields at load time.
"""

from __future__ import annotations

from engine.errors import did_you_mean
from engine.flow.nodes import ASK, CALL, DO, FOR_EACH, IF, REPEAT, SEQ, WINDOW, FlowNode

NODE_KEYS = ("do", "if", "repeat", "for_each", "ask", "window", "call")
WINDOW_WHO = ("current", "others", "any")


class FlowBuilder:
    def __init__(self, builder):
        self.b = builder
        self.nodes: list[FlowNode] = []
        self.points: set[str] = set()

    def add(self, node: FlowNode) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def seq(self, path: tuple, items, scope: dict[str, str]) -> int:
        nid = self.add(FlowNode(SEQ, self.b.node(*path).span))
        if not isinstance(items, list):  # a single node where a list was expected
            children = [self.one(path, items, scope)]
        else:
            children = [self.one((*path, k), item, scope) for k, item in enumerate(items)]
        self.nodes[nid].children = [c for c in children if c is not None]
        return nid

    def one(self, path: tuple, item, scope: dict[str, str]) -> int | None:
        b = self.b
        span = b.node(*path).span
        if isinstance(item, str):  # shorthand: a bare string is a `do`
            c = b.compile(path, expr=False, scope=scope)
            return self.add(FlowNode(DO, span, fx=c))
        if not isinstance(item, dict):
            b.fail("a flow node is a mapping such as {do: ...}", *path)
            return None
        # `do` is also the body key of repeat and for_each; it is the node's kind only alone
        kinds = [k for k in NODE_KEYS if k in item and k != "do"] or (["do"] if "do" in item else [])
        if len(kinds) != 1:
            b.fail(f"a flow node needs exactly one of {', '.join(NODE_KEYS)}", *path)
            return None
        kind = kinds[0]
        if kind == "do":
            body = item["do"]
            if isinstance(body, list):
                return self.seq((*path, "do"), body, scope)
            c = b.compile((*path, "do"), expr=False, scope=scope)
            return self.add(FlowNode(DO, span, fx=c))
        if kind == "if":
            cond = b.compile((*path, "if"), expr=True, scope=scope)
            then = self.seq((*path, "then"), item.get("then", []), scope)
            orelse = self.seq((*path, "else"), item["else"], scope) if "else" in item else None
            return self.add(FlowNode(IF, span, cond=cond, then=then, orelse=orelse))
        if kind == "repeat":
            spec = item["repeat"] or {}
            body = self.seq((*path, "do"), item.get("do", []), scope)
            if "until" in spec:
                cond = b.compile((*path, "repeat", "until"), expr=True, scope=scope)
                return self.add(FlowNode(REPEAT, span, cond=cond, max=spec.get("max"), body=body))
            times = b.compile((*path, "repeat", "times"), expr=True, scope=scope)
            return self.add(FlowNode(REPEAT, span, times=times, body=body))
        if kind == "for_each":
            spec = item["for_each"]
            dom = b.compile((*path, "for_each", "in"), expr=True, scope=scope)
            t = dom.type if dom is not None else "any"
            inner = {**scope, spec["var"]: t.split(":", 1)[1] if t.startswith("list:") else "any"}
            body = self.seq((*path, "do"), item.get("do", []), inner)
            return self.add(FlowNode(FOR_EACH, span, var=spec["var"], domain=dom,
                                     turn=bool(spec.get("turn")), body=body))
        if kind == "ask":
            self.points.add(item["ask"])
            who = b.compile((*path, "who"), expr=True, scope=scope) if "who" in item else None
            return self.add(FlowNode(ASK, span, point=item["ask"], who=who,
                                     can_pass=bool(item.get("pass"))))
        if kind == "window":
            self.points.add(item["window"])
            who = item.get("who", "any")
            if who not in WINDOW_WHO:
                b.fail(f"window 'who' must be one of {', '.join(WINDOW_WHO)}", *path, "who")
            return self.add(FlowNode(WINDOW, span, point=item["window"], who=who))
        # call
        name = item["call"]
        if name not in b.env.flow_procs:
            b.fail(f"unknown flow procedure '{name}'", *path, "call",
                   hint=did_you_mean(name, b.env.flow_procs))
            return None
        args = {}
        for pname in (item.get("args") or {}):
            c = b.compile((*path, "args", pname), expr=True, scope=scope)
            if c is not None:
                args[pname] = c
        return self.add(FlowNode(CALL, span, proc=name, args=args))
