"""Taking back a person's last decision at the table (`u` at a prompt), when that is fair.

A decision can be taken back only while nothing left to chance or hidden has come out
since: no die rolled, no shuffle or random pick (the game's RNG has not moved), and no
card or tile that a seat could not see before is now visible to it (drawn, dealt, looked
at). Otherwise undoing would let a player roll again, or play on knowing what a peek
showed. Every decision made at the table, a bot's included, is checked as it is applied,
so a card looked at and put back before the next prompt still counts.

What is kept is one state per person's decision, the state just before it (a clone: its
log and history share their past, `engine.journal`). Taking back restores that state, so
the game's history, and the record saved from it, no longer hold the decision, nor the
bots' decisions after it (the bots decide again). With several people at the table (hot
seat) only the last person to decide may take back, their own decision: once another
person has decided, what they chose on the strength of it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.hidden import hidden_zone_keys

if TYPE_CHECKING:
    from engine.state import State

WORDS = frozenset({"u", "undo"})  # unless a pack has an action of that name


@dataclass
class Step:
    seat: int
    label: str
    before: State  # the state just before the decision


@dataclass
class Undo:
    steps: list[Step] = field(default_factory=list)
    blocked: str | None = None  # why the steps before the last reveal are gone

    def applied(self, before, after, seat: int | None, label: str) -> None:
        """Decision `label` took the game from `before` to `after`; `seat` is the person
        who made it (None for a bot)."""
        if seat is not None:
            self.steps.append(Step(seat, label, before))
        why = revealed(before, after)
        if why is not None:  # nothing before this can be taken back any more
            self.steps.clear()
            self.blocked = why

    def refusal(self, seat: int) -> str | None:
        """Why `seat` may not take back its last decision now, or None if it may."""
        if not self.steps:
            return self.blocked or "there is no decision of yours to take back yet"
        last = self.steps[-1]
        if last.seat != seat:
            return (f"P{last.seat} has decided since your last decision "
                    "(only the last decision made at the table can be taken back)")
        return None

    def take_back(self) -> Step:
        return self.steps.pop()


def revealed(before, after) -> str | None:
    """What came out between two states of one game that a take-back would let a player
    see again differently, in words; None if nothing did."""
    if after.rng != before.rng:
        if any(e.get("t") == "roll" for e in after.log[len(before.log):]):
            return "a die was rolled since"
        return "something was shuffled or picked at random since"
    saw = [f"P{seat}" for seat in range(len(after.pl))
           if not _hidden_uids(before, seat).isdisjoint(_visible_uids(after, seat))]
    if saw:
        return (f"{', '.join(saw)} saw a card or tile hidden from "
                f"{'them' if len(saw) > 1 else 'it'} before (drawn, played or looked at)")
    return None


def _hidden_uids(S, seat: int) -> set[int]:
    out: set[int] = set()
    for key in hidden_zone_keys(S, seat):
        out.update(S.zones[key])
    return out


def _visible_uids(S, seat: int) -> set[int]:
    hidden = set(hidden_zone_keys(S, seat))
    out: set[int] = set()
    for key, uids in S.zones.items():
        if key not in hidden:
            out.update(uids)
    return out
