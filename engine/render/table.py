"""What a player reads at the table besides the board: their hand, the goal, the glossary,
and why a finished game ended.

All of it comes from the pack: cards' `name:`/`text:`, kinds' and tiles' texts, dice
faces' `text:`, the players table's `help:`, and the `view:` section's `goal:` and
`hand:` (compiled by `engine.render.spec`), an end rule's `why:`. A card is playable now
when a legal action of the viewer's current decision binds it (as a parameter, or as the
action named for it). Every text is passed through `printable` and shown as Rich `Text`,
never as markup.
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.text import Text

from engine.dsl.values import E, P
from engine.errors import printable
from engine.flow.machine import evaluate
from engine.model import may_see

MARK = "bold green"


def hand_keys(game, spec, viewer: int) -> list[str]:
    """The zones whose cards are the viewer's own, as state keys (`hand#1`)."""
    names = spec.hand_zones
    if names is None:
        names = [n for n, z in game.zones.items() if z.per_player]
    return [f"{n}#{viewer}" for n in names if may_see(game.zones, f"{n}#{viewer}", viewer)]


def playable(S, viewer: int, uid: int, card_id: str, fields: dict) -> list[str]:
    """The labels of the viewer's current decision that play entity `uid`: it is bound to
    a parameter, the action is named for its card, or a parameter names its card (or a
    word of its fields, e.g. the weapon it is)."""
    d = S.decision()
    if d is None or d.player != viewer:
        return []
    words = {v for v in fields.values() if isinstance(v, str)} | {card_id}
    out = []
    for label, (action, args) in d.bindings.items():
        if action is None:
            continue
        if action.id == card_id and not args:
            out.append(label)
            continue
        for v in args.values():
            if (type(v) is E and v.i == uid) or (type(v) is str and v in words):
                out.append(label)
                break
    return out


def hand(S, viewer: int | None, spec, choices: list[str] | None = None) -> RenderableType | None:
    """The viewer's own cards, each with its text; those playable now marked (with the
    numbers of `choices`, the labels as numbered, when given); None if it has none."""
    if viewer is None:
        return None
    game = S.game
    rows: list[Text] = []
    for key in hand_keys(game, spec, viewer):
        uids = S.zones.get(key, [])
        if not uids:
            continue
        rows.append(Text(key.partition("#")[0], style="bold"))
        for uid in uids:
            rows.append(card_line(S, viewer, uid, spec, choices))
    return Group(*rows) if rows else None


def card_line(S, viewer: int, uid: int, spec, choices: list[str] | None) -> Text:
    game = S.game
    ent = S.ents[uid]
    cid = ent["id"]
    d = game.cards.get(cid) or game.kinds.get(cid)
    fields = {k: v for k, v in ent.items() if not k.startswith("@") and k != "id"}
    labels = playable(S, viewer, uid, cid, fields)
    line = Text("▶ " if labels else "  ", style=MARK)
    line.append(printable(_name(S, uid)), style="bold" if labels else "")
    for tag, mark in spec.hand_tags.items():
        if tag in game.tags_of(cid):
            line.append(f" [{printable(mark)}]", style="yellow")
    if labels:
        if choices:
            nums = sorted(choices.index(lb) + 1 for lb in labels if lb in choices)
            line.append(f" ({_numbers(nums)})" if nums else " (playable now)", style=MARK)
        else:
            line.append(" (playable now)", style=MARK)
    text = d.text if d is not None else ""
    if text:
        line.append(": ")
        line.append(printable(text), style="dim")
    return line


def _numbers(nums: list[int]) -> str:
    """`choice 3`, `choices 1, 4`, `choices 2-7` (a run), `9 choices` (many)."""
    if len(nums) == 1:
        return f"choice {nums[0]}"
    if nums == list(range(nums[0], nums[-1] + 1)):
        return f"choices {nums[0]}-{nums[-1]}"
    if len(nums) > 4:
        return f"{len(nums)} choices"
    return "choices " + ", ".join(map(str, nums))


def _name(S, uid: int) -> str:
    from engine.render.template import entity_name
    return entity_name(S, uid)


