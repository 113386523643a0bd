"""Text a pack writes for players with expressions in braces, read on a live state.

A goal line, a player's progress, the reason an end rule gives: words a pack author writes
once, numbers that follow the game (and `--set`):

    "Reach the exit with {params.goal} points"
    "{p.score}/{params.goal} points{' · at the exit' if p.out else ''}"

Each `{...}` is an expression of the effect language, compiled once against the pack's
names (`Game.compile_expr`), so a misspelt name is a pack error at `validate` time with
the file position of the text. `{{` and `}}` are literal braces. A value reads as players
read it: a card or tile by its name, a player as P<n>, a list joined with commas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.dsl.values import E, P, Z
from engine.errors import PackError, Problem, RuleRuntimeError
from engine.flow.machine import evaluate


@dataclass
class Template:
    parts: list  # str, or a Compiled expression
    uses_p: bool = False

    def render(self, S, L: dict | None = None) -> str:
        """The text on state `S` with locals `L` (e.g. {"p": P(2)}); a part that fails to
        evaluate (a player who has no square yet) reads as "?" rather than stopping a view."""
        out = []
        steps, fx_steps = S.steps, S.fx_steps
        try:
            for part in self.parts:
                if isinstance(part, str):
                    out.append(part)
                    continue
                try:
                    out.append(words(S, evaluate(S, part, dict(L or {}))))
                except (RuleRuntimeError, TypeError, ValueError, KeyError, AttributeError,
                        IndexError, ZeroDivisionError):
                    out.append("?")
        finally:  # reading a state is not playing it
            S.steps, S.fx_steps = steps, fx_steps
        return "".join(out)


def split(text: str) -> list[tuple[bool, str]]:
    """`text` as (is_expression, piece) pairs; ValueError for an unclosed or stray brace."""
    out: list[tuple[bool, str]] = []
    buf, k = [], 0
    while k < len(text):
        ch = text[k]
        if ch == "{" and text.startswith("{{", k):
            buf.append("{")
            k += 2
        elif ch == "}" and text.startswith("}}", k):
            buf.append("}")
            k += 2
        elif ch == "{":
            depth, j = 1, k + 1
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            if depth:
                raise ValueError(f"'{{' at character {k + 1} is never closed (write {{{{ for a brace)")
            if buf:
                out.append((False, "".join(buf)))
                buf = []
            out.append((True, text[k + 1:j - 1]))
            k = j
        elif ch == "}":
            raise ValueError(f"'}}' at character {k + 1} closes nothing (write }}}} for a brace)")
        else:
            buf.append(ch)
            k += 1
    if buf:
        out.append((False, "".join(buf)))
    return out


def compile_template(game, text, scope: dict, where, what: str) -> Template:
    """`text` compiled for `game` with locals `scope` (name -> type); PackError with the
    position of `where` (the YAML node of the text) if it is not words or does not compile."""
    span = getattr(where, "span", None)
    if not isinstance(text, str):
        raise PackError([Problem(f"{what}: expected words (a string), with {{expressions}} "
                                 "in braces", span)])
    try:
        pieces = split(text)
    except ValueError as exc:
        raise PackError([Problem(f"{what}: {exc}", span)]) from None
    parts: list = []
    problems: list[Problem] = []
    uses_p = False
    for is_expr, piece in pieces:
        if not is_expr:
            parts.append(piece)
            continue
        if not piece.strip():
            problems.append(Problem(f"{what}: '{{}}' holds no expression", span))
            continue
        try:
            parts.append(game.compile_expr(piece.strip(), scope))
        except PackError as exc:
            problems += [Problem(f"{what}: in {{{piece.strip()}}}: {p.message}", span, p.hint)
                         for p in exc.problems]
            continue
        uses_p = uses_p or _names_p(piece)
    if problems:
        raise PackError(problems)
    return Template(parts, uses_p)


def _names_p(expr: str) -> bool:
    return re.search(r"(?<![\w.])p\b", expr) is not None


def entity_name(S, uid: int) -> str:
    """What players call entity `uid`: its card's or kind's `name:`, a building block's
    name for it (a tile's), else its id."""
    ent = S.ents.get(uid)
    if ent is None:
        return "?"
    game = S.game
    d = game.cards.get(ent["id"]) or game.kinds.get(ent["id"])
    if d is not None and d.name:
        return d.name
    try:
        named = game.ent_attr(S, E(uid), "name")
    except (RuleRuntimeError, KeyError, AttributeError, TypeError):
        named = None
    return named if isinstance(named, str) and named else ent["id"]


def words(S, v) -> str:
    """A value as a player reads it in a sentence."""
    t = type(v)
    if t is E:
        return entity_name(S, v.i)
    if t is P:
        return f"P{v.i}"
    if t is Z:
        return v.key
    if t is list:
        return ", ".join(words(S, x) for x in v)
    if v is None:
        return "none"
    if t is bool:
        return "yes" if v else "no"
    if t is float:
        return f"{v:g}"
    return S.describe(v)
