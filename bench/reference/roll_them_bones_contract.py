"""Roll Them Bones by hand, keeping the engine's contract: the second yardstick.

The first yardstick (`roll_them_bones.py`) owes its players nothing: it hands its bots
(action, argument) pairs, rolls with Python's generator and keeps no record. The engine
promises more at every decision, to every bot and every front end, and pays for it:

- **labelled, sorted decisions**: a bot is asked `choose(game, decision)`, the decision
  saying who decides, where, and the legal actions as the sorted list of their labels
  (`fear(target=1)`, `adrenaline-rush(roll=black)`, `pass`) with what each one binds; the
  bot answers with a label, which is looked up again;
- **the engine's RNG**: every die, draw and shuffle comes from splitmix64 with its state
  one integer (`engine.rng`: a game is a seed and its decisions, and saves are small),
  shuffles by Fisher-Yates as `State.shuffle_list` does;
- **a log and a history**: the start, every turn, every roll (one entry per die, made
  once per face as the engine does), every action taken, `pass` included, and the end;
  the labels taken, in order.

This is the same game as the first yardstick, with the same rules code (a subclass: only
the dice, the decisions and the log differ), so engine / this program says what the
engine costs beyond keeping the contract, and this program / the first what the contract
itself costs. The pack's own messages (`P0 meets 6 zombies`) are not written: they are the
pack's text, not the engine's promise.

`python -m bench.reference.roll_them_bones_contract [GAMES]` prints games per second.
"""

from __future__ import annotations

import random
import sys
import time

from bench.reference.roll_them_bones import (
    BLOCKS,
    EVENT_DIE,
    EVENTS,
    HEALTH,
    ITEM_DIE,
    ITEMS,
    PASS,
    TURN_LIMIT,
    Game,
    Player,
    _stack,
)

MASK = (1 << 64) - 1
STEP = 0x9E3779B97F4A7C15
FACE_NAMES = ("zombie", "zombie", "zombie2", "run", "run2")


def seed_state(seed: int) -> int:
    """splitmix64's scrambled start for a seed, as `engine.rng.seed_state`."""
    z = (int(seed) * STEP + 0x632BE59BD9B4E019) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class EngineDice:
    """The rules code's `randint`, `choice` and `shuffle` over splitmix64, each roll logged."""

    __slots__ = ("state", "log", "black", "faces")

    def __init__(self, seed: int, log: list):
        self.state = seed_state(seed)
        self.log = log
        self.black = [{"t": "roll", "die": "black", "v": str(v)} for v in range(1, 7)]
        self.faces = {id(die): [{"t": "roll", "die": name, "v": v} for v in
                                (*FACE_NAMES, last)]
                      for die, name, last in ((ITEM_DIE, "zombie_item", "item"),
                                              (EVENT_DIE, "zombie_event", "event"))}

    def below(self, n: int) -> int:
        self.state = z = (self.state + STEP) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return (z ^ (z >> 31)) % n

    def randint(self, lo: int, hi: int) -> int:  # only the black die: 1..6
        k = self.below(hi - lo + 1)
        self.log.append(self.black[k])
        return lo + k

    def choice(self, die: tuple):
        k = self.below(len(die))
        self.log.append(self.faces[id(die)][k])
        return die[k]

    def shuffle(self, lst: list) -> None:
        for i in range(len(lst) - 1, 0, -1):
            j = self.below(i + 1)
            lst[i], lst[j] = lst[j], lst[i]


class Decision:
    """Who decides, where, and the sorted labels of the legal actions with their bindings."""

    __slots__ = ("player", "point", "actions", "bindings")

    def __init__(self, player: int, point: str, bindings: dict):
        self.player = player
        self.point = point
        self.bindings = bindings
        self.actions = sorted(bindings)


class RandomBot:
    """Every legal action equally likely, as the engine's `random` bot."""

    __slots__ = ("rng",)

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, game, decision: Decision) -> str:
        return self.rng.choice(decision.actions)


class ContractGame(Game):
    """`Game` with the engine's dice, labelled decisions and log."""

    def __init__(self, players: int = 3, seed: int = 0, blocks: int = BLOCKS,
                 health: int = HEALTH):
        self.log: list[dict] = [{"t": "start", "players": players, "seed": seed}]
        self.history: list[str] = []
        self.rng = EngineDice(seed, self.log)
        self.bot = RandomBot(seed ^ 0x5EED)  # one for every seat: the first yardstick's draws
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

    def play(self) -> tuple[int | None, int, int]:
        log = self.log
        while not self.over:
            for p in [q for q in self.players if not q.out]:
                self.turns += 1
                if self.turns > TURN_LIMIT:
                    self.over = True
                    log.append({"t": "end", "winners": [], "limit": True})
                    return None, self.turns - 1, self.decisions
                log.append({"t": "turn", "p": p.seat, "n": self.turns})
                self.cur = p
                self.turn(p)
                if self.over:
                    break
        log.append({"t": "end", "winners": [] if self.winner is None else [self.winner],
                    "limit": False})
        return self.winner, self.turns, self.decisions

    def window(self, point: str, anyone: bool) -> bool:
        """`Game.window`, the choices handed out as sorted labels and logged."""
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
                labelled = {"pass": PASS}
                for name, arg in actions:
                    labelled[self.label(p, name, arg)] = (name, arg)
                d = Decision(p.seat, point, labelled)
                self.decisions += 1
                label = self.bot.choose(self, d)
                if label not in d.bindings:
                    raise ValueError(f"{label!r} is not a legal action now")
                self.log.append({"t": "act", "p": p.seat, "a": label})
                self.history.append(label)
                name, arg = d.bindings[label]
                if name != "pass":
                    passed = 0
                    self.act(p, name, arg)
                    if self.over:
                        return True
                    continue
            passed += 1
            k += 1
        return False

    @staticmethod
    def label(me, name: str, arg) -> str:
        if arg is None:
            return name
        if name == "discard":
            return f"discard(token={me.item if arg == 'item' else me.event})"
        if name == "adrenaline-rush":
            return f"{name}(roll={arg})"
        return f"{name}(target={arg.seat})"


def play_game(players: int = 3, seed: int = 0) -> tuple[int | None, int, int]:
    """(winner seat or None, turns, decisions) of one game with random bots."""
    return ContractGame(players, seed).play()


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2000
    start = time.perf_counter()
    for seed in range(games):
        play_game(3, seed)
    elapsed = time.perf_counter() - start
    print(f"{games / elapsed:.0f} games/s ({games} games, 3 players)")


if __name__ == "__main__":
    main(sys.argv[1:])
