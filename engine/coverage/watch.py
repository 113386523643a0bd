"""One variant's games played for coverage, counted into a `Tally`.

Nothing in the flow counts: the game is played from a copy of the Game whose trigger
effects count themselves before they run (`counting`), and the driver, which asks for
each decision, sees the rest: the actions offered and the one chosen, the policy rule
that chose it (`Recording.taken`), the cards named by it, where every card is after it
(drawn: out of the zone it starts in; played: named by a chosen action, or in its
discard zone), the invariants after it, and which end rule holds when the game is over.
Game k is played as `horde sim --seed SEED` plays its game k with the same bots.
"""

from __future__ import annotations

import dataclasses

from engine.bots import make_bot
from engine.bots.policy import PolicyBot
from engine.coverage.items import Items
from engine.coverage.tally import Played, Tally
from engine.dsl.values import E
from engine.errors import HordeError, Problem
from engine.flow.machine import evaluate
from engine.laws import violations
from engine.sim.seeds import bot_seed, game_seed

# decisions one game may take before it is stopped (its end rules then count as not fired)
MAX_DECISIONS = 20_000


def counting(game, items: Items, watch: Watch):
    """A copy of `game` whose triggers count into `watch` when they fire in its game."""
    triggers = {}
    for event, listed in game.triggers.items():
        out = []
        for trig in listed:
            item = items.trigger.get(id(trig))
            if item is None:
                out.append(trig)
                continue
            fn = trig.fx.fn

            def fired(S, L, fn=fn, item=item):
                if S is watch.state:  # not a bot's copy, looking ahead
                    watch.tally.hit(item, "fired")
                return fn(S, L)
            out.append(dataclasses.replace(trig, fx=dataclasses.replace(trig.fx, fn=fired)))
        triggers[event] = out
    return dataclasses.replace(game, triggers=triggers)


class Recording(PolicyBot):
    """A policy bot that keeps the rule that made its last decision (`taken`; None when
    no rule did). The rules are tried in order and the first that picks an action
    decides: the last rule handed out when one did is that rule."""

    taken = None

    def _first_rule(self, known, decision, rules):
        handed: list = [None]

        def each():
            for r in rules:
                handed[0] = r[0]
                yield r
        label = super()._first_rule(known, decision, each())
        self.taken = handed[0] if label is not None else None
        return label


def seat_bot(spec: str, seed: int, game):
    """The bot `spec` names, as `horde sim` makes it; a policy bot as a `Recording` one."""
    bot = make_bot(spec, seed, game)
    return Recording(bot.policy, seed, bot.shortcuts) if type(bot) is PolicyBot else bot


class Watch:
    """Plays games of one variant (`game`), `label` naming it in reports."""

    def __init__(self, game, label: str, tally: Tally):
        self.items = Items(game)
        self.tally = tally
        self.label = label
        self.game = counting(game, self.items, self)
        self.state = None
        tally.know(self.items, label)

    def play(self, bots: str, players: int, n: int, seed: int, on_game=None) -> None:
        """`n` games with bot `bots` at every seat (stops early on Ctrl-C: the caller
        reports what was played); `on_game()` after each."""
        batch = Played(self.label, bots)
        self.tally.batches.append(batch)
        for index in range(n):
            self.one(bots, players, seed, index)
            batch.games += 1
            if on_game is not None:
                on_game()

    def one(self, bots: str, players: int, seed: int, index: int) -> None:
        g, tally, items = self.game, self.tally, self.items
        gseed = game_seed(seed, index)
        seats = [seat_bot(bots, bot_seed(seed, index, s), g) for s in range(players)]
        S = self.state = g.new_state(players=players, seed=gseed)
        S.transactional = False
        self.cards_uids = -1
        self._cards(S)
        decisions = 0
        try:
            while not S.over and decisions < MAX_DECISIONS:
                d = S.decision()
                if d is None:
                    break
                for aid in {a.id for a, _ in d.bindings.values() if a is not None}:
                    if aid in items.action:
                        tally.hit(items.action[aid], "offered")
                bot = seats[d.player]
                if isinstance(bot, Recording):
                    bot.taken = None
                label = bot.choose(S, d)
                action, args = d.bindings[label]
                if isinstance(bot, Recording) and bot.taken is not None:
                    rule = items.rule.get(id(bot.taken))
                    if rule is not None:
                        tally.hit(rule, "taken")
                if action is not None and action.id in items.action:
                    tally.hit(items.action[action.id], "chosen")
                    for v in args.values():
                        if type(v) is E:
                            card = items.card.get(S.ents.get(v.i, {}).get("id"))
                            if card is not None:
                                tally.hit(card, "played")
                S.apply(label)
                decisions += 1
                self._cards(S)
                for v in violations(S):
                    item = items.invariant.get(v.law)
                    tally.problem(Problem(
                        f"{item.name if item else v.law} broken in play ({self.label}, {bots} "
                        f"bots, game {index}, seed {gseed}, after {decisions} decisions)"
                        + (f": {v.detail}" if v.detail else ""), item.span if item else v.span,
                        hint="`horde check` finds the shortest game that breaks it"),
                        key=(v.law, v.span))  # the first game that breaks it
            if S.over and not S.limit_hit:
                self._ended(S)
            else:
                tally.unfinished += 1
            tally.events.update(e["e"] for e in S.log if e.get("t") == "event")
            for item in items.invariant.values():
                tally.hit(item, "held")
        except HordeError as exc:
            for p in exc.problems[:1]:
                tally.problem(Problem(f"{self.label}, {bots} bots, game {index} (seed {gseed}): "
                                      f"{p.message}", p.span, p.hint), key=(p.message, p.span))
        finally:
            self.state = None

    def _ended(self, S) -> None:
        """Count the end rule that ended `S`: the first whose condition holds at the end."""
        steps, fx = S.steps, S.fx_steps
        try:
            for end, item in zip(self.game.end, self.items.end, strict=True):
                if evaluate(S, end.when, {}):
                    self.tally.hit(item, "ended")
                    return
        except HordeError:
            return
        finally:
            S.steps, S.fx_steps = steps, fx

    def _cards(self, S) -> None:
        """Count each card out of the zone it starts in (drawn) or in its discard zone."""
        cards = self.items.card
        if not cards:
            return
        if self.cards_uids != S.next_uid:  # cards are made at setup, seldom later
            self.cards_uids = S.next_uid
            defs = self.game.cards
            self.where = [(uid, cards[e["id"]], defs[e["id"]].zone, defs[e["id"]].discard)
                          for uid, e in S.ents.items() if e.get("id") in cards]
        ents, hit = S.ents, self.tally.hit
        for uid, item, start, discard in self.where:
            z = ents[uid].get("@z") if uid in ents else None
            name = z.partition("#")[0] if z else None
            if name != start:
                hit(item, "drawn")
                if name is not None and name == discard:
                    hit(item, "played")
