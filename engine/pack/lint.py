"""Warnings: what a valid pack says that can never make a difference in play.

None of these stops a pack from loading — a pack in progress may well have a param it does
not use yet — but each is usually a slip: a policy that never plays a new action (so
`horde compare --bots greedy` measures no change, with confidence), an ask nobody is ever
asked anything at, a param no rule reads, a card dealt into a zone no rule looks at, an end
rule an earlier one always pre-empts (engine.pack.endorder).
`horde validate` shows them (`--strict` makes them errors); `horde sim` and `horde
compare` show the policy ones for a variant's new actions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import Problem
from engine.flow.nodes import ASK, WINDOW
from engine.pack.endorder import end_warnings
from engine.pack.timefacts import time_warnings


def warnings(game, overlay: Path | None = None) -> list[Problem]:
    """Every warning about `game`, in the order of the pack's sections. For a game with
    mode or house rule `overlay`, an unread param only when the overlay declares it: a
    mode that plays without a param of its base pack (its own flow) is no slip."""
    from engine.errors import HordeError
    from engine.sim.batch import compile_metrics
    try:  # what the metrics read counts too: they are compiled when a batch is played
        compile_metrics(game)
    except HordeError:
        pass  # `horde sim` says what is wrong with them
    out = [w for name in game.policies for w in policy_warnings(game, name)]
    out += _idle_asks(game) + _unread_params(game, overlay) + _undrawn_cards(game)
    return out + end_warnings(game) + time_warnings(game, overlay)


def _passing(game) -> set[str]:
    """The points at which `pass` is always offered: windows, and asks that may be passed."""
    return {n.point for n in game.nodes
            if n.kind == WINDOW or n.kind == ASK and n.can_pass}


def never_played(game, name: str) -> list[tuple[str, Any]]:
    """(action id, the rule that stops it) for each action policy `name` can never play: a
    rule with no `if` comes first that always matches where the action is offered (`*`,
    or `pass` where pass is offered at every point of the action), and no rule above it
    names the action."""
    policy = game.policies[name]
    passing = _passing(game)
    out = []
    for a in game.actions:
        for rule in policy.rules:
            if "*" in rule.play or a.id in rule.play:
                break
            if rule.cond is None and "pass" in rule.play and all(p in passing for p in a.at):
                out.append((a.id, rule))
                break
    return out


def policy_warnings(game, name: str, only: set[str] | None = None) -> list[Problem]:
    """The warnings of policy `name` (of the actions in `only`, when given)."""
    return [Problem(f"policy '{name}' never plays action '{aid}': this rule (pass, with no "
                    "`if`) comes first wherever it is offered", rule.span,
                    f"give '{aid}' a rule above it: {{play: {aid}}}")
            for aid, rule in never_played(game, name) if only is None or aid in only]


def _idle_asks(game) -> list[Problem]:
    return [Problem(f"no action is offered at ask '{n.point}': it never asks anything", n.span,
                    f"give an action `at: {n.point}`, or remove the ask")
            for n in game.nodes if n.kind == ASK and not game.actions_at.get(n.point)]


def _unread_params(game, overlay: Path | None) -> list[Problem]:
    env = game.env
    out = []
    for name in game.params:
        span = env.param_spans.get(name)
        if name in env.params_read or overlay is not None and (
                span is None or Path(span.file).resolve() != overlay.resolve()):
            continue
        out.append(Problem(f"param '{name}' is read by no rule: setting it changes nothing",
                           span, f"read it as params.{name}, or remove it"))
    return out


def _undrawn_cards(game) -> list[Problem]:
    used = set(game.env.zones_read)
    used |= {z.refill for z in game.zones.values() if z.refill}
    for ext in game.extensions.values():
        used |= ext.zones()
    return [Problem(f"card '{c.id}' starts in zone '{c.zone}', which no rule draws from or "
                    "looks at", c.span, f"draw from {c.zone} somewhere, or put the card elsewhere")
            for c in game.cards.values() if c.zone and c.zone not in used]


def _policy_of(spec: str) -> str | None:
    """The pack policy a seat's bot spec plays (`greedy`, `policy:NAME`), or None."""
    name, _, arg = spec.strip().partition(":")
    return "greedy" if name == "greedy" else arg if name == "policy" and arg else None


def bot_warnings(game, specs: list[str], base) -> list[Problem]:
    """What `horde sim` and `horde compare` warn of: the actions `game` has and the
    `base` game has not (a variant's new ones) that a seat's policy bot never plays."""
    new = {a.id for a in game.actions} - {a.id for a in base.actions}
    names = dict.fromkeys(p for p in map(_policy_of, specs) if p is not None and p in game.policies)
    return [w for name in names for w in policy_warnings(game, name, only=new)] if new else []
