"""What a person at the table is told: everything since their last decision, and help.

A human seat is shown, before each of its decisions, every log line since its previous
one (nothing scrolls past unseen), grouped by turn, read through that seat's eyes (other
players' actions on cards now hidden from it are masked, as in `State.view`). Lines that
name the seat, and what changed in its own row of the players table (health, hand, out),
are marked so they stand out. `?` at a prompt explains each choice in the pack's words.
Nothing here knows a game: it reads the log, the pack's `text:` fields and its `view:`.
"""

from __future__ import annotations

import re

from rich.text import Text

from engine.codec import log_seen_by
from engine.dsl.values import E, P
from engine.errors import printable
from engine.render.panels import log_line, result_text, singular, spoken

MINE = "bold yellow"


class Feed:
    """Per seat: where in the log it was last brought up to date, and its row then."""

    def __init__(self, renderer):
        self.renderer = renderer
        self.seen: dict[int | None, int] = {}
        self.row: dict[int, list[tuple[str, str]]] = {}

    def take(self, S, seat: int | None, start: int | None = None) -> list[Text]:
        """The lines `seat` has not been shown yet (it has now); or those from `start`."""
        log = log_seen_by(S, seat)
        if start is None:
            start = self.seen.get(seat, 0)
        self.seen[seat] = len(log)
        lines = lines_of(log[start:], seat, self.renderer.id_names)
        if seat is not None:
            now = self.renderer.cells(S, seat, seat)
            before = self.row.get(seat)
            self.row[seat] = now
            if before is not None:
                changed = [f"{label} {a or '—'} → {b or '—'}"
                           for (label, a), (_, b) in zip(before, now, strict=True) if a != b]
                if changed:
                    lines.append(Text(f"▶ for you (P{seat}): " + "; ".join(changed), style=MINE))
        return lines

    def start(self, S, seat: int) -> None:
        """Count the log so far as seen by `seat`, and its row now (a resumed game).
        A new game has no row to compare with before the first decision: its rules have
        run some way already when the state is made, and the news says what happened."""
        self.row[seat] = self.renderer.cells(S, seat, seat)
        self.seen[seat] = len(S.log)


def lines_of(entries: list, seat: int | None, names: dict[str, str] | None = None
             ) -> list[Text]:
    """Log entries as lines, a heading per turn, those naming `seat` marked; ids written
    as their `names` (`engine.render.table.id_names`)."""
    me = re.compile(rf"\bP{seat}\b") if seat is not None else None
    out: list[Text] = []
    for e in entries:
        if e.get("t") == "end":
            won = seat is not None and seat in (e.get("winners") or [])
            out.append(Text("▶ you win!" if won else "the game is over", style=MINE if won
                            else "bold"))
            continue
        line = log_line(e, names)
        if line is None:
            continue
        if e.get("t") == "turn":
            out.append(Text(line, style="bold"))
        elif me is not None and me.search(line):
            out.append(Text("›" + line[1:], style="bold"))
        else:
            out.append(Text(line))
    return out


def explain(S, d, renderer, shown: list[str]) -> list[Text]:
    """Every choice of decision `d` (numbered as `shown`) in words: the action's text,
    what each parameter is."""
    game = S.game
    about = renderer.points.get(d.point)
    out = [Text(f"P{d.player} decides at '{d.point}'" + (f": {about}" if about else ""),
                style="bold")]
    known = renderer.choice_words(S, d, shown)
    for k, label in enumerate(shown, 1):
        action, args = d.bindings[label]
        if action is None:
            out.append(Text(f"  {k:>2}. {label}: do nothing here, go on"))
            continue
        out.append(Text(f"  {k:>2}. {spoken(label)}" + (f": {action.text}" if action.text else "")))
        card = game.cards.get(action.id)
        if card is not None and card.text and card.text != action.text:
            out.append(Text(f"        card {card.name or card.id}: {card.text}", style="dim"))
        words = known.get(label, {})
        for name, value in args.items():
            what = words.get(name) or describe_arg(S, value, d.player)
            out.append(Text(f"        {name} = {what}", style="dim"))
    out.append(Text("Type a number or a label. Also: ? this help · u undo your last decision "
                    "(not past a die roll or a hidden card seen) · rules · glossary (what "
                    "cards, pieces, dice and tiles are) · log (all of it) · "
                    "view (your screen again) · q stop", style="dim"))
    return out


def describe_arg(S, value, viewer: int) -> str:
    """What a parameter refers to, in words: a card and its text, a player, a square."""
    t = type(value)
    if t is P:
        return f"player P{value.i}"
    if t is E:
        card = S.game.cards.get((S.ents.get(value.i) or {}).get("id"))
        if card is not None:
            return f"the card {card.name or card.id}" + (f": {card.text}" if card.text else "")
        return S.describe(value)
    if t is tuple and len(value) == 2 and all(isinstance(x, int) for x in value):
        return f"the square {value[0]},{value[1]} (column {value[0]}, row {value[1]} on the map)"
    return S.describe(value)


def rules_text(game, S=None, renderer=None) -> list[Text]:
    """The pack's summary: its title, description, the goal as this game has it (read on
    state `S`, so `--set` shows), the params this game changed, and each action's text."""
    out = [Text(printable(game.title), style="bold")]
    desc = (game.raw.get("description") or "").strip()
    if desc:
        out.append(Text(printable(" ".join(desc.split()))))
    spec = renderer.spec if renderer is not None else None
    if S is not None and spec is not None and spec.goal is not None:
        out.append(Text("Goal: " + printable(spec.goal.render(S)), style="bold"))
    changed = changed_params(game)
    if changed:
        out.append(Text("This game's settings: " + "; ".join(changed)))
    for a in game.actions:
        if a.text:
            out.append(Text(f"  {a.id}: {printable(a.text)}"))
    return out


def glossary_text(renderer) -> list[Text]:
    """Every text the pack gives, by section: cards, pieces, dice faces, columns, tiles."""
    out: list[Text] = []
    section = None
    for where, name, text in renderer.glossary():
        if where != section:
            section = where
            out.append(Text(where, style="bold"))
        line = Text(f"  {name}: ", style="bold")
        line.append(text)
        out.append(line)
    return out or [Text("this pack gives no words for its cards and pieces")]


def changed_params(game) -> list[str]:
    """`name = value (its help)` for each param this game plays with other than its
    default (`--set`, a mode, a house rule)."""
    out = []
    for name, spec in (game.raw.get("params") or {}).items():
        if not isinstance(spec, dict) or name not in game.params:
            continue
        value = game.params[name]
        if "default" in spec and value != spec["default"]:
            about = spec.get("help")
            out.append(f"{name} = {value}" + (f" ({printable(str(about))})" if about else ""))
    return out


def ending(S) -> str:
    return singular(result_text(S))
