"""Declarative bots: the pack's `policies:`, ordered preferences in the effect language.

    policies:
      greedy:
        rules:
          - {play: shield, if: "turn.threat >= 5"}
          - {play: steal, score: "target.score"}     # the leader is the best target
          - {play: pass}
        otherwise: random

At a decision the rules are tried in order; the first rule with a legal action whose `if`
holds decides, taking the binding with the highest `score` (ties: the first label). The
conditions see the game as the bot's seat does: in a pack with hidden zones they are
evaluated on a copy where every card the seat cannot see is re-dealt at random.
"""

from __future__ import annotations

import random

from engine.bots.base import register_bot
from engine.errors import HordeError, did_you_mean
from engine.flow.machine import evaluate
from engine.hidden import determinize


def seat_copy(state, seat: int, rng: random.Random):
    """The state as `seat` may know it: hidden cards re-dealt, dice unknown (fresh RNG)."""
    c = determinize(state, seat, rng)
    c.transactional = False
    return c


class PolicyBot:
    def __init__(self, policy, seed: int):
        self.policy = policy
        self.rng = random.Random(seed)

    def choose(self, state, decision) -> str:
        if len(decision.actions) == 1:
            return decision.actions[0]
        return self.choose_known(seat_copy(state, decision.player, self.rng), decision)

    def choose_known(self, known, decision) -> str:
        """Decide on a state the bot may look at freely (a determinization, a rollout)."""
        me = known.players[decision.player]
        for rule in self.policy.rules:
            best: str | None = None
            best_score = 0  # read only once `best` is set
            for label in decision.actions:
                action, args = decision.bindings[label]
                aid = "pass" if action is None else action.id
                if aid not in rule.play and "*" not in rule.play:
                    continue
                L = {"me": me, **args}
                if rule.cond is not None and not evaluate(known, rule.cond, L):
                    continue
                score = evaluate(known, rule.score, L) if rule.score is not None else 0
                if best is None or score > best_score:
                    best, best_score = label, score
            if best is not None:
                return best
        if self.policy.otherwise == "pass" and "pass" in decision.index:
            return "pass"
        if self.policy.otherwise == "first":
            return decision.actions[0]
        return self.rng.choice(decision.actions)


def make_policy_bot(name: str, arg, seed: int, game):
    if game is None:
        raise HordeError(f"the '{name}' bot needs a pack")
    policy = game.policies.get(name)
    if policy is None:
        raise HordeError(f"{game.title} has no policy '{name}'",
                         hint=did_you_mean(name, game.policies) or
                         f"policies: {', '.join(game.policies) or 'none'}")
    return PolicyBot(policy, seed)


@register_bot("policy")
def _make_named_policy(arg, seed, game):
    """`policy:NAME` plays the pack's policy NAME."""
    if not arg:
        raise HordeError("say which policy: policy:NAME")
    return make_policy_bot(arg, None, seed, game)


@register_bot("greedy")
def _make_greedy(arg, seed, game):
    """The pack's `greedy` policy, which every bundled pack declares."""
    return make_policy_bot("greedy", arg, seed, game)