def goal(S, viewer: int | None, spec, only: int | None = -1) -> RenderableType | None:
    """The goal line and, under it, each player's progress toward it (with `only` a
    seat, that seat's alone; None: no progress line, for a spectator's compact view)."""
    if spec.goal is None and spec.progress is None:
        return None
    rows: list[Text] = []
    if spec.goal is not None:
        line = Text("Goal: ", style="bold")
        line.append(printable(spec.goal.render(S)))
        rows.append(line)
    if spec.progress is not None:
        seats = range(len(S.pl)) if only == -1 else ([] if only is None else [only])
        for i in seats:
            line = Text(f"  P{i}" + (" (you)" if i == viewer else "") + ": ",
                        style="bold" if i == viewer else "")
            line.append(printable(spec.progress.render(S, {"p": P(i)})))
            rows.append(line)
    return Group(*rows)


def glossary(game, spec) -> list[tuple[str, str, str]]:
    """(section, name, text) for everything the pack gives words: cards, kinds, dice
    faces, the players table's columns, building blocks' pieces (tiles) and, last, the
    marks of the hand."""
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(section: str, name: str, text: str) -> None:
        if text and (section, name) not in seen:
            seen.add((section, name))
            out.append((section, printable(name), printable(" ".join(text.split()))))

    for c in game.cards.values():
        add("cards", c.name or c.id, c.text)
    for k in game.kinds.values():
        glyph = _glyph(game, k.id)
        add("pieces", (k.name or k.id) + (f" ({glyph})" if glyph else ""), k.text)
    for spec_ in (game.raw.get("dice") or {}).values():
        for face in (spec_ or {}).get("faces") or []:
            if isinstance(face, dict) and face.get("text"):
                add("dice", str(face.get("name", "")), str(face["text"]))
    for col in [*spec.players, *spec.turn]:
        if col.help:
            add("columns", col.label, col.help)
    for ext in game.extensions.values():
        words = getattr(ext, "glossary", None)
        if callable(words):
            for section, name, text in words():
                add(section, name, text)
    for tag, mark in spec.hand_tags.items():
        add("marks", f"[{mark}]", f"a card tagged {tag}")
    return out


def _glyph(game, kind: str) -> str | None:
    """The letter a kind's pieces show on a board (`glyph:`), if it has one."""
    for k in game.raw.get("kinds") or []:
        if isinstance(k, dict) and k.get("id") == kind and k.get("glyph"):
            return str(k["glyph"])
    return None


def fired(S) -> int | None:
    """The index of the end rule that ended a finished game: the first whose condition
    holds on the final state (the end check ran them in that order, and a finished game
    does not change); None when the game ended otherwise (an effect, the turn limit)."""
    if not S.over or S.limit_hit:
        return None
    steps, fx_steps = S.steps, S.fx_steps
    try:
        for k, end in enumerate(S.game.end):
            try:
                if evaluate(S, end.when, {}):
                    return k
            except Exception:  # noqa: BLE001 - a condition that fails now fired nothing
                continue
    finally:
        S.steps, S.fx_steps = steps, fx_steps
    return None


def why(S, spec) -> str | None:
    """The reason the end rule that fired gives (`why:`), with `p` each winner (or, with
    none, each loser); the distinct texts joined with "; "."""
    k = fired(S)
    if k is None or k >= len(spec.whys) or spec.whys[k] is None:
        return None
    template = spec.whys[k]
    seats = list(S.winners) or list(S.losers)
    if not template.uses_p or not seats:
        return template.render(S, {"p": None})
    texts: list[str] = []
    for i in seats:
        text = template.render(S, {"p": P(i)})
        if text not in texts:
            texts.append(text if len(seats) == 1 else f"P{i} {text}")
    return "; ".join(texts)


# what reads as an id rather than a word: `lamp-2`, `first-card`, `north-gate`
_ID = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")


def id_names(game) -> dict[str, str]:
    """id -> name for the cards, kinds and building blocks' pieces (tiles) whose id reads
    as an id (words joined by hyphens, or with a number) and that have a name of their own."""
    out: dict[str, str] = {}
    for d in [*game.cards.values(), *game.kinds.values()]:
        if d.name and d.name != d.id:
            out[d.id] = d.name
    for ext in game.extensions.values():
        named = getattr(ext, "names", None)
        if callable(named):
            for k, v in named().items():
                out.setdefault(k, v)
    return {k: v for k, v in out.items() if _ID.fullmatch(k)}


def named(text: str, names: dict[str, str]) -> str:
    """`text` with each id of `names` written as its name (a log line as players read it)."""
    return _ID.sub(lambda m: names.get(m[0], m[0]), text)
