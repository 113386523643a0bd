"""Roll Them Bones written by hand: the yardstick the engine's speed is measured against.

This is the game of rulesets/roll-them-bones/pack.yaml (with its RULES-NOTES.md) as a
skilled programmer would write it without an engine: plain classes, plain Python, the
rules spelled out in code. It plays with uniform random bots exactly as the engine's
`random` bot does: at every decision it chooses uniformly among the same legal actions
the pack offers (one per parameter binding, plus `pass` in windows). So both programs
must produce the same distributions of winners and game lengths (tests/bench checks
that), and the ratio of their speeds says what the generality of the engine costs.

Everything the pack decides is decided the same way here:
- the same dice (three zombie dice with an item face, three with an event face), token
  counts, stacks that refill from their discard piles when drawn from empty;
- the same reaction windows at the same moments (turn start, after the black die, after
  the zombie dice, after a success or at the damage, turn end), offered in seat order from
  the active player; a player who acts is asked again, and a window closes once every
  eligible player has passed in a row; a player with nothing to play is not asked;
- the same turn counting: every turn of the round counts, skipped (Fear) turns included,
  and the game is over as soon as someone escapes or every player is out.

`python -m bench.reference.roll_them_bones [GAMES]` prints games per second.
"""

from __future__ import annotations

import random
import sys
import time

BLOCKS = 16
HEALTH = 3
TURN_LIMIT = 3000

ITEMS = (("grenade", 2), ("shotgun", 3), ("chainsaw", 2), ("keys", 3), ("first-aid", 3),
         ("marbles", 2))
EVENTS = (("adrenaline-rush", 3), ("fear", 2), ("lots-o-ammo", 2), ("brain-cramp", 2),
          ("butter-fingers", 2), ("were-screwed", 2))
ITEM_IDS = frozenset(name for name, _ in ITEMS)

# A face is (zombies, runs, item icons, event icons).
_SHARED_FACES = [(1, 0, 0, 0), (1, 0, 0, 0), (2, 0, 0, 0), (0, 1, 0, 0), (0, 2, 0, 0)]
ITEM_DIE = (*_SHARED_FACES, (0, 0, 1, 0))
EVENT_DIE = (*_SHARED_FACES, (0, 0, 0, 1))

# Where each kind of action may be played (the pack's `at:` lists).
ANY_TIME = frozenset({"turn_start", "after_black", "after_zombies", "turn_end"})
ROLLS = frozenset({"after_black", "after_zombies"})
PASS = ("pass", None)


class Player:
    __slots__ = ("seat", "distance", "health", "out", "skips", "screwed", "locked", "item",
                 "event")

    def __init__(self, seat: int, health: int):
        self.seat = seat
        self.distance = 1
        self.health = health
        self.out = False
        self.skips = 0
        self.screwed = False
        self.locked = False
        self.item: str | None = None
        self.event: str | None = None


def _stack(tokens, rng: random.Random) -> list[str]:
    stack = [name for name, count in tokens for _ in range(count)]
    rng.shuffle(stack)
    return stack


