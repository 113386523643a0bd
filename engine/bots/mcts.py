"""A generic Monte Carlo tree search bot (UCT), for any pack.

Every iteration searches a fresh determinization of the bot's view (`engine.hidden`): the
hidden cards re-dealt and the dice reseeded, so the bot never peeks at what its seat cannot
know — not even the game's future dice. The tree is keyed by action labels and shared by
all determinizations; a child's exploration term counts only the iterations in which it
was legal (information-set MCTS, "availability" counts). Rewards are `state.returns()`
from the point of view of the player who chose each move.

Rollouts play the pack's `greedy` policy for every seat when the pack declares one, else
uniformly random moves.

Spec: `mcts` (200 iterations), `mcts:500` (iterations) or `mcts:0.5s` (a time budget).
"""

from __future__ import annotations

import math
import random
import time

from engine.bots.base import register_bot
from engine.errors import HordeError
from engine.hidden import determinize

ROLLOUT_LIMIT = 2000  # decisions; a rollout that runs longer counts as a draw


class _Node:
    __slots__ = ("children", "visits", "value", "sq", "avail")

    def __init__(self):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.sq = 0.0  # sum of squared rewards, for the confidence of the final choice
        self.avail = 0

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0

    def stderr(self) -> float:
        if self.visits < 2:
            return math.inf
        var = max(self.sq / self.visits - self.mean() ** 2, 0.0)
        return math.sqrt(var / self.visits)


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
        deadline = time.perf_counter() + self.seconds if self.seconds else None
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
        # Search only overrules the pack's policy when it is confident: with dice this noisy,
        # a few hundred iterations separate good moves from bad, not good from slightly better.
        known = determinize(state, decision.player, self.rng)
        pref = self.rollout.choose_known(known, decision)
        if pref == best or pref not in root.children:
            return best
        b, p = root.children[best], root.children[pref]
        margin = 2.0 * math.sqrt(b.stderr() ** 2 + p.stderr() ** 2)
        return best if b.mean() - p.mean() > margin else pref

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
                a = self.rng.choice(untried)
                child = node.children[a] = _Node()
                child.avail = 1
                s.apply(a)
                path.append((child, d.player))
                break
            a = max(d.actions, key=lambda x: self._ucb(node.children[x]))
            node = node.children[a]
            s.apply(a)
            path.append((node, d.player))
        steps = 0
        while not s.is_terminal() and steps < ROLLOUT_LIMIT:
            d = s.decision()
            if self.rollout is not None and len(d.actions) > 1:
                s.apply(self.rollout.choose_known(s, d))
            else:
                s.apply(self.rng.choice(d.actions))
            steps += 1
        returns = s.returns() if s.is_terminal() else [0.0] * len(s.pl)
        root.visits += 1
        for node, player in path:
            r = returns[player]
            node.visits += 1
            node.value += r
            node.sq += r * r

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        explore = math.sqrt(math.log(max(node.avail, 1)) / node.visits)
        return node.value / node.visits + self.c * explore


def _rollout_policy(game, seed: int):
    """Rollouts play the pack's greedy policy when it has one: far better estimates than
    random play, at the price of slower iterations."""
    if game is not None and "greedy" in game.policies:
        from engine.bots.policy import PolicyBot
        return PolicyBot(game.policies["greedy"], seed)
    return None


@register_bot("mcts")
def _make_mcts(arg, seed, game):
    budget: dict = {}
    if arg:
        try:
            if arg.endswith("s"):
                budget["seconds"] = float(arg[:-1])
            else:
                budget["iterations"] = int(arg)
        except ValueError:
            raise HordeError(f"mcts:{arg}: give iterations (mcts:200) or seconds (mcts:0.5s)"
                             ) from None
    return MCTSBot(seed, rollout=_rollout_policy(game, seed), **budget)
