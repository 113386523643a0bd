"""Legal actions at a decision point, each bound to its parameters under a stable label.

A label is `id` or `id(param=value, ...)` with values written as players read them: a
player by seat, an entity by its card or kind id (plus its place when it has one). Labels
are what logs, saves, replays, scenarios and the CLI use, so they must not depend on
anything but the state.
"""

from __future__ import annotations

from engine.dsl.values import E, P


def _value_label(S, v) -> str:
    t = type(v)
    if t is P:
        return str(v.i)
    if t is E:
        ent = S.ents[v.i]
        cell = ent.get("cell")
        return ent["id"] + (f"@{S.describe(cell)}" if cell is not None else "")
    return S.describe(v)


def legal_bindings(S, point: str, seat: int, base: dict) -> dict[str, tuple]:
    """label -> (ActionDef, {param: value}) for every legal binding of `seat` at `point`."""
    out: dict[str, tuple] = {}
    actions = S.game.actions_at.get(point)
    if not actions:
        return out
    # Asking what is legal is not playing: its work is not charged to the game's budget,
    # so a state's data does not depend on how often someone looked at its decision.
    steps = S.steps
    try:
        _collect(S, actions, seat, base, out)
    finally:
        S.steps = steps
    return out


def _collect(S, actions, seat: int, base: dict, out: dict) -> None:
    from engine.flow.machine import evaluate

    cur = S.cur
    me = S.players[seat]
    for a in actions:
        if a.who == "current" and seat != cur or a.who == "others" and seat == cur:
            continue
        L = dict(base)
        L["me"] = me
        if a.guard is not None and not evaluate(S, a.guard, L):
            continue
        found: list[dict] = []
        _bind(S, a, 0, L, {}, found, evaluate)
        if not found:
            continue
        if not a.params:
            out[a.id] = (a, {})
            continue
        labels = [_label(S, a, args, False) for args in found]
        dup = len(set(labels)) < len(labels)
        for args, lab in zip(found, labels, strict=True):
            out[_label(S, a, args, True) if dup else lab] = (a, args)


def _bind(S, a, k, L, args, found, evaluate) -> None:
    if k == len(a.params):
        if a.cond is None or evaluate(S, a.cond, L):
            found.append(dict(args))
        return
    name, domain = a.params[k]
    for v in evaluate(S, domain, L):
        L[name] = v
        args[name] = v
        _bind(S, a, k + 1, L, args, found, evaluate)
    L.pop(name, None)
    args.pop(name, None)


def _label(S, a, args: dict, unique: bool) -> str:
    parts = []
    for name, _ in a.params:
        v = args[name]
        text = _value_label(S, v)
        if unique and type(v) is E:
            text += f"#{v.i}"
        parts.append(f"{name}={text}")
    return f"{a.id}({', '.join(parts)})"
