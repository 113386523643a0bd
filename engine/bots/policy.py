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

Deciding costs most of a game played by policies, so the bot takes two shortcuts that
never change a decision (engine.bots.shortcuts): no re-deal when no rule it may evaluate
looks at a hidden card, and one value per procedure call within a decision.
`PolicyBot(..., shortcuts=False)` decides without them (the tests compare the two).
"""

from __future__ import annotations

import random

from engine.bots.base import register_bot
from engine.bots.shortcuts import Shortcuts
from engine.errors import HordeError, did_you_mean
from engine.flow.machine import evaluate
from engine.hidden import Peeked, determinize, sealed


def seat_copy(state, seat: int, rng: random.Random):
    """The state as `seat` may know it: hidden cards re-dealt, dice unknown (fresh RNG)."""
    c = determinize(state, seat, rng)
    c.transactional = False
    return c


class PolicyBot:
    def __init__(self, policy, seed: int, shortcuts: bool = True):
        self.policy = policy
        self._rng = random.Random(seed)
        self._owed: list = []  # draws of decisions taken sealed, made when the RNG is next used
        self.shortcuts = shortcuts
        self._plain = [(rule, rule.cond, rule.score, True) for rule in policy.rules]

    @property
    def rng(self) -> random.Random:
        """The bot's RNG, once it has drawn what the sealed decisions owe (`choose`): most
        games never use it again, and the draws were a tenth of a decision."""
        if self._owed:
            owed, self._owed = self._owed, []
            for draw in owed:
                draw(self._rng)
        return self._rng

    def _shortcuts(self, game) -> Shortcuts | None:
        """The policy's shortcuts in `game`, made once per policy (None: switched off)."""
        if not self.shortcuts:
            return None
        sc = self.policy.shortcuts
        if sc is None or sc.game is not game:
            sc = self.policy.shortcuts = Shortcuts(game, self.policy)
        return sc

    def choose(self, state, decision) -> str:
        if len(decision.actions) == 1:
            return decision.actions[0]
        sc = self._shortcuts(state.game)
        if sc is not None and not sc.needs_redeal(decision):
            seat = decision.player
            try:
                with sealed(state, seat, sc.families, sc.hidden_keys(state, seat)) as draw:
                    label = self._by_rules(state, decision, sc)
            except (Peeked, Exception):  # it looked (or failed): decide as without the shortcut
                pass
            else:
                self._owed.append(draw)  # what the determinization would have drawn
                return label if label is not None else self._otherwise(decision)
        return self.choose_known(seat_copy(state, decision.player, self.rng), decision)

    def choose_known(self, known, decision) -> str:
        """Decide on a state the bot may look at freely (a determinization, a rollout)."""
        label = self._by_rules(known, decision, self._shortcuts(known.game))
        return label if label is not None else self._otherwise(decision)

    def _by_rules(self, known, decision, sc: Shortcuts | None) -> str | None:
        """The label the first rule with a legal, matching action picks; None: no rule."""
        if sc is None:
            return self._first_rule(known, decision, self._plain)
        try:
            return self._first_rule(known, decision, sc.rules)
        finally:
            sc.forget()

    def _first_rule(self, known, decision, rules) -> str | None:
        me = known.players[decision.player]
        bindings = decision.bindings
        choices = [(label, "pass" if action is None else action.id, {"me": me, **args})
                   for label in decision.actions for action, args in (bindings[label],)]
        present = {aid for _, aid, _ in choices}
        for rule, cond, score_of, _ in rules:
            play = rule.play
            every = "*" in play
            if not every and present.isdisjoint(play):  # most rules are for other decisions
                continue
            best: str | None = None
            best_score = 0  # read only once `best` is set
            for label, aid, L in choices:  # (a snippet only reads its L)
                if not every and aid not in play:
                    continue
                if cond is not None and not evaluate(known, cond, L):
                    continue
                score = evaluate(known, score_of, L) if score_of is not None else 0
                if best is None or score > best_score:
                    best, best_score = label, score
            if best is not None:
                return best
        return None

    def _otherwise(self, decision) -> str:
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


def _policy_named(arg: str | None) -> str:
    if not arg:
        raise HordeError("say which policy: policy:NAME")
    return arg


@register_bot("policy", check=_policy_named)
def _make_named_policy(arg, seed, game):
    """`policy:NAME` plays the pack's policy NAME."""
    return make_policy_bot(_policy_named(arg), None, seed, game)


@register_bot("greedy")
def _make_greedy(arg, seed, game):
    """The pack's `greedy` policy, which every bundled pack declares."""
    return make_policy_bot("greedy", arg, seed, game)
