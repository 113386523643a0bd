"""Typed names: which arguments of builtins and procedures name one of the pack's things.

A builtin declares, where it is registered (engine.dsl.builtins), the kind of each argument;
some kinds are kinds of name: a text that must be a card id, a tag, a die icon, an action
id. A literal text in such a place (or each literal text of a list literal there: `pieces(
['ghoul', 'wraith'])`) that names nothing of its kind is a load-time error with did-you-mean,
where it would otherwise only make a rule silently never true (`has(me.hand, 'wrenchh')`).

A pack's procedures get typed parameters by one rule: a parameter the body hands straight
(as it is: a parameter cannot be assigned) into a typed argument — of a builtin, or of a
procedure whose parameter is typed in turn — is of that argument's kind, when every such
use in the body agrees on one kind. So `can_use(p, id): has(p.hand, id) and ...` makes
`can_use(me, 'wrenchh')` an error. A parameter used for two kinds, or in any other way
only, stays untyped.
"""

from __future__ import annotations

from engine.dsl import ast

# argument kind -> what it names, in messages
NAME_KINDS = {"card": "card or piece kind", "tag": "tag", "icon": "die icon", "action": "action"}


def literals(node: ast.Node) -> list[ast.Const]:
    """The literal texts an argument gives: itself, or the items of a list literal."""
    if isinstance(node, ast.Const) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.ListLit):
        return [x for x in node.items if isinstance(x, ast.Const) and isinstance(x.value, str)]
    return []


def param_kinds(procs: dict[str, tuple[list[str], ast.Node]], builtins: dict) -> dict[str, dict[str, str]]:
    """procedure -> {parameter: name kind} for the procedures `procs` (name -> (params, body
    tree)), by the rule of the module docstring, to a fixpoint (a procedure may hand a
    parameter on to another)."""
    kinds: dict[str, dict[str, str]] = {name: {} for name in procs}
    calls = {name: [n for n, _ in ast.walk(tree) if isinstance(n, ast.Call)]
             for name, (_, tree) in procs.items()}
    changed, rounds = True, 0
    while changed and rounds <= len(procs) + 1:  # a parameter typed, then untyped by a
        changed, rounds = False, rounds + 1      # conflict, settles within as many rounds
        for name, (params, _) in procs.items():
            uses: dict[str, set[str]] = {}
            for call in calls[name]:
                for k, arg in enumerate(call.args):
                    if not isinstance(arg, ast.Name) or arg.id not in params:
                        continue
                    kind = arg_kind(call.func, k, procs, kinds, builtins)
                    uses.setdefault(arg.id, set()).add(kind or "")
            typed = {p: next(iter(ks)) for p, ks in uses.items() if len(ks) == 1 and "" not in ks}
            if typed != kinds[name]:
                kinds[name] = typed
                changed = True
    return kinds


def arg_kind(func: str, k: int, procs: dict, kinds: dict, builtins: dict) -> str | None:
    """The name kind of argument `k` of a call of `func`, or None (not a name, or unknown)."""
    if func in procs:
        params = procs[func][0]
        return kinds[func].get(params[k]) if k < len(params) else None
    b = builtins.get(func)
    if b is None or k >= len(b.args):
        return None
    kind = b.args[k].rstrip("?")
    return kind if kind in NAME_KINDS else None
