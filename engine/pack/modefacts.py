"""Facts about modes: which asks and windows a game's flow can reach, and who they ask.

A mode may replace the flow whole (`flow: {replace: true, ...}`): the base pack's flow procedures are
still there, with their asks, but nothing calls them. A house rule's action at such a
point is never offered in that mode, and a trigger on `point:<it>` never runs; an action
`who: others` at a window that asks only the current player (or `who: current` at one
that asks only the others) is never offered anywhere. Reaching is found on the flow
program (engine.flow.nodes) from its root, through `call` nodes and every flow procedure
any snippet may start (`call` in an effect, from the facts the compiler recorded), so a
point is said unreached only when nothing can lead to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.errors import Span
from engine.flow.nodes import ASK, CALL, WINDOW


def reached_nodes(game) -> set[int]:
    """The flow nodes the game can reach from its root."""
    starts = {game.root}
    for c in _snippets(game):  # flow procedures an effect may start, wherever it runs
        if c is None:
            continue
        facts = getattr(c, "facts", None)
        if facts is None:  # not known: anything may be reached
            return set(range(len(game.nodes)))
        starts |= {game.flow_procs[name] for name in facts.flows if name in game.flow_procs}
    seen: set[int] = set()
    todo = list(starts)
    while todo:
        nid = todo.pop()
        if nid in seen:
            continue
        seen.add(nid)
        n = game.nodes[nid]
        todo.extend(k for k in (*n.children, n.then, n.orelse, n.body) if k is not None)
        if n.kind == CALL and n.proc in game.flow_procs:
            todo.append(game.flow_procs[n.proc])
    return seen


def _snippets(game):
    for a in game.actions:
        yield a.fx
    for ts in game.triggers.values():
        for t in ts:
            yield t.fx
    for _, c in game.effect_procs.values():
        yield c
    for n in game.nodes:
        if n.fx is not None:
            yield n.fx
    yield from game.setup


@dataclass(frozen=True)
class Use:
    """An action offered at, or a trigger on, a point: what an overlay may get wrong."""

    what: str  # "action 'aim'", "trigger on 'point:aim'"
    point: str
    span: Span | None


def points_reached(game) -> dict[str, list]:
    """point -> the ask and window nodes of that name the game can reach."""
    out: dict[str, list] = {}
    for nid in reached_nodes(game):
        n = game.nodes[nid]
        if n.kind in (ASK, WINDOW):
            out.setdefault(n.point, []).append(n)
    return out


def uses(game, files: set[str]) -> list[Use]:
    """The actions and point triggers written in `files` (resolved paths), with their points."""
    def ours(span) -> bool:
        return span is not None and str(Path(span.file).resolve()) in files
    out = [Use(f"action '{a.id}'", pt, a.span) for a in game.actions if ours(a.span) for pt in a.at]
    for on, ts in game.triggers.items():
        if on.startswith("point:"):
            out += [Use(f"trigger on '{on}'", on[len("point:"):], t.span) for t in ts if ours(t.span)]
    return out


def who_slips(game, files: set[str]) -> list[tuple[str, Span | None]]:
    """(message, where) for each action of `files` whose `who` no reached window of its
    points asks (`others` where every window asks only the current player, or the other
    way round) and no ask offers it."""
    reached = points_reached(game)
    out = []
    for a in game.actions:
        if a.span is None or str(Path(a.span.file).resolve()) not in files or a.who == "any":
            continue
        nodes = [n for pt in a.at for n in reached.get(pt, [])]
        if not nodes or any(n.kind == ASK for n in nodes):
            continue
        asked = {n.who for n in nodes}
        if a.who not in asked and "any" not in asked:
            only = " and ".join(sorted(asked))
            out.append((f"action '{a.id}' is `who: {a.who}`, but the window"
                        f"{'s' if len(a.at) > 1 else ''} {', '.join(repr(p) for p in a.at)} "
                        f"ask{'' if len(a.at) > 1 else 's'} only {only}: it is never offered", a.span))
    return out


def mode_problems(loads: list[tuple[str, object]], files: set[str]) -> tuple[list, list]:
    """(errors, warnings) about the actions and point triggers written in `files`, checked
    in each of `loads` ((label, game): the modes the overlay can be applied to): one at a
    point none of them reaches is an error, one some of them never reach a warning; each
    names where the point is reached. And each `who` slip (`who_slips`), an error."""
    from engine.errors import Problem
    where: dict[Use, list[str]] = {}
    missing: dict[Use, list[str]] = {}
    everywhere: dict[str, list[str]] = {}
    errors: list = []
    for label, game in loads:
        reached = points_reached(game)
        for pt in reached:
            everywhere.setdefault(pt, []).append(label)
        for u in uses(game, files):
            (where if u.point in reached else missing).setdefault(u, []).append(label)
        errors += [Problem(msg, span, "give it the `who` the window asks, or `who: any`")
                   for msg, span in who_slips(game, files)]
    warnings = []
    for u, labels in missing.items():
        elsewhere = everywhere.get(u.point, [])
        hint = (f"'{u.point}' is reached in {', '.join(elsewhere)}" if elsewhere else
                f"nothing checked reaches '{u.point}'") + "; an action is offered only at an ask or " \
            "window the flow reaches"
        if u in where:
            warnings.append(Problem(f"{u.what} is at '{u.point}', which {_modes(labels)} never "
                                    f"reach{'es' if len(labels) == 1 else ''}: it does nothing there",
                                    u.span, hint))
        else:
            errors.append(Problem(f"{u.what} is at '{u.point}', which {_modes(labels)} never "
                                  f"reach{'es' if len(labels) == 1 else ''}: it never happens",
                                  u.span, hint))
    return errors, warnings


def _modes(labels: list[str]) -> str:
    return ", ".join(labels)
