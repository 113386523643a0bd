"""One game under watch: every decision chosen by a function, every law checked after it.

`play` is the unit both Hypothesis and the property tests drive. It stops at the first
broken law by raising `Broken`, which carries everything a reproduction needs: the player
count, the seed, the decisions taken (with who took them where), the law and the state.
A legal action that fails when taken is broken too: the failing action becomes the last
decision, so replaying the decisions shows the error itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.errors import HordeError, Span
from engine.flow.machine import too_deep
from engine.laws import LAWS, Violation, Watch, determinism, explore
from engine.scenario import describe

RULES_RUN = "the rules run without error"
DENSE = 100  # the costly laws are checked after each of a game's first DENSE decisions


@dataclass
class Step:
    player: int
    point: str
    label: str


@dataclass
class Failure:
    """The smallest game found that breaks a law."""

    violation: Violation
    players: int
    seed: int
    steps: list[Step]
    last_action: tuple[str, Span | None] | None = None  # label and where the action is defined
    state: str = field(default="", repr=False)  # the state after the last decision, in words

    @property
    def decisions(self) -> list[str]:
        return [s.label for s in self.steps]


class Broken(Exception):
    def __init__(self, failure: Failure):
        super().__init__(str(failure.violation))
        self.failure = failure


def error_violation(exc: Exception) -> Violation:
    """A rule that failed (or horde itself) as a broken law, pointing where the rule is."""
    if isinstance(exc, RecursionError | MemoryError):  # what the caps missed: the rules' doing
        exc = too_deep(exc)
    if isinstance(exc, HordeError):
        return Violation(RULES_RUN, exc.problem.span, exc.problem.message, "rules")
    return Violation("horde itself runs without error (this is a bug in horde)", None,
                     f"{type(exc).__name__}: {exc}", "rules")


def costly_at(k: int, dense: int | None) -> bool:
    """Whether the costly laws are checked after decision `k`: after each of the first
    `dense` decisions, then after every 2nd up to 2*dense, every 4th up to 4*dense, and so
    on (None: always). A game ten times longer costs only a few dense stretches more."""
    if not dense or k < dense:
        return True
    return k % (1 << (k // dense).bit_length()) == 0


def play(game, players: int, seed: int, choose: Callable[[int], int], *,
         laws: Iterable[str] = LAWS, max_steps: int | None = 5000, tries: int | None = 8,
         dense: int | None = DENSE, horizon: int | None = None,
         seen: tuple[set, set] | None = None) -> int:
    """Play one game, `choose(n)` picking an index among n legal actions, checking `laws`
    after every decision. Returns the number of decisions; raises `Broken`.

    `max_steps` is the decision budget: a game still going after it breaks the law that
    games end. `tries` bounds how many of a decision's legal actions are also taken on a
    clone to see that each can be (None: all). `dense` spaces out the costly laws in long
    games (`costly_at`). `horizon` stops a game after that many decisions, quietly: every
    state on the way was still checked (the test suite's small budget). `seen`: sets the
    ids of the actions offered and chosen are added to (engine.coverage)."""
    laws = set(laws)
    watch = Watch(game, laws)
    steps: list[Step] = []
    S = None
    actions: dict = {}  # label -> (action, args) at the latest decision

    def broken(v: Violation) -> Broken:
        last = None
        if steps and steps[-1].label in actions:
            a = actions[steps[-1].label][0]  # None for 'pass'
            if a is not None:  # where its effect is written: a house rule's own file
                fx = a.fx.locate(None) if a.fx is not None and a.fx.locate else None
                last = (steps[-1].label, fx or a.span)
        return Broken(Failure(v, players, seed, list(steps), last, _describe(S)))

    try:
        S = game.new_state(players=players, seed=seed, prepare=watch.start)
        bad = watch.check(S)
        while not bad and not S.over:
            k = len(steps)
            if max_steps is not None and k >= max_steps:
                bad = [Violation(LAWS["ends"], None, f"it did not end within {max_steps} "
                                 "decisions", "ends", expect="game_over()")]
                break
            if horizon is not None and k >= horizon:
                break
            costly = costly_at(k, dense)
            d = S.decision()
            actions = d.bindings
            tried = explore(S, tries, k) if costly and "legal-actions" in laws else {}
            for label, res in tried.items():
                if isinstance(res, Exception):
                    steps.append(Step(d.player, d.point, label))
                    raise broken(error_violation(res))
            label = d.actions[choose(len(d.actions))]
            if seen is not None:
                seen[0].update(a.id for a, _ in actions.values() if a is not None)
                if actions[label][0] is not None:
                    seen[1].add(actions[label][0].id)
            steps.append(Step(d.player, d.point, label))
            taken = watch.apply(S, label, tried.get(label), costly=costly)
            bad = watch.check(S, costly=costly_at(k + 1, dense)) + taken
        if not bad and "determinism" in laws:
            again = game.new_state(players=players, seed=seed)
            for s in steps:
                again.apply(s.label)
            bad = determinism(S, again)
    except Broken:
        raise
    except Exception as exc:  # a rule error, or a bug in horde: both are findings
        raise broken(error_violation(exc)) from None
    if bad:
        raise broken(bad[0])
    return len(steps)


def _describe(S) -> str:
    if S is None:
        return ""
    try:
        return describe(S)
    except Exception:  # a state too broken to describe still has a reproduction
        return ""
