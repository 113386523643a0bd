"""The game's randomness: dice, draws and shuffles from the state's splitmix64 word.

Every random event of a game comes through `Randomness`'s entry points (`rand_below`,
`roll_dice`, `shuffle_list`), which is what lets explicit chance (engine.agents.chance)
stop before each one, and scenarios force a roll. Dice are the commonest use, so their
words are drawn several at a time (`draws`), bit for bit what one draw at a time gives.
"""

from __future__ import annotations

from struct import Struct
from typing import TYPE_CHECKING, Any

from engine import rng
from engine.dsl.values import Face
from engine.errors import RuleRuntimeError

if TYPE_CHECKING:
    from engine.game import Game
    from engine.journal import Journal


class _Lanes:
    """The constants that run splitmix64 for `n` consecutive states at once (see `draws`)."""

    __slots__ = ("rep", "steps", "mask", "unpack", "size")

    def __init__(self, n: int):
        mask = rng.MASK
        self.rep = sum(1 << (128 * i) for i in range(n))  # a word copied into every lane
        self.steps = sum((((i + 1) * 0x9E3779B97F4A7C15) & mask) << (128 * i) for i in range(n))
        self.mask = mask * self.rep  # the low 64 bits of every lane
        self.unpack = Struct("<" + "Q8x" * n).unpack  # every lane's low 64 bits
        self.size = 16 * n


class _LaneTable(dict):
    def __missing__(self, n: int) -> _Lanes:
        lanes = self[n] = _Lanes(n)
        return lanes


_LANES = _LaneTable()
LANES_MAX = 64  # more draws than this are made that many at a time
AHEAD = 32  # words drawn at a time for fewer (see `State.words`)
_WALK = [(n * 0x9E3779B97F4A7C15) & rng.MASK for n in range(LANES_MAX + 1)]  # n steps of the state


def draws(r: int, n: int) -> tuple[int, ...]:
    """The n 64-bit words that n steps of `rng.next_u64` from state `r` give, bit for bit,
    in a dozen operations on one integer instead of a dozen per draw. Each draw has a
    128-bit lane of its own: a lane's product by a 64-bit constant fits in it, and masking
    every lane back to 64 bits before each product keeps what a shift brought down from
    the next lane out of it. 1 <= n <= LANES_MAX."""
    lanes = _LANES[n]
    m = lanes.mask
    x = (r * lanes.rep + lanes.steps) & m  # lane i: the state after i + 1 steps
    x = ((x ^ (x >> 30)) & m) * 0xBF58476D1CE4E5B9 & m
    x = ((x ^ (x >> 27)) & m) * 0x94D049BB133111EB & m
    x ^= x >> 31  # what the next lane brings into this one's high half is not read
    return lanes.unpack(x.to_bytes(lanes.size, "little"))


class Randomness:
    """`State`'s random events, and what they keep: the RNG word (`rng`), the words drawn
    ahead (`_ahead`, see `words`), a scenario's forced rolls (`forced`) and explicit chance
    (`chance`: None, or the engine.agents.chance Feed the draws come from)."""

    __slots__ = ("rng", "_ahead", "forced", "chance")
    rng: int
    _ahead: tuple
    forced: Any
    chance: Any
    if TYPE_CHECKING:  # the State's, which these methods use
        game: Game
        log: Journal
        zones: dict[str, list[int]]

        def describe(self, v: Any) -> str: ...

    def words(self, n: int) -> tuple[int, ...]:
        """The RNG's next n words (1 <= n <= LANES_MAX), its state moved on n steps: what
        n steps of `rng.next_u64` give. They are drawn at least AHEAD at a time (`draws`),
        and those not used yet are kept with the state they follow: a turn's dice, rolled
        a few at a time, take them from one draw. Kept words are used only while the state
        is the one they follow, so a state set any other way (a load, a determinization)
        just draws anew."""
        r = self.rng
        key, ahead, i = self._ahead
        if key != r or i + n > len(ahead):
            ahead = draws(r, n if n > AHEAD else AHEAD)
            i = 0
        self.rng = r = (r + _WALK[n]) & 0xFFFFFFFFFFFFFFFF
        self._ahead = (r, ahead, i + n)
        return ahead[i:i + n]

    def rand_below(self, n: int) -> int:
        if n <= 0:
            raise RuleRuntimeError(f"cannot choose among {n} possibilities")
        if self.chance is not None:
            return self.chance.draw(n)
        return self.words(1)[0] % n

    def roll_dice(self, die: str, n: int, seen_by: int | None = None) -> list:
        """Roll a die `n` times, logging each roll. Dice rolls are the commonest use of the
        RNG: their words are drawn together (`words`). A face's log entry is made once per
        game and shared by every roll that shows it (nothing changes a log entry once it is
        written). `seen_by`: the seat of a private roll, whose entries say so (`"s"`), so
        that the log as another seat reads it leaves their faces out (engine.codec)."""
        faces, entries, k = self.game.program.rolls[die]
        if self.forced or entries is None or n <= 0 or self.chance is not None or seen_by is not None:
            return self._roll_one_by_one(die, n, seen_by)
        if n > LANES_MAX:
            return self.roll_dice(die, LANES_MAX) + self.roll_dice(die, n - LANES_MAX)
        out = []
        log = self.log.append
        for w in self.words(n):
            j = w % k
            log(entries[j])
            out.append(faces[j])
        return out

    def _roll_one_by_one(self, die: str, n: int, seen_by: int | None = None) -> list:
        """`roll_dice` with forced rolls to use first (scenarios), faces of any type, or in
        private (`seen_by`)."""
        faces = self.game.dice[die]
        k = len(faces)
        if k <= 0 < n:
            self.rand_below(k)  # which says why not
        log = self.log.append
        out = []
        for _ in range(n):
            value = self._forced_face(die) if self.forced else None
            if value is None:
                value = faces[self.rand_below(k)]
            t = type(value)  # describe(value), with the two kinds of faces first
            entry = {"t": "roll", "die": die,
                     "v": str(value) if t is int else value.text if t is Face else self.describe(value)}
            if seen_by is not None:
                entry["s"] = seen_by
            log(entry)
            out.append(value)
        return out

    def _forced_face(self, die: str):
        """The next forced roll for `die`, or None: `forced` is a list of rolls for any die
        in order, or a dict of lists by die (a die with none left is dropped from it)."""
        forced = self.forced
        if type(forced) is not dict:
            return self.game.forced_face(die, forced.pop(0))
        queue = forced.get(die)
        if not queue:
            return None
        value = queue.pop(0)
        if not queue:
            del forced[die]
        return self.game.forced_face(die, value)

    def shuffle_list(self, lst: list) -> None:
        """Fisher-Yates with the game's RNG, its draws made together (`words`)."""
        i = len(lst) - 1
        if self.chance is not None:  # a draw at a time, each a chance event
            self.chance.shuffled.update(k for k, v in self.zones.items() if v is lst)
            for k in range(i, 0, -1):
                j = self.rand_below(k + 1)
                lst[k], lst[j] = lst[j], lst[k]
            return
        while i > 0:
            for w in self.words(min(i, LANES_MAX)):
                j = w % (i + 1)
                lst[i], lst[j] = lst[j], lst[i]
                i -= 1
