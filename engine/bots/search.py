"""A horizon search bot: short rollouts of the pack's policy, scored by the pack's `value:`.

`mcts` plays every iteration to the end of the game, which in a long game means a handful
of iterations a second. This bot asks a narrower question at each decision — which legal
move does best over the next few decisions, when everyone then plays the pack's `greedy`
policy — and answers it with many short rollouts:

- **Worlds.** Each sweep draws one determinization of the bot's view (`engine.hidden`):
  hidden cards re-dealt, dice reseeded, so the bot never peeks. Every candidate move is
  tried in the same world with the same rollout choices (common random numbers): the
  difference between two moves is measured on the same luck.
- **Rollouts.** After the move every seat plays the pack's `greedy` policy (random moves in
  a pack without one) for `horizon` decisions. The position reached is scored for the
  bot's seat by the pack's `value:` expression (percent: 100 as good as won, -100 as good
  as lost; clamped to that), or by `state.returns()` (±100, 0) when the game ended. A
  pack without `value:` is played out to the end instead.
- **Allocation.** Sequential halving: the iterations are spread over rounds, and after
  each the worse half of the moves is dropped. The policy's own move is never dropped, and
  the bot plays another move only when it beats the policy's on the shared worlds by `Z`
  standard errors: rollouts of a base policy improve on it, noise does not.

Budgets (per decision): an iteration cap (rollouts) and a time budget, whichever ends
first. With an iteration cap alone, a seeded game is reproducible; a time budget makes
the choices depend on the machine's speed and load.
"""

from __future__ import annotations

import math
import random
import time

from engine.bots.base import MAX_ITERATIONS, MAX_SECONDS, iterations_of, register_bot, seconds_of
from engine.bots.policy import PolicyBot
from engine.errors import HordeError, printable
from engine.flow.effects import evaluate
from engine.hidden import determinize

SECONDS = 1.0  # the default time budget per decision: a human opponent's patience
ITERATION_CAP = 20_000  # rollouts per decision when only a time budget is given
HORIZON = 8  # decisions a rollout plays before its position is scored
ROLLOUT_LIMIT = 2000  # decisions; a rollout to the end that runs longer counts as a draw
Z = 1.5  # standard errors by which a move must beat the policy's to be played instead

SPEC = ("search[:ITEM[:ITEM...]], items: N (iterations), Xs (seconds), iters=N, time=X, "
        "horizon=N — e.g. search:400, search:1s, search:iters=400:horizon=8")

WHAT = {"iters": "a number of iterations", "time": "a number of seconds",
        "horizon": "a number of decisions"}


