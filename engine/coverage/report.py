"""What `validate --play` says: a warning at each item's place for what no game covered,
the one-line summary (also printed by `sim`, `compare` and `check`), and the JSON form.

What no game covered is a warning, never a problem, even with `--strict`: a rare game is
no defect, and how many games were played decides it. What play shows to be wrong (a rule
that fails, an invariant that breaks) is a problem.
"""

from __future__ import annotations

from engine.coverage.items import Item
from engine.coverage.tally import Tally
from engine.errors import Problem

# the summary's words per kind: (plural noun, {facet: participle})
WORDS = {
    "action": ("actions", {"offered": "offered", "chosen": "chosen"}),
    "trigger": ("triggers", {"fired": "fired"}),
    "end": ("end rules", {"ended": "ended a game"}),
    "invariant": ("invariants", {"held": "held"}),
    "card": ("cards", {"drawn": "drawn", "played": "played"}),
    "rule": ("policy rules", {"taken": "taken"}),
}
HINT = "(validate --play for the list)"


def _games(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def _message(tally: Tally, item: Item, facet: str) -> tuple[str, str | None]:
    n = _games(tally.games_of(item))
    if item.kind == "action":
        if facet == "offered":
            return (f"{item.name} was never offered in {n}",
                    "its `if` never held where it is asked for, or the game seldom gets "
                    "there: play more games, or show it with a scenario")
        return (f"{item.name} was offered but never chosen in {n}",
                "no bot ever preferred it: a policy rule for it, or a scenario, shows it played")
    if item.kind == "trigger":
        emitted = tally.events[item.detail]
        return (f"{item.name} never fired in {n}",
                f"'{item.detail}' happened {emitted} times and its `if` never held" if emitted
                else f"nothing emitted '{item.detail}' in these games")
    if item.kind == "end":
        return (f"{item.name} never ended a game in {n}",
                "an earlier end rule ended them first, or its `when` never held"
                + (f" ({tally.unfinished} stopped at a limit)" if tally.unfinished else ""))
    if item.kind == "card":
        if facet == "drawn":
            return (f"{item.name} was never drawn in {n}",
                    f"it stayed in '{item.detail}'" if item.detail else "it was never in a zone")
        return (f"{item.name} was drawn but never played in {n}",
                "no chosen action named it, and it never reached its discard zone")
    policy = item.detail.partition(":")[2]
    return (f"{item.name} never decided in {n} played by '{policy}'",
            "an earlier rule always decides first, its `if` never holds, or its actions "
            "are never offered")


def warnings(tally: Tally, mine: set[str] | None = None) -> list[Problem]:
    """A warning at each item's place for each facet no game covered."""
    out = []
    for item, facet in tally.never(mine):
        message, hint = _message(tally, item, facet)
        out.append(Problem(message, item.span, hint))
    return out


def summary(counts: dict[str, dict[str, list[int]]]) -> str:
    """`coverage: 12/13 actions offered, 12/13 chosen, ...` (kinds with no item left out)."""
    parts = []
    for kind, (noun, verbs) in WORDS.items():
        row = counts.get(kind)
        if not row:
            continue
        first = True
        for facet, (done, of) in row.items():
            if of == 0:
                continue
            parts.append(f"{done}/{of} {noun + ' ' if first else ''}{verbs[facet]}")
            first = False
    return "coverage: " + (", ".join(parts) if parts else
                           "no action, trigger, end rule, invariant, card or policy rule to cover")


def played(tally: Tally, variants: list[str]) -> str:
    """`played 40 games: the base game and 2 modes, 20 with each of greedy, random bots`."""
    bots = list(dict.fromkeys(b.bots.removeprefix("policy:") for b in tally.batches))
    modes = [v for v in variants if v.startswith("mode ")]
    where = ", ".join((["the base game"] if "the base game" in variants else [])
                      + (modes if len(modes) == 1 else [f"{len(modes)} modes"] if modes else [])
                      + [v for v in variants if v != "the base game" and v not in modes])
    return (f"played {_games(tally.games)} ({where}; bots: {', '.join(bots)})"
            + (" — interrupted" if tally.interrupted else ""))


def to_json(name: str, tally: Tally, variants: list[str], mine: set[str] | None) -> dict:
    never = []
    for item, facet in tally.never(mine):
        message, hint = _message(tally, item, facet)
        d: dict = {"kind": item.kind, "item": item.name, "facet": facet,
                   "file": None, "line": None, "col": None}
        d.update(Problem(message, item.span, hint).to_dict())
        never.append(d)
    return {"name": name, "games": tally.games, "interrupted": tally.interrupted,
            "variants": variants,
            "batches": [{"variant": b.variant, "bots": b.bots, "games": b.games}
                        for b in tally.batches],
            "counts": tally.counts(mine), "never": never}


def actions_chosen(game, result) -> dict:
    """What `sim` and `compare` know of coverage, from the actions their games chose (the
    result's running totals, `SimResult.tally.uses`): {"actions": n, "chosen": k,
    "never_chosen": [ids]}."""
    chosen = {a for a, seats in result.tally.uses.items() if any(seats)}
    ids = [a.id for a in game.actions]
    never = [a for a in ids if a not in chosen]
    return {"actions": len(ids), "chosen": len(ids) - len(never), "never_chosen": never}


def actions_line(d: dict, label: str = "") -> str:
    """`coverage: 41/44 actions chosen (validate --play for the list)`; with "offered" in
    `d`, `43/44 actions offered, 41/44 chosen`."""
    n = d["actions"]
    done = (f"{d['offered']}/{n} actions offered, {d['chosen']}/{n} chosen" if "offered" in d
            else f"{d['chosen']}/{n} actions chosen")
    return f"coverage{f' ({label})' if label else ''}: {done} {HINT}"


def checked_line(game, offered: set[str], chosen: set[str]) -> str:
    """`horde check`'s summary, from the actions its games offered and chose."""
    ids = [a.id for a in game.actions]
    return actions_line({"actions": len(ids), "offered": sum(a in offered for a in ids),
                         "chosen": sum(a in chosen for a in ids)})
