"""Explicit chance: a state that stops before each random draw and lets the caller pick it.

Ordinary play rolls inside `apply` from the state's own RNG. Search and learning libraries
(OpenSpiel) want random events as nodes of the tree instead: outcomes with probabilities,
one of which they apply. Every random event of the engine comes through one of the RNG's
entry points (`rand_below`, `roll_dice`, `shuffle_list`, a shuffle being a sequence of
draws), so one generic mechanism serves every pack: in explicit-chance mode those entry
points take their draws from a `Feed` of outcomes given so far, and the first draw that
has none stops the run (`NeedChance`). The state is then a chance node: it keeps what it
was before the action (or, for a new game, before its setup), the action, and the draws
chosen so far; `apply_chance(k)` adds a draw and runs the action again from there. An
action with k draws is run k + 1 times: simple, and cheap beside a search's work.
"""

from __future__ import annotations

from typing import Any

from engine.errors import StateError

SETUP = "@setup"  # the pending "action" of a game whose setup is still drawing
# Setups remembered per new game, by the draws given: every game replayed from the start
# (a deserialization) runs the setup again once per draw it makes
SETUP_MEMO = 4096


class NeedChance(BaseException):  # noqa: N818 - not an error: the run stops for a draw
    """A draw among `n` outcomes that no outcome was given for. A BaseException, so the
    rules' own error handling (which turns exceptions into rule errors) lets it through."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


class Feed:
    """Explicit chance for one state: the draws given to the run under way (`running`),
    or, at a chance node, the action waiting for its draws."""

    __slots__ = ("outcomes", "pos", "running", "pending", "action", "base", "setup", "memo",
                 "shuffled")

    def __init__(self, outcomes: list | None = None, running: bool = False):
        self.outcomes = outcomes if outcomes is not None else []
        self.pos = 0
        self.running = running
        self.pending: int | None = None  # the number of outcomes of the draw waited for
        self.action: str | None = None  # the action (label) or SETUP that waits for it
        self.base: Any = None  # the State before it (None for SETUP)
        self.setup: Any = None  # SETUP: run(feed) -> the new game, its draws from the feed
        self.memo: dict | None = None  # SETUP: draws given -> the draw then waited for, or the game
        # the zones the run shuffled; after it, those the last action shuffled (engine.agents.memory)
        self.shuffled: set[str] = set()

    def draw(self, n: int) -> int:
        if not self.running:
            raise StateError("this state waits for a chance outcome",
                             hint="apply_chance(k) with k from chance_outcomes()")
        if self.pos < len(self.outcomes):
            k = self.outcomes[self.pos]
            self.pos += 1
            if not 0 <= k < n:  # given for another draw: the game is not the one replayed
                raise StateError(f"chance outcome {k} is not one of the {n} of this draw")
            return k
        raise NeedChance(n)

    def copy(self) -> Feed:
        c = Feed(list(self.outcomes))
        c.pending, c.action, c.base, c.setup = self.pending, self.action, self.base, self.setup
        c.memo = self.memo  # shared by every copy of one new game
        return c


def new_state(blank, setup):
    """A game in explicit-chance mode, stopped at its setup's first draw (if it has one):
    `blank` a State to become it, `setup(feed)` the new game made with the feed's draws."""
    feed = blank.chance = Feed()
    feed.action, feed.setup, feed.memo = SETUP, setup, {}
    _run(blank, feed)
    return blank


def apply(S, action) -> None:
    """`S.apply(action)` in explicit-chance mode."""
    feed = S.chance
    if feed.pending is not None:
        raise StateError("this state is a chance node: pick an outcome first",
                         hint="apply_chance(k) with k from chance_outcomes()")
    d = S.decision()
    if d is None:
        raise StateError("the game is over: no action can be taken")
    if type(action) is not str:  # check it now, not inside a run that may stop
        action = S._label_of(d, action) if type(action) is not int else S._label_of_id(action)
    if action not in d.bindings:
        raise StateError(f"'{action}' is not a legal action now")
    base = S.clone()
    base.chance = None
    feed.action, feed.base, feed.outcomes = action, base, []
    _run(S, feed)


def apply_chance(S, k: int) -> None:
    feed = S.chance
    if feed is None or feed.pending is None:
        raise StateError("this state is not a chance node")
    if type(k) is not int or not 0 <= k < feed.pending:
        raise StateError(f"{k!r} is not a chance outcome here (0 to {feed.pending - 1})")
    feed.outcomes.append(k)
    _run(S, feed)


def outcomes(S) -> list[tuple[int, float]]:
    feed = S.chance
    if feed is None or feed.pending is None:
        return []
    n = feed.pending
    return [(k, 1.0 / n) for k in range(n)]


def _run(S, feed: Feed) -> None:
    """Run the feed's action (or setup) with the draws given; S becomes the state after it,
    or stays a chance node waiting for the next draw."""
    run = Feed(feed.outcomes, running=True)
    memo = feed.memo if feed.action == SETUP else None
    if memo is not None:
        got = memo.get(tuple(feed.outcomes))
        if type(got) is int:
            feed.pending = got
            return
        if got is not None:
            stop = S.stop_turns  # a setup's game keeps the turn limit its blank was given
            S._restore(got.clone())
            S.chance, S.stop_turns = Feed(), stop
            return
        if len(memo) >= SETUP_MEMO:
            memo.clear()
    try:
        if feed.action == SETUP:
            done = feed.setup(run)
        else:
            done = feed.base.clone()
            done.chance = run
            done.apply(feed.action)
    except NeedChance as need:
        feed.pending = need.n
        if memo is not None:
            memo[tuple(feed.outcomes)] = need.n
        return
    done.chance = Feed()
    done.chance.shuffled = run.shuffled
    if memo is not None:
        memo[tuple(feed.outcomes)] = done.clone()
    stop = S.stop_turns if feed.action == SETUP else done.stop_turns
    S._restore(done)
    S.stop_turns = stop


def reseed(S, seed: int) -> None:
    """Fresh randomness for a copy: its own RNG state, drawn from `seed`."""
    from engine import rng
    S.rng = rng.seed_state(seed)
    S._ahead = (None, (), 0)