class SearchBot:
    def __init__(self, seed: int, game, iterations: int | None = None,
                 seconds: float | None = None, horizon: int = HORIZON):
        self.rng = random.Random(seed)
        if iterations is None and seconds is None:
            seconds = SECONDS
        self.iterations = iterations if iterations is not None else ITERATION_CAP
        self.seconds = seconds
        self.horizon = horizon
        self.value = game.value if game is not None else None
        policy = game.policies.get("greedy") if game is not None else None
        # one copy of the policy decides what it would play here, one plays the rollouts
        self.policy = PolicyBot(policy, seed) if policy is not None else None
        self.roller = PolicyBot(policy, seed) if policy is not None else None
        self.last_iterations = 0

    def choose(self, state, decision) -> str:
        actions = decision.actions
        self.last_iterations = 0
        if len(actions) == 1:
            return actions[0]
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else None
        seat = decision.player
        pref = self.policy.choose(state, decision) if self.policy is not None else None
        alive = list(actions)
        results: dict[str, list[float]] = {a: [] for a in actions}
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for r in range(rounds):
            done = 0
            if deadline is not None and self.last_iterations == 0:  # one sweep sets the pace
                if not self._sweep(state, seat, alive, results, deadline):
                    break
                done = 1
            n = self.last_iterations
            left = self.iterations - n
            if deadline is not None:  # what the time left allows, at the pace so far
                pace = (time.perf_counter() - start) / n
                left = min(left, int((deadline - time.perf_counter()) / pace))
            target = done + left // (len(alive) * (rounds - r))
            while done < max(1, target):
                if not self._sweep(state, seat, alive, results, deadline):
                    return self._pick(alive, results, pref)
                done += 1
            alive = self._halve(alive, results, pref)
        return self._pick(alive, results, pref)

    def _sweep(self, state, seat: int, alive: list[str], results: dict,
               deadline: float | None) -> bool:
        """Every move in `alive` tried once in one new world; False: the budget ran out."""
        world = determinize(state, seat, self.rng)
        world.transactional = False
        seed = self.rng.getrandbits(32)
        for a in alive:
            n = self.last_iterations
            if n >= self.iterations or (deadline is not None and n
                                        and time.perf_counter() >= deadline):
                return False
            s = world.clone(record=False)
            s.apply(a)
            results[a].append(self._rollout(s, seat, seed))
            self.last_iterations = n + 1
        return True

    @staticmethod
    def _means(alive: list[str], results: dict) -> tuple[int, dict[str, float]]:
        """How many sweeps every move still in play has seen, and its mean over them."""
        m = min(len(results[a]) for a in alive)
        return m, {a: sum(results[a][:m]) / m if m else 0.0 for a in alive}

    def _halve(self, alive: list[str], results: dict, pref: str | None) -> list[str]:
        if len(alive) <= 2:
            return alive
        _, mean = self._means(alive, results)
        ranked = sorted(alive, key=lambda a: -mean[a])  # stable: ties keep the label order
        keep = set(ranked[:(len(alive) + 1) // 2]) | ({pref} if pref in mean else set())
        return [a for a in alive if a in keep]

    def _pick(self, alive: list[str], results: dict, pref: str | None) -> str:
        m, mean = self._means(alive, results)
        if m == 0:
            return pref if pref is not None else alive[0]
        best = max(alive, key=lambda a: mean[a])  # the first of equals
        if pref is None or best == pref or pref not in mean:
            return best
        diffs = [x - y for x, y in zip(results[best][:m], results[pref][:m], strict=True)]
        d = sum(diffs) / m
        if m < 2:
            return pref
        se = math.sqrt(sum((x - d) ** 2 for x in diffs) / (m - 1) / m)
        return best if d - Z * se > 0 else pref

    def _rollout(self, s, seat: int, seed: int) -> float:
        """Play `s` on for the horizon (to the end without `value:`); `seat`'s score."""
        if self.roller is not None:
            self.roller.rng.seed(seed)
        pick = random.Random(seed)
        limit = self.horizon if self.value is not None else ROLLOUT_LIMIT
        steps = 0
        while steps < limit and not s.is_terminal():
            d = s.decision()
            if self.roller is not None and len(d.actions) > 1:
                s.apply(self.roller.choose_known(s, d))
            else:
                s.apply(pick.choice(d.actions))
            steps += 1
        if s.is_terminal():
            return s.returns()[seat] * 100.0
        if self.value is None:
            return 0.0
        v = evaluate(s, self.value, {"me": s.players[seat]})
        if isinstance(v, bool) or not isinstance(v, int | float):
            span = self.value.locate(None) if self.value.locate else None
            raise HordeError(f"value: gave {v!r} ({type(v).__name__}), not a number", span,
                             hint="`value:` says how well `me` stands, -100 (lost) to 100 (won)")
        return max(-100.0, min(100.0, float(v)))


def parse_spec(arg: str | None) -> dict:
    """`400:horizon=8` -> {'iterations': 400, 'horizon': 8}; a clear error otherwise."""
    out: dict = {}
    for item in (arg or "").split(":") if arg else []:
        key, eq, val = item.strip().partition("=")
        what = WHAT.get(key, "")
        if not eq:
            key, val = ("time", key) if key.endswith("s") else ("iters", key)
            what = "a number of iterations (400) or of seconds (0.5s)"
        try:
            if key == "iters":
                out["iterations"] = iterations_of(val)
            elif key == "time":
                out["seconds"] = seconds_of(val)
            elif key == "horizon":
                out["horizon"] = iterations_of(val, low=0)
                if out["horizon"] > ROLLOUT_LIMIT:
                    raise ValueError(val)
            else:
                raise HordeError(f"search:{printable(arg or '')}: no option '{printable(key)}'",
                                 hint=SPEC)
        except ValueError:
            raise HordeError(f"search:{printable(arg or '')}: '{printable(item)}' is not {what}",
                             hint=f"{SPEC}; 1 <= iterations <= {MAX_ITERATIONS:,}, "
                                  f"0 < seconds <= {MAX_SECONDS:g}, "
                                  f"0 <= horizon <= {ROLLOUT_LIMIT:,}") from None
    return out


@register_bot("search", check=parse_spec)
def _make_search(arg, seed, game):
    """`search` (1 s a decision), `search:400` (400 rollouts), `search:1s:horizon=4`, ..."""
    return SearchBot(seed, game, **parse_spec(arg))