class Game:
    """One game: `play()` runs it to the end and returns (winner seat or None, turns, decisions)."""

    def __init__(self, players: int = 3, seed: int = 0, blocks: int = BLOCKS,
                 health: int = HEALTH):
        self.rng = random.Random(seed)
        self.bot = random.Random(seed ^ 0x5EED)  # the bots' own choices, as in the engine
        self.blocks = blocks
        self.players = [Player(i, health) for i in range(players)]
        self.items = _stack(ITEMS, self.rng)
        self.item_discard: list[str] = []
        self.events = _stack(EVENTS, self.rng)
        self.event_discard: list[str] = []
        self.over = False
        self.winner: int | None = None
        self.turns = 0
        self.decisions = 0
        self.cur: Player = self.players[0]

    # ---------- the game ----------
    def play(self) -> tuple[int | None, int, int]:
        while not self.over:
            for p in [q for q in self.players if not q.out]:
                self.turns += 1
                if self.turns > TURN_LIMIT:
                    self.over = True
                    return None, self.turns - 1, self.decisions
                self.cur = p
                self.turn(p)
                if self.over:
                    break
        return self.winner, self.turns, self.decisions

    def turn(self, p: Player) -> None:
        if p.skips > 0:
            p.skips -= 1
            return
        self.mod = 0
        self.auto = False
        self.ndice = 6
        self.last = ""
        self.runs = 0
        self.item_used = False
        self.damage = False
        if self.window("turn_start", True):
            return
        self.black = self.rng.randint(1, 6)
        self.last = "black"
        if self.window("after_black", True):
            return
        if p.screwed:
            self.ndice = 5
            p.screwed = False
        self.roll_zombies()
        if self.window("after_zombies", True):
            return
        if self.auto or self.zombies >= max(self.black - self.mod, 0):
            self.runs = self.run_icons
            if self.item_icons and p.item is None:
                p.item = self.draw(self.items, self.item_discard)
            if self.event_icons and p.event is None:
                p.event = self.draw(self.events, self.event_discard)
            if self.window("after_success", False):
                return
            self.advance(p, self.runs)
            if self.over:
                return
        else:
            self.damage = True
            if self.window("on_damage", False):
                return
            if self.damage:
                self.hurt(p)
                if self.over:
                    return
        p.locked = False
        self.window("turn_end", True)

    def roll_zombies(self) -> None:
        choice = self.rng.choice
        zombies = runs = items = events = 0
        for k in range(self.ndice):
            z, r, i, e = choice(ITEM_DIE if k < 3 else EVENT_DIE)
            zombies += z
            runs += r
            items += i
            events += e
        self.zombies, self.run_icons = zombies, runs
        self.item_icons, self.event_icons = items, events
        self.last = "zombies"

    def reroll(self, which: str) -> None:
        if which == "black":
            self.black = self.rng.randint(1, 6)
            self.last = "black"
        else:
            self.roll_zombies()

    def draw(self, stack: list[str], discard: list[str]) -> str | None:
        if not stack:
            stack.extend(discard)
            discard.clear()
            self.rng.shuffle(stack)
            if not stack:
                return None
        return stack.pop()

    def advance(self, p: Player, n: int) -> None:
        if n > 0:
            if p.distance + n > self.blocks:
                p.distance = self.blocks
                self.over = True
                self.winner = p.seat
            else:
                p.distance += n

    def hurt(self, p: Player) -> None:
        p.health -= 1
        if p.health == 0:
            p.out = True
            p.locked = False
            if p.item is not None:
                self.item_discard.append(p.item)
                p.item = None
            if p.event is not None:
                self.event_discard.append(p.event)
                p.event = None
            if all(q.out for q in self.players):
                self.over = True

    # ---------- decisions ----------
    def window(self, point: str, anyone: bool) -> bool:
        """Ask players in seat order until all pass in a row; True if the game ended."""
        players = self.players
        if anyone:
            n = len(players)
            start = self.cur.seat
            order = [players[(start + k) % n] for k in range(n)]
        else:
            order = [self.cur]
        size = len(order)
        k = passed = 0
        while passed < size:
            p = order[k % size]
            actions = self.legal(point, p) if (p.item or p.event) and not p.out else None
            if actions:
                actions.append(PASS)
                self.decisions += 1
                name, arg = self.bot.choice(actions)
                if name != "pass":
                    passed = 0
                    self.act(p, name, arg)
                    if self.over:
                        return True
                    continue
            passed += 1
            k += 1
        return False

    def legal(self, point: str, me: Player) -> list[tuple[str, object]]:
        """Every legal (action, parameter) of `me` at `point` (`me` holds a token, is in)."""
        out: list[tuple[str, object]] = []
        mine = me is self.cur
        others = [q for q in self.players if q is not me and not q.out]
        item, event = me.item, me.event
        if mine and item is not None and not self.item_used:
            if point == "after_black":
                if item in ("grenade", "shotgun") and not self.auto or item == "chainsaw":
                    out.append((item, None))
            elif point == "after_success":
                if item == "keys" and self.runs >= 1:
                    out.append((item, None))
            elif point == "on_damage":
                if item == "first-aid" and self.damage:
                    out.append((item, None))
            if item == "marbles":
                out += [("marbles", q) for q in others if q.item is None]
        if event is not None:
            if point in ROLLS:
                if event == "adrenaline-rush" and mine:
                    out.append((event, "black"))
                    if self.last == "zombies":
                        out.append((event, "zombies"))
                elif event == "brain-cramp" and not mine:
                    out.append((event, None))
            if point in ANY_TIME:
                if event == "fear":
                    out += [(event, q) for q in others]
                elif event == "lots-o-ammo":
                    out += [(event, q) for q in others if q.distance > 1]
                elif event == "butter-fingers" and item is None:
                    out += [(event, q) for q in others if q.item is not None]
                elif event == "were-screwed":
                    out += [(event, q) for q in others if not q.screwed]
        if point == "turn_end" and mine:
            if item is not None and not me.locked:
                out.append(("discard", "item"))
            if event is not None:
                out.append(("discard", "event"))
        return out

    def act(self, me: Player, name: str, arg) -> None:
        if name in ITEM_IDS:  # an item used by its holder (marbles is given, not discarded)
            if name != "marbles":
                self.item_discard.append(me.item)
            me.item = None
            self.item_used = True
            if name == "grenade":
                self.mod += 2
            elif name == "shotgun":
                self.mod += 1
            elif name == "chainsaw":
                self.auto = True
            elif name == "keys":
                self.runs += 1
            elif name == "first-aid":
                self.damage = False
            else:
                me.locked = False
                arg.item = "marbles"
                arg.locked = True
            return
        if name == "discard":
            if arg == "item":
                self.item_discard.append(me.item)
                me.item = None
            else:
                self.event_discard.append(me.event)
                me.event = None
            return
        self.event_discard.append(me.event)  # an event: played, then discarded
        me.event = None
        if name == "adrenaline-rush":
            self.reroll(arg)
        elif name == "brain-cramp":
            self.reroll(self.last)
        elif name == "fear":
            arg.skips += 1
        elif name == "lots-o-ammo":
            arg.distance -= 1
            self.advance(me, 1)
        elif name == "butter-fingers":
            me.item, arg.item = arg.item, None
            arg.locked = False
        else:  # were-screwed
            arg.screwed = True


def play_game(players: int = 3, seed: int = 0) -> tuple[int | None, int, int]:
    """(winner seat or None, turns, decisions) of one game with random bots."""
    return Game(players, seed).play()


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2000
    start = time.perf_counter()
    for seed in range(games):
        play_game(3, seed)
    elapsed = time.perf_counter() - start
    print(f"{games / elapsed:.0f} games/s ({games} games, 3 players)")


if __name__ == "__main__":
    main(sys.argv[1:])
