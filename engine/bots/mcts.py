"""A generic Monte Carlo tree search bot (UCT), for any pack.

Every iteration searches a fresh determinization of the bot's view (`engine.hidden`): the
hidden cards re-dealt and the dice reseeded, so the bot never peeks at what its seat cannot
know — not even the game's future dice. The tree is keyed by action labels and shared by
all determinizations; a child's exploration term counts only the iterations in which it
was legal (information-set MCTS, "availability" counts). Rewards are `state.returns()`
from the point of view of the player who chose each move.

Rollouts play the pack's `greedy` policy for every seat when the pack declares one, else
uniformly random moves. With a policy, a new node tries the policy's move first, and the
search's favourite root move replaces the policy's only when paired rollouts (both moves
from the same determinization, the same dice and the same rollout choices) show it clearly
better: rollouts of a base policy improve on it, noise does not.

Spec: `mcts` (200 iterations), `mcts:500` (iterations) or `mcts:0.5s` (a time budget).
"""

from __future__ import annotations

import math
import random
import time

from engine.bots.base import MAX_ITERATIONS, MAX_SECONDS, iterations_of, register_bot, seconds_of
from engine.bots.policy import PolicyBot
from engine.errors import HordeError, printable
from engine.hidden import determinize

ROLLOUT_LIMIT = 2000  # decisions; a rollout that runs longer counts as a draw


class _Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


class MCTSBot:
    def __init__(self, seed: int, iterations: int = 200, seconds: float | None = None,
                 c: float = 1.4, rollout=None):
        self.rng = random.Random(seed)
        self.rollout = rollout  # a PolicyBot playing every seat in rollouts, or None: random
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.last_iterations = 0

    def choose(self, state, decision) -> str:
        if len(decision.actions) == 1:
            return decision.actions[0]
        root = _Node()
        start = time.perf_counter()
        # With a policy to check against, a third of a time budget is kept for the check.
        share = 2 / 3 if self.seconds and self.rollout is not None else 1.0
        deadline = start + self.seconds * share if self.seconds else None
        n = 0
        while (n < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            self._iterate(state, decision.player, root)
            n += 1
        self.last_iterations = n
        legal = [a for a in decision.actions if a in root.children]
        if not legal:
            return self.rng.choice(decision.actions)
        best = max(legal, key=lambda a: (root.children[a].visits, root.children[a].value))
        if self.rollout is None:
            return best
        known = determinize(state, decision.player, self.rng)
        pref = self.rollout.choose_known(known, decision)
        if pref == best:
            return best
        # The search only proposes; it overrules the pack's policy when paired rollouts
        # confirm it. With dice this noisy, a tree fed by a hundred iterations separates good
        # moves from bad, not good from slightly better, and a wrong overrule costs games.
        pairs = max(16, self.iterations // 2)
        end = start + self.seconds if self.seconds else None
        return best if self._clearly_better(state, decision.player, best, pref, pairs, end) \
            else pref

    def _clearly_better(self, state, seat: int, a: str, b: str, pairs: int,
                        deadline: float | None) -> bool:
        """Play `a` and `b` from the same determinization with the same dice and the same
        rollout choices; `a` is clearly better when the mean difference of `seat`'s returns
        stays above zero by two standard errors."""
        diffs: list[float] = []
        while len(diffs) < pairs and (deadline is None or time.perf_counter() < deadline
                                      or len(diffs) < 2):
            s = determinize(state, seat, self.rng)
            s.transactional = False
            t = s.clone()
            seed = self.rng.getrandbits(32)
            s.apply(a)
            t.apply(b)
            diffs.append(self._rollout(s, seed)[seat] - self._rollout(t, seed)[seat])
        n = len(diffs)
        m = sum(diffs) / n
        var = sum((x - m) ** 2 for x in diffs) / (n - 1)
        return m - 2.0 * math.sqrt(var / n) > 0

    def _iterate(self, state, seat: int, root: _Node) -> None:
        s = determinize(state, seat, self.rng)
        s.transactional = False
        node = root
        path: list[tuple[_Node, int]] = []  # (node, the player who moved into it)
        while not s.is_terminal():
            d = s.decision()
            untried = [a for a in d.actions if a not in node.children]
            for a in d.actions:
                if a in node.children:
                    node.children[a].avail += 1
            if untried:
                a = self._expand(s, d, untried)
                child = node.children[a] = _Node()
                child.avail = 1
                s.apply(a)
                path.append((child, d.player))
                break
            a = max(d.actions, key=lambda x: self._ucb(node.children[x]))
            node = node.children[a]
            s.apply(a)
            path.append((node, d.player))
        returns = self._rollout(s, self.rng.getrandbits(32))
        root.visits += 1
        for node, player in path:
            r = returns[player]
            node.visits += 1
            node.value += r

    def _expand(self, s, d, untried: list[str]) -> str:
        """Which untried move a node tries first: the policy's own, when it has not been
        tried; a random one otherwise. A random first move for every seat below the root
        would make every line look as if it were played by a beginner."""
        if self.rollout is not None and len(untried) == len(d.actions):
            pref = self.rollout.choose_known(s, d)
            if pref in untried:
                return pref
        return self.rng.choice(untried)

    def _rollout(self, s, seed: int) -> list[float]:
        """Play `s` to the end (policy or random moves); the returns, 0 for all if too long."""
        if self.rollout is not None:
            self.rollout.rng.seed(seed)
        pick = random.Random(seed)
        steps = 0
        while not s.is_terminal() and steps < ROLLOUT_LIMIT:
            d = s.decision()
            if self.rollout is not None and len(d.actions) > 1:
                s.apply(self.rollout.choose_known(s, d))
            else:
                s.apply(pick.choice(d.actions))
            steps += 1
        return s.returns() if s.is_terminal() else [0.0] * len(s.pl)

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        explore = math.sqrt(math.log(max(node.avail, 1)) / node.visits)
        return node.value / node.visits + self.c * explore


def _rollout_policy(game, seed: int):
    """Rollouts play the pack's greedy policy when it has one: far better estimates than
    random play, at the price of slower iterations."""
    if game is not None and "greedy" in game.policies:
        return PolicyBot(game.policies["greedy"], seed)
    return None


def parse_spec(arg: str | None) -> dict:
    """`500` -> {'iterations': 500}, `0.5s` -> {'seconds': 0.5}; a clear error otherwise."""
    if not arg:
        return {}
    try:
        if arg.endswith("s"):
            return {"seconds": seconds_of(arg)}
        return {"iterations": iterations_of(arg)}
    except ValueError:
        raise HordeError(f"mcts:{printable(arg)}: give iterations (mcts:200) or seconds "
                         "(mcts:0.5s)", hint=f"1 to {MAX_ITERATIONS:,} iterations, or above 0 "
                         f"and at most {MAX_SECONDS:g} seconds, a decision") from None


@register_bot("mcts", check=parse_spec)
def _make_mcts(arg, seed, game):
    return MCTSBot(seed, rollout=_rollout_policy(game, seed), **parse_spec(arg))
